"""LP (2) of the combos paper at growing n, all 2^n - 1 combinations: solve time and peak memory.

Each n runs in a fresh Python process (so its peak resident memory, ``ru_maxrss``, is its
own): generate the paper's random system (section 7, alpha in [0.75, 0.85]), then solve
the LP with the column-wise ``highspy`` path.  Reported: generation time (with the
instance's constraint-(1) validation), LP build and HiGHS solve times, simplex
iterations, the combinations used by the optimum, the FCS ratio, and peak memory.
For n <= ``--pyomo-max`` the Pyomo path is timed too (its optimum must agree).

The issue's target: n = 20 (1,048,575 combinations) optimal in <= 60 s and <= 4 GiB.

The rows go to the record ``benchmarks/results/combos_lp_scaling.json``, the table and the
figure beside it (``.txt``, ``.png``).

    nice .venv/bin/python benchmarks/combos_lp_scaling.py              # n = 10..20
    .venv/bin/python benchmarks/combos_lp_scaling.py --n-max 16        # quicker
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record

RESULTS = Path(__file__).resolve().parent / "results"
CHILD = r"""
import json, resource, sys, time
import coschedopt as cs
from coschedopt.combos.generate import random_combos_instance
n, seed, pyomo_max = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
inst = random_combos_instance(n, 0.75, 0.85, seed=seed)
t1 = time.perf_counter()
res = cs.solve(inst, "lp", backend="highspy")
t2 = time.perf_counter()
out = {"n": n, "combinations": inst.m, "nonzeros": int(n * 2 ** (n - 1)), "generate_s": t1 - t0,
       "lp_total_s": t2 - t1, "build_s": res.stats["build_time"], "solve_s": res.stats["solve_time"],
       "iterations": res.stats["iterations"], "status": str(res.status), "objective": res.objective,
       "gap": res.gap, "used": res.stats["combinations_used"]}
out["peak_rss_gib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
out["fcs_ratio"] = cs.solve(inst, "fcs").objective / res.objective
if n <= pyomo_max:
    t3 = time.perf_counter()
    p = cs.solve(inst, "lp", backend="pyomo")
    out["pyomo_s"] = time.perf_counter() - t3
    out["pyomo_rel_diff"] = abs(p.objective - res.objective) / res.objective
print(json.dumps(out))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n-min", type=int, default=10)
    ap.add_argument("--n-max", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pyomo-max", type=int, default=12)
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args()
    if args.smoke:
        args.n_min, args.n_max, args.pyomo_max = 6, 7, 6
    started = start_record()
    out = args.results_dir
    tag = ".smoke" if args.smoke else ""
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    head = (
        f"{'n':>3} {'combinations':>13} {'nonzeros':>11} {'gen s':>7} {'build s':>8} {'solve s':>8} "
        f"{'LP s':>7} {'iters':>6} {'used':>5} {'peak GiB':>9} {'FCS/OPT':>8} {'pyomo s':>8} status"
    )
    print(head, flush=True)
    for n in range(args.n_min, args.n_max + 1):
        proc = subprocess.run(
            [sys.executable, "-c", CHILD, str(n), str(args.seed), str(args.pyomo_max)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            print(f"{n:>3} failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr else proc.returncode}")
            break
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        rows.append(r)
        py = f"{r['pyomo_s']:8.2f}" if "pyomo_s" in r else f"{'-':>8}"
        print(
            f"{n:>3} {r['combinations']:>13,} {r['nonzeros']:>11,} {r['generate_s']:7.2f} {r['build_s']:8.2f} "
            f"{r['solve_s']:8.2f} {r['lp_total_s']:7.2f} {r['iterations']:>6} {r['used']:>5} "
            f"{r['peak_rss_gib']:9.3f} {r['fcs_ratio']:8.4f} {py} {r['status']}",
            flush=True,
        )
    path = write_record(
        "combos_lp_scaling", rows, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"# record {path}")
    lines = [head] + [
        f"{r['n']:>3} {r['combinations']:>13,} {r['nonzeros']:>11,} {r['generate_s']:7.2f} {r['build_s']:8.2f} "
        f"{r['solve_s']:8.2f} {r['lp_total_s']:7.2f} {r['iterations']:>6} {r['used']:>5} {r['peak_rss_gib']:9.3f} "
        f"{r['fcs_ratio']:8.4f} " + (f"{r['pyomo_s']:8.2f}" if "pyomo_s" in r else f"{'-':>8}") + f" {r['status']}"
        for r in rows
    ]
    (out / f"combos_lp_scaling{tag}.txt").write_text("\n".join(lines) + "\n")
    if rows:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        ns = [r["n"] for r in rows]
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
        a1.semilogy(ns, [r["lp_total_s"] for r in rows], marker="o", label="LP build + solve (highspy)")
        a1.semilogy(ns, [r["solve_s"] for r in rows], marker=".", ls="--", label="HiGHS solve")
        a1.semilogy(ns, [r["generate_s"] for r in rows], marker="x", ls=":", label="generate + validate")
        pn = [r for r in rows if "pyomo_s" in r]
        if pn:
            a1.semilogy([r["n"] for r in pn], [r["pyomo_s"] for r in pn], marker="s", label="LP via Pyomo")
        a1.axhline(60, color="red", lw=0.8, ls="--", label="target 60 s")
        a1.set_xlabel("n (all 2^n - 1 combinations)")
        a1.set_ylabel("seconds")
        a1.legend(fontsize=8)
        a1.grid(alpha=0.3)
        a2.plot(ns, [r["peak_rss_gib"] for r in rows], marker="o")
        a2.axhline(4, color="red", lw=0.8, ls="--", label="target 4 GiB")
        a2.set_xlabel("n")
        a2.set_ylabel("peak resident memory (GiB)")
        a2.legend(fontsize=8)
        a2.grid(alpha=0.3)
        fig.suptitle("combos LP (2): time and memory against n")
        fig.tight_layout()
        fig.savefig(out / f"combos_lp_scaling{tag}.png", dpi=120)
        plt.close(fig)


if __name__ == "__main__":
    main()
