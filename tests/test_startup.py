"""Start-up (issue 39, item 9): solver back-ends are imported where a method needs them, not at start-up."""

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


def test_import_and_the_parser_of_help_load_no_solver_backend():
    loaded = _modules_after("from coschedopt.cli import build_parser\nbuild_parser().format_help()")
    assert "coschedopt.pack" in loaded and "coschedopt.combos" in loaded  # the families did register
    heavy = sorted(m for m in loaded if m.split(".")[0] in LAZY or m in LAZY)
    assert heavy == []


def test_the_lazy_names_of_the_harness_still_import():
    loaded = _modules_after("from coschedopt.bench import run_suite, write_report, load_suite, SCHEMA")
    assert {"coschedopt.bench.runner", "coschedopt.bench.report", "coschedopt.bench.store"} <= loaded
