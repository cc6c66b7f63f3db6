"""LP (2) by column generation on the pairwise interference model: n x combination size.

For each (K, n) of the grid, one random pairwise system (``generate combos pairwise``,
alpha in [0.75, 0.85], seed 0) is solved by ``lp`` (column generation, default options)
in this process, sequentially.  Reported per row: the combinations the LP ranges over,
the columns generated, the pricing rounds (and how many were exact), seconds (the
method's own time, numba compilation excluded), the optimum and the certified dual
bound, FCS's makespan over the optimum, and -- where the combinations can be listed
(at most ``--list-max`` of them, n x m <= 2.5e7 speeds, and n <= 22 or K = 2: the explicit
instance checks constraint (1) pair by pair above 22 tasks) -- the optimum and seconds of
LP (2) over the explicit list (``backend=highspy``: the full enumeration at K = n), which
must agree.  The load
average is noted beside each row.

Before the column generation the family refused every row with n > 62 (combinations
were int64 bitmasks: "at most 62 tasks per instance") and solved the others only by
listing every combination, refused above 2^22 of them.

The record goes to ``benchmarks/results/combos_colgen_scaling.json`` and the table,
markdown, beside it (``.md``); ``benchmarks/results/combos-notes.md`` quotes it.

    .venv/bin/python benchmarks/combos_colgen_scaling.py             # the grid below, ~3 min
    .venv/bin/python benchmarks/combos_colgen_scaling.py --smoke     # seconds
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import coschedopt as cs
from coschedopt.bench.provenance import (
    add_record_arguments,
    cpu_model,
    parameters,
    record_from_args,
    start_record,
    write_record,
)
from coschedopt.combos.pairwise import count_combinations, random_pairwise_instance

RESULTS = Path(__file__).resolve().parent / "results"

#: (K, n): K = 2 up to n = 5,000, K = 4 up to 500, larger K at smaller n, and K = n = 20 (every combination)
GRID = [
    (2, 20),
    (2, 63),
    (2, 200),
    (2, 1000),
    (2, 2000),
    (2, 5000),
    (3, 20),
    (3, 63),
    (3, 200),
    (3, 500),
    (4, 20),
    (4, 63),
    (4, 200),
    (4, 300),
    (4, 500),
    (5, 200),
    (6, 60),
    (6, 100),
    (20, 20),
]
SMOKE_GRID = [(2, 20), (3, 30), (8, 8)]


def run_row(k: int, n: int, seed: int, list_max: int, time_limit: float) -> dict:
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    inst = random_pairwise_instance(n, k, seed=seed)
    gen = time.perf_counter() - t0
    res = cs.solve(inst, "lp", time_limit=time_limit)
    fcs = cs.solve(inst, "fcs")
    row = {
        "k": k,
        "n": n,
        "seed": seed,
        "combinations": count_combinations(n, k),
        "status": res.status.value,
        "columns": res.stats["columns_generated"],
        "rounds": res.stats["rounds"],
        "exact_rounds": res.stats["exact_pricing_rounds"],
        "seconds": res.runtime,
        "pricing_seconds": res.stats["pricing_seconds"],
        "lp_seconds": res.stats["lp_seconds"],
        "optimum": res.objective,
        "bound": res.lower_bound,
        "gap": res.gap,
        "fcs_over_opt": fcs.objective / res.objective,
        "fcs_seconds": fcs.runtime,
        "generate_seconds": gen,
        "load_1min": load,
    }
    # listing is dense (n x m speeds) and its constructor checks constraint (1) pairwise above 22 tasks
    if row["combinations"] <= list_max and n * row["combinations"] <= 25_000_000 and (n <= 22 or k == 2):
        ex = cs.solve(inst, "lp", backend="highspy", time_limit=time_limit)
        row.update(listed_optimum=ex.objective, listed_seconds=ex.runtime, listed_status=ex.status.value)
        row["listed_rel_diff"] = abs(ex.objective - res.objective) / ex.objective
    return row


def table(rows: list[dict]) -> str:
    head = (
        "| K | n | combinations | columns | rounds (exact) | seconds | optimum | dual bound | gap | "
        "listed LP optimum (s) | FCS/OPT | before | load |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n"
    )
    lines = []
    for r in rows:
        listed = f"{r['listed_optimum']:.6f} ({r['listed_seconds']:.2f})" if "listed_optimum" in r else "too many"
        if r["n"] > 62:
            before = "refused (n > 62)"
        elif r["combinations"] > 2**22:
            before = "refused (> 2^22 combinations)"
        else:
            before = f"listed: {r['combinations']:,} columns"
        lines.append(
            f"| {r['k']} | {r['n']:,} | {r['combinations']:,} | {r['columns']:,} | {r['rounds']} ({r['exact_rounds']}) "
            f"| {r['seconds']:.2f} | {r['optimum']:.6f} | {r['bound']:.6f} | {r['gap']:.1e} | {listed} "
            f"| {r['fcs_over_opt']:.4f} | {before} | {r['load_1min']:.1f} |"
        )
    return head + "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--list-max", type=int, default=1_100_000, help="list the combinations up to this many")
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--render", type=Path, default=None, help="only rewrite the table of this record")
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args()
    if args.render is not None:
        rows = json.loads(args.render.read_text())["results"]
        args.render.with_suffix(".md").write_text(table(rows))
        return
    grid = SMOKE_GRID if args.smoke else GRID
    started = start_record()
    cs.solve(random_pairwise_instance(4, 2), "lp")  # compile the pricing kernels (numba cache) before timing
    rows = []
    for k, n in grid:
        row = run_row(k, n, args.seed, args.list_max, args.time_limit)
        rows.append(row)
        print(table([row]).splitlines()[-1], flush=True)
    path = write_record(
        "combos_colgen_scaling",
        rows,
        started=started,
        parameters=parameters(args),
        cpu=cpu_model(),
        **record_from_args(args),
    )
    md = args.results_dir / ("combos_colgen_scaling.smoke.md" if args.smoke else "combos_colgen_scaling.md")
    md.write_text(table(rows))
    print(f"# record {path}\n# table {md}")


if __name__ == "__main__":
    main()
