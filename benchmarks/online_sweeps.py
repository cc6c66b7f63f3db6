"""Thesis Figures 3.3-3.6 at full scale: SPT-RD's mean total stretch and total flow over the 20
Method C instances of Curie (m_d, τ in 1..10) and LLNL-Thunder (m_d in 1..10, τ in 1..5),
metrics only (the suite ``paper-online-sweeps`` stores every schedule, so it runs Curie on one
instance), and trend 1 of the chapter judged on them (:func:`coschedopt.online.trends.trend_1`).

Writes ``online_sweeps.csv`` (one row per instance and setting), ``online_sweep_<trace>.png``
(the four panels of the thesis's figures) and appends the verdict to ``online_sweeps.md`` in
``--out``.  Runs one instance per process, ``--processes`` at a time (default 2).

    COSCHEDOPT_TRACES=/path/to/traces python benchmarks/online_sweeps.py --out benchmarks/results/online
    COSCHEDOPT_TRACES=/path/to/traces python benchmarks/online_sweeps.py --quick --out /tmp/sweeps
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.online.method_c import method_c_instance
from coschedopt.online.metrics import objective_values
from coschedopt.online.report import sweep_figure
from coschedopt.online.simulators.policies import simulate
from coschedopt.online.simulators.rules import PolicyRun
from coschedopt.online.trends import trend_1

GRIDS = {"curie": (range(1, 11), range(1, 11)), "llnl-thunder": (range(1, 11), range(1, 6))}
QUICK = {"curie": ((1, 4, 7, 10), (1, 4, 7, 10)), "llnl-thunder": ((1, 4, 7, 10), (1, 3, 5))}
SMOKE = {"curie": ((1, 2), (1, 2)), "llnl-thunder": ((1, 2), (1, 2))}
#: --smoke reads the trace excerpts shipped with the tests, one-day windows
EXCERPTS = {
    "curie": Path(__file__).resolve().parents[1] / "tests/data/traces/CEA-Curie-2011-2.1-cln-first3000.swf.gz",
    "llnl-thunder": Path(__file__).resolve().parents[1] / "tests/data/traces/LLNL-Thunder-2007-1.1-cln-first300.swf.gz",
}


def sweep_instance(job: tuple[str, int, tuple[int, ...], tuple[int, ...], bool]) -> list[dict]:
    """Every (m_d, τ) of SPT-RD on one instance: ΣS, ΣF, redirections, wasted share."""
    trace, seed, mds, taus, smoke = job
    inst = (
        method_c_instance(EXCERPTS[trace], window_days=1, seed=seed) if smoke else method_c_instance(trace, seed=seed)
    )
    rows = []
    for md in mds:
        for tau in taus:
            schedule = simulate(inst, PolicyRun("spt-rd", dedicated=md, tau=tau))
            values = objective_values(inst, schedule.completion_times(inst))
            rows.append(
                {
                    "trace": trace,
                    "seed": seed,
                    "dedicated": md,
                    "tau": tau,
                    "n": inst.n,
                    "m": inst.processors,
                    "sum_stretch": values["sum-stretch"],
                    "sum_flow": values["sum-flow"],
                    "redirections": schedule.redirections(inst.processors),
                    "wasted_share": schedule.wasted_work() / float(inst.time.sum()),
                }
            )
    print(f"{trace} seed {seed} done ({inst.n} tasks)", file=sys.stderr, flush=True)
    return rows


def means_of(rows: list[dict], trace: str) -> dict[tuple[int, int], dict[str, float]]:
    acc: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        if r["trace"] == trace:
            acc[(r["dedicated"], r["tau"])].append((r["sum_stretch"], r["sum_flow"]))
    return {
        k: {"sum_stretch": float(np.mean([a for a, _ in v])), "sum_flow": float(np.mean([b for _, b in v]))}
        for k, v in acc.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 instances per trace, a 4 x 4 (3) grid")
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="tables and figures (default RESULTS_DIR/online)")
    add_record_arguments(parser, Path(__file__).resolve().parent / "results")
    args = parser.parse_args()
    grids = QUICK if args.quick else {k: (tuple(a), tuple(b)) for k, (a, b) in GRIDS.items()}
    seeds = range(2 if args.quick else args.instances)
    if args.smoke:
        grids, seeds, args.processes = SMOKE, range(1), 1
    args.out = args.out or args.results_dir / "online"
    jobs = [(trace, seed, *grids[trace], args.smoke) for trace in grids for seed in seeds]
    started = start_record()
    commit, load = (started["git_commit"] or "unknown")[:7], started["load_before"]
    start = time.perf_counter()
    with get_context("spawn").Pool(args.processes) as pool:
        rows = [r for part in pool.imap_unordered(sweep_instance, jobs) for r in part]
    seconds = time.perf_counter() - start
    rows.sort(key=lambda r: (r["trace"], r["seed"], r["dedicated"], r["tau"]))
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "-smoke" if args.smoke else "-quick" if args.quick else ""
    with (args.out / f"online_sweeps{suffix}.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    curie, thunder = means_of(rows, "curie"), means_of(rows, "llnl-thunder")
    for trace, sweep in (("curie", curie), ("llnl-thunder", thunder)):
        (args.out / f"online_sweep_{trace}{suffix}.png").write_bytes(sweep_figure(sweep, trace))
    verdict = trend_1(curie, thunder)
    text = (
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit}: {len(seeds)} instances per trace, "
        f"{len(rows)} simulations in {seconds:.0f} s on {args.processes} processes (load before {load})\n"
        f"trend 1: {verdict.verdict}: {verdict.evidence}\n"
    )
    print(text)
    with (args.out / f"online_sweeps{suffix}.md").open("a", encoding="utf-8") as fh:
        fh.write(text + "\n")
    results = {"seconds": seconds, "trend_1": {"verdict": verdict.verdict, "evidence": verdict.evidence}, "rows": rows}
    name = "online_sweeps_quick" if args.quick and not args.smoke else "online_sweeps"
    path = write_record(name, results, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"record {path}")


if __name__ == "__main__":
    main()
