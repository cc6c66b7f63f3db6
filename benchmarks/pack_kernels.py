"""Compiled pricing kernels (:mod:`coschedopt.pack.exact.bnp.kernels`) against the numpy/Python
reference code they replace, measured in the same process on the same inputs.

For Workload-III (seed 0) at k = 16 and k = 32: the batched knapsack DP of 64 random
cost levels at random duals (:func:`.knapsack.knapsack_values`), the best set of one level
(:func:`.knapsack.best_set_at_level`, 64 levels) and the cheapest level of 1000 random
task sets (:meth:`.levels.LevelTable.min_level`); and the depth-first enumeration of
the columns below a reduced-cost gap (:func:`.enumeration.enumerate_level`, four levels of a
random 60-task instance, p = 32, k = 5, about 19 000 columns).  Each figure is the
median over ``--repeat`` runs, after one warm-up run (which loads the numba cache).
Both codes return the same values (tests/pack/bnp/test_kernels.py).

    .venv/bin/python benchmarks/pack_kernels.py

writes the record ``benchmarks/results/pack_kernels.json`` (``--out FILE`` also a Markdown table).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.pack.exact.bnp import kernels
from coschedopt.pack.exact.bnp.enumeration import enumerate_level
from coschedopt.pack.exact.bnp.knapsack import best_set_at_level, knapsack_values
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.generate import random_pack_instance, workload_iii

RESULTS = Path(__file__).resolve().parent / "results"


def timed(fn, repeat: int) -> float:
    """Median seconds of ``fn()`` over ``repeat`` runs after one warm-up run."""
    fn()
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def compare(fn, repeat: int) -> tuple[float, float]:
    """(compiled, reference) median seconds of ``fn``."""
    out = []
    for compiled in (True, False):
        kernels.COMPILED = compiled
        try:
            out.append(timed(fn, repeat))
        finally:
            kernels.COMPILED = True
    return out[0], out[1]


def workload_cases(k: int, repeat: int):
    """The three DP kernels on Workload-III seed 0 at pack size ``k``."""
    inst = workload_iii(seed=0, max_pack_size=k)
    table = LevelTable(inst.times)
    rng = np.random.default_rng(0)
    levels = np.sort(rng.choice(table.L, 64, replace=False))
    pi = rng.random(inst.n) * float(table.tau.mean()) / k * 1.5
    sets = [rng.choice(inst.n, rng.integers(1, k + 1), replace=False) for _ in range(1000)]
    name = f"Workload-III k = {k}"
    yield name, "batched DP, 64 levels", compare(lambda: knapsack_values(table, levels, pi, k), repeat)
    best_sets = compare(lambda: [best_set_at_level(table, int(lv), pi, k, want_set=True) for lv in levels], repeat)
    yield name, "best set of a level, 64 levels", best_sets
    yield name, "cheapest level, 1000 sets", compare(lambda: [table.min_level(s) for s in sets], repeat)


def cases(repeat: int, smoke: bool = False):
    if smoke:  # one kernel, to check the script
        yield next(workload_cases(16, repeat))
        return
    yield from workload_cases(16, repeat)
    yield from workload_cases(32, repeat)
    inst = random_pack_instance(60, 32, 5, seed=3)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    pi = np.full(inst.n, float(table.tau.max()) / 5)

    def enumerate_four_levels() -> None:
        out: list = []
        for lv in (0.6, 0.7, 0.8, 0.9):
            enumerate_level(table, int(lv * table.L), pi, 5, float(table.tau.max()), out, 10**6)

    yield "random n = 60, p = 32, k = 5", "enumeration, 4 levels", compare(enumerate_four_levels, max(1, repeat // 4))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--out", type=Path, default=None, help="Markdown report (printed in any case)")
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args(argv)
    if not kernels.COMPILED:
        ap.error("numba is not installed: there are no compiled kernels to measure")
    if args.smoke:
        args.repeat = 1
    started = start_record()
    rows = []
    lines = [
        "| instance | operation | compiled ms | reference ms | speed-up |",
        "|---|---|---:|---:|---:|",
    ]
    print(lines[0], flush=True)
    for name, what, (fast, ref) in cases(args.repeat, args.smoke):
        rows.append({"instance": name, "operation": what, "compiled_s": fast, "reference_s": ref})
        lines.append(f"| {name} | {what} | {fast * 1e3:.2f} | {ref * 1e3:.2f} | {ref / fast:.1f}x |")
        print(lines[-1], flush=True)
    if args.out:
        cmd = "    .venv/bin/python benchmarks/pack_kernels.py" + (
            f" --repeat {args.repeat}" if args.repeat != 20 else ""
        )
        args.out.write_text(
            "# Compiled pricing kernels against the numpy/Python reference\n\n"
            f"Measured by\n\n{cmd}\n\n(median of the runs, one process, 2-core machine)\n\n" + "\n".join(lines) + "\n"
        )
    path = write_record("pack_kernels", rows, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"# record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
