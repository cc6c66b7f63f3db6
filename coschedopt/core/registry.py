"""Problem families and their methods, and the one ``solve`` entry point.

A family (``pack``, ``combos``, ...) registers a :class:`Family`: everything the
toolkit needs from it (reading and writing its instances and schedules,
validation, objective and its sense, metrics, its plot and its shipped suites).
Each method is a function ``f(instance, *, time_limit, seed, verbose, options) ->
Result`` registered under a name with :func:`method`, with its options declared
once as a :class:`~coschedopt.core.options.MethodOptions` dataclass.  A name
registered twice raises: with several families, a silent overwrite would swap a
method or a family behind the user's back.  A family never imports another
family: everything they share lives in ``coschedopt.core``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import math
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from . import progress
from .backends import stopped_by
from .deadline import stop_requested
from .errors import InputError
from .options import MethodOptions, NoOptions, OptionSpec
from .plugins import load_plugins
from .result import Result
from .status import Status


@dataclass(frozen=True)
class Family:
    """How ``coschedopt`` handles the instances of one problem family.

    ``package`` is the family's module (``coschedopt.pack``): its shipped suites
    live in ``<package>/suites/*.toml`` and its data in ``<package>/data/``.
    ``plotter`` names the drawing ``"module:function"``, called as
    ``function(instance, schedule, ax)`` and imported only when a figure is drawn
    (matplotlib stays out of start-up).  ``readers`` maps file suffixes of other
    instance formats (``".swf.gz"``) to a function ``read(path) -> instance``;
    ``exporters`` maps export format names to ``write(instance, schedule, path)``.
    ``report`` names (``"module:function"``) a function adding the family's own
    sections to a benchmark report (:mod:`coschedopt.bench.report`).
    """

    kind: str
    description: str
    instance_from_dict: Callable[[dict], Any]
    schedule_from_dict: Callable[[Any, dict], Any]
    validate: Callable[[Any, Any], None]
    objective: Callable[[Any, Any], float]
    package: str = ""
    objective_name: str = "objective"
    #: ``"min"`` or ``"max"``: which way the objective improves
    sense: Literal["min", "max"] = "min"
    #: the family's quality measures of a schedule, e.g. the paper's relative cost
    metrics: Callable[[Any, Any], dict[str, float]] | None = None
    #: metric name -> one-line definition with the paper's formula (the report's definitions section)
    metric_definitions: Mapping[str, str] = field(default_factory=dict)
    #: metric name -> (short axis label, unit; "" for a pure number): the report's axis labels, e.g.
    #: ``{"makespan": ("Makespan", "s")}``; a metric without one is labelled by its humanised name
    metric_labels: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: the metrics equal to the objective divided by a positive constant of the instance: optimal
    #: exactly at the optimum, and a certified bound on the objective is one on them
    objective_scaled_metrics: tuple[str, ...] = ()
    #: ``instance_bounds(instance) -> {name: value}``: the bounds of the instance alone that ratio metrics
    #: divide by, under the name the metric uses (``makespan_over_area_bound`` divides by ``area_bound``);
    #: ``coschedopt solve`` prints them beside the ratio, apart from the method's own certified bound
    instance_bounds: Callable[[Any], dict[str, float]] | None = None
    #: metric names of older versions -> current names: result tables stored before a renaming still read
    metric_aliases: Mapping[str, str] = field(default_factory=dict)
    #: size parameters of an instance for result tables, e.g. {"n": 65, "p": 16, "k": 4}
    describe: Callable[[Any], dict[str, Any]] | None = None
    #: ``repair(data) -> instance``: an instance from data breaking the model's assumptions, repaired
    repair: Callable[[dict], Any] | None = None
    plotter: str | None = None
    figsize: Callable[[Any], tuple[float, float]] = field(default=lambda instance: (10.0, 4.5))
    readers: Mapping[str, Callable[[Path], Any]] = field(default_factory=dict)
    exporters: Mapping[str, Callable[[Any, Any, Path], None]] = field(default_factory=dict)
    report: str | None = None
    #: the contract kit's small instances (tests/test_family_contract.py): a registered generator's name and
    #: keyword arguments small enough for every exact method of the family in seconds; seeds 0-2 are drawn
    examples: tuple[str, Mapping[str, Any]] | None = None
    #: ``"module:NAME"`` of a dict ``{what it breaks: f(instance, data) -> data}``, each a change of a valid
    #: schedule's JSON form that the family's reader or validator must refuse (the contract kit applies them)
    breakers: str | None = None

    def better(self, a: float, b: float) -> bool:
        """Whether objective ``a`` is strictly better than ``b`` in this family's sense."""
        return a < b if self.sense == "min" else a > b

    def best(self, values: list[float]) -> float:
        return min(values) if self.sense == "min" else max(values)

    def directory(self, name: str) -> Path | None:
        """``<package>/<name>`` (``suites``, ``data``) if the family ships it."""
        if not self.package:
            return None
        from importlib import resources

        path = Path(str(resources.files(self.package) / name))
        return path if path.is_dir() else None


def resolve(ref: str) -> Any:
    """The object a ``"module:attribute"`` reference names (imported on demand)."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


@dataclass(frozen=True)
class Method:
    family: str
    name: str
    func: Callable[..., Result]
    exact: bool
    description: str
    options: type[MethodOptions] = NoOptions
    aliases: tuple[str, ...] = ()
    #: ``"module:function"`` run once per process before the method's first timed call
    #: (compiling its kernels, say); :func:`solve` reports its time apart, in ``stats``
    prepare: str | None = None
    #: the method solves a relaxation of the family's problem (a preemptive reference for a
    #: non-preemptive problem, say): its schedules are valid but may beat the exact optimum
    relaxation: bool = False
    #: the method measures code on the instance instead of solving it (compiled kernels timed against
    #: their reference, a peer simulator run beside ours): its figures are in ``Result.stats``, and it
    #: may return ``FEASIBLE`` without a schedule.  Probes live in a family's ``probes`` module, which
    #: the family does not import: a suite loads it with ``plugins``, so ``coschedopt methods`` lists
    #: them only where they are wanted
    probe: bool = False


_PREPARED: dict[str, float] = {}


def run_preparation(
    m: Method,
    instance: Any = None,
    options: MethodOptions | None = None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Run ``m``'s one-time preparation in this process (if any, and not yet done); returns
    the seconds it took on ``clock`` (0 when there is none, it already ran, or it had nothing to do).

    A hook without parameters runs once per process.  A hook taking ``(instance, options)``
    prepares what a run on that instance with those options needs (the kernels its variant
    calls, say, or nothing where an uncompiled path serves better), keeps track of what it has
    prepared, and returns whether it did anything: :func:`solve` calls it before every run;
    called without an instance (``bench run``'s parent process), it prepares everything.
    A preparation polls the stop request between its steps (the contract in
    :mod:`coschedopt.core.deadline`); it is not cut inside one (an exception raised into
    numba's first compilation breaks numba for the rest of the process)."""
    if m.prepare is None or m.prepare in _PREPARED:
        return 0.0
    hook = resolve(m.prepare)
    start = clock()
    with progress.muted():  # a warm-up solve's incumbents are not the run's
        if inspect.signature(hook).parameters:
            did = hook(instance, options)
        else:
            hook()
            did = None
    seconds = clock() - start
    if did is not None:
        return seconds if did else 0.0
    if not stop_requested():  # a preparation cut by a stop request is run again next time
        _PREPARED[m.prepare] = seconds
    return seconds


_FAMILIES: dict[str, Family] = {}
_METHODS: dict[str, dict[str, Method]] = {}
_METHOD_ALIASES: dict[str, dict[str, str]] = {}


def register_family(family: Family) -> Family:
    """Register ``family``; a kind registered twice raises ``ValueError``."""
    if family.kind in _FAMILIES:
        raise ValueError(f"family {family.kind!r} is already registered (by {_FAMILIES[family.kind].package!r})")
    if family.sense not in ("min", "max"):
        raise ValueError(f"family {family.kind!r}: sense must be 'min' or 'max', got {family.sense!r}")
    for suffix in family.readers:
        for other in _FAMILIES.values():
            if suffix in other.readers:
                raise ValueError(f"family {family.kind!r}: files {suffix!r} are already read by {other.kind!r}")
    _FAMILIES[family.kind] = family
    _METHODS.setdefault(family.kind, {})
    _METHOD_ALIASES.setdefault(family.kind, {})
    return family


def method(
    family: str,
    name: str,
    *,
    exact: bool = False,
    options: type[MethodOptions] = NoOptions,
    aliases: tuple[str, ...] = (),
    prepare: str | None = None,
    relaxation: bool = False,
    probe: bool = False,
) -> Callable[[Callable[..., Result]], Callable[..., Result]]:
    """Decorator registering a method ``name`` of ``family`` with its declared ``options``.

    The decorated function is called as ``func(instance, *, time_limit, seed,
    verbose, options)`` with ``options`` an instance of ``options`` (already
    checked).  The decorator returns a wrapper that also takes the options as
    keywords (``pack_by_pack_1(inst, eps=0.3)``) or as an ``options=`` object,
    and checks them the same way.  The first line of the docstring is the
    description shown by ``coschedopt methods``.  ``prepare`` names
    (``"module:function"``) a one-time preparation, such as compiling the method's
    kernels, that :func:`solve` runs before starting the clock; ``relaxation`` marks a method
    solving a relaxation of the problem, which may beat the optimum; ``probe`` one that
    measures code on the instance (see :attr:`Method.probe`).  A name or alias registered
    twice in a family raises ``ValueError``.
    """
    if not (isinstance(options, type) and issubclass(options, MethodOptions)):
        raise TypeError(f"method {name!r}: options must be a MethodOptions dataclass, got {options!r}")

    def register(func: Callable[..., Result]) -> Callable[..., Result]:
        taken = _METHODS.setdefault(family, {})
        alias_map = _METHOD_ALIASES.setdefault(family, {})
        for n in (name, *aliases):
            if n in taken or n in alias_map:
                first = taken[alias_map.get(n, n)].func.__module__
                raise ValueError(f"method {n!r} of family {family!r} is already registered (by {first!r})")

        @functools.wraps(func)
        def call(
            instance: Any,
            *,
            time_limit: float | None = None,
            seed: int | None = None,
            verbose: bool = False,
            options: MethodOptions | Mapping[str, Any] | None = None,
            **given: Any,
        ) -> Result:
            return func(
                instance,
                time_limit=time_limit,
                seed=seed,
                verbose=verbose,
                options=check_options(entry, options, given),
            )

        doc = inspect.getdoc(func) or ""
        description = plain_text(doc.split("\n")[0])
        entry = Method(family, name, call, exact, description, options, tuple(aliases), prepare, relaxation, probe)
        taken[name] = entry
        for a in aliases:
            alias_map[a] = name
        return call

    return register


_REST_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`~?([^`<]*?)(?:\s*<[^>]*>)?`")
_REST_LITERAL = re.compile(r"``(.+?)``")


def plain_text(text: str) -> str:
    """A docstring line as a terminal shows it: reST roles (``:mod:`coschedopt.pack```) and literals
    (````ilp````) become their text, so that ``coschedopt methods`` prints no markup."""
    return _REST_LITERAL.sub(r"\1", _REST_ROLE.sub(r"\1", text))


def check_options(m: Method, options: MethodOptions | Mapping[str, Any] | None = None, given: Mapping | None = None):
    """The checked options object of method ``m`` from an object, a mapping or keywords."""
    given = dict(given or {})
    if isinstance(options, m.options):
        if given:
            raise InputError(f"give the options of {m.name!r} as an object or as keywords, not both", where="options")
        return options
    if isinstance(options, MethodOptions):
        raise InputError(f"method {m.name!r} takes {m.options.__name__}, got {type(options).__name__}", where="options")
    if options is not None:
        given = {**dict(options), **given}
    return m.options.from_mapping(given, method=m.name)


@contextlib.contextmanager
def scoped_registry() -> Iterator[None]:
    """Everything registered inside the block (families, methods, generators, commands, preparations)
    is removed when it ends; what was registered before stays.  For tests that register their own
    methods or families, so that one test's registrations never leak into the next."""
    from . import commands

    load_plugins()  # the built-ins belong to the state kept, not to the block
    saved = [
        (d, {k: dict(v) if isinstance(v, dict) else v for k, v in d.items()})
        for d in (_FAMILIES, _METHODS, _METHOD_ALIASES, _PREPARED, *commands.TABLES)
    ]
    try:
        yield
    finally:
        for d, copy in saved:
            d.clear()
            d.update(copy)


def families() -> list[str]:
    """The registered family kinds (loading the plug-ins on first use)."""
    load_plugins()
    return sorted(_FAMILIES)


def get_family(kind: str) -> Family:
    load_plugins()
    try:
        return _FAMILIES[kind]
    except KeyError:
        raise InputError(f"unknown kind {kind!r}; known kinds: {', '.join(families())}", where="kind") from None


def family_of(instance: Any) -> Family:
    return get_family(getattr(instance, "kind", type(instance).__name__))


def methods(family: str | None = None) -> list[str]:
    """Names of the registered methods of ``family`` (of every family if ``None``)."""
    load_plugins()
    if family is None:
        return sorted(f"{f}:{m}" for f, ms in _METHODS.items() for m in ms)
    get_family(family)
    return sorted(_METHODS.get(family, {}))


def get_method(family: str, name: str) -> Method:
    """The method ``name`` (or an alias of it) of ``family``."""
    get_family(family)
    name = _METHOD_ALIASES.get(family, {}).get(name, name)
    try:
        return _METHODS[family][name]
    except KeyError:
        known = ", ".join(methods(family))
        raise InputError(f"unknown method {name!r} for kind {family!r}; known: {known}", where="method") from None


def method_options(family: str, name: str) -> list[OptionSpec]:
    """The options of method ``name`` of ``family``, as declared once by the method: each one's name, type,
    default, constraint (range, choices), meaning and whether it is a tuning knob (``advanced``).  What
    ``coschedopt methods FAMILY --options`` lists; ``coschedopt.options(family, method)``."""
    return get_method(family, name).options.specs()


def solve(
    instance: Any,
    method: str,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    verbose: bool = False,
    options: MethodOptions | Mapping[str, Any] | None = None,
    timings: dict[str, float] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    **given: Any,
) -> Result:
    """Solve ``instance`` with the registered ``method`` and return a checked :class:`Result`.

    Options go as keywords (``eps=0.3``) or as ``options=`` (an options object or
    a mapping); they are checked against the method's declaration before any
    work.  The schedule is validated by the family's independent validator and
    the objective recomputed from it.  Bad input or a method refusing the
    instance raises :class:`~coschedopt.core.errors.InputError`; running out of
    time never raises (status ``TIME_LIMIT``, ``stats["stopped_by"]`` says whether the time limit
    or a stop request ended it: the contract in :mod:`coschedopt.core.deadline`).  ``Result.runtime`` is the method's
    own time: a one-time preparation (compiling kernels on the first call of a
    process) is run first and reported as ``stats["prepare_seconds"]``.  ``timings``, if given,
    receives the CPU seconds of the steps: ``prepare``, ``method`` and ``validation`` (the
    validator and the objective), what ``coschedopt solve -v`` reports.  ``clock`` (seconds) times the
    preparation and the method: a test gives its own to check what is timed without waiting.
    """
    cpu = time.process_time()
    fam = family_of(instance)
    m = get_method(fam.kind, method)
    if time_limit is not None and not (
        isinstance(time_limit, int | float) and not isinstance(time_limit, bool) and time_limit > 0
    ):
        raise InputError(f"time_limit must be a positive number of seconds, got {time_limit!r}", where="time_limit")
    opts = check_options(m, options, given)
    prepared = run_preparation(m, instance, opts, clock=clock)
    steps = {"prepare": time.process_time()}
    start = clock()
    res = m.func(instance, time_limit=time_limit, seed=seed, verbose=verbose, options=opts)
    res.runtime = clock() - start
    steps["method"] = time.process_time()
    if prepared:
        res.stats["prepare_seconds"] = round(prepared, 3)
    res.method, res.family = m.name, fam.kind
    _mark_stop(res, m)
    if res.schedule is not None:
        try:
            fam.validate(instance, res.schedule)
        except ValueError as exc:
            raise RuntimeError(f"method {m.name!r} returned an invalid schedule: {exc}") from exc
        res.objective = fam.objective(instance, res.schedule)
    elif res.status is Status.OPTIMAL or (res.status is Status.FEASIBLE and not m.probe):
        raise RuntimeError(f"method {m.name!r} returned status {res.status} without a schedule")
    if res.status is Status.OPTIMAL and res.lower_bound is None:
        res.lower_bound = res.objective
    if res.lower_bound is not None and not math.isfinite(res.lower_bound):
        res.lower_bound = None
    if timings is not None:
        steps["validation"] = time.process_time()
        for name, end in steps.items():
            timings[name] = end - cpu
            cpu = end
    return res


def _mark_stop(res: Result, m: Method) -> None:
    """Record why a stopped method stopped (the contract in :mod:`coschedopt.core.deadline`):
    ``stats["stopped_by"]`` and the message's first words.  An exact method that did not
    finish because of a stop request is ``TIME_LIMIT`` whatever it reported."""
    if m.exact and stop_requested() and res.status is Status.FEASIBLE:
        res.status = Status.TIME_LIMIT
    why = stopped_by(res.status)
    if why is None:
        return
    res.stats["stopped_by"] = why
    note = "interrupted" if why == "interrupt" else "stopped by the time limit"
    if not res.message.startswith(note):
        res.message = f"{note}: {res.message}" if res.message else note


def validate(instance: Any, schedule: Any) -> None:
    """Raise ``ValueError`` naming the broken constraint if ``schedule`` is infeasible."""
    family_of(instance).validate(instance, schedule)


def objective(instance: Any, schedule: Any) -> float:
    return family_of(instance).objective(instance, schedule)
