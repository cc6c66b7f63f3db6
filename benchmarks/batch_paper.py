"""The thesis's chapters 4-5 experiment (suite ``paper-batch``) as a benchmark record.

Runs the suite (``--run``, local workers or a Dask scheduler) or reads a result
store it was run into, and writes the record ``paper-batch``: the run's wall
time, cells, failures and CPU seconds per platform, chapter 5's means
normalised to ``basic`` per platform and variant (§5.7.5, computed by
:func:`coschedopt.batch.report.normalised`, the report's own), and chapter 4's
mean makespan of each variant against basic.  The README's chapter-5 table is
generated from this record (``python benchmarks/readme.py --write``)::

    COSCHEDOPT_TRACES=/path/to/traces python benchmarks/batch_paper.py --run -j 2 --db paper-batch.sqlite
    python benchmarks/batch_paper.py --db paper-batch.sqlite            # a store run before (resumed runs add up)

``--suite`` names another suite of the same experiment, and the record after it:
``paper-batch-author`` (the whole experiment under the author's reading,
:mod:`coschedopt.batch.readings`) or ``benchmarks/batch-readings-20.toml`` (20
windows under each reading and each of the author's options alone).  Each
configuration of a suite (the reading and the options departing from it) gets its
normalised means and §5.7.5's statements checked platform by platform.

``--compare OTHER.sqlite`` also checks that every cell stored in both stores
(matched by instance and method label) has the same metrics, e.g. a Dask run
of part of the suite against the local run.  ``--smoke`` runs two 1-week
windows of the KTH-SP2 excerpt that ships with the toolkit.
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import statistics
import sys
import tempfile
import tomllib
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import coschedopt.batch
from coschedopt import cli
from coschedopt.batch.readings import configurations_in_order
from coschedopt.batch.report import CH5_METRICS, claims_by_platform, complete_instances, normalised, tag_rows
from coschedopt.bench.provenance import (
    add_record_arguments,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)
from coschedopt.bench.store import ResultStore
from coschedopt.bench.table import result_table

RESULTS = Path(__file__).resolve().parent / "results"
EXCERPT = Path(coschedopt.batch.__file__).parent / "data" / "KTH-SP2-1996-2.1-cln-first3000.swf.gz"
SMOKE_SUITE = f"""
[suite]
name = "paper-batch"
family = "batch"
store_schedules = false
[[instances]]
group = "KTH-SP2"
generator = "weeks"
params = {{ trace = "{EXCERPT}", periods = 1 }}
seeds = [0, 1]
[[methods]]
name = "conservative"
label = "basic"
options = {{ allocation = "basic", penalty = "exponential", factor = 2.0, reassign = true }}
[[methods]]
name = "conservative"
label = "beplat"
options = {{ allocation = "beplat", penalty = "exponential", factor = 2.0, reassign = true }}
"""


def _rows(db: Path, suite: str | None = "paper-batch") -> list[dict]:
    return tag_rows(result_table(db, suite=suite).rows)


def _runs(db: Path, suite: str) -> list[dict]:
    """The runs of ``suite`` in the store; a run killed before it could record its end (``ended_at`` empty, its
    status left ``running``) ends, for its wall time, at its last cell, and is marked ``killed``."""
    store = ResultStore(db, create=False)
    try:
        runs = [r for r in store.runs() if r.get("suite") == suite]
    finally:
        store.close()
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        last = dict(con.execute("SELECT run_id, MAX(finished_at) FROM cells GROUP BY run_id").fetchall())
    for r in runs:
        if not r.get("ended_at") and r.get("run_id") in last:
            r["ended_at"], r["status"] = last[r["run_id"]], "killed"
    return runs


def suite_name(suite: str) -> str:
    """The name a suite's rows carry: a bundled suite's, or a suite file's (its ``name``, else its file name)."""
    if not suite.endswith(".toml"):
        return suite
    return tomllib.loads(Path(suite).read_text()).get("suite", {}).get("name", Path(suite).stem)


def chapter5(rows: list[dict]) -> dict:
    """One configuration's chapter-5 results: instances per platform, normalised means, statements by platform."""
    rows, groups, variants = complete_instances(rows)
    norms = {m: normalised(rows, m) for m, *_ in CH5_METRICS}
    keys = sorted({k for n in norms.values() for k in n})
    return {
        "instances": {g: len({r["instance_id"] for r in rows if r["group"] == g}) for g in groups},
        "normalised": [
            {"trace": g, "variant": v} | {m: norms[m].get((g, v)) for m in norms} for g, v in keys if v != "basic"
        ],
        "claims": [
            {"metric": m, "statement": text, "holds": None if on is None else all(on.values()), "platforms": on}
            for m, text, on in claims_by_platform(norms, sorted(groups), variants)
        ],
    }


def _seconds(a: str | None, b: str | None) -> float | None:
    if not a or not b:
        return None
    return (datetime.fromisoformat(b) - datetime.fromisoformat(a)).total_seconds()


def summarise(db: Path, suite: str = "paper-batch") -> dict:
    """The record's results from a store holding a run of ``suite`` (``paper-batch`` or one like it): the first
    configuration's chapter 5 at the top level, every configuration's under ``configurations``."""
    rows = _rows(db, suite)
    ok = [r for r in rows if r.get("status") == "FEASIBLE" and r.get("sum_flow") is not None]
    ch4 = [r for r in ok if str(r["group"]).startswith("ch4")]
    ch5 = [r for r in ok if not str(r["group"]).startswith("ch4")]
    runs = _runs(db, suite)
    cpu: dict[str, float] = defaultdict(float)
    cells: dict[str, int] = defaultdict(int)
    for r in rows:
        cpu[r["group"]] += float(r.get("runtime_s") or 0.0)
        cells[r["group"]] += 1
    out: dict = {
        "suite": suite,
        "cells": len(rows),
        "failed": sum(1 for r in rows if r.get("status") not in ("FEASIBLE", "OPTIMAL")),
        "runs": [
            {
                "started_at": r.get("started_at"),
                "ended_at": r.get("ended_at"),
                "wall_s": _seconds(r.get("started_at"), r.get("ended_at")),
                "git_commit": r.get("git_commit"),
                "executor": r.get("executor"),
                "cells_planned": r.get("cells_planned"),
                "cells_done": r.get("cells_done"),
                "status": r.get("status"),
            }
            for r in runs
        ],
        "groups": [{"group": g, "cells": cells[g], "cell_seconds": round(cpu[g], 2)} for g in cells],
    }
    out["wall_s"] = sum(r["wall_s"] or 0.0 for r in out["runs"])
    names = configurations_in_order(r["_config"] for r in ch5)
    configs = {c: chapter5([r for r in ch5 if r["_config"] == c]) for c in names}
    if configs:
        out |= next(iter(configs.values()))
    out["configurations"] = [{"name": c} | v for c, v in configs.items()]
    basic4 = {r["instance_id"]: r["makespan"] for r in ch4 if r["_variant"] == "basic"}
    out["chapter4"] = [
        {
            "variant": v,
            "instances": len(rs),
            "makespan_vs_basic": statistics.fmean(r["makespan"] / basic4[r["instance_id"]] for r in rs) - 1.0,
            "contiguous_share": statistics.fmean(r["contiguous_share"] for r in rs),
            "local_share": statistics.fmean(r["local_share"] for r in rs),
        }
        for v in ("basic", "becont", "cont", "beloc", "loc")
        if (rs := [r for r in ch4 if r["_variant"] == v and r["instance_id"] in basic4])
    ]
    return out


def compare(db: Path, other: Path) -> dict:
    """Finished cells of ``db``'s paper-batch run also finished in ``other`` (any suite, e.g.
    ``benchmarks/batch-paper-20.toml``), matched by (instance name, method label), and how many have equal metrics."""

    def index(path: Path, suite: str | None) -> dict:
        return {(r["instance"], r["method_label"]): r for r in _rows(path, suite) if r.get("status") == "FEASIBLE"}

    a, b = index(db, "paper-batch"), index(other, None)
    shared = sorted(set(a) & set(b))
    metrics = [m for m, *_ in CH5_METRICS] + ["makespan", "objective"]

    def same(x: dict, y: dict) -> bool:
        for m in metrics:
            u, v = x.get(m), y.get(m)
            if (u is None) != (v is None) or (u is not None and not math.isclose(u, v, rel_tol=1e-12, abs_tol=0)):
                return False
        return x.get("status") == y.get("status")

    differ = [list(k) for k in shared if not same(a[k], b[k])]
    return {"other": str(other), "shared_cells": len(shared), "equal": len(shared) - len(differ), "differ": differ}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=Path("paper-batch.sqlite"), help="the result store (SQLite)")
    parser.add_argument("--run", action="store_true", help="run (or resume) the suite into --db first")
    parser.add_argument("-j", "--workers", type=int, default=2, help="local worker processes for --run")
    parser.add_argument("--scheduler", default=None, help="run on the Dask scheduler at this address instead")
    parser.add_argument("--compare", type=Path, default=None, help="another store: check the cells both hold agree")
    parser.add_argument(
        "--suite",
        default="paper-batch",
        help="the suite: paper-batch, paper-batch-author, or a file such as benchmarks/batch-readings-20.toml "
        "(the record is named after it)",
    )
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    started = start_record()
    with tempfile.TemporaryDirectory() as tmp:
        suite = args.suite
        if args.smoke:
            suite = str(Path(tmp) / "paper-batch-smoke.toml")
            Path(suite).write_text(SMOKE_SUITE)
            args.db, args.run, args.workers = Path(tmp) / "smoke.sqlite", True, 1
        if args.run:
            where = ["--scheduler", args.scheduler] if args.scheduler else ["-j", str(args.workers)]
            argv = ["bench", "run", suite, *where, "--db", str(args.db), "-q"]
            print("# coschedopt", " ".join(argv), flush=True)
            if cli.main(argv) != 0:
                raise SystemExit(f"coschedopt {' '.join(argv)} failed")
        results = summarise(args.db, suite_name(suite))
        if args.compare is not None:
            results["compare"] = compare(args.db, args.compare)
    print(f"# cells {results['cells']}, failed {results['failed']}, wall {results['wall_s']:.0f} s over "
          f"{len(results['runs'])} run(s); load after: {load_average()}")  # fmt: skip
    for g in results["groups"]:
        print(f"#   {g['group']}: {g['cells']} cells, {g['cell_seconds']:.0f} cell-seconds")
    if "compare" in results:
        c = results["compare"]
        print(f"# compared with {c['other']}: {c['equal']} of {c['shared_cells']} shared cells equal")
    name = "paper-batch" if args.smoke else suite_name(args.suite)
    path = write_record(name, results, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"# record {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
