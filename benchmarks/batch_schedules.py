"""Write (or check against a saved file) the schedule of conservative backfilling on the first jobs of a trace.

A regression check for changes to the simulator's speed: the schedule of
conservative ``beplat`` with reassignment (exponential penalty F = 2, the
settings of ``batch_traces.py``) must stay the same job for job::

    python benchmarks/batch_schedules.py --trace Curie --jobs 5000 --out before.json
    python benchmarks/batch_schedules.py --trace Curie --jobs 5000 --compare before.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from batch_traces import TRACE_DIR, TRACES


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", default="Curie", choices=list(TRACES))
    parser.add_argument("--jobs", type=int, default=5000, help="the first JOBS jobs (FCFS order)")
    parser.add_argument("--variant", default="beplat")
    parser.add_argument("--trace-dir", default=str(TRACE_DIR))
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", help="write the schedule's JSON here")
    group.add_argument("--compare", help="compare with the schedule's JSON saved here")
    args = parser.parse_args()

    from coschedopt.batch.simulators.conservative import ConservativeOptions, simulate_conservative
    from coschedopt.batch.traces import first_jobs, read_trace, trace_instance

    inst = first_jobs(trace_instance(read_trace(Path(args.trace_dir) / TRACES[args.trace])), args.jobs)
    options = ConservativeOptions(allocation=args.variant, penalty="exponential", factor=2.0, reassign=True)
    cpu = time.process_time()
    data = simulate_conservative(inst, options).schedule(with_reservations=True).to_dict()
    print(f"{args.trace}: {inst.n} jobs simulated in {time.process_time() - cpu:.1f} s of CPU", file=sys.stderr)
    if args.out:
        Path(args.out).write_text(json.dumps(data))
        return 0
    saved = json.loads(Path(args.compare).read_text())
    if saved["model"] != data["model"] or len(saved["jobs"]) != len(data["jobs"]):
        print("different settings or number of jobs")
        return 1
    differ = [(a, b) for a, b in zip(saved["jobs"], data["jobs"], strict=True) if a != b]
    for a, b in differ[:5]:
        print(f"saved {a}\n  now {b}")
    print(f"{len(differ)} of {len(data['jobs'])} jobs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
