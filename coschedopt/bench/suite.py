"""Benchmark suites: TOML files that declare instances x methods x seeds, expanded into cells.

A suite names one problem family, the instances (built by a registered generator
with given parameters and seeds, or read from instance files), the methods with
their options and seeds, and the per-cell time limit.  :func:`load_suite` checks
every key and value once, at the boundary, and raises a single
:class:`~coschedopt.core.InputError` naming the file, the key path and the value;
nothing runs before the whole suite is known to be good.

Format (every key but ``family``, ``instances`` and ``methods`` is optional)::

    [suite]
    name = "quick"                 # default: the file name without .toml
    description = "..."
    family = "pack"                # a registered kind
    time_limit = 20                # seconds per cell, for every method without its own
    kill_after = 70                # local pool only: kill a cell still running after this
    plugins = ["my.family"]        # modules to import first (families defined elsewhere)
    store_schedules = true         # false: keep each cell's numbers, not its schedule (whole-trace simulations)
    fresh_process = false          # true: each cell in a new worker process (its peak memory is its own)
    ladder = "n"                   # a size key: run its values in increasing order, and stop a method's
                                   # climb in a group at the first value where the median cell is not
                                   # proven optimal (the frontier of an exact method)

    [[instances]]                  # built by a generator ...
    group = "Workload-II"          # label of the set in tables and figures
    generator = "workload-ii"      # a generator of the suite's family (`coschedopt generate pack --help`)
    params = { }                   # keyword arguments of the generator, as given
    grid = { max_pack_size = [2, 4, 8] }   # one instance per combination of these lists
    seeds = [0]                    # instance seeds (default [0])
    build = "parent"               # or "worker": the instance travels as its recipe and each cell's
                                   # worker rebuilds it (instances too large to carry as JSON)

    [[instances]]                  # ... or read from files (paths relative to the suite file)
    group = "mine"
    files = ["instances/a.json", "instances/b.json"]

    [[methods]]
    name = "branch-and-price"      # a registered method of the family
    label = "B&P"                  # name in tables and figures (default: name + options)
    options = { }                  # the method's options (`coschedopt methods pack --options`)
    seeds = [0, 1, 2]              # method seeds (default [0]); a range: { first = 0, count = 100 }
    time_limit = 60                # overrides [suite] time_limit
    when = { k = { max = 2 }, group = ["Workload-I"] }   # only instances that fit

    [report]                       # optional: how `bench report` draws this suite
    x = "k"                        # a size key of the family's describe(); default: inferred
    metrics = ["relative_cost"]    # metric columns to plot (default: all the family's metrics)
    title = "..."
    captions = { relative_cost = "paper Figure 2" }

``when`` keys are the family's ``describe(instance)`` keys (for packs ``n``, ``p``,
``k``) or ``group``; a value is a number or string (equality), a list (membership)
or a table with ``min`` and/or ``max``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import itertools
import json
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import InputError, families, get_family, get_method, load_instance
from ..core.commands import GENERATOR_ALIASES, Generator, generators, get_generator

#: keys allowed in each table of a suite file (anything else is a typo and refused)
_TOP_KEYS = {"suite", "instances", "methods", "report"}
_SUITE_KEYS = {
    "name",
    "description",
    "family",
    "time_limit",
    "kill_after",
    "plugins",
    "store_schedules",
    "fresh_process",
    "ladder",
}
_INSTANCE_KEYS = {"group", "generator", "params", "grid", "seeds", "files", "build"}
#: values of an ``[[instances]]`` table's ``build``: where a generated instance is built for its cells
BUILDS = ("parent", "worker")
_METHOD_KEYS = {"name", "label", "options", "seeds", "time_limit", "kill_after", "when"}
_REPORT_KEYS = {"x", "metrics", "title", "captions"}


def bundled_suite_files() -> dict[str, Path]:
    """The suites shipped with the families (``coschedopt/<family>/suites/*.toml``) by name.

    The repository's ``models/suites/`` links to each of them (the user's view of
    every family's declarative data).  Two families shipping one suite name raise.
    """
    found: dict[str, Path] = {}
    for kind in families():
        d = get_family(kind).directory("suites")
        for path in sorted(d.glob("*.toml")) if d else []:
            if path.stem in found:
                raise ValueError(f"suite {path.stem!r} is shipped twice: {found[path.stem]} and {path}")
            found[path.stem] = path
    return found


def bundled_suites() -> list[str]:
    """Names of the suites shipped with the package, e.g. ``["paper-combos", "paper-pack", "quick"]``."""
    return sorted(bundled_suite_files())


def resolve_suite_path(suite: str | os.PathLike) -> Path:
    """``suite`` as a path if it names a file, else a bundled suite name (``quick``)."""
    p = Path(suite)
    if p.is_file():
        return p
    if p.suffix != ".toml" and p.name == str(suite):
        bundled = bundled_suite_files().get(str(suite))
        if bundled is not None:
            return bundled
    known = ", ".join(bundled_suites()) or "none"
    raise InputError(f"no suite file or bundled suite named {str(suite)!r}; bundled suites: {known}", where="SUITE")


@dataclass(frozen=True)
class InstanceEntry:
    """One instance of the suite, already built and described.

    ``data`` is what the store keeps and each cell carries: the instance's JSON dict, or, for a
    ``build = "worker"`` table, its recipe (:func:`is_recipe`), which the worker rebuilds
    (:func:`instance_from_data`).  ``instance`` is the built instance, ``None`` for a recipe (the
    runner built it once for ``size`` and ``name`` and let it go).
    """

    group: str
    instance: Any
    instance_id: str
    data: dict[str, Any]
    size: dict[str, Any]
    source: dict[str, Any]
    seed: int | None
    name: str = ""
    build: str = "parent"


@dataclass(frozen=True)
class MethodEntry:
    name: str
    label: str
    exact: bool
    options: dict[str, Any]
    seeds: tuple[int, ...]
    time_limit: float | None
    kill_after: float | None
    when: dict[str, Any]
    module: str


@dataclass(frozen=True)
class Cell:
    """One unit of work: (family, instance, method, seed, options, time limit) of a suite."""

    key: str
    suite: str
    family: str
    group: str
    instance_id: str
    instance_name: str
    instance_seed: int | None
    method: str
    label: str
    exact: bool
    seed: int
    options: dict[str, Any]
    time_limit: float | None
    kill_after: float | None

    def payload(self, instance_data: dict[str, Any], modules: list[str]) -> dict[str, Any]:
        """What a worker needs to run this cell (plain, picklable data)."""
        return {
            "key": self.key,
            "family": self.family,
            "instance": instance_data,
            "method": self.method,
            "seed": self.seed,
            "options": self.options,
            "time_limit": self.time_limit,
            "modules": modules,
        }


@dataclass
class Suite:
    """A parsed, checked suite: its instances, methods and the cells they span."""

    name: str
    path: Path
    family: str
    description: str
    text: str
    config: dict[str, Any]
    plugins: list[str]
    store_schedules: bool = True
    #: each cell in a new worker process (local pool), so that its ``peak_rss_mb`` is its own, not the
    #: worker's peak over the cells it ran before
    fresh_process: bool = False
    #: a size key whose values are climbed in order (see the module docstring), or None
    ladder: str | None = None
    instances: list[InstanceEntry] = field(default_factory=list)
    methods: list[MethodEntry] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    @property
    def report_config(self) -> dict[str, Any]:
        return dict(self.config.get("report", {}))

    def worker_modules(self) -> list[str]:
        """Modules a worker imports before running a cell: the plugins and the methods' modules."""
        mods = ["coschedopt", *self.plugins, *(m.module for m in self.methods)]
        return list(dict.fromkeys(mods))

    def instance_by_id(self) -> dict[str, InstanceEntry]:
        return {e.instance_id: e for e in self.instances}


# --------------------------------------------------------------------------- helpers


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False, default=_json_default)


def _json_default(x: Any) -> Any:
    if hasattr(x, "item"):  # numpy scalar
        return x.item()
    if hasattr(x, "tolist"):  # numpy array
        return x.tolist()
    raise TypeError(f"not JSON-able: {type(x).__name__}")


def _spelled(data: Any) -> Any:
    """``data`` with each non-finite float spelled as text (an option such as ``stretch_limit = inf``)."""
    if isinstance(data, float) and not math.isfinite(data):
        return repr(data)
    if isinstance(data, dict):
        return {k: _spelled(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_spelled(v) for v in data]
    return data


def digest(data: Any, length: int = 16) -> str:
    """The first ``length`` hex digits of the SHA-256 of ``data``'s canonical JSON (infinities spelled out)."""
    return hashlib.sha256(canonical_json(_spelled(data)).encode()).hexdigest()[:length]


class _Where:
    """Builds located errors: ``file: key.path: message``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, key: str, message: str) -> InputError:
        return InputError(message, where=f"{self.path}: {key}" if key else str(self.path))


def _check_keys(table: Any, allowed: set[str], key: str, w: _Where) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise w.error(key, f"expected a table, got {table!r}")
    for k, v in table.items():
        if k not in allowed:
            prefix = f"{key}." if key else ""
            raise w.error(f"{prefix}{k}", f"unknown key {k!r} = {v!r}; allowed: {', '.join(sorted(allowed))}")
    return table


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool)) and math.isfinite(v)


def _seconds(v: Any, key: str, w: _Where) -> float:
    if not _is_number(v) or v <= 0:
        raise w.error(key, f"expected a positive number of seconds, got {v!r}")
    return float(v)


def _seeds(v: Any, key: str, w: _Where) -> tuple[int, ...]:
    """Seeds as a list, one integer, or a range ``{ first = 0, count = 100 }``."""
    if isinstance(v, dict):
        if set(v) != {"first", "count"} or not all(_is_int(x) and x >= 0 for x in v.values()) or v["count"] < 1:
            raise w.error(key, f"a range of seeds is {{ first = F, count = N }} (N >= 1), got {v!r}")
        v = list(range(v["first"], v["first"] + v["count"]))
    if _is_int(v):
        v = [v]
    if not isinstance(v, list) or not v or not all(_is_int(s) and s >= 0 for s in v):
        raise w.error(key, f"expected a non-empty list of non-negative integers, got {v!r}")
    if len(set(v)) != len(v):
        raise w.error(key, f"duplicate seeds in {v!r}")
    return tuple(v)


def _boolean(v: Any, key: str, w: _Where) -> bool:
    if not isinstance(v, bool):
        raise w.error(key, f"expected true or false, got {v!r}")
    return v


def _string(v: Any, key: str, w: _Where) -> str:
    if not isinstance(v, str) or not v.strip():
        raise w.error(key, f"expected a non-empty string, got {v!r}")
    return v


def _generator_params(gen: Generator) -> dict[str, argparse.Action]:
    parser = argparse.ArgumentParser(add_help=False)
    gen.add_arguments(parser)
    return {a.dest: a for a in parser._actions if a.dest != argparse.SUPPRESS}


def _check_param(action: argparse.Action, value: Any, key: str, w: _Where) -> None:
    """Check a generator parameter against what its ``--option`` accepts on the command line."""
    many = action.nargs in ("+", "*") or _is_int(action.nargs)
    if many:
        if not isinstance(value, list) or (action.nargs == "+" and not value):
            raise w.error(key, f"expected a list, got {value!r}")
        values = value
    else:
        values = [value]
    if isinstance(action, argparse._StoreTrueAction | argparse._StoreFalseAction):
        if not isinstance(value, bool):
            raise w.error(key, f"expected true or false, got {value!r}")
        return
    for v in values:
        if action.type is int and not _is_int(v):
            raise w.error(key, f"expected an integer, got {v!r}")
        if action.type is float and not _is_number(v):
            raise w.error(key, f"expected a number, got {v!r}")
        if action.type in (None, str) and not isinstance(v, str | int | float):
            raise w.error(key, f"expected a string or number, got {v!r}")
        if action.choices is not None and v not in action.choices:
            raise w.error(key, f"{v!r} is not one of {list(action.choices)!r}")


def _check_when(when: Any, key: str, w: _Where) -> dict[str, Any]:
    if not isinstance(when, dict):
        raise w.error(key, f"expected a table such as {{ k = {{ max = 2 }} }}, got {when!r}")
    for k, cond in when.items():
        if isinstance(cond, dict):
            _check_keys(cond, {"min", "max"}, f"{key}.{k}", w)
            for bound, v in cond.items():
                if not _is_number(v):
                    raise w.error(f"{key}.{k}.{bound}", f"expected a number, got {v!r}")
        elif not isinstance(cond, str | int | float | list) or isinstance(cond, bool):
            raise w.error(f"{key}.{k}", f"expected a value, a list or {{ min, max }}, got {cond!r}")
    return when


def matches_when(when: dict[str, Any], group: str, size: dict[str, Any]) -> bool:
    """Whether an instance (its group and ``describe()``) satisfies a method's ``when`` filter."""
    for k, cond in when.items():
        value = group if k == "group" else size.get(k)
        if value is None:
            return False
        if isinstance(cond, dict):
            if "min" in cond and not value >= cond["min"]:
                return False
            if "max" in cond and not value <= cond["max"]:
                return False
        elif isinstance(cond, list):
            if value not in cond:
                return False
        elif value != cond:
            return False
    return True


def default_label(name: str, options: dict[str, Any]) -> str:
    """A method's name in tables and figures when its suite entry gives no ``label``."""
    if not options:
        return name
    return f"{name}({', '.join(f'{k}={v}' for k, v in sorted(options.items()))})"


def _import_plugins(plugins: Any, w: _Where) -> list[str]:
    if not isinstance(plugins, list) or not all(isinstance(p, str) for p in plugins):
        raise w.error("suite.plugins", f"expected a list of module names, got {plugins!r}")
    for i, mod in enumerate(plugins):
        try:
            importlib.import_module(mod)
        except ImportError as exc:
            raise w.error(f"suite.plugins[{i}]", f"cannot import module {mod!r}: {exc}") from None
    return list(plugins)


# --------------------------------------------------------------------------- parsing


def load_suite(suite: str | os.PathLike) -> Suite:
    """Read, check and expand a suite (a bundled name such as ``quick`` or a path).

    Every instance is built here (generators run, files are read) so that a bad
    parameter is reported before anything runs.  Raises one
    :class:`~coschedopt.core.InputError` naming the file, the key and the value.
    """
    path = resolve_suite_path(suite)
    w = _Where(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise w.error("", f"cannot read: {exc}") from None
    try:
        config = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise w.error("", f"malformed TOML: {exc}") from None
    return parse_suite(config, path=path, text=text)


@dataclass(frozen=True)
class _Head:
    """The ``[suite]`` table, checked."""

    name: str
    family: Any
    description: str
    plugins: list[str]
    time_limit: float | None
    kill_after: float | None
    store_schedules: bool
    fresh_process: bool
    ladder: str | None


def _parse_head(config: dict[str, Any], path: Path, w: _Where) -> _Head:
    head = _check_keys(config.get("suite", {}), _SUITE_KEYS, "suite", w)
    plugins = _import_plugins(head.get("plugins", []), w)
    if "family" not in head:
        raise w.error("suite.family", "missing key 'family' (the problem family, e.g. \"pack\")")
    family_kind = _string(head["family"], "suite.family", w)
    try:
        family = get_family(family_kind)
    except InputError as exc:
        raise w.error("suite.family", exc.message) from None
    name = _string(head.get("name", path.stem), "suite.name", w)
    description = head.get("description", "")
    if not isinstance(description, str):
        raise w.error("suite.description", f"expected a string, got {description!r}")
    return _Head(
        name=name,
        family=family,
        description=description,
        plugins=plugins,
        time_limit=_seconds(head["time_limit"], "suite.time_limit", w) if "time_limit" in head else None,
        kill_after=_seconds(head["kill_after"], "suite.kill_after", w) if "kill_after" in head else None,
        store_schedules=_boolean(head.get("store_schedules", True), "suite.store_schedules", w),
        fresh_process=_boolean(head.get("fresh_process", False), "suite.fresh_process", w),
        ladder=_string(head["ladder"], "suite.ladder", w) if "ladder" in head else None,
    )


def _check_report(config: dict[str, Any], w: _Where) -> None:
    report = _check_keys(config.get("report", {}), _REPORT_KEYS, "report", w)
    if "x" in report:
        _string(report["x"], "report.x", w)
    if "metrics" in report and (
        not isinstance(report["metrics"], list) or not all(isinstance(m, str) for m in report["metrics"])
    ):
        raise w.error("report.metrics", f"expected a list of metric names, got {report['metrics']!r}")
    if "captions" in report and not isinstance(report["captions"], dict):
        raise w.error("report.captions", f"expected a table of metric = caption, got {report['captions']!r}")


def _parse_instances(config: dict[str, Any], family: Any, path: Path, w: _Where) -> list[InstanceEntry]:
    blocks = config.get("instances")
    if not isinstance(blocks, list) or not blocks:
        raise w.error("instances", f"expected at least one [[instances]] table, got {blocks!r}")
    out: list[InstanceEntry] = []
    seen: set[tuple[str, str]] = set()
    for i, block in enumerate(blocks):
        for entry in _expand_instances(block, f"instances[{i}]", family, path, w):
            if (entry.instance_id, entry.group) in seen:
                continue  # the same instance twice in one group counts once
            seen.add((entry.instance_id, entry.group))
            out.append(entry)
    return out


def _parse_methods(config: dict[str, Any], head: _Head, w: _Where) -> list[MethodEntry]:
    mblocks = config.get("methods")
    if not isinstance(mblocks, list) or not mblocks:
        raise w.error("methods", f"expected at least one [[methods]] table, got {mblocks!r}")
    out: list[MethodEntry] = []
    labels: dict[str, tuple[int, MethodEntry]] = {}
    for j, block in enumerate(mblocks):
        m = _parse_method(block, f"methods[{j}]", head.family.kind, head.time_limit, head.kill_after, w)
        if m.label in labels:  # one label, one (method, options): entries may split a method's `when`
            i, other = labels[m.label]
            if (other.name, other.options) != (m.name, m.options):
                raise w.error(
                    f"methods[{j}].label",
                    f"label {m.label!r} already names methods[{i}] ({other.name} with options {other.options!r})",
                )
        labels.setdefault(m.label, (j, m))
        out.append(m)
    return out


def _expand_cells(suite: Suite, w: _Where) -> list[Cell]:
    """Every (instance, method, seed) the methods' ``when`` filters keep; a cell planned twice raises."""
    cells: list[Cell] = []
    owner: dict[str, int] = {}
    for e in suite.instances:
        for j, m in enumerate(suite.methods):
            if not matches_when(m.when, e.group, e.size):
                continue
            for s in m.seeds:
                key_data = [suite.name, suite.family, e.group, e.instance_id, m.name, s, m.options, m.time_limit]
                key = digest(key_data, 32)
                if key in owner:
                    raise w.error(
                        f"methods[{j}]",
                        f"repeats methods[{owner[key]}] ({m.name}, seed {s}, same options and time limit) "
                        f"on instance {e.name!r}; narrow one 'when'",
                    )
                owner[key] = j
                cells.append(
                    Cell(
                        key=key,
                        suite=suite.name,
                        family=suite.family,
                        group=e.group,
                        instance_id=e.instance_id,
                        instance_name=e.name,
                        instance_seed=e.seed,
                        method=m.name,
                        label=m.label,
                        exact=m.exact,
                        seed=s,
                        options=m.options,
                        time_limit=m.time_limit,
                        kill_after=m.kill_after,
                    )
                )
    if not cells:
        raise w.error("methods", "no cell to run: every method's 'when' filter excludes every instance")
    return cells


def parse_suite(config: dict[str, Any], *, path: Path, text: str = "") -> Suite:
    """Check a suite already read from TOML (``path`` locates errors and relative files)."""
    w = _Where(path)
    _check_keys(config, _TOP_KEYS, "", w)
    head = _parse_head(config, path, w)
    _check_report(config, w)
    suite = Suite(
        name=head.name,
        path=path,
        family=head.family.kind,
        description=head.description,
        text=text,
        config=config,
        plugins=head.plugins,
        store_schedules=head.store_schedules,
        fresh_process=head.fresh_process,
        ladder=head.ladder,
    )
    suite.instances = _parse_instances(config, head.family, path, w)
    if head.ladder is not None:
        for e in suite.instances:
            if not _is_number(e.size.get(head.ladder)):
                known = ", ".join(e.size) or "none"
                raise w.error(
                    "suite.ladder",
                    f"{head.ladder!r} is not a numeric size key of instance {e.group}/{e.instance_id}; known: {known}",
                )
    suite.methods = _parse_methods(config, head, w)
    suite.cells = _expand_cells(suite, w)
    return suite


def _describe(family: Any, instance: Any) -> dict[str, Any]:
    if family.describe is None:
        return {}
    return {k: (v.item() if hasattr(v, "item") else v) for k, v in family.describe(instance).items()}


def _instance_name(instance: Any, instance_id: str) -> str:
    return str(getattr(instance, "name", instance_id))


def _entry(
    family: Any,
    group: str,
    instance: Any,
    source: dict[str, Any],
    seed: int | None,
    recipe: dict[str, Any] | None = None,
) -> InstanceEntry:
    """The suite's entry of ``instance``, named by the hash of its JSON data; with ``recipe`` (``build =
    "worker"``) the recipe is its data and names it, and the instance itself is not kept."""
    data = json.loads(canonical_json(instance.to_dict() if recipe is None else recipe))
    instance_id = digest(data)
    return InstanceEntry(
        group=group,
        instance=instance if recipe is None else None,
        instance_id=instance_id,
        data=data,
        size=_describe(family, instance),
        source=source,
        seed=seed,
        name=_instance_name(instance, instance_id),
        build="parent" if recipe is None else "worker",
    )


#: the keys of a recipe, the data of a ``build = "worker"`` instance
RECIPE_KEYS = frozenset({"generator", "params", "seed"})


def is_recipe(data: Any) -> bool:
    """Whether a stored or carried instance ``data`` is a recipe (``{"generator": "FAMILY NAME", "params": {...},
    "seed": s}``, a ``build = "worker"`` instance) rather than the instance's JSON."""
    return isinstance(data, dict) and set(data) == RECIPE_KEYS and isinstance(data.get("generator"), str)


def instance_from_data(data: dict[str, Any]) -> Any:
    """The instance of a store's or a cell's instance ``data``: its JSON read back, or its recipe rebuilt by
    the generator it names (the generator's code of this checkout: the recipe names the instance, not its
    numbers)."""
    if not is_recipe(data):
        from ..core import instance_from_dict

        return instance_from_dict(data)
    fam, _, name = data["generator"].partition(" ")
    return get_generator(fam, name).make(**data["params"], seed=data["seed"])


def _find_generator(kind: str, name: str, key: str, w: _Where) -> Generator:
    """A generator of the suite's family by its name, ``FAMILY NAME`` or a legacy flat alias."""
    fam, _, rest = name.partition(" ")
    if rest and fam == kind:
        name = rest
    try:
        return get_generator(kind, name)
    except InputError:
        known = ", ".join(g.name for g in generators(kind)) or "none"
        other = GENERATOR_ALIASES.get(name)
        hint = f" ({name!r} is a generator of family {other[0]!r})" if other and other[0] != kind else ""
        raise w.error(key, f"family {kind!r} has no generator {name!r}{hint}; known: {known}") from None


def _expand_instances(block: Any, key: str, family: Any, path: Path, w: _Where) -> list[InstanceEntry]:
    block = _check_keys(block, _INSTANCE_KEYS, key, w)
    has_gen, has_files = "generator" in block, "files" in block
    if has_gen == has_files:
        raise w.error(key, "give exactly one of 'generator' (with params/grid/seeds) or 'files'")
    if "build" in block and block["build"] not in BUILDS:
        raise w.error(f"{key}.build", f"expected one of {', '.join(map(repr, BUILDS))}, got {block['build']!r}")
    if has_files:
        return _file_instances(block, key, family, path, w)
    return _generated_instances(block, key, family, path, w)


def _file_instances(block: dict[str, Any], key: str, family: Any, path: Path, w: _Where) -> list[InstanceEntry]:
    for k in ("params", "grid", "seeds", "build"):
        if k in block:
            raise w.error(f"{key}.{k}", f"'{k}' only goes with 'generator', not with 'files' (got {block[k]!r})")
    files = block["files"]
    if isinstance(files, str):
        files = [files]
    if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
        raise w.error(f"{key}.files", f"expected a list of instance file paths, got {block['files']!r}")
    group = _string(block.get("group", "files"), f"{key}.group", w)
    out: list[InstanceEntry] = []
    for i, f in enumerate(files):
        fp = Path(f) if Path(f).is_absolute() else path.parent / f
        try:
            inst = load_instance(fp)
        except InputError as exc:
            raise w.error(f"{key}.files[{i}]", f"{f!r}: {exc}") from None
        if getattr(inst, "kind", None) != family.kind:
            raise w.error(
                f"{key}.files[{i}]", f"{f!r} is a {getattr(inst, 'kind', '?')!r} instance, not {family.kind!r}"
            )
        out.append(_entry(family, group, inst, {"file": str(f)}, None))
    return out


def _check_generator_params(
    gen_name: str, actions: dict[str, argparse.Action], params: Any, grid: Any, key: str, w: _Where
) -> None:
    """``params`` and ``grid`` of an ``[[instances]]`` table against what the generator's options accept."""
    if not isinstance(params, dict):
        raise w.error(f"{key}.params", f"expected a table of generator parameters, got {params!r}")
    if not isinstance(grid, dict):
        raise w.error(f"{key}.grid", f"expected a table of parameter = [values], got {grid!r}")
    for where, table in (("params", params), ("grid", grid)):
        for p, v in table.items():
            pkey = f"{key}.{where}.{p}"
            if p == "seed":
                raise w.error(pkey, f"give instance seeds with 'seeds = [...]', not as a parameter (got {v!r})")
            if p not in actions:
                known = ", ".join(sorted(actions))
                raise w.error(pkey, f"generator {gen_name!r} has no parameter {p!r} (got {v!r}); known: {known}")
            if where == "grid":
                if not isinstance(v, list) or not v:
                    raise w.error(pkey, f"expected a non-empty list of values, got {v!r}")
                for idx, x in enumerate(v):
                    _check_param(actions[p], x, f"{pkey}[{idx}]", w)
            else:
                _check_param(actions[p], v, pkey, w)
    both = set(params) & set(grid)
    if both:
        p = sorted(both)[0]
        raise w.error(f"{key}.grid.{p}", f"parameter {p!r} is given in both params and grid")
    for p, a in actions.items():
        if a.required and p not in params and p not in grid:
            raise w.error(f"{key}.params.{p}", f"generator {gen_name!r} needs parameter {p!r}")


def _generated_instances(block: dict[str, Any], key: str, family: Any, path: Path, w: _Where) -> list[InstanceEntry]:
    gen_name = _string(block["generator"], f"{key}.generator", w)
    gen = _find_generator(family.kind, gen_name, f"{key}.generator", w)
    group = _string(block.get("group", gen_name), f"{key}.group", w)
    actions = _generator_params(gen)
    params, grid = block.get("params", {}), block.get("grid", {})
    _check_generator_params(gen_name, actions, params, grid, key, w)
    defaults = {p: a.default for p, a in actions.items() if p not in params and p not in grid}
    if "files" in params and isinstance(params["files"], list):  # paths relative to the suite file
        params = dict(params, files=[str(f if Path(f).is_absolute() else path.parent / f) for f in params["files"]])
    seeds = _seeds(block.get("seeds", [0]), f"{key}.seeds", w)
    in_worker = block.get("build", "parent") == "worker"
    names = list(grid)
    out: list[InstanceEntry] = []
    for combo in itertools.product(*(grid[n] for n in names)):
        values = dict(zip(names, combo, strict=True))
        for s in seeds:
            kwargs = {**defaults, **params, **values}
            shown = ", ".join(f"{k} = {v!r}" for k, v in {**params, **values}.items())
            if not in_worker and gen.check_written is not None:  # its JSON is what the store keeps and cells carry
                try:
                    gen.check_written(**kwargs, seed=s)
                except InputError as exc:
                    raise w.error(
                        key,
                        f"generator {gen_name!r} with {shown}, seed = {s}: {exc}; or give this table "
                        'build = "worker" (each cell\'s worker builds the instance from its recipe, nothing is written)',
                    ) from None
            try:
                inst = gen.make(**kwargs, seed=s)
            except InputError as exc:
                raise w.error(key, f"generator {gen_name!r} with {shown}, seed = {s}: {exc}") from None
            except (TypeError, ValueError) as exc:
                raise w.error(key, f"generator {gen_name!r} refused {shown}, seed = {s}: {exc}") from None
            source = {"generator": gen_name, "params": {**params, **values}, "seed": s}
            if in_worker:
                recipe = {"generator": gen.qualified, "params": kwargs, "seed": s}
                out.append(_entry(family, group, inst, source, s, recipe))
                del inst  # the recipe is the entry's data: the built instance is let go
            else:
                out.append(_entry(family, group, inst, source, s))
    return out


def _parse_method(
    block: Any, key: str, family: str, default_limit: float | None, default_kill: float | None, w: _Where
) -> MethodEntry:
    block = _check_keys(block, _METHOD_KEYS, key, w)
    if "name" not in block:
        raise w.error(f"{key}.name", "missing key 'name' (a registered method of the family)")
    name = _string(block["name"], f"{key}.name", w)
    try:
        m = get_method(family, name)
    except InputError as exc:
        raise w.error(f"{key}.name", exc.message) from None
    name = m.name  # an alias stands for its method: same cells, same labels
    options = block.get("options", {})
    if not isinstance(options, dict):
        raise w.error(f"{key}.options", f"expected a table of method options, got {options!r}")
    for opt, v in options.items():
        if opt in ("time_limit", "seed", "verbose"):
            raise w.error(f"{key}.options.{opt}", f"{opt!r} is a method key, not an option (got {v!r})")
    try:
        m.options.from_mapping(options, method=name)
    except InputError as exc:
        raise w.error(f"{key}.options.{exc.where}", exc.message) from None
    label = _string(block.get("label", default_label(name, options)), f"{key}.label", w)
    time_limit = _seconds(block["time_limit"], f"{key}.time_limit", w) if "time_limit" in block else default_limit
    if "kill_after" in block:
        kill_after: float | None = _seconds(block["kill_after"], f"{key}.kill_after", w)
    elif default_kill is not None:
        kill_after = default_kill
    else:
        kill_after = None if time_limit is None else 2 * time_limit + 30
    if kill_after is not None and time_limit is not None and kill_after < time_limit:
        raise w.error(f"{key}.kill_after", f"kill_after = {kill_after!r} is shorter than time_limit = {time_limit!r}")
    when = _check_when(block.get("when", {}), f"{key}.when", w)
    return MethodEntry(
        name=name,
        label=label,
        exact=m.exact,
        options=dict(options),
        seeds=_seeds(block.get("seeds", [0]), f"{key}.seeds", w),
        time_limit=time_limit,
        kill_after=kill_after,
        when=when,
        module=m.func.__module__,
    )
