"""Target: each policy simulates the thesis's largest instance (Curie, 60-day window, about 70,000
tasks on about 160 processors) in <= 5 s.  Prints seconds and tasks per second per policy.

The instance is the Method C instance of Curie (Table 3.1's 60-day window) whose task count is
closest to Table 3.1's 70,215 among seeds 0..19, on Table 3.1's 160 processors (``--processors``;
0 keeps Method C's m/Q); the redirection policies use Table 3.2's Curie settings.  Each policy runs once to warm up (numba compiles the dispatch scan on
the first call of a process), then ``--repeats`` times; the table gives the minimum and the
median wall time of the simulation alone (the event loop and building the schedule), and of
the whole ``coschedopt.solve`` call (which also validates the schedule and computes the six
objectives).  The load of the machine is printed with the table.

    COSCHEDOPT_TRACES=/path/to/traces python benchmarks/online_speed.py            # the target
    COSCHEDOPT_TRACES=/path/to/traces python benchmarks/online_speed.py --quick    # KTH-SP2, 1 repeat
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from datetime import UTC, datetime
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
from coschedopt.online import OnlineInstance
from coschedopt.online.method_c import method_c_instance
from coschedopt.online.simulators.policies import simulate
from coschedopt.online.simulators.rules import POLICIES, PolicyRun

#: Table 3.2, Curie row
CURIE = {
    "spt-rd": {"dedicated": 10, "tau": 10},
    "gspt-rd": {"dedicated": 10, "tau": 4},
    "spt-rr": {"dedicated": 9, "c": 0.8},
    "gspt-rr": {"dedicated": 10, "c": 0.8},
}
TARGET_S = 5.0
RESULTS = Path(__file__).resolve().parent / "results"


def closest_instance(trace: str, tasks: int, seeds: range, processors: int | None) -> OnlineInstance:
    best = None
    for seed in seeds:
        inst = method_c_instance(trace, seed=seed, processors=processors)
        if best is None or abs(inst.n - tasks) < abs(best.n - tasks):
            best = inst
    return best


def measure(instance, policy: str, options: dict, repeats: int) -> tuple[list[float], list[float]]:
    run = PolicyRun(policy, **options)
    simulate(instance, run)  # warm-up (numba compilation, caches)
    sim, full = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        simulate(instance, run)
        sim.append(time.perf_counter() - t)
        t = time.perf_counter()
        cs.solve(instance, policy, **options)
        full.append(time.perf_counter() - t)
    return sim, full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="KTH-SP2's first instance, one repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--processors", type=int, default=160, help="processors (0: Method C's m/Q)")
    parser.add_argument("--out", type=Path, default=None, help="append the table to this file")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    started = start_record()
    commit = (started["git_commit"] or "unknown")[:7]
    if args.smoke:  # no trace needed: a small random instance checks the script and its record
        from coschedopt.online.generate import random_instance

        instance, repeats, args.out = random_instance(200, 16, seed=0), 1, None
    elif args.quick:
        instance, repeats = method_c_instance("kth-sp2", seed=0), 1
    else:
        instance, repeats = closest_instance("curie", 70215, range(20), args.processors or None), args.repeats
    lines = [
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {commit}, {os.uname().nodename}",
        f"instance {instance.name}: n = {instance.n}, m = {instance.processors}, load {instance.offered_load():.2f}",
        f"load average before: {started['load_before']}",
        "",
        "| policy | simulate min (s) | median (s) | tasks/s | solve() median (s) | target <= 5 s |",
        "|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    runs = []
    for policy in POLICIES:
        options = CURIE.get(policy, {})
        sim, full = measure(instance, policy, options, repeats)
        runs.append({"policy": policy, "options": options, "simulate_s": sim, "solve_s": full})
        row = (
            f"| {policy} | {min(sim):.2f} | {statistics.median(sim):.2f} | {instance.n / min(sim):,.0f} "
            f"| {statistics.median(full):.2f} | {'met' if min(sim) <= TARGET_S else 'MISSED'} |"
        )
        lines.append(row)
        print(row, flush=True)
    tail = f"load average after: {load_average()}"
    lines.append(tail)
    print(tail)
    if args.out:
        with args.out.open("a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n\n")
    results = {
        "instance": {"name": instance.name, "tasks": instance.n, "processors": instance.processors},
        "runs": runs,
    }
    path = write_record("online_speed", results, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"record {path}")


if __name__ == "__main__":
    main()
