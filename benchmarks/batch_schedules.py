"""Write (or check against a saved file) the schedule of conservative backfilling on the first jobs of a trace.

A regression check for changes to the simulator's speed: the schedule of
conservative ``beplat`` with reassignment (exponential penalty F = 2, the
settings of the suite ``batch-traces``) must stay the same job for job::

    python benchmarks/batch_schedules.py --trace Curie --jobs 5000 --out before.json
    python benchmarks/batch_schedules.py --trace Curie --jobs 5000 --compare before.json

The CPU time and the comparison's outcome go to the record ``benchmarks/results/batch_schedules.json``;
``--smoke`` simulates the first 300 jobs of the Curie excerpt shipped with the tests (nothing to save
or compare).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from coschedopt.bench.provenance import add_record_arguments, parameters, record_from_args, start_record, write_record

RESULTS = Path(__file__).resolve().parent / "results"
#: --smoke's trace: the Curie excerpt shipped with the tests
EXCERPT = Path(__file__).resolve().parents[1] / "tests/data/traces/CEA-Curie-2011-2.1-cln-first3000.swf.gz"
TRACES = {
    "Curie": "CEA-Curie-2011-2.1-cln.swf.gz",
    "HPC2N": "HPC2N-2002-2.2-cln.swf.gz",
    "KTH-SP2": "KTH-SP2-1996-2.1-cln.swf.gz",
    "Thunder": "LLNL-Thunder-2007-1.1-cln.swf.gz",
    "RICC": "RICC-2010-2.swf.gz",
    "SDSC-Blue": "SDSC-BLUE-2000-4.2-cln.swf.gz",
}


def _trace(folder: str | None, file: str) -> Path:
    """The trace in ``folder``, else where ``coschedopt traces fetch`` put it (or ``COSCHEDOPT_TRACES`` names it)."""
    from coschedopt.workloads.traces import locate

    return Path(folder) / file if folder else locate(file)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", default="Curie", choices=list(TRACES))
    parser.add_argument("--jobs", type=int, default=5000, help="the first JOBS jobs (FCFS order)")
    parser.add_argument("--variant", default="beplat")
    parser.add_argument("--trace-dir", default=None, help="the traces' folder (default: the toolkit's trace lookup)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--out", help="write the schedule's JSON here")
    group.add_argument("--compare", help="compare with the schedule's JSON saved here")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    if not (args.out or args.compare or args.smoke):
        parser.error("one of --out or --compare is required")
    if args.smoke:
        args.jobs = 300
    started = start_record()

    from coschedopt.batch.simulators.conservative import ConservativeOptions, simulate_conservative
    from coschedopt.batch.traces import first_jobs, read_trace, trace_instance

    path = EXCERPT if args.smoke else _trace(args.trace_dir, TRACES[args.trace])
    inst = first_jobs(trace_instance(read_trace(path)), args.jobs)
    options = ConservativeOptions(allocation=args.variant, penalty="exponential", factor=2.0, reassign=True)
    cpu = time.process_time()
    data = simulate_conservative(inst, options).schedule(with_reservations=True).to_dict()
    cpu = time.process_time() - cpu
    print(f"{args.trace}: {inst.n} jobs simulated in {cpu:.1f} s of CPU", file=sys.stderr)
    result = {"trace": args.trace, "jobs": inst.n, "variant": args.variant, "cpu_s": cpu, "compared": None}
    status = 0
    if args.out:
        Path(args.out).write_text(json.dumps(data))
    elif args.compare:
        saved = json.loads(Path(args.compare).read_text())
        if saved["model"] != data["model"] or len(saved["jobs"]) != len(data["jobs"]):
            print("different settings or number of jobs")
            result["compared"], status = {"file": args.compare, "same_settings": False}, 1
        else:
            differ = [(a, b) for a, b in zip(saved["jobs"], data["jobs"], strict=True) if a != b]
            for a, b in differ[:5]:
                print(f"saved {a}\n  now {b}")
            print(f"{len(differ)} of {len(data['jobs'])} jobs differ")
            result["compared"] = {"file": args.compare, "same_settings": True, "jobs_differing": len(differ)}
            status = 1 if differ else 0
    record = write_record(
        "batch_schedules", result, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"record {record}", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
