"""How the exact pack methods scale with n: the ILP of Theorem 4 (HiGHS, CBC) against enumeration.

For each n, one random instance (coschedopt.pack.generate.random_pack_instance with
seed = 100 * SEED + n) is solved by ``ilp``, ``ilp-cbc`` and ``enumerate`` under a
per-method time limit; one row per n gives each method's wall time and status (with
its gap when stopped), and the optimum.  When all methods prove optimality their
optima must agree (relative tolerance 1e-6), and a method stopped by the limit must hold
a schedule no cheaper and a lower bound no higher than that optimum; the script exits
with status 1 if not.

    .venv/bin/python benchmarks/pack_exact_scaling.py                # n = 6..12, p = 16, k = 4
    .venv/bin/python benchmarks/pack_exact_scaling.py --n-max 9 --time-limit 60 --symmetry-breaking
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import coschedopt as cs
from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.pack.generate import random_pack_instance

RESULTS = Path(__file__).resolve().parent / "results"
METHODS = ("ilp", "ilp-cbc", "enumerate")
ILP_METHODS = ("ilp", "ilp-cbc")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--n-min", type=int, default=6, help="smallest number of tasks (default 6)")
    ap.add_argument("--n-max", type=int, default=12, help="largest number of tasks (default 12)")
    ap.add_argument("--processors", "-p", type=int, default=16, help="processors p (default 16)")
    ap.add_argument("-k", type=int, default=4, help="largest pack size k (default 4)")
    ap.add_argument("--seed", type=int, default=0, help="instance for n uses seed 100 * SEED + n (default 0)")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per method and instance (default 120)")
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS, help="methods to run")
    ap.add_argument(
        "--symmetry-breaking", action="store_true", help="add the ILP's symmetry-breaking cuts (default: paper's ILP)"
    )
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args(argv)
    if args.smoke:
        args.n_min, args.n_max, args.time_limit = 4, 4, 10.0
    if not 1 <= args.n_min <= args.n_max:
        ap.error(f"need 1 <= --n-min <= --n-max, got {args.n_min} and {args.n_max}")
    if not 1 <= args.k <= args.processors:
        ap.error(f"need 1 <= k <= p, got k = {args.k}, p = {args.processors}")
    if args.time_limit <= 0:
        ap.error(f"--time-limit must be positive, got {args.time_limit}")
    return args


def cell(res: cs.Result) -> str:
    """'12.34s OPTIMAL' or '120.0s TIME_LIMIT gap 35.2%'."""
    text = f"{res.runtime:7.2f}s {res.status.value}"
    if res.status is not cs.Status.OPTIMAL and res.gap is not None:
        text += f" gap {100 * res.gap:.1f}%"
    return text


def result_row(res: cs.Result | str) -> dict:
    """A method's outcome as data: status, seconds, cost, bound and gap, or why it was refused."""
    if isinstance(res, str):
        return {"refused": res}
    return {
        "status": res.status.value,
        "runtime": res.runtime,
        "objective": res.objective,
        "lower_bound": res.lower_bound,
        "gap": res.gap,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = start_record()
    p, k = args.processors, args.k
    print(
        f"# exact pack methods, p = {p}, k = {k}, seed = {args.seed}, time limit {args.time_limit:g}s per method"
        f"{', ILP with symmetry breaking' if args.symmetry_breaking else ''}",
        flush=True,
    )
    width = 32
    print(f"{'n':>3} | " + " | ".join(f"{m:<{width}}" for m in args.methods) + " | optimum      | agree", flush=True)
    disagreements = 0
    rows = []
    for n in range(args.n_min, args.n_max + 1):
        inst = random_pack_instance(n, p, k, seed=100 * args.seed + n)
        results: dict[str, cs.Result | str] = {}
        for name in args.methods:
            options = {"symmetry_breaking": True} if args.symmetry_breaking and name in ILP_METHODS else {}
            start = time.perf_counter()
            try:
                results[name] = cs.solve(inst, name, time_limit=args.time_limit, **options)
            except cs.InputError as exc:  # enumerate refusing an instance beyond its size
                results[name] = f"refused ({time.perf_counter() - start:.2f}s): {exc}"
        cells = [results[m] if isinstance(results[m], str) else cell(results[m]) for m in args.methods]
        optimal = [r for r in results.values() if isinstance(r, cs.Result) and r.status is cs.Status.OPTIMAL]
        if optimal:
            optimum = f"{optimal[0].objective:<12.6f}"
            best = optimal[0].objective
            agree = all(math.isclose(r.objective, best, rel_tol=1e-6) for r in optimal)
            # the methods stopped by the limit must hold a schedule no better and a bound no higher
            agree &= all(
                r.objective >= best * (1 - 1e-6) and (r.lower_bound is None or r.lower_bound <= best * (1 + 1e-6))
                for r in results.values()
                if isinstance(r, cs.Result)
            )
            verdict = ("yes" if agree else "NO") + f" ({len(optimal)}/{len(args.methods)} optimal)"
            disagreements += not agree
        else:
            optimum, verdict = f"{'?':<12}", "-"
        print(f"{n:>3} | " + " | ".join(f"{c:<{width}}" for c in cells) + f" | {optimum} | {verdict}", flush=True)
        rows.append(
            {
                "n": n,
                "methods": {m: result_row(results[m]) for m in args.methods},
                "optimum": optimal[0].objective if optimal else None,
                "agree": verdict,
            }
        )
    path = write_record(
        "pack_exact_scaling", rows, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"# record {path}")
    if disagreements:
        print(f"# {disagreements} instance(s) where proven optima disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
