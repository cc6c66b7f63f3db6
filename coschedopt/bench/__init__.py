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

from . import command  # noqa: F401  (registers `coschedopt bench`)
from .report import write_report
from .runner import RunSummary, run_suite
from .store import SCHEMA, ResultStore
from .suite import Cell, Suite, bundled_suites, load_suite
from .table import ResultTable, result_table, write_table

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
