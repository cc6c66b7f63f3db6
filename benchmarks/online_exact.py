"""Target: ``milp`` and ``cpsat`` prove the offline optimum of n = 15 tasks on 3 processors in
<= 10 s, for every objective.

Instances: ``coschedopt generate online random`` (the family note's gap protocol:
heavy-tailed integer sizes in [1, 50], releases at offered load ``--load``, 0.9 by default;
1.5 queues more), seeds 0..k-1, each
with each of the six objectives; both methods with a 60 s limit (CP-SAT with ``--workers``
workers, default 1).  The table gives, per objective and method, how many were proven, the
median and the largest time, and whether the two optima agree.  The load of the machine is
printed with the table.

    python benchmarks/online_exact.py                 # 10 seeds
    python benchmarks/online_exact.py --quick         # 2 seeds

Every solve's status and time go to the record ``benchmarks/results/online_exact.json``
(``online_exact_load1.5.json`` for ``--load 1.5``).
"""

from __future__ import annotations

import argparse
import math
import statistics
from datetime import UTC, datetime
from pathlib import Path

import coschedopt as cs
from coschedopt.bench.provenance import (
    add_record_arguments,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)
from coschedopt.core import Status
from coschedopt.online import OBJECTIVES
from coschedopt.online.generate import random_instance

TARGET_S = 10.0
RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--tasks", type=int, default=15)
    parser.add_argument("--processors", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1, help="CP-SAT workers")
    parser.add_argument("--load", type=float, default=0.9, help="offered load of the releases (default 0.9)")
    parser.add_argument("--out", type=Path, default=None, help="append the table to this file")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    seeds = range(2 if args.quick else args.seeds)
    if args.smoke:
        seeds, args.tasks, args.out = range(1), 5, None
    started = start_record()
    commit = (started["git_commit"] or "unknown")[:7]
    runs = []
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit}: n = {args.tasks}, m = {args.processors}, "
        f"load {args.load}, seeds 0..{len(seeds) - 1}, CP-SAT workers {args.workers}",
        f"load average before: {started['load_before']}",
        "",
        "| objective | method | proven | median (s) | max (s) | target <= 10 s | optima agree |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for objective in OBJECTIVES:
        results: dict[str, list] = {"milp": [], "cpsat": []}
        for seed in seeds:
            inst = random_instance(args.tasks, args.processors, load=args.load, objective=objective, seed=seed)
            results["milp"].append(cs.solve(inst, "milp", time_limit=60))
            results["cpsat"].append(cs.solve(inst, "cpsat", time_limit=60, workers=args.workers))
        agree = sum(
            math.isclose(a.objective, b.objective, rel_tol=1e-6)
            for a, b in zip(results["milp"], results["cpsat"], strict=True)
            if a.status is b.status is Status.OPTIMAL
        )
        for name, res in results.items():
            runs += [
                {"objective": objective, "method": name, "seed": seed, "status": str(r.status), "seconds": r.runtime}
                | {"value": r.objective}
                for seed, r in zip(seeds, res, strict=True)
            ]
            times = [r.runtime for r in res]
            proven = sum(r.status is Status.OPTIMAL for r in res)
            ok = proven == len(res) and max(times) <= TARGET_S
            row = (
                f"| {objective} | {name} | {proven}/{len(res)} | {statistics.median(times):.2f} | {max(times):.2f} "
                f"| {'met' if ok else 'MISSED'} | {agree}/{len(res)} |"
            )
            lines.append(row)
            print(row, flush=True)
    lines.append(f"load average after: {load_average()}")
    print(lines[-1])
    if args.out:
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n\n")
    name = "online_exact" if args.load == 0.9 else f"online_exact_load{args.load:g}"
    path = write_record(name, runs, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"record {path}")


if __name__ == "__main__":
    main()
