"""Whole-trace speed of conservative backfilling: jobs per second per trace and variant, time and peak memory.

The target: conservative backfilling with ``beplat`` and reassignment
(exponential penalty F = 2, as in chapter 5) on the whole filtered CEA-Curie
trace (279,991 jobs on 80,640 processors) in at most 90 s of CPU and 1 GiB, and
on the whole RICC trace (431,547 jobs) in at most 120 s.  Each run is a fresh
process (its peak resident memory is its own) that loads the numba kernels (or
compiles them, once per install) before its clock starts; that time is the
"kernels" column::

    python benchmarks/batch_traces.py                      # Curie, beplat, the whole trace
    python benchmarks/batch_traces.py --quick              # the first 20,000 jobs of each trace
    python benchmarks/batch_traces.py --traces all --variants basic beplat plat --limit 600

A run past ``--limit`` seconds stops and is reported as such (with the jobs
submitted by then), so the table always comes back.  The rows go to the record
``benchmarks/results/batch_traces.json`` (``batch_traces_quick.json`` for ``--quick``);
``--smoke`` replays the first 300 jobs of the Curie excerpt shipped with the tests.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import time
from pathlib import Path

from coschedopt.bench.provenance import (
    add_record_arguments,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)

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


def one_run(path: str, variant: str, jobs: int | None, limit: float, progress: bool, out: mp.Queue) -> None:
    from coschedopt.batch.simulators.conservative import ConservativeOptions, simulate_conservative
    from coschedopt.batch.traces import first_jobs, read_trace, trace_instance
    from coschedopt.batch.wordprofile import compile_kernels
    from coschedopt.core import Deadline

    kernels = time.process_time()
    compile_kernels()
    kernels = time.process_time() - kernels
    inst = first_jobs(trace_instance(read_trace(path)), jobs)
    options = ConservativeOptions(allocation=variant, penalty="exponential", factor=2.0, reassign=True)
    cpu, wall = time.process_time(), time.perf_counter()
    rec = simulate_conservative(inst, options, deadline=Deadline(limit), verbose=progress)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.put((inst.n, inst.processors, rec is not None, cpu, wall, peak, kernels))


def _trace(folder: str | None, file: str) -> Path:
    """The trace in ``folder``, else where ``coschedopt traces fetch`` put it (or ``COSCHEDOPT_TRACES`` names it)."""
    from coschedopt.workloads.traces import locate

    return Path(folder) / file if folder else locate(file)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", nargs="+", default=["Curie"], help=f"names among {', '.join(TRACES)}, or all")
    parser.add_argument("--variants", nargs="+", default=["beplat"])
    parser.add_argument("--trace-dir", default=None, help="the traces' folder (default: the toolkit's trace lookup)")
    parser.add_argument("--quick", action="store_true", help="the first 20,000 jobs of each trace")
    parser.add_argument("--jobs", type=int, default=None, help="the first JOBS jobs of each trace")
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds per run before it is stopped")
    parser.add_argument("--progress", action="store_true", help="jobs submitted and CPU seconds on stderr")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    names = list(TRACES) if args.traces == ["all"] else args.traces
    jobs = args.jobs or (20000 if args.quick else None)
    if args.smoke:
        names, jobs = ["Curie"], 300
    started = start_record()
    rows = []
    print(f"# conservative, reassignment, exponential penalty F=2; load before: {started['load_before']}")
    print("| trace | variant | jobs | processors | CPU s | wall s | jobs/s | peak MiB | kernels CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    ctx = mp.get_context("spawn")
    for name in names:
        for variant in args.variants:
            q = ctx.Queue()
            p = ctx.Process(
                target=one_run,
                args=(
                    str(EXCERPT if args.smoke else _trace(args.trace_dir, TRACES[name])),
                    variant,
                    jobs,
                    args.limit,
                    args.progress,
                    q,
                ),
            )
            p.start()
            n, procs, done, cpu, wall, peak, kernels = q.get()
            p.join()
            rate = f"{n / wall:,.0f}" if done else f"stopped at {args.limit:.0f} s"
            row = (
                f"| {name} | {variant} | {n} | {procs} | {cpu:.1f} | {wall:.1f} | {rate} | {peak:.0f} | {kernels:.1f} |"
            )
            print(row, flush=True)
            rows.append(
                {"trace": name, "variant": variant, "jobs": n, "processors": procs, "finished": done}
                | {"cpu_s": cpu, "wall_s": wall, "peak_mib": peak, "kernels_cpu_s": kernels, "limit_s": args.limit}
            )
    print(f"# load after: {load_average()}")
    name = "batch_traces_quick" if args.quick and not args.smoke else "batch_traces"
    path = write_record(name, rows, started=started, parameters=parameters(args), **record_from_args(args))
    print(f"# record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
