"""Pricing the pairwise model at K = 2: branch-and-bound against a MIP (HiGHS) and CP-SAT, same duals.

The column generation's pricing problem, max over |S| <= K of sum_{i in S} y_i a(i, S), is a
polynomial of degree K in the membership variables.  At K = 2 it is quadratic and has the
standard linearisation, one variable z_ij per pair:

    max  sum_i y_i x_i - sum_{i<j} c_ij z_ij     c_ij = y_i (1 - d_ij) + y_j (1 - d_ji) >= 0
    s.t. z_ij >= x_i + x_j - 1,  sum_i x_i <= 2,  x binary, z in [0, 1]

(f({i, j}) = y_i d_ij + y_j d_ji = y_i + y_j - c_ij; only tasks with y_i > 0 are variables).
For each n, the duals are those of the column generation's last master (the proof round,
where the most sets price near 1) and y = 1 (FCS's pricing).  Each pricer is timed once on
them and must return the same maximum; K >= 3 needs a variable per triple and is not tried.

    .venv/bin/python benchmarks/combos_pricing_compare.py            # n = 50, 100, 200, 400
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.combos.exact.colgen import solve_colgen
from coschedopt.combos.pairwise import random_pairwise_instance
from coschedopt.combos.pricing import compile_kernels, price_exact

RESULTS = Path(__file__).resolve().parent / "results"


def mip_highs(d: np.ndarray, y: np.ndarray, time_limit: float) -> float:
    import highspy

    idx = np.flatnonzero(y > 0)
    r = idx.size
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", time_limit)
    inf = highspy.kHighsInf
    for i in idx:  # x_i
        h.addVar(0.0, 1.0)
        h.changeColCost(h.getNumCol() - 1, -float(y[i]))
    h.changeColsIntegrality(r, np.arange(r, dtype=np.int32), np.ones(r, dtype=np.uint8))
    h.addRow(-inf, 2.0, r, np.arange(r, dtype=np.int32), np.ones(r))
    for a in range(r):
        for b in range(a + 1, r):
            i, j = idx[a], idx[b]
            c = float(y[i] * (1 - d[i, j]) + y[j] * (1 - d[j, i]))
            h.addVar(0.0, 1.0)
            col = h.getNumCol() - 1
            h.changeColCost(col, c)
            # z - x_a - x_b >= -1
            h.addRow(-1.0, inf, 3, np.array([col, a, b], dtype=np.int32), np.array([1.0, -1.0, -1.0]))
    h.run()
    return -float(h.getInfo().objective_function_value)


def cpsat(d: np.ndarray, y: np.ndarray, time_limit: float, scale: float = 1e6) -> float:
    from ortools.sat.python import cp_model

    idx = np.flatnonzero(y > 0)
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in idx]
    m.Add(sum(x) <= 2)
    terms = [int(round(scale * y[i])) * x[a] for a, i in enumerate(idx)]
    for a in range(len(idx)):
        for b in range(a + 1, len(idx)):
            i, j = idx[a], idx[b]
            c = int(round(scale * (y[i] * (1 - d[i, j]) + y[j] * (1 - d[j, i]))))
            z = m.NewBoolVar("")
            m.Add(z >= x[a] + x[b] - 1)
            terms.append(-c * z)
    m.Maximize(sum(terms))
    s = cp_model.CpSolver()
    s.parameters.max_time_in_seconds = time_limit
    s.parameters.num_workers = 1
    s.Solve(m)
    return s.ObjectiveValue() / scale


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50,100,200,400")
    ap.add_argument("--time-limit", type=float, default=60.0, help="per MIP / CP-SAT solve")
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args()
    sizes = [30, 60] if args.smoke else [int(x) for x in args.sizes.split(",")]
    started = start_record()
    compile_kernels()
    rows = []
    print("| n | duals | branch-and-bound s (max f) | HiGHS MIP s (max f) | CP-SAT s (max f) | load |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in sizes:
        inst = random_pairwise_instance(n, 2, seed=0)
        last = solve_colgen(inst)["duals"]
        for label, y in (("last master", last), ("y = 1", np.ones(n))):
            row = {"n": n, "duals": label, "load_1min": os.getloadavg()[0]}
            t = time.perf_counter()
            row["bnb_max"] = price_exact(inst.factors, y, 2, threshold=-np.inf, keep=1).values[0]
            row["bnb_s"] = time.perf_counter() - t
            for name, fn in (("mip", mip_highs), ("cpsat", cpsat)):
                t = time.perf_counter()
                row[f"{name}_max"] = fn(inst.factors, y, args.time_limit)
                row[f"{name}_s"] = time.perf_counter() - t
            rows.append(row)
            print(
                f"| {n} | {label} | {row['bnb_s']:.4f} ({row['bnb_max']:.9f}) | {row['mip_s']:.2f} "
                f"({row['mip_max']:.9f}) | {row['cpsat_s']:.2f} ({row['cpsat_max']:.6f}) | {row['load_1min']:.1f} |",
                flush=True,
            )
    path = write_record(
        "combos_pricing_compare", rows, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"# record {path}")


if __name__ == "__main__":
    main()
