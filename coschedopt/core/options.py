"""Method options, declared once and checked in one place.

A method declares its options as a frozen dataclass deriving from
:class:`MethodOptions`, one field per option, each made with :func:`option`
(default, help, range, choices)::

    @dataclass(frozen=True)
    class EpsOptions(MethodOptions):
        eps: float = option(0.5, "the paper's epsilon", min=0.0, max=1.0)

    @method("pack", "pack-by-pack-1", options=EpsOptions)
    def pack_by_pack_1(instance, *, time_limit, seed, verbose, options: EpsOptions) -> Result: ...

The same declaration serves :func:`coschedopt.solve` (``eps=0.3``), the command
line (``-O eps=0.3``), suite files (``options = { eps = 0.3 }``), the listing of
``coschedopt methods FAMILY --options``, and a direct call of the registered
function.  Constructing the dataclass checks every value (type, range, choices),
so an options object is always valid: it can be handed to a worker process as it
is.  An unknown or ill-typed option is one :class:`~coschedopt.core.errors.InputError`
naming the option, the value and the valid names.

Values are checked as given, never converted from strings: the command line
turns its text into values first (:func:`parse_option_text`).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from .errors import InputError

_META = "coschedopt"


def option(
    default: Any,
    help: str,
    *,
    min: float | None = None,
    max: float | None = None,
    above: float | None = None,
    below: float | None = None,
    choices: tuple[Any, ...] | None = None,
    advanced: bool = False,
) -> Any:
    """A dataclass field declaring one method option.

    ``min``/``max`` are inclusive bounds, ``above``/``below`` exclusive ones;
    ``choices`` the allowed values; ``advanced`` marks a tuning knob (listed apart
    from the options a user normally sets).  A list default becomes a tuple.
    """
    if isinstance(default, list):
        default = tuple(default)
    meta = {
        "help": help,
        "min": min,
        "max": max,
        "above": above,
        "below": below,
        "choices": None if choices is None else tuple(choices),
        "advanced": advanced,
    }
    return dataclasses.field(default=default, metadata={_META: meta})


@dataclass(frozen=True)
class OptionSpec:
    """What ``--options`` shows of one option."""

    name: str
    type: str
    default: Any
    help: str
    constraint: str
    advanced: bool


@dataclass(frozen=True)
class MethodOptions:
    """Base of every method's options: a frozen dataclass checked at construction."""

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            meta = f.metadata.get(_META, {})
            value = _convert(f.name, hints[f.name], getattr(self, f.name), meta)
            object.__setattr__(self, f.name, value)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def specs(cls) -> list[OptionSpec]:
        hints = _hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get(_META, {})
            out.append(
                OptionSpec(
                    name=f.name,
                    type=_type_name(hints[f.name]),
                    default=f.default,
                    help=meta.get("help", ""),
                    constraint=_constraint(meta),
                    advanced=bool(meta.get("advanced", False)),
                )
            )
        return out

    @classmethod
    def parse_text(cls, name: str, text: str) -> Any:
        """The value of ``-O name=TEXT`` for this method: its declared type decides how TEXT reads
        (:func:`parse_option_text`); an unknown name reads generically (refused when checked)."""
        return parse_option_text(text, _hints(cls).get(name))

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any] | None = None, *, method: str = "") -> Self:
        """The options object for ``given`` (names as keys; missing ones take their default)."""
        given = dict(given or {})
        valid = cls.names()
        for name, value in given.items():
            if name not in valid:
                who = f" of method {method!r}" if method else ""
                listed = ", ".join(valid) if valid else "none (it takes no option)"
                raise InputError(f"unknown option {name!r}{who} (got {value!r}); valid options: {listed}", where=name)
        return cls(**given)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-able values (tuples as lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def replace(self, **changes: Any) -> Self:
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class NoOptions(MethodOptions):
    """The options of a method that takes none."""


def parse_option_text(text: str, declared: Any = None) -> Any:
    """The value of ``-O name=TEXT``: JSON (``0.3``, ``true``, ``[0.1, 0.2]``, ``"a"``), else
    ``inf`` / ``-inf`` / ``none`` as a float or ``None``, else the text as a string.

    For an option ``declared`` as ``str`` the text is the value (a JSON string unquoted):
    ``penalty=none`` names the choice ``"none"``, not Python's ``None``.
    """
    import json

    if declared is str:
        try:
            value = json.loads(text)
        except ValueError:  # not JSON (or an integer beyond Python's 4300 digits)
            return text
        return value if isinstance(value, str) else text
    low = text.strip().lower()
    if low in ("inf", "+inf", "infinity"):
        return math.inf
    if low in ("-inf", "-infinity"):
        return -math.inf
    if low in ("none", "null"):
        return None
    try:
        return json.loads(text)
    except ValueError:  # not JSON (or an integer beyond Python's 4300 digits)
        return text


# --------------------------------------------------------------------------- checking


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _optional_of(tp: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); anything else -> (tp, False)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) < len(typing.get_args(tp)):
            return (args[0] if len(args) == 1 else typing.Union[tuple(args)]), True  # noqa: UP007
    return tp, False


def _type_name(tp: Any) -> str:
    inner, optional = _optional_of(tp)
    if typing.get_origin(inner) is tuple:
        args = typing.get_args(inner)
        name = f"list of {_type_name(args[0])}" if args else "list"
    else:
        name = getattr(inner, "__name__", str(inner))
    return f"{name} or none" if optional else name


def _constraint(meta: Mapping[str, Any]) -> str:
    parts = []
    if meta.get("choices") is not None:
        parts.append("one of " + ", ".join(map(str, meta["choices"])))
    if meta.get("min") is not None:
        parts.append(f">= {meta['min']}")
    if meta.get("above") is not None:
        parts.append(f"> {meta['above']}")
    if meta.get("max") is not None:
        parts.append(f"<= {meta['max']}")
    if meta.get("below") is not None:
        parts.append(f"< {meta['below']}")
    return ", ".join(parts)


def _bad(name: str, expected: str, value: Any) -> InputError:
    return InputError(f"option {name!r} must be {expected}, got {value!r}", where=name)


def _convert(name: str, tp: Any, value: Any, meta: Mapping[str, Any]) -> Any:
    inner, optional = _optional_of(tp)
    if value is None:
        if optional:
            return None
        raise _bad(name, f"a {_type_name(tp)}", value)
    value = _convert_type(name, inner, value)
    _check_range(name, value, meta)
    return value


def _convert_type(name: str, tp: Any, value: Any) -> Any:
    if tp is Any:
        return value
    if typing.get_origin(tp) is tuple:
        if isinstance(value, str) or not isinstance(value, list | tuple):
            raise _bad(name, f"a {_type_name(tp)}", value)
        args = typing.get_args(tp)
        item = args[0] if args else Any
        return tuple(_convert_type(name, item, v) for v in value)
    if tp is bool:
        if not isinstance(value, bool):
            raise _bad(name, "true or false", value)
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise _bad(name, "an integer", value)
        return int(value)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            raise _bad(name, "a number", value)
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise _bad(name, "a string", value)
        return value
    if isinstance(tp, type) and not isinstance(value, tp):
        raise _bad(name, f"a {tp.__name__} (a Python object: not settable from the command line)", value)
    return value


def _check_range(name: str, value: Any, meta: Mapping[str, Any]) -> None:
    choices = meta.get("choices")
    if choices is not None:
        items = value if isinstance(value, tuple) else (value,)
        for v in items:
            if v not in choices:
                raise _bad(name, "one of " + ", ".join(repr(c) for c in choices), value)
    if not isinstance(value, int | float | tuple) or isinstance(value, bool):
        return
    items = value if isinstance(value, tuple) else (value,)
    for v in items:
        if not isinstance(v, int | float) or isinstance(v, bool):
            continue
        lo, hi, above, below = (meta.get(k) for k in ("min", "max", "above", "below"))
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise _bad(name, f"a number {_constraint(meta)}", value)
        if (above is not None and v <= above) or (below is not None and v >= below):
            raise _bad(name, f"a number {_constraint(meta)}", value)
