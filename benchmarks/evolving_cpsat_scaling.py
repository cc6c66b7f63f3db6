"""How large an instance ``cpsat`` proves: the 6 x 4 target, then growing numbers of applications.

Instances: the paper's distribution with exactly ``apps`` applications of exactly
``stages`` stages, durations 500-3600 s in 100 s units (the coarse time the exact model
needs), 1-75 nodes, 100 nodes (``coschedopt generate evolving paper --min-apps A --max-apps A
--min-stages K --max-stages K --time-unit 100 --seed S``).

1. The target: 6 applications x 4 stages, seeds 0-9, stretch limits 1, 2 and inf: every
   solve proven, time <= 5 s (the whole solve, and the makespan's proof alone: the
   least-waste solve that follows it is a second objective).
2. Scaling: 4 stages and 8, 10, 12, ... applications (and 10 stages, the paper's maximum,
   from 4 applications), ``--seeds`` seeds, a ``--time-limit`` (60 s) per solve, until a size
   where no seed is proven; the largest size with every seed proven is printed per limit.

CP-SAT runs with ``--workers`` workers (default: every core this process may use), one
solve at a time.  The load average is printed with the figures, and the CPU time of the
solver's threads beside the wall time: on a machine shared with other work the wall time
grows, the CPU time much less (on idle cores the wall time is about CPU / workers).

    .venv/bin/python benchmarks/evolving_cpsat_scaling.py
    .venv/bin/python benchmarks/evolving_cpsat_scaling.py --quick     # 3 target seeds, 1 scaling seed, 20 s
    .venv/bin/python benchmarks/evolving_cpsat_scaling.py --target-only --output ''   # the 6 x 4 target alone
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import statistics
import sys
import time
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
from coschedopt.core import available_cores
from coschedopt.evolving.generate import random_evolving_instance

ROOT = Path(__file__).resolve().parents[1]
LIMITS = {"1": 1.0, "2": 2.0, "inf": math.inf}


def instance(apps: int, stages: int, seed: int):
    return random_evolving_instance(
        seed=seed, min_apps=apps, max_apps=apps, min_stages=stages, max_stages=stages, time_unit=100
    )


def solve(inst, limit: float, time_limit: float, workers: int) -> tuple[bool, float, float, float]:
    """(proven, wall seconds, CPU seconds of every CP-SAT thread -- what a loaded machine does not
    inflate --, seconds of the makespan's proof alone, without the least-waste solve)."""
    cpu = time.process_time()
    res = cs.solve(inst, "cpsat", stretch_limit=limit, time_limit=time_limit, seed=0, workers=workers)
    proof = res.stats.get("phase1_seconds", res.runtime)
    return res.status is cs.Status.OPTIMAL, res.runtime, time.process_time() - cpu, proof


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in load_average() or [])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per scaling size (default 3)")
    parser.add_argument("--time-limit", type=float, default=60, help="seconds per scaling solve (default 60)")
    parser.add_argument("--workers", type=int, default=available_cores(), help="CP-SAT workers (default: all cores)")
    parser.add_argument("--quick", action="store_true", help="3 target seeds, 1 scaling seed, 20 s")
    parser.add_argument("--target-only", action="store_true", help="only the 6 x 4 target")
    parser.add_argument("--output", default=str(ROOT / "benchmarks/results/evolving_cpsat_scaling.md"), help="Markdown")
    add_record_arguments(parser, ROOT / "benchmarks" / "results")
    args = parser.parse_args()
    target_seeds, seeds, limit_s = (3, 1, 20.0) if args.quick else (10, args.seeds, args.time_limit)
    apps, stages = 6, 4
    if args.smoke:  # a tiny target, no scaling: checks the script and its record
        target_seeds, apps, stages, args.target_only, args.output = 1, 3, 2, True, ""
    started = start_record()
    record: dict = {"target": {"applications": apps, "stages": stages, "runs": []}, "scaling": None}
    out = [
        "# cpsat scaling",
        "",
        f"{dt.date.today().isoformat()}, `python benchmarks/evolving_cpsat_scaling.py{' --quick' if args.quick else ''}"
        f"{' --target-only' if args.target_only else ''}`, "
        f"CP-SAT {args.workers} workers; load average {load()} at the start.",
        "",
        f"**Target: 6 applications x 4 stages** (100 s units), seeds 0-{target_seeds - 1}: seconds to prove "
        "(mean / max) and proven count",
        "",
        "| stretch limit | mean s | max s | CPU s mean / max | makespan proof s mean / max | proven | load average |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for key, limit in LIMITS.items():
        runs = [solve(instance(apps, stages, s), limit, 60, args.workers) for s in range(target_seeds)]
        record["target"]["runs"] += [
            {
                "stretch_limit": key,
                "seed": s,
                "proven": r[0],
                "seconds": r[1],
                "cpu_seconds": r[2],
                "proof_seconds": r[3],
            }
            for s, r in enumerate(runs)
        ]
        times = [t for _, t, _, _ in runs]
        cpus = [c for _, _, c, _ in runs]
        proofs = [p for _, _, _, p in runs]
        out.append(
            f"| {key} | {statistics.mean(times):.2f} | {max(times):.2f} | {statistics.mean(cpus):.2f} / {max(cpus):.2f} "
            f"| {statistics.mean(proofs):.2f} / {max(proofs):.2f} | {sum(r[0] for r in runs)}/{len(runs)} | {load()} |"
        )
        print(out[-1], file=sys.stderr)
    if not args.target_only:
        record["scaling"] = {"seeds": seeds, "time_limit": limit_s, "rows": []}
        out += scaling(seeds, limit_s, args.workers, record["scaling"]["rows"])
    text = "\n".join(out)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
    name = "evolving_cpsat_target" if args.target_only else "evolving_cpsat_scaling"
    path = write_record(name, record, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"record {path}", file=sys.stderr)
    return 0


def scaling(seeds: int, limit_s: float, workers: int, rows: list[dict]) -> list[str]:
    """Section 2: sizes until none is proven; the largest size with every seed proven, per limit."""
    out = [
        "",
        f"**Scaling** ({limit_s:g} s per solve, seeds 0-{seeds - 1}): proven count and max seconds per size",
        "",
        "| stages | applications | stretch limit | proven | max s | max CPU s | load average |",
        "|---:|---:|---|---:|---:|---:|---|",
    ]
    largest: dict[tuple[int, str], int] = {}
    for stages, sizes in ((4, range(8, 41, 2)), (10, range(4, 41, 2))):
        for key, limit in LIMITS.items():
            for apps in sizes:
                runs = [solve(instance(apps, stages, s), limit, limit_s, workers) for s in range(seeds)]
                proven = sum(r[0] for r in runs)
                rows.append(
                    {"stages": stages, "applications": apps, "stretch_limit": key, "proven": proven, "seeds": seeds}
                    | {"max_seconds": max(r[1] for r in runs), "max_cpu_seconds": max(r[2] for r in runs)}
                )
                out.append(
                    f"| {stages} | {apps} | {key} | {proven}/{seeds} | {max(r[1] for r in runs):.1f} "
                    f"| {max(r[2] for r in runs):.1f} | {load()} |"
                )
                print(out[-1], file=sys.stderr)
                if proven == seeds:
                    largest[(stages, key)] = apps
                if proven == 0:
                    break
    out += ["", "Largest size with every seed proven:", ""]
    for (stages, key), apps in sorted(largest.items()):
        out.append(f"- {stages} stages, stretch limit {key}: {apps} applications")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
