"""Every table of the hybrid family (CPU/GPU assignment, thesis chapter 2), with one command.

Sections (``--only`` picks some; ``--quick`` runs a smaller version of each):

* ``exact``  -- the exact target: colgen on the literature's generator, m = 8, k = 2,
  n = 30 and n = 50, seeds 0-4: seconds, optimum, LB_λ and the configuration-LP bound,
  with ``--compare`` the generic models (cpsat, milp) at n = 30 under a 60 s limit;
* ``speed``  -- dual2 on n = 100,000, m = 512, k = 32 (after one warm-up call that
  compiles the list-scheduling loop): median and minimum of ``--repeats`` calls;
* ``ratios`` -- the approximations' and heuristics' ratios: to the optimum (colgen) for
  n in {10, 20, 30}, m in {4, 8}, k in {1, 2}, and to the best certified lower bound
  on the literature's grid n in {10, 100, 1000}, m in {4, 16, 64, 256, 512},
  k in {1, 2, 4, 8, 16, 32}, 5 seeds each;
* ``swdual`` -- the simulation of SWDUAL's Tables 2.2 and 2.4 beside the thesis's seconds.

Every section prints the machine's load average (the figures depend on it: the
development machine is shared) and the whole output is written as Markdown to
``--out`` (default benchmarks/results/hybrid_tables.md; ``--out -``: stdout only).

    python benchmarks/hybrid_tables.py                    # everything (about 15 minutes on 2 loaded cores)
    python benchmarks/hybrid_tables.py --quick            # a few minutes
    python benchmarks/hybrid_tables.py --only exact,speed --compare
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import coschedopt as cs
from coschedopt.bench.provenance import (
    add_record_arguments,
    git_commit,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)
from coschedopt.hybrid import best_lower_bound
from coschedopt.hybrid.generate import random_hybrid_instance
from coschedopt.hybrid.swdual import table_2_2, table_2_4

HEURISTICS = (
    ("dual2", {}),
    ("dual2-lpt", {"list_order": "lpt"}),
    ("dual32", {}),
    ("heft", {}),
    ("heteroprio", {}),
)
RESULTS = Path(__file__).resolve().parent / "results"


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in load_average() or [])


def table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def section_exact(quick: bool, compare: bool, data: dict, smoke: bool = False) -> str:
    sizes = ((30, range(3)), (50, range(2))) if quick else ((30, range(5)), (50, range(5)))
    if smoke:
        sizes = ((10, range(1)),)
    data["exact"] = []
    out = [f"### Exact target: colgen, m = 8, k = 2 ({load()} at start)", ""]
    rows, times = [], {}
    for n, seeds in sizes:
        for seed in seeds:
            inst = random_hybrid_instance(n, 8, 2, seed=seed)
            start_load = (load_average() or [float("nan")])[0]
            res = cs.solve(inst, "colgen", time_limit=600, workers=1)
            times.setdefault(n, []).append(res.runtime)
            st = res.stats
            data["exact"].append(
                {"n": n, "seed": seed, "status": str(res.status), "optimum": res.objective, "seconds": res.runtime}
                | {"load": start_load}
            )
            rows.append(
                [
                    str(n),
                    str(seed),
                    str(res.status),
                    f"{res.objective:g}",
                    f"{st['start_bound']:g}",
                    f"{st.get('configuration_bound', float('nan')):g}",
                    str(st["certified"]),
                    str(st["decisions"]),
                    f"{res.runtime:.2f}",
                    f"{start_load:.1f}",
                ]
            )
            progress(f"exact n={n} seed={seed}: {res.status} {res.objective:g} in {res.runtime:.2f} s")
    out.append(
        table(
            [
                "n",
                "seed",
                "status",
                "optimum",
                "LB_λ",
                "config. LP bound",
                "LP rejections",
                "CP-SAT decisions",
                "seconds",
                "load",
            ],
            rows,
        )
    )
    out.append("")
    for n, ts in times.items():
        out.append(f"- n = {n}: median {statistics.median(ts):.2f} s, max {max(ts):.2f} s over {len(ts)} seeds")
    if compare:
        out += ["", "Generic models at n = 30 (60 s limit, one worker):", ""]
        crows = []
        data["compare"] = []
        for seed in range(3 if quick else 5):
            inst = random_hybrid_instance(30, 8, 2, seed=seed)
            for name, opts in (("cpsat", {"workers": 1}), ("milp", {})):
                res = cs.solve(inst, name, time_limit=60, **opts)
                crows.append(
                    [
                        str(seed),
                        name,
                        str(res.status),
                        f"{res.objective:g}",
                        f"{res.lower_bound:.2f}",
                        f"{res.runtime:.1f}",
                    ]
                )
                data["compare"].append(
                    {"seed": seed, "method": name, "status": str(res.status), "makespan": res.objective}
                    | {"bound": res.lower_bound, "seconds": res.runtime}
                )
                progress(f"compare seed={seed} {name}: {res.status} in {res.runtime:.1f} s")
        out.append(table(["seed", "method", "status", "makespan", "bound", "seconds"], crows))
    out.append(f"\n({load()} at the end)")
    return "\n".join(out)


def section_speed(quick: bool, repeats: int, data: dict) -> str:
    out = [f"### dual2 on n = 100,000, m = 512, k = 32 ({load()} at start)", ""]
    t0 = time.perf_counter()
    inst = random_hybrid_instance(100_000, 512, 32, seed=0)
    gen = time.perf_counter() - t0
    cs.solve(random_hybrid_instance(2000, 16, 4, seed=0), "dual2")  # compile the loops once
    rows = []
    data["speed"] = {"generate_s": gen, "runs": []}
    for label, opts in (("paper lists", {}), ("LPT lists", {"list_order": "lpt"})):
        runs = []
        for _ in range(2 if quick else repeats):
            res = cs.solve(inst, "dual2", **opts)
            runs.append(res.runtime)
        rows.append(
            [
                label,
                f"{statistics.median(runs):.3f}",
                f"{min(runs):.3f}",
                str(len(runs)),
                f"{res.objective:g}",
                f"{res.lower_bound:g}",
                str(res.stats["probes"]),
            ]
        )
        data["speed"]["runs"].append({"lists": label, "seconds": runs, "makespan": res.objective})
        progress(f"speed {label}: median {statistics.median(runs):.3f} s")
    out.append(table(["lists", "median s", "min s", "calls", "makespan", "lower bound", "probes"], rows))
    out.append(f"\nInstance generation: {gen:.2f} s (not included). ({load()} at the end)")
    return "\n".join(out)


def _ratio_rows(ratios: dict[str, list[float]]) -> list[list[str]]:
    return [[name, str(len(v)), f"{statistics.fmean(v):.4f}", f"{max(v):.4f}"] for name, v in ratios.items()]


def section_ratios(quick: bool, data: dict) -> str:
    out = [f"### Ratios of the approximations and heuristics ({load()} at start)", ""]
    seeds = range(2) if quick else range(5)
    to_opt: dict[str, list[float]] = {name: [] for name, _ in HEURISTICS}
    for n in (10, 20, 30):
        for m in (4, 8):
            for k in (1, 2):
                for seed in seeds:
                    inst = random_hybrid_instance(n, m, k, seed=seed)
                    opt = cs.solve(inst, "colgen", workers=1, time_limit=300)
                    if opt.status is not cs.Status.OPTIMAL:
                        progress(f"n={n} m={m} k={k} seed={seed}: no optimum ({opt.status}), left out")
                        continue
                    for name, opts in HEURISTICS:
                        res = cs.solve(inst, name.split("-")[0], **opts)
                        to_opt[name].append(res.objective / opt.objective)
        progress(f"ratios to the optimum: n = {n} done")
    out += [f"To the optimum (colgen), n in {{10, 20, 30}}, m in {{4, 8}}, k in {{1, 2}}, seeds {list(seeds)}:", ""]
    out.append(table(["method", "instances", "mean ratio", "max ratio"], _ratio_rows(to_opt)))
    grid_n = (10, 100) if quick else (10, 100, 1000)
    to_lb: dict[str, list[float]] = {name: [] for name, _ in HEURISTICS}
    by_n: dict[tuple[str, int], list[float]] = {}
    for n in grid_n:
        for m in (4, 16, 64, 256, 512):
            for k in (1, 2, 4, 8, 16, 32):
                for seed in seeds:
                    inst = random_hybrid_instance(n, m, k, seed=seed)
                    lb = best_lower_bound(inst)
                    if n == 10:  # the optimum is cheap there: the best lower bound is the optimum
                        lb = max(lb, cs.solve(inst, "enumerate").objective)
                    for name, opts in HEURISTICS:
                        r = cs.solve(inst, name.split("-")[0], **opts).objective / lb
                        to_lb[name].append(r)
                        by_n.setdefault((name, n), []).append(r)
        progress(f"ratios on the literature's grid: n = {n} done")
    out += [
        "",
        f"To the best lower bound (the optimum at n = 10), literature grid n in {list(grid_n)}, "
        f"m in {{4, 16, 64, 256, 512}}, k in {{1, 2, 4, 8, 16, 32}}, seeds {list(seeds)}:",
        "",
    ]
    out.append(table(["method", "instances", "mean ratio", "max ratio"], _ratio_rows(to_lb)))
    out += ["", "By n (mean / max):", ""]
    rows = [
        [name] + [f"{statistics.fmean(by_n[(name, n)]):.4f} / {max(by_n[(name, n)]):.4f}" for n in grid_n]
        for name, _ in HEURISTICS
    ]
    out.append(table(["method", *[f"n = {n}" for n in grid_n]], rows))
    out.append(f"\n({load()} at the end)")
    data["ratios"] = {"to_optimum": to_opt, "to_bound": to_lb, "by_n": {f"{k[0]}@{k[1]}": v for k, v in by_n.items()}}
    return "\n".join(out)


def section_swdual(quick: bool, data: dict) -> str:
    seeds = range(2) if quick else range(5)
    data["table_2_2"], data["table_2_4"] = table_2_2(seeds), table_2_4(seeds)
    out = [f"### SWDUAL simulated beside the thesis (seeds {list(seeds)}, {load()} at start)", ""]
    rows = [
        [
            str(r["workers"]),
            r["mix"],
            "–" if r["paper_s"] is None else f"{r['paper_s']:.2f}",
            f"{r['dual2']:.2f}",
            f"{r['heft']:.2f}",
            f"{r['lower_bound']:.2f}",
            "–" if r["paper_s"] is None else f"{r['dual2'] / r['paper_s']:.3f}",
        ]
        for r in data["table_2_2"]
    ]
    out += ["Table 2.2 (UniProt, 40 queries), seconds:", ""]
    out.append(table(["workers", "mix", "thesis", "dual2", "heft", "lower bound", "dual2 / thesis"], rows))
    rows = [
        [
            r["database"],
            str(r["workers"]),
            f"{r['paper_s']:.2f}",
            f"{r['paper_gcups']:.2f}",
            f"{r['dual2']:.2f}",
            f"{r['dual2_gcups']:.2f}",
            f"{r['lower_bound']:.2f}",
            f"{r['dual2'] / r['paper_s']:.3f}",
        ]
        for r in data["table_2_4"]
    ]
    out += ["", "Table 2.4 (40 queries), seconds and GCUPS:", ""]
    out.append(
        table(
            [
                "database",
                "workers",
                "thesis s",
                "thesis GCUPS",
                "dual2 s",
                "dual2 GCUPS",
                "lower bound s",
                "dual2 / thesis",
            ],
            rows,
        )
    )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and sizes (a few minutes)")
    parser.add_argument("--only", default="exact,speed,ratios,swdual", help="comma-separated sections")
    parser.add_argument("--compare", action="store_true", help="exact: also the generic models at n = 30")
    parser.add_argument("--repeats", type=int, default=5, help="speed: calls per variant (default 5)")
    parser.add_argument("--out", default=str(RESULTS / "hybrid_tables.md"), help="Markdown file ('-': stdout only)")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    if args.smoke:  # colgen on one n = 10 instance: checks the script and its record
        args.only, args.compare, args.out = "exact", False, "-"
    started = start_record()
    data: dict = {}
    parts = [
        f"## hybrid tables ({time.strftime('%Y-%m-%d %H:%M')}, commit {(git_commit() or 'unknown')[:7]}, "
        f"{os.cpu_count()} cores"
        f"{', --quick' if args.quick else ''})",
        "",
    ]
    for name in args.only.split(","):
        if name == "exact":
            parts.append(section_exact(args.quick, args.compare, data, args.smoke))
        elif name == "speed":
            parts.append(section_speed(args.quick, args.repeats, data))
        elif name == "ratios":
            parts.append(section_ratios(args.quick, data))
        elif name == "swdual":
            parts.append(section_swdual(args.quick, data))
        else:
            parser.error(f"unknown section {name!r}")
        parts.append("")
        print(parts[-2], flush=True)
    if args.out != "-":
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text("\n".join(parts) + "\n")
        progress(f"wrote {args.out}")
    path = write_record("hybrid_tables", data, started=started, parameters=parameters(args), **record_from_args(args))
    progress(f"record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
