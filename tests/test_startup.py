"""Start-up: no family is imported by `import coschedopt` or `coschedopt --version` (they are plug-ins, loaded on
first use; `coschedopt --help` lists them, so it loads them), and solver back-ends are imported where a method
needs them, not when the parser is built."""

from __future__ import annotations

import json
import subprocess
import sys

#: imported only by the methods, figures and harness parts that use them
LAZY = (
    "pyomo", "pulp", "networkx", "matplotlib", "dask", "distributed", "ortools", "numba", "highspy",
    "coschedopt.bench.report",
)  # fmt: skip


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


BUILT_IN = ("pack", "combos", "hybrid", "locality", "batch", "online", "evolving")


def _families_in(loaded: set[str]) -> list[str]:
    return sorted(m for m in loaded if m.split(".")[:2][-1] in BUILT_IN and m.startswith("coschedopt."))


def test_import_coschedopt_and_the_version_import_no_family():
    assert _families_in(_modules_after("import coschedopt")) == []
    code = "from coschedopt.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass"
    assert _families_in(_modules_after(code)) == []


def test_the_top_level_help_lists_the_families_without_loading_a_solver_backend():
    code = "from coschedopt.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    loaded = _modules_after(code)
    assert {f"coschedopt.{f}" for f in BUILT_IN} <= loaded
    assert sorted(m for m in loaded if m.split(".")[0] in LAZY or m in LAZY) == []


def test_the_whole_parser_loads_the_families_but_no_solver_backend():
    loaded = _modules_after("from coschedopt.cli import build_parser\nbuild_parser().format_help()")
    assert {f"coschedopt.{f}" for f in BUILT_IN} <= loaded  # the families did register, through their entry points
    heavy = sorted(m for m in loaded if m.split(".")[0] in LAZY or m in LAZY)
    assert heavy == []


def test_the_lazy_names_of_the_harness_still_import():
    loaded = _modules_after("from coschedopt.bench import run_suite, write_report, load_suite, SCHEMA")
    assert {"coschedopt.bench.runner", "coschedopt.bench.report", "coschedopt.bench.store"} <= loaded
