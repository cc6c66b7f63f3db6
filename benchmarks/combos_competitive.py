"""Reproduce the combos paper's simulation (section 7, Figures 6 and 7).

For each alpha range, 50 random systems of 10 tasks (the paper's generator: b ~ U[100, 200],
speeds shrinking by U[alpha_i, 1] per added task, alpha_i drawn in the range).  For each
system: the LP optimum, FCS, and the three search strategies (PI, EI, UCB) with a
measurement time of 10 time units for k in {0.6, 0.8, 0.9, 0.99}; the competitive ratio
is makespan / LP optimum.  ``--a-plus`` picks the reading of a^+ in PI and EI (see
:mod:`coschedopt.combos.heuristics.search`; default the literal one, ``previous-max``).

Prints the table (mean and max over the systems) and writes, under ``--results-dir``:
the record ``combos_competitive<tag>.json`` (every ratio, and the table's summary figures),
``combos_competitive<tag>.txt`` (the table),
``combos_competitive<tag>_fig6.png`` (ratio against alpha per strategy, one line per k) and
``combos_competitive<tag>_fig7.png`` (the best k of each strategy next to FCS); ``<tag>`` is
empty for the default reading and measurement time, else e.g. ``_current-max_mt1``.

    nice .venv/bin/python benchmarks/combos_competitive.py            # full run, ~8 min on one core
    .venv/bin/python benchmarks/combos_competitive.py --systems 5     # quick look
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

import coschedopt as cs
from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.combos.generate import random_combos_instance
from coschedopt.combos.heuristics.search import A_PLUS_READINGS

RESULTS = Path(__file__).resolve().parent / "results"
STRATEGIES = ("search-pi", "search-ei", "search-ucb")
DEFAULT_ALPHAS = "0.05-0.15,0.15-0.25,0.25-0.35,0.35-0.45,0.45-0.55,0.55-0.65,0.65-0.75,0.75-0.85,0.85-0.95"


def one_system(job: tuple[float, float, int, int, tuple[float, ...], float, str]) -> dict:
    lo, hi, n, seed, ks, measure_time, a_plus = job
    inst = random_combos_instance(n, lo, hi, seed=seed)
    opt = cs.solve(inst, "lp", backend="highspy").objective
    out = {
        "alpha": [lo, hi],
        "seed": seed,
        "opt": opt,
        "max_speed": inst.max_speed,
        "fcs": cs.solve(inst, "fcs").objective / opt,
        "search": {},
    }
    for name in STRATEGIES:
        for k in ks:
            res = cs.solve(inst, name, seed=seed, k=k, measure_time=measure_time, a_plus=a_plus)
            out["search"][f"{name}@{k}"] = {
                "ratio": res.objective / opt,
                "measurements": res.stats["measurements"],
                "measuring_time": res.stats["measuring_time"],
            }
    return out


def summary(results: list[dict], ranges: list[tuple[float, float]], ks: tuple[float, ...]) -> dict:
    """The figures the table's text states, as data: per alpha range the mean and max ratio of FCS
    and of each strategy at each k, the largest FCS / Theorem 1 bound, and the share of the
    search runs' makespans spent measuring."""
    per_range = []
    for lo, hi in ranges:
        rs = [r for r in results if r["alpha"] == [lo, hi]]
        cells = {"FCS": [r["fcs"] for r in rs]}
        cells.update({f"{s}@{k}": [r["search"][f"{s}@{k}"]["ratio"] for r in rs] for s in STRATEGIES for k in ks})
        per_range.append(
            {
                "alpha": [lo, hi],
                "mean": {c: float(np.mean(v)) for c, v in cells.items()},
                "max": {c: max(v) for c, v in cells.items()},
            }
        )
    share = [
        r["search"][key]["measuring_time"] / (r["search"][key]["ratio"] * r["opt"])
        for r in results
        for key in r["search"]
    ]
    return {
        "per_range": per_range,
        "fcs_max": max(r["fcs"] for r in results),
        "fcs_over_theorem1_max": max(r["fcs"] / (2 - 1 / r["max_speed"]) for r in results),
        "measuring_share_mean": float(np.mean(share)),
    }


def table(results: list[dict], ranges: list[tuple[float, float]], ks: tuple[float, ...], a_plus: str) -> str:
    cols = ["FCS"] + [f"{s[7:].upper()} k={k}" for s in STRATEGIES for k in ks]
    lines = [
        f"competitive ratio = makespan / LP optimum, mean (max) over the systems; a^+ reading: {a_plus}",
        f"{'alpha':>11} | " + " | ".join(f"{c:>13}" for c in cols),
    ]
    for lo, hi in ranges:
        rs = [r for r in results if r["alpha"] == [lo, hi]]
        cells = [np.array([r["fcs"] for r in rs])]
        cells += [np.array([r["search"][f"{s}@{k}"]["ratio"] for r in rs]) for s in STRATEGIES for k in ks]
        lines.append(f"{lo:.2f}-{hi:.2f}  | " + " | ".join(f"{c.mean():6.3f} ({c.max():5.3f})" for c in cells))
    allr = {"FCS": [r["fcs"] for r in results]}
    for s in STRATEGIES:
        allr[s] = [r["search"][f"{s}@{k}"]["ratio"] for r in results for k in ks]
    lines.append("overall max: " + ", ".join(f"{k} {max(v):.3f}" for k, v in allr.items()))
    worst = max(r["fcs"] / (2 - 1 / r["max_speed"]) for r in results)
    lines.append(f"FCS / Theorem 1 bound (2 - 1/a*): max {worst:.3f} (must be <= 1)")
    share = [
        r["search"][key]["measuring_time"] / (r["search"][key]["ratio"] * r["opt"])
        for r in results
        for key in r["search"]
    ]
    lines.append(f"time spent measuring / makespan, all search runs: mean {np.mean(share):.2f}")
    return "\n".join(lines)


def figures(
    results: list[dict], ranges: list[tuple[float, float]], ks: tuple[float, ...], out: Path, tag: str, a_plus: str
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{lo:.2f}-{hi:.2f}" for lo, hi in ranges]
    x = np.arange(len(ranges))

    def series(key: str) -> tuple[np.ndarray, np.ndarray]:
        mean, mx = [], []
        for lo, hi in ranges:
            rs = [r for r in results if r["alpha"] == [lo, hi]]
            v = np.array([r["fcs"] if key == "fcs" else r["search"][key]["ratio"] for r in rs])
            mean.append(v.mean())
            mx.append(v.max())
        return np.array(mean), np.array(mx)

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2), sharey=True)
    for ax, s in zip(axes, STRATEGIES, strict=True):
        for k in ks:
            mean, _ = series(f"{s}@{k}")
            ax.plot(x, mean, marker="o", label=f"k = {k}")
        ax.set_title(s[7:].upper())
        ax.set_xticks(x, labels, rotation=45, ha="right")
        ax.set_xlabel("alpha range")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("competitive ratio (mean of 50 systems)")
    axes[0].legend()
    fig.suptitle(f"Figure 6 (reproduced): search strategies, ratio to the LP optimum (a^+: {a_plus})")
    fig.tight_layout()
    fig.savefig(out / f"combos_competitive{tag}_fig6.png", dpi=120)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    mean, mx = series("fcs")
    ax.plot(x, mean, marker="s", color="black", label="FCS")
    ax.plot(x, mx, ls=":", color="black", lw=0.8)
    for s in STRATEGIES:
        best = min(ks, key=lambda k, s=s: series(f"{s}@{k}")[0].mean())
        mean, mx = series(f"{s}@{best}")
        (line,) = ax.plot(x, mean, marker="o", label=f"{s[7:].upper()} (k = {best})")
        ax.plot(x, mx, ls=":", lw=0.8, color=line.get_color())
    ax.axhline(2.0, color="red", lw=0.8, ls="--", label="FCS bound 2")
    ax.set_xticks(x, labels, rotation=45, ha="right")
    ax.set_xlabel("alpha range")
    ax.set_ylabel("competitive ratio (mean; dotted: max)")
    ax.set_title(f"Figure 7 (reproduced): lowest-ratio k per strategy (a^+: {a_plus})")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / f"combos_competitive{tag}_fig7.png", dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=50)
    ap.add_argument("--tasks", type=int, default=10)
    ap.add_argument("--alphas", default=DEFAULT_ALPHAS, help="comma-separated LO-HI ranges")
    ap.add_argument("--k", default="0.6,0.8,0.9,0.99")
    ap.add_argument("--measure-time", type=float, default=10.0)
    ap.add_argument(
        "--a-plus",
        default=A_PLUS_READINGS[0],
        choices=A_PLUS_READINGS,
        help="reading of a^+ in PI and EI (default: %(default)s, the literal one)",
    )
    ap.add_argument("--no-figures", action="store_true", help="write the table and JSON only")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args()
    if args.smoke:
        args.systems, args.tasks, args.alphas, args.k, args.no_figures = 1, 5, "0.45-0.55", "0.9", True
    started = start_record()
    ranges = [tuple(float(v) for v in r.split("-")) for r in args.alphas.split(",")]
    ks = tuple(float(k) for k in args.k.split(","))
    out = args.results_dir
    out.mkdir(parents=True, exist_ok=True)
    jobs = [
        (lo, hi, args.tasks, args.seed + 1000 * r + s, ks, args.measure_time, args.a_plus)
        for r, (lo, hi) in enumerate(ranges)
        for s in range(args.systems)
    ]
    t0 = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one_system, jobs, chunksize=4))
    else:
        results = [one_system(j) for j in jobs]
    elapsed = time.perf_counter() - t0
    text = table(results, ranges, ks, args.a_plus)
    text += f"\n{len(jobs)} systems of {args.tasks} tasks, measure_time {args.measure_time}, {elapsed:.0f} s"
    print(text)
    tag = "" if args.a_plus == A_PLUS_READINGS[0] else f"_{args.a_plus}"
    tag += "" if args.measure_time == 10.0 else f"_mt{args.measure_time:g}"
    tag += ".smoke" if args.smoke else ""
    (out / f"combos_competitive{tag}.txt").write_text(text + "\n")
    path = write_record(
        f"combos_competitive{tag.removesuffix('.smoke')}",
        {"seconds": elapsed, "summary": summary(results, ranges, ks), "systems": results},
        started=started,
        parameters=parameters(args),
        **record_from_args(args),
    )
    print(f"# record {path}")
    if not args.no_figures:
        figures(results, ranges, ks, out, tag, args.a_plus)


if __name__ == "__main__":
    main()
