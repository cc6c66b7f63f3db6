"""Every table of the locality family (thesis ch. 4), from one command.

Parts (``--parts``, default all, in this order):

* ``exact``   -- target 1: cpsat proves every constraint optimal for n in {8, 12, 16} jobs on
  m = 32, ell = 8 (k = 4), 5 random seeds, within 10 s each;
* ``largest`` -- target 2: the largest n each constraint proves on all seeds within 60 s
  (n = 16, 20, 24, ... until a seed is not proven);
* ``ratios``  -- the ratios between the four optima of random job sets (mean and max), and
  nfdh-ls, rcs-list and list against the optimum of their constraint;
* ``search``  -- the worst-case ratio search's record per ratio after 10 minutes on 2 processes
  (``--save-records`` writes the records into coschedopt/locality/data/records/);
* ``records`` -- the shipped records drawn: for each ratio, the optimal schedules of its
  denominator and numerator side by side (``locality_records.png``).

Each part prints its table and writes ``benchmarks/results/locality_<part>.md`` and ``.json``
with the date, the commit, the command and the load average (``uptime``) before and after.
``--quick`` runs a small version of every part (about 3 minutes on an idle machine).

    python benchmarks/locality_tables.py                      # everything (about 1 hour)
    python benchmarks/locality_tables.py --quick              # a look
    python benchmarks/locality_tables.py --parts search --save-records
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
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
from coschedopt.core import write_json
from coschedopt.locality import CONSTRAINTS
from coschedopt.locality.generate import RECORDS_DIR, random_locality_instance
from coschedopt.locality.heuristics.listsched import graham_bound
from coschedopt.locality.ratio_search import record_slug, search_worst_ratios
from coschedopt.locality.ratios import RATIOS, constraint_ratios

RESULTS = Path(__file__).resolve().parent / "results"
PARTS = ("exact", "largest", "ratios", "search", "records")


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in load_average() or [])


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def md_table(headers: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- exact (target 1)


def part_exact(args: argparse.Namespace) -> tuple[str, dict]:
    ns, seeds = ((8, 16), (0, 1)) if args.quick else ((8, 12, 16), (0, 1, 2, 3, 4))
    if args.smoke:
        ns, seeds = (6,), (0,)
    runs = []
    for n in ns:
        for seed in seeds:
            base = random_locality_instance(n, 32, 4, seed=seed)
            for c in CONSTRAINTS:
                res = cs.solve(base.with_constraint(c), "cpsat", time_limit=10, workers=args.workers)
                runs.append(
                    {
                        "n": n,
                        "seed": seed,
                        "constraint": c,
                        "status": str(res.status),
                        "seconds": res.runtime,
                        "makespan": res.objective,
                        "bound": res.lower_bound,
                    }
                )
                progress(f"exact n={n} seed={seed} {c}: {res.status} {res.objective:g} in {res.runtime:.2f} s")
    rows = []
    for c in CONSTRAINTS:
        for n in ns:
            rs = [r for r in runs if r["constraint"] == c and r["n"] == n]
            secs = [r["seconds"] for r in rs]
            proven = sum(r["status"] == "OPTIMAL" for r in rs)
            rows.append([c, n, f"{proven}/{len(rs)}", f"{statistics.mean(secs):.2f}", f"{max(secs):.2f}"])
    text = "m = 32, k = 4 (ell = 8), times 1..20, sizes 1..8, cpsat with a 10 s limit\n\n"
    text += md_table(["constraint", "n", "proven", "mean s", "max s"], rows)
    return text, {"runs": runs}


# --------------------------------------------------------------------------- largest n (target 2)


def part_largest(args: argparse.Namespace) -> tuple[str, dict]:
    limit, seeds, step, top = (10.0, (0,), 8, 32) if args.quick else (60.0, (0, 1, 2), 4, 64)
    runs, rows = [], []
    for c in CONSTRAINTS:
        largest = None
        for n in range(16, top + 1, step):
            done = []
            for seed in seeds:
                res = cs.solve(
                    random_locality_instance(n, 32, 4, seed=seed, constraint=c),
                    "cpsat",
                    time_limit=limit,
                    workers=args.workers,
                )
                done.append(res)
                runs.append(
                    {
                        "constraint": c,
                        "n": n,
                        "seed": seed,
                        "status": str(res.status),
                        "seconds": res.runtime,
                        "makespan": res.objective,
                        "bound": res.lower_bound,
                    }
                )
                progress(f"largest {c} n={n} seed={seed}: {res.status} in {res.runtime:.1f} s")
                if res.status is not cs.Status.OPTIMAL:
                    break
            if all(r.status is cs.Status.OPTIMAL for r in done) and len(done) == len(seeds):
                largest = n
            else:
                failed = done[-1]
                rows.append(
                    [
                        c,
                        largest or "< 16",
                        n,
                        f"{failed.objective:g}",
                        f"{failed.lower_bound:g}",
                        f"{100 * (failed.gap or 0):.1f} %",
                    ]
                )
                break
        else:
            rows.append([c, largest, f"> {top}", "–", "–", "–"])
    text = f"m = 32, k = 4, seeds {list(seeds)}, n = 16, {16 + step}, ...: the largest n with every seed proven in {limit:g} s\n\n"
    text += md_table(["constraint", "largest n proven", "first n not proven", "its makespan", "its bound", "gap"], rows)
    return text, {"runs": runs, "time_limit": limit, "seeds": list(seeds)}


# --------------------------------------------------------------------------- ratios and heuristics


HEURISTICS = {  # method, options -> the constraint of the optimum it is measured against (None: each)
    ("nfdh-ls", ()): "contiguous+local",
    ("rcs-list", ()): "local",
    ("list", (("order", "given"),)): None,
    ("list", (("order", "size"),)): None,
}


def part_ratios(args: argparse.Namespace) -> tuple[str, dict]:
    sets = [(32, 4, n, 3 if args.quick else 10) for n in (8, 12, 16)]
    sets += [(8, 2, n, 5 if args.quick else 30) for n in (6, 8)]
    records = []
    for m, k, n, count in sets:
        for seed in range(count):
            base = random_locality_instance(n, m, k, max_time=20 if m == 32 else 6, seed=seed)
            opt = constraint_ratios(base, time_limit=10, workers=args.workers)
            entry = {
                "m": m,
                "k": k,
                "n": n,
                "seed": seed,
                "optima": {c: opt.value(c) for c in CONSTRAINTS},
                "proven": {c: opt.proven(c) for c in CONSTRAINTS},
                "ratios": {r: None if v is None else float(v) for r, v in opt.ratios.items()},
                "heuristics": {},
            }
            for (name, options), target in HEURISTICS.items():
                for c in [target] if target else CONSTRAINTS:
                    inst = base.with_constraint(c)
                    if name == "rcs-list" and c != "local":
                        continue
                    res = cs.solve(inst, name, options=dict(options))
                    label = name + "".join(f"({v})" for _, v in options)
                    entry["heuristics"][f"{label}@{c}"] = {
                        "makespan": res.objective,
                        "over_optimum": res.objective / opt.value(c) if opt.proven(c) else None,
                        "over_2A_m_pmax": res.objective / graham_bound(inst),
                    }
            records.append(entry)
            progress(f"ratios m={m} n={n} seed={seed}: {entry['optima']}")
    text = "### Ratios between the optima of one job set (every optimum proven within 10 s; mean / max)\n\n"
    rows = []
    for m, k, n, _ in sets:
        group = [e for e in records if (e["m"], e["k"], e["n"]) == (m, k, n)]
        cells = []
        for r in RATIOS:
            vals = [e["ratios"][r] for e in group if e["ratios"][r] is not None]
            cells.append(f"{statistics.mean(vals):.3f} / {max(vals):.3f}" if vals else "–")
        rows.append([f"m={m}, k={k}, n={n}", len(group), *cells])
    text += md_table(["job sets", "count", *RATIOS], rows)
    text += "\n\nThesis bounds on the worst case: " + ", ".join(
        f"{r} in [{b.lower}, {b.upper}]" for r, b in RATIOS.items()
    )
    text += "\n\n### Heuristics against the optimum of their constraint (mean / max of makespan / optimum)\n\n"
    keys = sorted({h for e in records for h in e["heuristics"]})
    rows = []
    for key in keys:
        row = [key.replace("@", " against C^opt of ")]
        for m, k, n, _ in sets:
            vals = [
                e["heuristics"][key]["over_optimum"]
                for e in records
                if (e["m"], e["k"], e["n"]) == (m, k, n)
                and key in e["heuristics"]
                and e["heuristics"][key]["over_optimum"] is not None
            ]
            row.append(f"{statistics.mean(vals):.3f} / {max(vals):.3f}" if vals else "–")
        worst = max(e["heuristics"][key]["over_2A_m_pmax"] for e in records if key in e["heuristics"])
        row.append(f"{worst:.3f}")
        rows.append(row)
    text += md_table(["method", *(f"m={m}, n={n}" for m, _, n, _ in sets), "max C / (2A/m + p_max)"], rows)
    return text, {"records": records}


# --------------------------------------------------------------------------- search


def part_search(args: argparse.Namespace) -> tuple[str, dict]:
    seconds = 60.0 if args.quick else args.search_seconds
    result = search_worst_ratios(seconds=seconds, processes=args.processes, seed=args.seed)
    text = (
        f"`search_worst_ratios(seconds={seconds:g}, processes={args.processes}, seed={args.seed})`: "
        f"{result.evaluations} instances solved exactly in {result.seconds:.0f} s\n\n"
    ) + result.table()
    command = (
        f"python benchmarks/locality_tables.py --parts search --search-seconds {seconds:g} "
        f"--processes {args.processes} --seed {args.seed}"
    )
    data = {name: rec.to_dict(command) for name, rec in result.records.items()}
    if args.save_records:
        for name, rec in data.items():
            write_json(RECORDS_DIR / f"{record_slug(name)}.json", rec)
        progress(f"wrote {len(data)} records to {RECORDS_DIR}")
    return text, {"records": data, "evaluations": result.evaluations, "seconds": result.seconds}


# --------------------------------------------------------------------------- records drawn


def part_records(args: argparse.Namespace) -> tuple[str, dict]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coschedopt.locality.generate import load_record, record_instance
    from coschedopt.viz import plot_schedule

    names = [record_slug(r) for r in RATIOS]
    fig, axes = plt.subplots(len(names), 2, figsize=(14, 3.2 * len(names)))
    rows = []
    for row, name in zip(axes, names, strict=True):
        data = load_record(name)
        bound = RATIOS[data["ratio"]]
        opt = constraint_ratios(
            record_instance(name), constraints=(bound.denominator, bound.numerator), workers=args.workers
        )
        for ax, c in zip(row, (bound.denominator, bound.numerator), strict=True):
            inst = record_instance(name, constraint=c)
            plot_schedule(
                inst, opt.schedule(c), ax, title=f"{data['ratio']} = {data['value']}: {c}, makespan {opt.value(c):g}"
            )
        rows.append([data["ratio"], data["value"], opt.ratio(data["ratio"])])
    fig.tight_layout()
    out = args.out / ("locality_records_quick.png" if args.quick else "locality_records.png")
    fig.savefig(out, dpi=90)
    text = f"![the records]({out.name})\n\n" + md_table(["ratio", "stored", "recomputed"], rows)
    return text, {"figure": str(out.name)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--quick", action="store_true", help="a small version of every part")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers per solve (default 2)")
    parser.add_argument("--processes", type=int, default=2, help="search processes (default 2)")
    parser.add_argument("--search-seconds", type=float, default=600.0, help="search budget (default 600)")
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    parser.add_argument("--save-records", action="store_true", help="write the search records into the package")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    if args.smoke:  # the exact part on one small job set per constraint
        args.parts, args.quick = ["exact"], True
    args.out = args.results_dir
    cs.solve(random_locality_instance(4, 8, 2), "cpsat", workers=1)  # import OR-Tools before any timing
    for part in args.parts:
        started = start_record()
        before, start = load(), time.perf_counter()
        text, data = globals()[f"part_{part}"](args)
        after = load()
        head = (
            f"## locality: {part}{' (quick)' if args.quick else ''}\n\n"
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {(git_commit() or 'unknown')[:7]}, "
            f"`python benchmarks/locality_tables.py {' '.join(sys.argv[1:])}`, "
            f"{time.perf_counter() - start:.0f} s  \nload before: `{before}`  \nload after: `{after}`\n\n"
        )
        print(head + text + "\n")
        suffix = ".smoke" if args.smoke else "_quick" if args.quick else ""
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"locality_{part}{suffix}.md").write_text(head + text + "\n", encoding="utf-8")
        name = f"locality_{part}{'_quick' if args.quick and not args.smoke else ''}"
        path = write_record(name, data, started=started, parameters=parameters(args), **record_from_args(args))
        progress(f"record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
