"""Problem families and their methods, and the one ``solve`` entry point.

A family (``pack``, ``combos``, ...) registers how to read its instances and
schedules, how to validate a schedule and compute its objective.  Each method
is a plain function ``f(instance, *, time_limit, seed, verbose, **options) ->
Result`` registered under a name with :func:`method`.  A family never imports
another family: everything they share lives in ``coschedopt.core``.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .result import Result
from .status import Status


@dataclass(frozen=True)
class Family:
    """How ``coschedopt`` handles the instances of one problem family."""

    kind: str
    description: str
    instance_from_dict: Callable[[dict], Any]
    schedule_from_dict: Callable[[Any, dict], Any]
    validate: Callable[[Any, Any], None]
    objective: Callable[[Any, Any], float]
    objective_name: str = "objective"
    #: the family's quality measures of a schedule, e.g. the paper's relative cost
    metrics: Callable[[Any, Any], dict[str, float]] | None = None
    #: size parameters of an instance for result tables, e.g. {"n": 65, "p": 16, "k": 4}
    describe: Callable[[Any], dict[str, Any]] | None = None
    #: ``instance_from_dict(data, repair_profiles=True)`` is accepted (the ``--repair`` flag)
    supports_repair: bool = False


@dataclass(frozen=True)
class Method:
    family: str
    name: str
    func: Callable[..., Result]
    exact: bool
    description: str


_FAMILIES: dict[str, Family] = {}
_METHODS: dict[str, dict[str, Method]] = {}


def register_family(family: Family) -> Family:
    _FAMILIES[family.kind] = family
    _METHODS.setdefault(family.kind, {})
    return family


def method(family: str, name: str, *, exact: bool = False) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Decorator registering ``func`` as method ``name`` of ``family``.

    The first line of the function's docstring is the description shown by
    ``coschedopt methods``.
    """

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        doc = inspect.getdoc(func) or ""
        _METHODS.setdefault(family, {})[name] = Method(family, name, func, exact, doc.split("\n")[0])
        return func

    return register


def families() -> list[str]:
    return sorted(_FAMILIES)


def get_family(kind: str) -> Family:
    try:
        return _FAMILIES[kind]
    except KeyError:
        raise InputError(f"unknown kind {kind!r}; known kinds: {', '.join(families())}", where="kind") from None


def family_of(instance: Any) -> Family:
    return get_family(getattr(instance, "kind", type(instance).__name__))


def methods(family: str | None = None) -> list[str]:
    """Names of the registered methods of ``family`` (of every family if ``None``)."""
    if family is None:
        return sorted(f"{f}:{m}" for f, ms in _METHODS.items() for m in ms)
    get_family(family)
    return sorted(_METHODS.get(family, {}))


def get_method(family: str, name: str) -> Method:
    get_family(family)
    try:
        return _METHODS[family][name]
    except KeyError:
        known = ", ".join(methods(family))
        raise InputError(f"unknown method {name!r} for kind {family!r}; known: {known}", where="method") from None


def solve(
    instance: Any,
    method: str,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    verbose: bool = False,
    **options: Any,
) -> Result:
    """Solve ``instance`` with the registered ``method`` and return a checked :class:`Result`.

    The schedule is validated by the family's independent validator and the
    objective recomputed from it.  Bad input or a method refusing the instance
    raises :class:`~coschedopt.core.errors.InputError`; running out of time
    never raises (status ``TIME_LIMIT``).
    """
    fam = family_of(instance)
    m = get_method(fam.kind, method)
    if time_limit is not None and not (isinstance(time_limit, int | float) and time_limit > 0):
        raise InputError(f"time_limit must be a positive number of seconds, got {time_limit!r}", where="time_limit")
    start = time.perf_counter()
    res = m.func(instance, time_limit=time_limit, seed=seed, verbose=verbose, **options)
    res.runtime = time.perf_counter() - start
    res.method, res.family = method, fam.kind
    if res.schedule is not None:
        try:
            fam.validate(instance, res.schedule)
        except ValueError as exc:
            raise RuntimeError(f"method {method!r} returned an invalid schedule: {exc}") from exc
        res.objective = fam.objective(instance, res.schedule)
    elif res.status in (Status.OPTIMAL, Status.FEASIBLE):
        raise RuntimeError(f"method {method!r} returned status {res.status} without a schedule")
    if res.status is Status.OPTIMAL and res.lower_bound is None:
        res.lower_bound = res.objective
    if res.lower_bound is not None and not math.isfinite(res.lower_bound):
        res.lower_bound = None
    return res


def validate(instance: Any, schedule: Any) -> None:
    """Raise ``ValueError`` naming the broken constraint if ``schedule`` is infeasible."""
    family_of(instance).validate(instance, schedule)


def objective(instance: Any, schedule: Any) -> float:
    return family_of(instance).objective(instance, schedule)
