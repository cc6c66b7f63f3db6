"""Table 1 of the pack co-scheduling paper: running times of the seven heuristics, ours beside theirs.

For Workload-I (10 tasks, p = 16), Workload-II (65 tasks, p = 16) and Workload-III
(260 tasks, p = 32), every heuristic is called ``--repeats`` times (after one warm-up
call) and the median wall time (``--stat min``: the minimum, which shows the cost
without preemption on a shared machine) is printed in milliseconds, with the paper's
figure and the ratio ours / paper.  The registered functions are called directly (no
``solve()``: no re-validation, no cost recomputation); ``--via-solve`` adds the same
statistic through ``coschedopt.solve`` (which validates the schedule and recomputes
its cost).  The record ``benchmarks/results/pack_table1.json`` keeps both statistics.

Instances: ``coschedopt.pack.generate.workload_i/ii/iii`` when they exist (measured
lilac-threads profiles for Workload-I, the paper's synthetic model for II and III),
else random instances of the same sizes.  By default k = 10, 16 and 32 (the largest
pack size of each workload); ``--k-sweep`` averages the statistic over the paper's pack
sizes instead (W-I: 2..10 step 2, W-II: 2..16 step 2, W-III: 2, 4, 8, 16, 32 -- the
paper does not list its W-III sizes, these are ours).  The paper does not say what
machine or language its times come from; the figures here depend on the load of the
machine, printed at the top.

    nice .venv/bin/python benchmarks/pack_table1.py
    .venv/bin/python benchmarks/pack_table1.py --repeats 50 --via-solve
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import coschedopt as cs
from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.pack import generate
from coschedopt.pack.heuristics import HEURISTIC_FUNCTIONS, HEURISTICS
from coschedopt.pack.instance import PackInstance

#: Table 1 of the paper, milliseconds: (Workload-I, Workload-II, Workload-III)
PAPER_MS = {
    "pack-approx": (0.50, 0.30, 5.12),
    "pack-by-pack-1": (0.03, 0.12, 0.53),
    "pack-by-pack-9": (0.30, 1.17, 5.07),
    "random-pack-1": (0.07, 0.34, 9.30),
    "random-pack-9": (0.67, 2.71, 87.25),
    "random-proc-1": (0.05, 0.26, 4.49),
    "random-proc-9": (0.47, 2.26, 39.54),
}

RESULTS = Path(__file__).resolve().parent / "results"
WORKLOADS = ("Workload-I", "Workload-II", "Workload-III")
#: (n, p, default k, the k of --k-sweep)
SIZES = {
    "Workload-I": (10, 16, 10, (2, 4, 6, 8, 10)),
    "Workload-II": (65, 16, 16, (2, 4, 6, 8, 10, 12, 14, 16)),
    "Workload-III": (260, 32, 32, (2, 4, 8, 16, 32)),
}


def make_instance(workload: str, k: int, seed: int) -> PackInstance:
    """The paper-sized instance: the library's workload generator if present, else a random one."""
    n, p, _, _ = SIZES[workload]
    factory = {"Workload-I": "workload_i", "Workload-II": "workload_ii", "Workload-III": "workload_iii"}[workload]
    make = getattr(generate, factory, None)
    if make is not None:
        inst = make(seed=seed, max_pack_size=k)
        if (inst.n, inst.processors) != (n, p):
            raise SystemExit(f"{factory} gave {inst.n} tasks on {inst.processors} processors, expected {n} x {p}")
        return inst
    return generate.random_pack_instance(n, p, k, seed=seed)


def timings_ms(call: Callable[[], object], repeats: int) -> dict[str, float]:
    """Median and minimum wall time of ``repeats`` calls after one warm-up, in milliseconds."""
    call()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return {"median": 1000 * statistics.median(times), "min": 1000 * min(times)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--repeats", type=int, default=20, help="timed calls per cell (median reported; default 20)")
    ap.add_argument("--seed", type=int, default=0, help="instance seed (default 0)")
    ap.add_argument("--heuristic-seed", type=int, default=0, help="seed of the random heuristics (default 0)")
    ap.add_argument("--k-sweep", action="store_true", help="average over the paper's pack sizes instead of the largest")
    ap.add_argument("--via-solve", action="store_true", help="also time each heuristic through coschedopt.solve")
    ap.add_argument(
        "--stat",
        choices=("median", "min"),
        default="median",
        help="statistic printed (default median; min shows the cost without preemption on a shared machine)",
    )
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be >= 1")
    if args.smoke:
        args.repeats = 1
    started = start_record()
    load = started["load_before"] or [float("nan")] * 3
    print(
        f"# {platform.node()} | {platform.processor() or platform.machine()} | {os.cpu_count()} CPUs | "
        f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} | Python {platform.python_version()} | numpy {np.__version__}"
    )
    instances: dict[str, list[PackInstance]] = {}
    for w in WORKLOADS:
        n, p, k_default, k_sweep = SIZES[w]
        instances[w] = [make_instance(w, k, args.seed) for k in (k_sweep if args.k_sweep else (k_default,))]
        names = ", ".join(f"{inst.name} (k={inst.k})" for inst in instances[w])
        print(f"# {w}: n = {n}, p = {p}: {names}")
    print(f"# {args.stat} of {args.repeats} calls after one warm-up, milliseconds; ratio = ours / paper")

    results: dict[str, dict[str, dict[str, float]]] = {}
    for name in HEURISTICS:
        func = HEURISTIC_FUNCTIONS[name]
        results[name] = {}
        for w in WORKLOADS:
            direct = [
                timings_ms(lambda f=func, i=inst: f(i, seed=args.heuristic_seed), args.repeats) for inst in instances[w]
            ]
            cell = {
                "ours_ms": float(np.mean([d[args.stat] for d in direct])),
                "ours_median_ms": float(np.mean([d["median"] for d in direct])),
                "ours_min_ms": float(np.mean([d["min"] for d in direct])),
                "paper_ms": PAPER_MS[name][WORKLOADS.index(w)],
            }
            if args.via_solve:
                via = [
                    timings_ms(lambda i=inst, m=name: cs.solve(i, m, seed=args.heuristic_seed), args.repeats)
                    for inst in instances[w]
                ]
                cell["solve_ms"] = float(np.mean([v[args.stat] for v in via]))
            cell["ratio"] = cell["ours_ms"] / cell["paper_ms"]
            results[name][w] = cell

    col = 32 if args.via_solve else 24
    head = f"{'heuristic':<16}" + "".join(f"{w:^{col}}" for w in WORKLOADS)
    sub = f"{'':<16}" + "".join(
        (
            f"{'ours':>8}{'solve':>8}{'paper':>8}{'ratio':>8}"
            if args.via_solve
            else f"{'ours':>8}{'paper':>8}{'ratio':>8}"
        )
        for _ in WORKLOADS
    )
    print(head)
    print(sub)
    for name in HEURISTICS:
        row = f"{name:<16}"
        for w in WORKLOADS:
            c = results[name][w]
            row += f"{c['ours_ms']:8.2f}"
            if args.via_solve:
                row += f"{c['solve_ms']:8.2f}"
            row += f"{c['paper_ms']:8.2f}{c['ratio']:8.2f}"
        print(row)
    slower = [(n, w) for n in HEURISTICS for w in WORKLOADS if results[n][w]["ratio"] > 1]
    print("# cells slower than the paper: " + (", ".join(f"{n} on {w}" for n, w in slower) or "none"))

    meta = {
        "stat": args.stat,
        "instances": {w: [i.name for i in instances[w]] for w in WORKLOADS},
        "paper_ms": {name: dict(zip(WORKLOADS, PAPER_MS[name], strict=True)) for name in HEURISTICS},
    }
    path = write_record(
        "pack_table1",
        {"meta": meta, "cells": results},
        started=started,
        parameters=parameters(args),
        **record_from_args(args),
    )
    print(f"# record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
