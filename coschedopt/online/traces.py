"""The seven Parallel Workloads Archive traces of thesis Table 3.1: presets, where to find them,
and their task counts under the note's filter.

Table 3.1 gives, per trace, the platform's processors, the trace's task count
and span, and the mean processors, tasks and window length (days) of its 20
instances.  The filter of the family note (the archive's: status = 1, run time >
0, allocated processors > 0; :func:`coschedopt.workloads.read_swf`'s defaults)
reproduces the task counts of Curie, LLNL-Thunder, Metacentrum and RICC exactly.
KTH-SP2's 20,483 also needs jobs that ran longer than they requested dropped
(``require_run_within_requested``: 40 of them), which is what the modified copy
the thesis probably used lacks; HPC2N and SDSC-Blue differ by 5 jobs each because
the archive versions differ (2.1 and 4.1 in the thesis, 2.2 and 4.2 here).

Trace files are looked up by their archive name in the folders of the
``COSCHEDOPT_TRACES`` environment variable (:func:`coschedopt.workloads.traces.locate`);
any path works too.  They are third-party data (download them from the archive)
and are not shipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core import InputError
from ..workloads import SWFOptions, locate_trace, read_swf


@dataclass(frozen=True)
class TracePreset:
    """One row of Table 3.1 and the archive file it reads."""

    name: str
    file: str
    processors: int  # the platform's CPUs (Table 3.1)
    tasks: int  # the trace's task count (Table 3.1)
    span: float  # the trace's span as printed (days; Curie's in hours)
    instance_processors: int  # mean over the 20 instances (Table 3.1)
    instance_tasks: int  # mean over the 20 instances (Table 3.1)
    window_days: float  # the instances' window length s (Table 3.1)
    strict_kth_filter: bool = False  # drop jobs running over their request (reproduces the count)


PRESETS: dict[str, TracePreset] = {
    p.name: p
    for p in (
        TracePreset("curie", "CEA-Curie-2011-2.1-cln.swf.gz", 80640, 279991, 6089, 160, 70215, 60),
        TracePreset("hpc2n", "HPC2N-2002-2.2-cln.swf.gz", 240, 201998, 1268, 17, 4516, 30),
        TracePreset("kth-sp2", "KTH-SP2-1996-2.1-cln.swf.gz", 100, 20483, 333, 12, 860, 15, True),
        TracePreset("llnl-thunder", "LLNL-Thunder-2007-1.1-cln.swf.gz", 4096, 97875, 148, 48, 4601, 7),
        TracePreset("metacentrum", "METACENTRUM-2009-2.swf.gz", 806, 86586, 157, 18, 4155, 7),
        TracePreset("ricc", "RICC-2010-2.swf.gz", 8192, 431547, 153, 200, 19401, 7),
        TracePreset("sdsc-blue", "SDSC-BLUE-2000-4.2-cln.swf.gz", 1152, 195587, 979, 27, 6263, 30),
    )
}


def find_trace(trace: str | os.PathLike) -> Path:
    """The file of ``trace``: a path, a preset name (``curie``) or an archive file name."""
    name = PRESETS[str(trace)].file if str(trace) in PRESETS else trace
    return locate_trace(name, hint=f"; presets: {', '.join(PRESETS)}", where="--trace")


@dataclass(frozen=True)
class TraceJobs:
    """The kept jobs of a trace as the columns Method C needs (file order)."""

    path: str
    job_id: np.ndarray
    submit: np.ndarray
    run_time: np.ndarray
    processors: np.ndarray
    platform_processors: int | None
    summary: str


@lru_cache(maxsize=2)
def _read(path: str, strict: bool) -> TraceJobs:
    trace = read_swf(path, SWFOptions(require_run_within_requested=strict))
    if len(trace) == 0:
        raise InputError(
            "no job has the fields Method C needs (status 1, a run time > 0 and a processor count > 0): "
            + trace.summary(),
            where=path,
        )
    j = trace.jobs
    return TraceJobs(
        path,
        j["job_id"].copy(),
        j["submit_time"].astype(float),
        j["run_time"].astype(float),
        trace.size.astype(float),
        trace.header.max_procs,
        trace.summary(),
    )


def read_trace_jobs(trace: str | os.PathLike, *, strict: bool | None = None) -> TraceJobs:
    """The jobs of ``trace`` under the note's filter (plus the KTH filter for that preset, unless
    ``strict`` says otherwise); read once per process and kept (traces take seconds to read)."""
    path = find_trace(trace)
    if strict is None:
        strict = PRESETS[str(trace)].strict_kth_filter if str(trace) in PRESETS else False
    return _read(str(path), bool(strict))
