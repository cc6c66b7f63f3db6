"""Speed and an external check beside AccaSim 1.1.3 (pure Python, pip-installable) on KTH-SP2.

Runs, in one invocation, our ``fcfs`` and ``easy`` (allocation ``basic``) and
AccaSim's FIFO and EASY backfilling (FirstFit allocator) on the same jobs, and
prints CPU seconds, jobs per second and the speed-up, plus the job-by-job
agreement of the FCFS start times.  AccaSim lives in its own virtual
environment (never a dependency of coschedopt); give its interpreter with
``--accasim-python`` or ``ACCASIM_PYTHON``::

    python3 -m venv accasim-venv && accasim-venv/bin/pip install accasim==1.1.3
    python benchmarks/batch_accasim.py --accasim-python accasim-venv/bin/python [--quick]

Same jobs for both: AccaSim's reader takes every line (no status filter), the
requested processors (else the allocated ones; the one job with neither is
skipped), the run time as the real duration and never kills a job, so our
instance keeps every line, uses the same sizes, and sets a requested time of
at least the run time (KTH has 40 jobs running past their request).

What is timed for ours (CPU seconds, one run each): the call of ``simulate_queue``, as a
user's ``solve`` makes it: the instance's columns into arrays, the loop, the interval
string of every job's processors and the JobRecord.  With basic allocation that is the
compiled loop (``coschedopt.batch.queue_kernels``), whose kernels are loaded from numba's
cache (or compiled, once per install) before the timing starts, as a method's ``prepare``
hook does before its first timed run: that one-time cost per process is recorded apart
(``kernels_load_cpu_s``).  The record also holds the Python reference loop on the same jobs
(``ours_python_cpu_s``, the path before the compiled loop) and the compiled call's parts
(``ours_parts_cpu_s``: arrays, loop, strings, record; from a separate run).

The figures go to the record ``benchmarks/results/batch_accasim.json``.  ``--smoke``
runs ours alone (AccaSim too if its interpreter is given) on the first 300 jobs of the
KTH-SP2 excerpt that ships with the toolkit.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import coschedopt.batch
from coschedopt.batch import queue_kernels
from coschedopt.batch.instance import BatchInstance
from coschedopt.batch.platform import Platform
from coschedopt.batch.simulation import SimOptions
from coschedopt.batch.simulators.queue import EasyOptions, simulate_compiled, simulate_queue
from coschedopt.bench.provenance import (
    add_record_arguments,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)
from coschedopt.workloads import locate_trace, read_swf

RESULTS = Path(__file__).resolve().parent / "results"
EXCERPT = Path(coschedopt.batch.__file__).parent / "data" / "KTH-SP2-1996-2.1-cln-first3000.swf.gz"
DEFAULT_TRACE = "KTH-SP2-1996-2.1-cln.swf.gz"  # found by the toolkit's trace lookup (coschedopt traces fetch KTH-SP2)

ACCASIM_RUNNER = r"""
import collections, collections.abc, json, sys, time
for name in ("Mapping", "MutableMapping", "Sequence", "Iterable", "Callable", "MutableSet"):
    setattr(collections, name, getattr(collections.abc, name))  # AccaSim 1.1.3 predates Python 3.10
from accasim.base.additional_data import AdditionalData
from accasim.base.allocator_class import FirstFit
from accasim.base.scheduler_class import EASYBackfilling, FirstInFirstOut
from accasim.base.simulator_class import Simulator

workload, config, policy, out = sys.argv[1:5]
starts = {}

class Starts(AdditionalData):
    def exec_before_dispatching(self, job_dict, queued_jobs): pass
    def exec_after_dispatching(self, job_dict, to_dispatch, rejected):
        for when, job, nodes in to_dispatch:
            if nodes:
                starts[job] = when
    def exec_before_submission(self, *args, **kwargs): pass
    def exec_after_submission(self, *args, **kwargs): pass
    def exec_before_completion(self, *args, **kwargs): pass
    def exec_after_completion(self, removed_jobs): pass
    def stop(self): pass

dispatcher = FirstInFirstOut(FirstFit()) if policy == "fifo" else EASYBackfilling(FirstFit())
sim = Simulator(workload, config, dispatcher, additional_data=[Starts], scheduling_output=False,
                statistics_output=False, show_statistics=False, RESULTS_FOLDER_NAME=out + ".results/")
cpu = time.process_time()
sim.start_simulation()
cpu = time.process_time() - cpu
json.dump({"cpu": cpu, "starts": starts}, open(out, "w"))
"""


def accasim_instance(lines: list[str], processors: int) -> BatchInstance:
    """The jobs as AccaSim reads them (see the module docstring)."""
    with tempfile.NamedTemporaryFile("w", suffix=".swf", delete=False) as fh:
        fh.writelines(lines)
    trace = read_swf(
        fh.name,
        statuses=None,
        require_positive_run_time=False,
        processors="requested_else_allocated",
        missing_requested_time="keep",
        oversize="keep",
    )
    os.unlink(fh.name)
    run = np.maximum(trace.jobs["run_time"], 0)
    return BatchInstance(
        platform=Platform(processors),
        ids=tuple(str(x) for x in trace.jobs["job_id"].tolist()),
        submit=trace.jobs["submit_time"] - trace.jobs["submit_time"].min(),
        run_time=run,
        requested_time=np.maximum(trace.requested_time, run),
        size=trace.size,
        name="KTH-SP2-accasim",
    )


def run_accasim(python: str, workload: Path, processors: int, policy: str, work: Path) -> dict:
    config = work / "system.json"
    config.write_text(
        json.dumps(
            {
                "groups": {"g0": {"core": 1}},
                "resources": {"g0": processors},
                "equivalence": {"processor": {"core": 1}},
                "start_time": 0,
            }
        )
    )
    runner = work / "runner.py"
    runner.write_text(ACCASIM_RUNNER)
    out = work / f"accasim-{policy}.json"
    subprocess.run(
        [python, str(runner), str(workload), str(config), policy, str(out)],
        check=True,
        cwd=work,
        stdout=subprocess.DEVNULL,
    )
    return json.loads(out.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", default=DEFAULT_TRACE)
    parser.add_argument("--accasim-python", default=os.environ.get("ACCASIM_PYTHON"))
    parser.add_argument("--quick", action="store_true", help="the first 3,000 jobs only")
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    if not args.accasim_python and not args.smoke:
        parser.error("give --accasim-python (or ACCASIM_PYTHON): an interpreter with accasim==1.1.3")
    started = start_record()
    args.trace = str(EXCERPT if args.smoke else locate_trace(args.trace))
    with gzip.open(args.trace, "rt") as fh:
        lines = [x for x in fh if x.strip() and not x.startswith(";")]
    if args.quick or args.smoke:
        lines = lines[: 300 if args.smoke else 3000]
    processors = 100
    inst = accasim_instance(lines, processors)
    print(f"# {Path(args.trace).name}: {inst.n} jobs, {processors} processors; load: {started['load_before']}")
    waits: dict[str, float] = {}
    cpu = time.process_time()
    queue_kernels.compile_kernels()
    kernels_load = time.process_time() - cpu
    print(f"# kernels loaded (or compiled) before the timing: {kernels_load:.2f} CPU s")
    python_cpu: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        workload = work / "workload.swf"
        workload.write_text("".join(lines))
        rows, ours_fcfs, theirs_fifo = [], None, None
        for ours_name, policy in (("fcfs", "fifo"), ("easy", "easy")):
            easy = ours_name == "easy"
            options = EasyOptions() if easy else SimOptions()
            cpu = time.process_time()
            rec = simulate_queue(inst, options, backfill=easy)
            ours = time.process_time() - cpu
            cpu = time.process_time()
            reference = simulate_queue(inst, options, backfill=easy, compiled=False)
            python_cpu[ours_name] = time.process_time() - cpu
            if reference.processors != rec.processors or (reference.start != rec.start).any():
                raise AssertionError(f"{ours_name}: the compiled loop and the Python loop differ")
            parts[ours_name] = {}
            simulate_compiled(inst, options, backfill=easy, timings=parts[ours_name])
            theirs = (
                run_accasim(args.accasim_python, workload, processors, policy, work) if args.accasim_python else None
            )
            rows.append((ours_name, inst.n, ours, theirs["cpu"] if theirs else None))
            if ours_name == "fcfs":
                ours_fcfs, theirs_fifo = rec, theirs
            elif theirs:
                origin = first_submit(lines)
                accasim_wait = np.mean(
                    [
                        theirs["starts"][i] - (int(inst.submit[k]) + origin)
                        for k, i in enumerate(inst.ids)
                        if i in theirs["starts"]
                    ]
                )
                waits = {"ours": float(np.mean(rec.start - inst.submit)), "accasim": float(accasim_wait)}
                print(
                    f"# easy mean wait: ours {np.mean(rec.start - inst.submit):.1f} s, AccaSim {accasim_wait:.1f} s "
                    "(AccaSim's EASY is not textbook EASY: an aggregate check only)"
                )
    print(f"# load after: {load_average()}")
    print("| policy | jobs | ours CPU s | AccaSim CPU s | speed-up | ours jobs/s | ours, Python loop CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, n, ours, theirs in rows:
        them = f"{theirs:.2f} | {theirs / ours:.1f}x" if theirs is not None else "- | -"
        print(f"| {name} | {n} | {ours:.4f} | {them} | {n / max(ours, 1e-9):,.0f} | {python_cpu[name]:.2f} |")
    for name, p in parts.items():
        print(f"# {name} parts (CPU ms): " + ", ".join(f"{k} {1000 * v:.2f}" for k, v in p.items()))
    same = None
    if theirs_fifo is not None:
        origin = first_submit(lines)
        starts = theirs_fifo["starts"]
        same = sum(1 for k, i in enumerate(inst.ids) if starts.get(i) == int(ours_fcfs.start[k]) + origin)
        print(f"\nFCFS start times equal to AccaSim's FIFO: {same} / {inst.n} jobs ({100 * same / inst.n:.2f} %)")
    results = {
        "trace": Path(args.trace).name,
        "jobs": inst.n,
        "processors": processors,
        "policies": [
            {
                "policy": p,
                "jobs": n,
                "ours_cpu_s": o,
                "accasim_cpu_s": t,
                "ours_python_cpu_s": python_cpu[p],
                "ours_parts_cpu_s": parts[p],
            }
            for p, n, o, t in rows
        ],
        "kernels_load_cpu_s": kernels_load,
        "fcfs_same_starts": same,
        "easy_mean_wait_s": waits,
    }
    path = write_record(
        "batch_accasim", results, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"# record {path}")
    return 0 if same in (None, inst.n) else 1


def first_submit(lines: list[str]) -> int:
    return min(int(x.split()[1]) for x in lines)


if __name__ == "__main__":
    sys.exit(main())
