"""The normative layout of a family, kept by a test (docs/adding-a-family.md describes it).

The same file names mean the same thing in every family:

=================  ===================================================================
``__init__.py``    registers the family (``register_family``) and imports what registers the rest
``instance.py``    the instance: validated at construction, sizes guarded, JSON form
``schedule.py``    the solution, its objective recomputed, the independent validator, the breakers
``metrics.py``     the family's measures of a schedule (the result table's columns)
``generate.py``    the generators (``register_generator``): seeded instance families
``exact/``         the exact methods (``@method(..., exact=True)``)
``heuristics``     the heuristics (a module or a package)
``simulators/``    event-driven policies (batch queues and backfilling, online dispatch)
``plot.py``        the drawing named in ``Family.plotter``
``report.py``      the family's report sections (``Family.report``), when it has any
``commands.py``    the family's commands (``register_command``), when it has any
``suites/``        the shipped benchmark suites;  ``data/``: shipped data
=================  ===================================================================

Other module names are the family's own; one used by two families must mean the same idea
in both (:data:`SHARED_NAMES`).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

import coschedopt as cs
import coschedopt.examples.toy  # noqa: F401
from coschedopt.core import get_family, get_method

REQUIRED = {"__init__.py", "instance.py", "schedule.py", "metrics.py", "generate.py", "plot.py"}
NORMATIVE = REQUIRED | {
    "exact",
    "heuristics.py",
    "heuristics",
    "simulators",
    "report.py",
    "commands.py",
    "suites",
    "data",
}
#: module names found in more than one family, each meaning one idea in all of them
SHARED_NAMES = {
    "bounds.py": "lower bounds on the objective",
    "listsched.py": "list scheduling: place jobs in a given order at their earliest feasible start",
    "traces.py": "reading the Parallel Workloads Archive's traces into the family's instances",
    "exact/common.py": "what the family's exact methods share (bounds, the incumbent, reading a solution)",
    "exact/cpsat.py": "the family's CP-SAT model",
    "exact/milp.py": "the family's MILP model (Pyomo + HiGHS)",
    "exact/enumerate.py": "exhaustive enumeration, the family's reference on small instances",
    "exact/colgen.py": "the family's configuration LP solved by column generation (columns priced from the duals)",
    "heuristics/__init__.py": "imports the heuristic modules (registration)",
    "exact/__init__.py": "imports the exact modules (registration)",
    "simulators/__init__.py": "imports the simulators (registration)",
    "probes.py": "methods measuring code instead of solving (Method.probe), loaded by a suite's plugins",
}
BUILT_IN = [k for k in cs.families() if get_family(k).package.startswith("coschedopt.")]


def folder(kind: str) -> Path:
    return Path(cs.__file__).parent.joinpath(*get_family(kind).package.split(".")[1:])


def modules(kind: str) -> set[str]:
    """The family's Python modules, relative to its folder (``exact/milp.py``)."""
    root = folder(kind)
    return {p.relative_to(root).as_posix() for p in root.rglob("*.py") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("kind", BUILT_IN)
def test_every_family_has_the_required_files(kind):
    names = {p.name for p in folder(kind).iterdir()}
    assert names >= REQUIRED, sorted(REQUIRED - names)


@pytest.mark.parametrize("kind", BUILT_IN)
def test_methods_live_where_their_kind_says(kind):
    package = get_family(kind).package
    for name in cs.methods(kind):
        m = get_method(kind, name)
        where = m.func.__module__
        if not where.startswith("coschedopt."):
            continue  # a plug-in's method lives in its own package
        if m.probe:
            assert where == f"{package}.probes", (name, where)
        elif m.exact:
            assert where.startswith(f"{package}.exact"), (name, where)
        else:
            assert where.startswith((f"{package}.heuristics", f"{package}.simulators")), (name, where)


@pytest.mark.parametrize("kind", BUILT_IN)
def test_registrations_live_in_their_files(kind):
    root = folder(kind)
    for path in root.rglob("*.py"):
        text = path.read_text()
        rel = path.relative_to(root).as_posix()
        if re.search(r"^\s*(\w+ = )?register_generator\(", text, re.M):
            assert rel == "generate.py", f"{kind}/{rel} registers a generator"
        if re.search(r"^\s*(\w+ = )?register_command\(", text, re.M):
            assert rel == "commands.py", f"{kind}/{rel} registers a command"
        if re.search(r"^\s*(\w+ = )?register_family\(", text, re.M):
            assert rel == "__init__.py", f"{kind}/{rel} registers a family"


def test_a_name_shared_by_two_families_means_one_idea():
    counts = Counter(name for kind in BUILT_IN for name in modules(kind))
    shared = {name for name, c in counts.items() if c > 1} - {f for f in NORMATIVE if f.endswith(".py")}
    assert shared <= set(SHARED_NAMES), f"explain or rename: {sorted(shared - set(SHARED_NAMES))}"


def test_the_toy_family_is_the_template_file_for_file():
    names = {p.name for p in folder("toy").iterdir() if p.name != "__pycache__"}
    assert names == REQUIRED | {"exact", "heuristics.py", "suites"}, sorted(names)


def imported(path: Path, source: str | None = None) -> set[str]:
    """Every module named by an import of the file at ``path`` (a module of the ``coschedopt`` package;
    its text, or ``source`` in its place).

    ``import a.b`` names ``a.b``; ``from a import b`` names ``a`` and ``a.b`` (``b`` may be a module);
    a relative import is resolved against the file's package (``from ...bench import runner`` in
    ``coschedopt/hybrid/exact/cpsat.py`` names ``coschedopt.bench`` and ``coschedopt.bench.runner``).
    Imports anywhere in the file count, inside functions too.
    """
    parts = ["coschedopt", *path.relative_to(Path(cs.__file__).parent).with_suffix("").parts]
    package = parts[:-1]  # the package of a module, and of an __init__.py its own
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text() if source is None else source, filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                assert node.level <= len(package), f"{path}: relative import above the package"
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def within(name: str, package: str) -> bool:
    """Whether the module ``name`` is ``package`` or inside it."""
    return name == package or name.startswith(package + ".")


def test_import_extraction_resolves_every_form():
    path = Path(cs.__file__).parent / "hybrid" / "exact" / "cpsat.py"
    names = imported(path)
    assert "coschedopt.core" in names and "coschedopt.hybrid.schedule" in names, sorted(names)
    source = "def f():\n    from ...bench import runner\nfrom .. import bench\nimport coschedopt.pack.schedule as s\n"
    names = imported(path, source)
    assert {"coschedopt.bench.runner", "coschedopt.hybrid.bench", "coschedopt.pack.schedule"} <= names


def test_no_family_imports_another_family_or_the_harness():
    for kind in BUILT_IN:
        package = get_family(kind).package
        others = [get_family(k).package for k in BUILT_IN if get_family(k).package != package]
        for path in folder(kind).rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            for name in imported(path):
                assert not within(name, "coschedopt.bench"), (str(path), name)
                for other in others:
                    assert not within(name, other), (str(path), name)
