"""Probes of the batch family: the queue simulators' CPU time, against a peer simulator and between two rules.

A probe is a method that measures code on an instance instead of solving it
(:attr:`coschedopt.core.registry.Method.probe`); the family does not import this module, so
``coschedopt methods batch`` lists the probes only where a suite loads it
(``plugins = ["coschedopt.batch.probes"]``: suites ``batch-accasim`` and ``batch-easy-reservation``).
Both return the schedule of our simulator, validated like any method's.

* ``easy-reservations``: EASY's two rules for the blocked head's reserved processors
  (:data:`.simulators.queue.RESERVATIONS`): the CPU milliseconds of ``simulate_queue`` under each
  (minimum and median of ``repeat`` runs after one warm-up) and the jobs whose start time differs
  between them.  The schedule returned is ``busy-first``'s (the default rule).
* ``accasim``: our ``fcfs`` or ``easy`` (basic allocation) beside AccaSim 1.1.3 (Galleguillos et al.,
  pure Python, pip-installable) with FIFO or EASY backfilling and its FirstFit allocator, on the same
  jobs: the CPU seconds of each, ours also with the Python reference loop and split in its parts,
  and the jobs whose FCFS start equals AccaSim's FIFO start.  AccaSim is never a dependency of the
  toolkit: it runs in its own interpreter (option ``python``, or ``$ACCASIM_PYTHON``), fed an SWF file
  written from the instance.  The instance should be read as AccaSim reads a trace (generator
  ``accasim-trace``, :func:`.generate.accasim_trace`): every line, the requested processors (else the allocated
  ones), the run time as the duration (AccaSim never kills a job), and a requested time of at least
  the run time.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from ..core import MethodOptions, MethodRefused, Result, Status, method, option
from .allocation import VARIANTS
from .instance import BatchInstance
from .simulation import SimOptions
from .simulators.queue import RESERVATIONS, EasyOptions, simulate_compiled, simulate_queue

#: the interpreter of AccaSim's own environment when option ``python`` is not given
ACCASIM_ENV = "ACCASIM_PYTHON"

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


# ---------------------------------------------------------------------------- EASY's two reservation rules


@dataclass(frozen=True)
class ReservationsOptions(MethodOptions):
    allocation: str = option("basic", "the allocation variant", choices=VARIANTS)
    repeat: int = option(9, "timed runs of each rule (after one warm-up run)", min=1)


def _cpu_ms(instance: BatchInstance, options: EasyOptions, repeat: int):
    """(min, median) CPU milliseconds of EASY over ``repeat`` runs after a warm-up run, and that run's record."""
    rec = simulate_queue(instance, options, backfill=True)
    runs = []
    for _ in range(repeat):
        cpu = time.process_time()
        simulate_queue(instance, options, backfill=True)
        runs.append(1000 * (time.process_time() - cpu))
    return min(runs), statistics.median(runs), rec


@method(
    "batch",
    "easy-reservations",
    options=ReservationsOptions,
    prepare="coschedopt.batch.kernels:prepare_queue",
    probe=True,
)
def easy_reservations(instance, *, time_limit, seed, verbose, options: ReservationsOptions) -> Result:
    """Probe: EASY's two head-reservation rules, CPU ms of each and the jobs whose start differs."""
    stats: dict = {"allocation": options.allocation, "repeat": options.repeat}
    records = {}
    for rule in RESERVATIONS:
        low, mid, records[rule] = _cpu_ms(
            instance, EasyOptions(allocation=options.allocation, reservation=rule), options.repeat
        )
        stats[f"{rule}_min_ms"], stats[f"{rule}_median_ms"] = low, mid
    first, other = (records[rule] for rule in RESERVATIONS)
    stats["jobs_moved"] = int(np.count_nonzero(first.start != other.start))
    return Result(Status.FEASIBLE, first.schedule(), stats=stats)


# ---------------------------------------------------------------------------- AccaSim


def swf_lines(instance: BatchInstance) -> list[str]:
    """The instance's jobs as SWF lines (the 18 fields; unknown ones -1): what AccaSim reads."""
    return [
        f"{jid} {s} -1 {r} {p} -1 -1 {p} {q} -1 1 -1 -1 -1 -1 -1 -1 -1\n"
        for jid, s, r, p, q in zip(
            instance.ids,
            instance.submit.tolist(),
            instance.run_time.tolist(),
            instance.size.tolist(),
            instance.requested_time.tolist(),
            strict=True,
        )
    ]


def run_accasim(python: str, instance: BatchInstance, policy: str) -> dict:
    """AccaSim's CPU seconds and start times (job id -> time) on ``instance``, in its own interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        workload = work / "workload.swf"
        workload.write_text("".join(swf_lines(instance)))
        system = {
            "groups": {"g0": {"core": 1}},
            "resources": {"g0": instance.processors},
            "equivalence": {"processor": {"core": 1}},
            "start_time": 0,
        }
        (work / "system.json").write_text(json.dumps(system))
        (work / "runner.py").write_text(ACCASIM_RUNNER)
        out = work / "out.json"
        done = subprocess.run(
            [python, "runner.py", str(workload), "system.json", policy, str(out)],
            cwd=work,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"AccaSim failed (exit {done.returncode}): {last}")
        return json.loads(out.read_text())


@dataclass(frozen=True)
class AccasimOptions(MethodOptions):
    policy: str = option(
        "fcfs", "ours fcfs against AccaSim's FIFO, or easy against its EASY backfilling", choices=("fcfs", "easy")
    )
    python: str = option("", f"AccaSim's interpreter (an environment with accasim==1.1.3; default ${ACCASIM_ENV})")
    #: ours runs with basic allocation, the one AccaSim's FirstFit matches (read by the kernels' preparation)
    allocation: ClassVar[str] = "basic"


@method("batch", "accasim", options=AccasimOptions, prepare="coschedopt.batch.kernels:prepare_queue", probe=True)
def accasim(instance, *, time_limit, seed, verbose, options: AccasimOptions) -> Result:
    """Probe: our fcfs / easy beside AccaSim 1.1.3 on the same jobs (CPU seconds, FCFS starts compared)."""
    python = options.python or os.environ.get(ACCASIM_ENV, "")
    if not python:
        raise MethodRefused(
            f"give AccaSim's interpreter: option python, or ${ACCASIM_ENV} (pip install accasim==1.1.3 in a venv)"
        )
    easy = options.policy == "easy"
    sim = EasyOptions() if easy else SimOptions()
    cpu = time.process_time()
    rec = simulate_queue(instance, sim, backfill=easy)
    ours = time.process_time() - cpu
    cpu = time.process_time()
    reference = simulate_queue(instance, sim, backfill=easy, compiled=False)
    python_cpu = time.process_time() - cpu
    if reference.processors != rec.processors or (reference.start != rec.start).any():
        return Result(Status.ERROR, message=f"{options.policy}: the compiled loop and the Python loop differ")
    parts: dict[str, float] = {}
    simulate_compiled(instance, sim, backfill=easy, timings=parts)
    theirs = run_accasim(python, instance, "easy" if easy else "fifo")
    starts = theirs["starts"]
    stats = {
        "policy": options.policy,
        "ours_cpu_s": ours,
        "ours_python_cpu_s": python_cpu,
        "ours_parts_cpu_s": parts,
        "accasim_cpu_s": theirs["cpu"],
        "speedup": theirs["cpu"] / max(ours, 1e-9),
        "same_starts": sum(1 for k, jid in enumerate(instance.ids) if starts.get(jid) == int(rec.start[k])),
        "ours_mean_wait_s": float(np.mean(rec.start - instance.submit)),
        "accasim_mean_wait_s": float(
            np.mean([starts[jid] - int(instance.submit[k]) for k, jid in enumerate(instance.ids) if jid in starts])
        ),
    }
    return Result(Status.FEASIBLE, rec.schedule(), stats=stats)
