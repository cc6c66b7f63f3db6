"""Benchmark harness: suites (TOML) -> cells -> local processes or Dask -> SQLite store -> table -> reports.

Generic over problem families: it uses only :mod:`coschedopt.core` (the family
registry's ``metrics`` and ``describe``, the method registry, ``solve``, the
generators of :mod:`coschedopt.core.commands`), so a new family is benchmarked
by writing a suite file, without touching this package.

>>> from coschedopt.bench import run_suite, result_table, write_report
>>> run_suite("quick", db="results.sqlite")            # doctest: +SKIP
>>> write_report("results.sqlite", "reports/")         # doctest: +SKIP

Modules: :mod:`.suite` (parse and expand suite files), :mod:`.cell` (run one
cell in a worker), :mod:`.executors` (local process pool, Dask),
:mod:`.store` (SQLite result store and its schema), :mod:`.runner` (``bench
run``), :mod:`.table` (the tidy table, CSV/Parquet), :mod:`.report` (Markdown
and HTML), :mod:`.command` (the ``coschedopt bench`` command).
"""

import importlib
from typing import Any

from . import command  # noqa: F401  (registers `coschedopt bench`)

#: public name -> module defining it; imported on first use, so that `import coschedopt`
#: (and `coschedopt --help`) does not load the harness
_LAZY = {
    "write_report": "report",
    "RunSummary": "runner",
    "run_suite": "runner",
    "SCHEMA": "store",
    "ResultStore": "store",
    "Cell": "suite",
    "Suite": "suite",
    "bundled_suites": "suite",
    "load_suite": "suite",
    "ResultTable": "table",
    "result_table": "table",
    "write_table": "table",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "SCHEMA",
    "Cell",
    "ResultStore",
    "ResultTable",
    "RunSummary",
    "Suite",
    "bundled_suites",
    "load_suite",
    "result_table",
    "run_suite",
    "write_report",
    "write_table",
]
