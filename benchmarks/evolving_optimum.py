"""The paper's algorithms and better list orders against the exact optimum the paper did not have.

Small tests (``coschedopt generate evolving small --seed S``: 4-6 applications of 1-4
stages, 500-3600 s in 100 s units, 1-75 nodes, 100 nodes), S = 0 .. tests - 1.  For each,
``cpsat`` proves the minimum makespan for stretch limits 1, 2 and inf and for CBF's rigid
model; every heuristic is measured against the optimum of its own stretch limit
(nos and CBF against l = 1, mic and mic+c against l = 2, inf and inf+c against l = inf;
CBF also against the rigid optimum).  Printed:

1. mean / max gap to the optimum and how often each method is optimal;
2. whether stretching helps at the optimum: how often, and by how much, the optimum with
   l = 2 or l = inf is shorter than without stretching (the paper concluded from its greedy
   that stretching has little value);
3. list orders: Algorithm 2 (nos, and inf+c) in the orders of ``ORDERS`` and the local
   search ``order-search`` against the same optima; and on the paper's own workload
   (``--paper-tests`` tests of 15-20 applications, no optimum), the makespan of each order
   over submission order's.

    .venv/bin/python benchmarks/evolving_optimum.py             # 200 small tests, 100 paper tests, 2 processes
    .venv/bin/python benchmarks/evolving_optimum.py --quick     # 30 and 20

The record ``benchmarks/results/evolving_optimum.json`` holds every test's optima and makespans.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
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
from coschedopt.evolving.generate import SMALL, random_evolving_instance

ROOT = Path(__file__).resolve().parents[1]
INF = math.inf
#: label -> (method, options, the stretch limit of the optimum it is measured against)
HEURISTICS = {
    "cbf": ("cbf", {}, 1.0),
    "nos": ("nos", {}, 1.0),
    "mic": ("mic", {}, 2.0),
    "mic+c": ("mic+c", {}, 2.0),
    "inf": ("inf", {}, INF),
    "inf+c": ("inf+c", {}, INF),
}
ORDER_METHODS = {
    **{f"nos, {o} order": ("nos", {"order": o}, 1.0) for o in ("area", "peak", "length", "stages")},
    "nos, order-search": ("order-search", {"iterations": 300}, 1.0),
    **{f"inf+c, {o} order": ("inf+c", {"order": o}, INF) for o in ("area", "peak", "length", "stages")},
    "inf+c, order-search": ("order-search", {"iterations": 300, "stretch_limit": INF, "compact": True}, INF),
}


def solve_small(args: tuple[int, float]) -> dict:
    """One small test: the optima and every method's makespan."""
    seed, time_limit = args
    inst = random_evolving_instance(seed=seed, **SMALL)
    out: dict = {"seed": seed, "apps": inst.n, "stages": inst.total_stages, "opt": {}, "proven": True, "seconds": {}}
    for key, opts in (
        ("1", {"stretch_limit": 1}),
        ("2", {"stretch_limit": 2}),
        ("inf", {"stretch_limit": INF}),
        ("rigid", {"rigid": True}),
    ):
        res = cs.solve(inst, "cpsat", time_limit=time_limit, seed=0, workers=1, **opts)
        out["opt"][key] = res.objective
        out["seconds"][key] = res.runtime
        out["proven"] &= res.status is cs.Status.OPTIMAL
        if key != "rigid":
            used = sum(a.area for a in inst.applications)
            reserved = sum(
                sum(d * n for d, n in zip(a.durations, a.nodes, strict=True)) for a in res.schedule.applications
            )
            out.setdefault("waste_pct", {})[key] = 100 * (reserved - used) / used
    out["makespan"] = {
        label: cs.solve(inst, name, seed=0, **opts).objective
        for label, (name, opts, _) in {**HEURISTICS, **ORDER_METHODS}.items()
    }
    return out


def solve_paper(seed: int) -> dict:
    """One test of the paper's workload: each order's makespan over submission order's, per variant."""
    inst = random_evolving_instance(seed=seed)
    base = {"nos": cs.solve(inst, "nos").objective, "inf+c": cs.solve(inst, "inf+c").objective}
    return {
        label: cs.solve(inst, name, seed=0, **opts).objective / base[label.split(",")[0]]
        for label, (name, opts, _) in ORDER_METHODS.items()
    }


def reference(row: dict, limit: float) -> float:
    return row["opt"]["1" if limit == 1 else "2" if limit == 2 else "inf"]


def gap_table(rows: list[dict], methods: dict) -> list[str]:
    lines = ["| method | optimum of | mean gap | max gap | optimal |", "|---|---|---:|---:|---:|"]
    for label, (_, _, limit) in methods.items():
        gaps = [(r["makespan"][label] - reference(r, limit)) / reference(r, limit) for r in rows]
        optimal = sum(g <= 1e-9 for g in gaps)
        lines.append(
            f"| {label} | l = {limit:g} | {100 * statistics.mean(gaps):.1f} % | {100 * max(gaps):.1f} % "
            f"| {optimal}/{len(rows)} |"
        )
    if "cbf" in methods:
        gaps = [(r["makespan"]["cbf"] - r["opt"]["rigid"]) / r["opt"]["rigid"] for r in rows]
        lines.append(
            f"| cbf | rigid | {100 * statistics.mean(gaps):.1f} % | {100 * max(gaps):.1f} % "
            f"| {sum(g <= 1e-9 for g in gaps)}/{len(rows)} |"
        )
    return lines


def stretching_lines(rows: list[dict]) -> list[str]:
    lines = [
        "| optimum | shorter than l = 1 on | mean reduction | max reduction | waste at the optimum (mean / max) |",
        "|---|---:|---:|---:|---:|",
    ]
    for key in ("2", "inf"):
        cuts = [(r["opt"]["1"] - r["opt"][key]) / r["opt"]["1"] for r in rows]
        wastes = [r["waste_pct"][key] for r in rows]
        lines.append(
            f"| l = {key} | {sum(c > 1e-9 for c in cuts)}/{len(rows)} | {100 * statistics.mean(cuts):.2f} % "
            f"| {100 * max(cuts):.1f} % | {statistics.mean(wastes):.2f} / {max(wastes):.1f} % |"
        )
    cuts = [(r["opt"]["rigid"] - r["opt"]["1"]) / r["opt"]["rigid"] for r in rows]
    lines.append(
        f"| l = 1 against CBF's rigid optimum | {sum(c > 1e-9 for c in cuts)}/{len(rows)} "
        f"| {100 * statistics.mean(cuts):.1f} % | {100 * max(cuts):.1f} % | 0 |"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", type=int, default=200, help="small tests with the optimum (default 200)")
    parser.add_argument("--paper-tests", type=int, default=100, help="tests of the paper's workload (default 100)")
    parser.add_argument("--quick", action="store_true", help="30 small tests, 20 paper tests")
    parser.add_argument("--time-limit", type=float, default=60, help="seconds per cpsat solve (default 60)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2; cpsat runs 1 worker each)")
    parser.add_argument(
        "--output", default=str(ROOT / "benchmarks/results/evolving_optimum.md"), help="Markdown ('' for none)"
    )
    add_record_arguments(parser, ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    tests, paper_tests = (30, 20) if args.quick else (args.tests, args.paper_tests)
    if args.smoke:
        tests, paper_tests, args.workers, args.time_limit, args.output = 2, 1, 1, 10.0, ""
    started = start_record()
    before = ", ".join(f"{x:.2f}" for x in started["load_before"] or [])
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(solve_small, [(s, args.time_limit) for s in range(tests)]))
        paper = list(pool.map(solve_paper, range(paper_tests)))
    wall = time.perf_counter() - start
    proven = [r for r in rows if r["proven"]]
    seconds = [s for r in rows for s in r["seconds"].values()]
    lines = [
        f"# The paper's algorithms against the optimum: {tests} small tests, {paper_tests} paper tests",
        "",
        f"{dt.date.today().isoformat()}, `python benchmarks/evolving_optimum.py"
        f"{' --quick' if args.quick else ''}` ({args.workers} processes, cpsat 1 worker, {args.time_limit:g} s each); "
        f"load average {before} before, {', '.join(f'{x:.2f}' for x in load_average() or [])} after; {wall:.0f} s in all.",
        "",
        f"Optimum proven for every stretch limit on {len(proven)}/{tests} small tests (the others are left out "
        f"below); cpsat solve time mean {statistics.mean(seconds):.2f} s, max {max(seconds):.2f} s.",
        "",
        "**Gap to the optimum of the same stretch limit** ((makespan - optimum) / optimum):",
        "",
        *gap_table(proven, HEURISTICS),
        "",
        "**Does stretching help at the optimum?**",
        "",
        *stretching_lines(proven),
        "",
        "**List orders against the optimum** (the same small tests):",
        "",
        *gap_table(proven, ORDER_METHODS),
        "",
        f"**List orders on the paper's workload** ({paper_tests} tests of 15-20 applications; makespan over "
        "submission order's for the same variant, mean / min / max; below 1 is better):",
        "",
        "| method | mean | min | max | better than submission on |",
        "|---|---:|---:|---:|---:|",
    ]
    for label in ORDER_METHODS:
        ratios = [p[label] for p in paper]
        lines.append(
            f"| {label} | {statistics.mean(ratios):.3f} | {min(ratios):.3f} | {max(ratios):.3f} "
            f"| {sum(r < 1 for r in ratios)}/{len(ratios)} |"
        )
    text = "\n".join(lines)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
        print(f"wrote {args.output}", file=sys.stderr)
    results = {
        "seconds": wall,
        "limits": {label: limit for label, (_, _, limit) in {**HEURISTICS, **ORDER_METHODS}.items()},
        "heuristics": list(HEURISTICS),
        "orders": list(ORDER_METHODS),
        "small": rows,
        "paper": paper,
    }
    path = write_record(
        "evolving_optimum", results, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"record {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
