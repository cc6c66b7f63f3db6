"""Benchmark of the exact ``branch-and-price`` pack method.

Three parts, each printing one line per instance and all written to Markdown
(``--out``, default ``benchmarks/results/bnp.md``) with the raw rows in the record
``benchmarks/results/pack_bnp.json`` beside it (saved after every instance):

* ``ilp``: time to proven optimality of ``branch-and-price`` against the ILP of
  Theorem 4 (``ilp``, with ``--ilp-time-limit``) on random instances, n = 8..14,
  16 processors, measured in the same run (the speed-up column is their ratio; short
  runs of either method are repeated and their median taken, see ``SHORT_RUN``);
* ``w2`` / ``w3``: the paper's Workload-II (65 tasks, p = 16) at k = 2, 4, ..., 16 and
  Workload-III (260 tasks, p = 32) at k = 4, 8, 16, 32, several seeds: status, time,
  cost, certified bound and gap within ``--time-limit``;
* ``3part``: Theorem 2's reduction of random 3-PARTITION yes-instances (k = 3,
  p = B, 3m tasks): the optimum is m, found and proven;
* heuristics: on every Workload-II/III instance, the *true* gap of the paper's seven
  heuristics, (cost - optimum) / optimum, against the proven optimum (instances not
  proven optimal are reported against the certified bound, as an upper bound on the gap).

Example (the full run of the report; hours on a 2-core machine)::

    nice .venv/bin/python benchmarks/pack_bnp.py --seeds 0 1 2 --time-limit 600

The report's rows are kept in the record ``benchmarks/results/pack_bnp.json`` (the parts
were run as separate commands, listed at the top of the report and in the record, and
their row files concatenated); ``--report-only benchmarks/results/pack_bnp.json --commands ...``
rebuilds the Markdown from them (a record or a plain list of rows).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import sys
import time
from pathlib import Path

import coschedopt as cs
from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record
from coschedopt.pack.generate import (
    random_pack_instance,
    random_three_partition_yes,
    three_partition_instance,
    workload_ii,
    workload_iii,
)
from coschedopt.pack.heuristics import HEURISTICS

RESULTS = Path(__file__).resolve().parent / "results"


def log(msg: str) -> None:
    print(msg, flush=True)


def run_bnp(inst, time_limit: float, seed: int) -> dict:
    t = time.perf_counter()
    res = cs.solve(inst, "branch-and-price", time_limit=time_limit, seed=seed)
    return {
        "status": str(res.status),
        "time": time.perf_counter() - t,
        "cost": res.objective,
        "bound": res.lower_bound,
        "gap": res.gap,
        "lp_bound": res.stats.get("lp_bound"),
        "lp_bound_plain": res.stats.get("lp_bound_plain"),
        "cuts": res.stats.get("cuts"),
        "pack_count_cuts": res.stats.get("pack_count_cuts"),
        "tree_nodes": res.stats.get("tree_nodes"),
        "columns": res.stats.get("columns"),
        "enumerated": res.stats.get("enumerated_columns"),
        "lns": res.stats.get("lns"),
        "message": res.message,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        # the largest of the finished worker processes (the neighbourhood search) so far
        "peak_rss_workers_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def run_ilp(inst, time_limit: float, seed: int):
    """The Theorem 4 ILP's result and its wall-clock seconds."""
    t = time.perf_counter()
    return cs.solve(inst, "ilp", time_limit=time_limit, seed=seed), time.perf_counter() - t


# Runs shorter than these (seconds) are timed again and the median of SHORT_RUNS (bnp) or
# SHORT_RUNS_ILP (ilp) runs reported, for both methods alike: a single run of a few
# milliseconds measures mostly timer and cache noise.
SHORT_RUN, SHORT_RUNS = 0.5, 5
SHORT_RUN_ILP, SHORT_RUNS_ILP = 5.0, 3


def part_ilp(args, rows: list) -> None:
    log(f"\n# branch-and-price vs ilp (Theorem 4), p = 16, k = {args.ilp_k}, ilp limit {args.ilp_time_limit} s")
    log(f"{'n':>3} {'seed':>4} {'bnp s':>8} {'bnp':>8} {'ilp s':>8} {'ilp':>10} {'ilp gap':>8} {'speed-up':>9}")
    # warm-up (imports, solver start-up) so that the first timed instance is not charged for it
    warm = random_pack_instance(4, 16, args.ilp_k, seed=0)
    cs.solve(warm, "branch-and-price", seed=0)
    cs.solve(warm, "ilp", seed=0)
    for n in args.ilp_n:
        for seed in args.seeds:
            inst = random_pack_instance(n, 16, args.ilp_k, seed=seed)
            b = run_bnp(inst, args.time_limit, seed)
            if b["time"] < SHORT_RUN:
                b["time_runs"] = [b["time"]] + [
                    run_bnp(inst, args.time_limit, seed)["time"] for _ in range(SHORT_RUNS - 1)
                ]
                b["time"] = statistics.median(b["time_runs"])
            r, ti = run_ilp(inst, args.ilp_time_limit, seed)
            if ti < SHORT_RUN_ILP:
                ilp_runs = [ti] + [run_ilp(inst, args.ilp_time_limit, seed)[1] for _ in range(SHORT_RUNS_ILP - 1)]
            else:
                ilp_runs = [ti]
            ti = statistics.median(ilp_runs)
            agree = r.status is not cs.Status.OPTIMAL or abs(r.objective - b["cost"]) <= 1e-6 * b["cost"]
            row = {
                "part": "ilp",
                "n": n,
                "seed": seed,
                "k": args.ilp_k,
                "bnp": b,
                "ilp": {"status": str(r.status), "time": ti, "time_runs": ilp_runs, "cost": r.objective, "gap": r.gap},
                "agree": agree,
                "speedup": ti / b["time"] if b["status"] == "OPTIMAL" else None,
            }
            rows.append(row)
            args.save()
            log(
                f"{n:>3} {seed:>4} {b['time']:>8.2f} {b['status'][:8]:>8} {ti:>8.2f} {str(r.status)[:10]:>10} "
                f"{(r.gap or 0) * 100:>7.2f}% {row['speedup'] or float('nan'):>8.0f}x" + ("" if agree else "  MISMATCH")
            )


def part_workload(args, rows: list, which: str) -> None:
    gen, ks = (workload_ii, args.w2_k) if which == "w2" else (workload_iii, args.w3_k)
    name = "Workload-II" if which == "w2" else "Workload-III"
    log(f"\n# {name}, limit {args.time_limit} s")
    log(f"{'k':>3} {'seed':>4} {'status':>10} {'time s':>8} {'cost':>12} {'bound':>12} {'gap':>8} {'LP gap':>8}")
    for k in ks:
        for seed in args.seeds:
            inst = gen(seed=seed, max_pack_size=k)
            b = run_bnp(inst, args.time_limit, seed)
            heur = {}
            if not args.no_heuristics:
                for h in HEURISTICS:
                    if h in cs.methods("pack"):
                        r = cs.solve(inst, h, seed=seed)
                        heur[h] = r.objective
            rows.append({"part": which, "k": k, "seed": seed, "bnp": b, "heuristics": heur})
            args.save()
            lp_gap = (b["cost"] - b["lp_bound"]) / b["cost"] if b["lp_bound"] else float("nan")
            log(
                f"{k:>3} {seed:>4} {b['status']:>10} {b['time']:>8.1f} {b['cost']:>12.6g} {b['bound']:>12.6g} "
                f"{(b['gap'] or 0) * 100:>7.3f}% {lp_gap * 100:>7.3f}%"
            )


def part_three_partition(args, rows: list) -> None:
    log(f"\n# Theorem 2 reduction, yes-instances, B = {args.bound}, k = 3, limit {args.time_limit} s")
    log(f"{'m':>4} {'tasks':>5} {'seed':>4} {'status':>10} {'time s':>8} {'cost':>10} {'bound':>10}")
    for m in args.triplets:
        for seed in args.seeds:
            inst = three_partition_instance(random_three_partition_yes(m, args.bound, seed=seed), args.bound)
            b = run_bnp(inst, args.time_limit, seed)
            rows.append({"part": "3part", "m": m, "seed": seed, "B": args.bound, "bnp": b})
            args.save()
            log(
                f"{m:>4} {inst.n:>5} {seed:>4} {b['status']:>10} {b['time']:>8.1f} {b['cost']:>10.6g} {b['bound']:>10.6g}"
            )


def _fmt_pct(x: float | None, digits: int = 2) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f} %"


def markdown(rows: list, args) -> str:
    out = ["# branch-and-price benchmark", ""]
    cmds = args.commands or [" ".join(["python", "benchmarks/pack_bnp.py", *sys.argv[1:]])]
    out.append("Commands: " + "; ".join(f"`{c}`" for c in cmds) + "  ")
    out.append("Machine: 2 cores shared with other jobs (timings are wall-clock under that load).")
    tp = [r for r in rows if r["part"] == "3part"]
    if tp:
        out += ["", "## Theorem 2 reduction of 3-PARTITION yes-instances (k = 3, p = B)", ""]
        out.append("| triplets m | tasks | B | seed | status | time (s) | cost | bound |")
        out.append("|---:|---:|---:|---:|---|---:|---:|---:|")
        for r in tp:
            b = r["bnp"]
            out.append(
                f"| {r['m']} | {3 * r['m']} | {r['B']} | {r['seed']} | {b['status']} | {b['time']:.1f} | "
                f"{b['cost']:.6g} | {b['bound']:.6g} |"
            )
    ilp = [r for r in rows if r["part"] == "ilp"]
    if ilp:
        out += ["", f"## branch-and-price vs `ilp` (Theorem 4), p = 16, k = {args.ilp_k}", ""]
        out.append("| n | seed | bnp time (s) | bnp status | ilp time (s) | ilp status | ilp gap | speed-up |")
        out.append("|---:|---:|---:|---|---:|---|---:|---:|")
        for r in ilp:
            sp = (
                "-"
                if r["speedup"] is None
                else f"{r['speedup']:.0f}x" + ("" if r["ilp"]["status"] == "OPTIMAL" else "+")
            )
            out.append(
                f"| {r['n']} | {r['seed']} | {r['bnp']['time']:.3f} | {r['bnp']['status']} | {r['ilp']['time']:.2f} | "
                f"{r['ilp']['status']} | {_fmt_pct(r['ilp']['gap'])} | {sp} |"
            )
        out.append("")
        out.append("`+`: ilp stopped by its time limit, so the true speed-up is larger.")
        if any("time_runs" in r["bnp"] for r in ilp):
            out.append(
                f"Times below {SHORT_RUN} s (bnp) and {SHORT_RUN_ILP} s (ilp) are the median of {SHORT_RUNS} and "
                f"{SHORT_RUNS_ILP} runs of the same "
                "instance in the same process (a single run of a few milliseconds is mostly timer and cache noise)."
            )
    for which, name in (("w2", "Workload-II (65 tasks, p = 16)"), ("w3", "Workload-III (260 tasks, p = 32)")):
        ws = [r for r in rows if r["part"] == which]
        if not ws:
            continue
        out += ["", f"## {name}", ""]
        out.append(
            "LP gap: (best cost - covering LP) / best cost; root-LP: the same after the root's cuts (pack-count, "
            "and subset-row when k <= 4); both against the best schedule found, so upper bounds on the true LP "
            "gaps where not proven.  Gap: (cost - certified bound) / cost at the end of the run."
        )
        out.append("")
        out.append(
            "| k | seeds | proven optimal | median time (s) | max time (s) | mean gap | max gap | mean LP gap "
            "| mean root-LP gap | mean tree nodes |"
        )
        out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for k in sorted({r["k"] for r in ws}):
            rk = [r for r in ws if r["k"] == k]
            times = [r["bnp"]["time"] for r in rk]
            proven = sum(r["bnp"]["status"] == "OPTIMAL" for r in rk)
            gaps = [r["bnp"]["gap"] or 0.0 for r in rk]
            lpg = [(r["bnp"]["cost"] - r["bnp"]["lp_bound"]) / r["bnp"]["cost"] for r in rk if r["bnp"]["lp_bound"]]
            plain = [
                (r["bnp"]["cost"] - r["bnp"]["lp_bound_plain"]) / r["bnp"]["cost"]
                for r in rk
                if r["bnp"].get("lp_bound_plain")
            ]
            nodes = [r["bnp"].get("tree_nodes") or 0 for r in rk]
            out.append(
                f"| {k} | {len(rk)} | {proven}/{len(rk)} | {statistics.median(times):.1f} | {max(times):.1f} | "
                f"{_fmt_pct(statistics.mean(gaps), 3)} | {_fmt_pct(max(gaps), 3)} | "
                f"{_fmt_pct(statistics.mean(plain) if plain else None, 3)} | "
                f"{_fmt_pct(statistics.mean(lpg) if lpg else None, 3)} | {statistics.mean(nodes):.0f} |"
            )
        out += [
            "",
            "Per instance (windows: the large neighbourhood search's re-solved windows / those that improved"
            " the incumbent / its seconds):",
            "",
            "| k | seed | status | time (s) | cost | certified bound | gap | tree nodes | windows |",
        ]
        out.append("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
        for r in sorted(ws, key=lambda r: (r["k"], r["seed"])):
            b = r["bnp"]
            lns = b.get("lns")
            win = f"{lns['steps']} / {lns['improved']} / {lns['seconds']:.0f} s" if lns else "-"
            out.append(
                f"| {r['k']} | {r['seed']} | {b['status']} | {b['time']:.1f} | {b['cost']:.6g} | {b['bound']:.6g} | "
                f"{_fmt_pct(b['gap'] or 0.0, 3)} | {b.get('tree_nodes') or 0} | {win} |"
            )
        hs = [h for h in HEURISTICS if any(h in r["heuristics"] for r in ws)]
        if hs:
            out += [
                "",
                f"True gaps of the seven heuristics on {name.split(' (')[0]}: mean / max of (cost - opt) / opt",
                "",
            ]
            out.append("| k | " + " | ".join(hs) + " |")
            out.append("|---:|" + "---:|" * len(hs))
            for k in sorted({r["k"] for r in ws}):
                rk = [r for r in ws if r["k"] == k]
                cells = []
                for h in hs:
                    g = []
                    for r in rk:
                        ref = r["bnp"]["cost"] if r["bnp"]["status"] == "OPTIMAL" else r["bnp"]["bound"]
                        if h in r["heuristics"]:
                            g.append((r["heuristics"][h] - ref) / ref)
                    star = "" if all(r["bnp"]["status"] == "OPTIMAL" for r in rk) else "*"
                    cells.append(f"{_fmt_pct(statistics.mean(g))} / {_fmt_pct(max(g))}{star}" if g else "-")
                out.append(f"| {k} | " + " | ".join(cells) + " |")
            out.append("")
            out.append(
                "`*`: some instance of that row was not proven optimal: the gap is measured against its certified"
            )
            out.append("lower bound, so it is an upper bound on the true gap.")
    rss = [r["bnp"].get("peak_rss_mib") for r in rows if r["bnp"].get("peak_rss_mib")]
    workers = [r["bnp"].get("peak_rss_workers_mib") for r in rows if r["bnp"].get("peak_rss_workers_mib")]
    if rss:
        line = f"Peak resident memory of the benchmark process: {max(rss):.0f} MiB."
        if workers:
            line += (
                f" Largest worker process (neighbourhood search): {max(workers):.0f} MiB; the two together"
                f" stayed below {max(rss) + max(workers):.0f} MiB."
            )
        out += ["", line]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--parts", nargs="+", choices=["ilp", "w2", "w3", "3part"], default=["ilp", "w2", "w3", "3part"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per branch-and-price run")
    ap.add_argument("--ilp-time-limit", type=float, default=120.0, help="seconds per ilp run")
    ap.add_argument("--ilp-n", nargs="+", type=int, default=list(range(8, 15)))
    ap.add_argument("--ilp-k", type=int, default=4, help="max pack size of the ilp comparison instances")
    ap.add_argument("--w2-k", nargs="+", type=int, default=[2, 4, 6, 8, 10, 12, 14, 16])
    ap.add_argument("--w3-k", nargs="+", type=int, default=[4, 8, 16, 32])
    ap.add_argument("--triplets", nargs="+", type=int, default=[20, 50, 100], help="3-PARTITION sizes m (3m tasks)")
    ap.add_argument("--bound", type=int, default=1000, help="3-PARTITION B (= p)")
    ap.add_argument("--no-heuristics", action="store_true", help="skip the heuristic gap table")
    ap.add_argument("--out", type=Path, default=None, help="Markdown report (default RESULTS_DIR/bnp.md)")
    ap.add_argument("--report-only", nargs="+", type=Path, help="only rebuild the Markdown from these JSON row files")
    ap.add_argument("--commands", nargs="+", help="the commands to quote in the report (with --report-only)")
    add_record_arguments(ap, RESULTS)
    args = ap.parse_args(argv)
    if args.smoke:
        args.parts, args.triplets, args.seeds, args.time_limit = ["3part"], [2], [0], 10.0
    if args.out is None:
        args.out = args.results_dir / ("bnp.smoke.md" if args.smoke else "bnp.md")
    rows: list = []
    if args.report_only:
        for f in args.report_only:
            data = json.loads(f.read_text())
            rows += data["results"] if isinstance(data, dict) else data
        args.out.write_text(markdown(rows, args))
        log(f"written {args.out}")
        return 0
    started = start_record()
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def save() -> Path:
        return write_record("pack_bnp", rows, started=started, parameters=parameters(args), **record_from_args(args))

    # rows are saved after every instance: a long run stopped early keeps what it measured
    args.save = save
    for part in args.parts:
        if part == "ilp":
            part_ilp(args, rows)
        elif part == "3part":
            part_three_partition(args, rows)
        else:
            part_workload(args, rows, part)
        raw = save()
        args.out.write_text(markdown(rows, args))
    log(f"\nwritten {args.out} and {raw}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
