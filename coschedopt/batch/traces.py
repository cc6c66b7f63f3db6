"""Batch instances from Parallel Workloads Archive traces (SWF), with the thesis's platforms.

:func:`trace_instance` reads a trace through :func:`coschedopt.workloads.read_swf`
(the archive's filters, counted), keeps the jobs submitted in a time window,
shifts the times so the window starts at 0, and puts them on a platform:
the one the thesis used for that trace (:data:`THESIS_PLATFORMS`, Table 5.2
and the author's configuration files), else one cluster of the header's
``MaxProcs`` (or of the largest job when the header has none).
``coschedopt solve trace.swf.gz`` reads a whole trace this way
(:func:`read_trace_instance`, the family's reader for ``.swf`` and ``.swf.gz``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import InputError
from ..workloads import SWFOptions, SWFTrace, locate_trace, read_swf
from .instance import BatchInstance
from .platform import Platform

WEEK = 7 * 24 * 3600


@dataclass(frozen=True)
class ThesisPlatform:
    """A trace's platform in thesis ch. 5: processors, fat-tree levels and 7-day periods per instance."""

    processors: int
    levels: tuple[int, ...]
    periods: int


#: the platforms of Table 5.2 by trace-name prefix (levels from the author's configuration files)
THESIS_PLATFORMS: dict[str, ThesisPlatform] = {
    "CEA-Curie": ThesisPlatform(80640, (1, 2, 70, 3360, 80640), 3),
    "HPC2N": ThesisPlatform(240, (1, 2, 10, 240), 1),
    "KTH-SP2": ThesisPlatform(100, (1, 2, 10, 100), 1),
    "LLNL-Thunder": ThesisPlatform(1024, (1, 2, 64, 1024), 1),
    "RICC": ThesisPlatform(8192, (1, 2, 32, 512, 8192), 2),
    "SDSC-BLUE": ThesisPlatform(1152, (1, 2, 48, 1152), 1),
}


def thesis_platform(path: str | os.PathLike) -> ThesisPlatform | None:
    name = Path(path).name.upper()
    return next((p for prefix, p in THESIS_PLATFORMS.items() if name.startswith(prefix.upper())), None)


def read_trace(path: str | os.PathLike, options: SWFOptions | None = None, **overrides: Any) -> SWFTrace:
    """The trace with the archive's filters; jobs larger than the thesis's platform (if known) are dropped."""
    options = options or SWFOptions()
    known = thesis_platform(path)
    if known is not None and options.platform_processors is None and "platform_processors" not in overrides:
        overrides["platform_processors"] = known.processors
    return read_swf(path, options, **overrides)


def trace_instance(
    trace: SWFTrace,
    *,
    start: int | None = None,
    end: int | None = None,
    platform: Platform | None = None,
    name: str | None = None,
) -> BatchInstance:
    """The jobs of ``trace`` submitted in ``[start, end)`` (trace seconds; default: all), times shifted to 0."""
    submit = trace.jobs["submit_time"]
    keep = np.ones(len(trace), dtype=bool)
    if start is not None:
        keep &= submit >= start
    if end is not None:
        keep &= submit < end
    if not keep.any():
        raise InputError(
            f"no job of {Path(trace.path).name} is submitted in [{start}, {end}) "
            f"(its {len(trace)} kept jobs span [{submit.min() if len(trace) else '-'}, "
            f"{submit.max() if len(trace) else '-'}])",
            where="window",
        )
    origin = int(submit[keep].min()) if start is None else int(start)
    if platform is None:
        known = thesis_platform(trace.path)
        if known is not None:
            platform = Platform(known.processors, known.levels)
        else:
            platform = Platform(int(trace.platform_processors or trace.size.max()))
    source = {"trace": Path(trace.path).name, "window_start": origin, "window_end": end, "filter": trace.summary()}
    return BatchInstance(
        platform=platform,
        ids=tuple(str(x) for x in trace.jobs["job_id"][keep].tolist()),
        submit=submit[keep] - origin,
        run_time=trace.jobs["run_time"][keep],
        requested_time=trace.requested_time[keep],
        size=trace.size[keep],
        name=name or Path(trace.path).name.split(".swf")[0],
        source={k: v for k, v in source.items() if v is not None},
    )


def read_trace_instance(path: Path) -> BatchInstance:
    """A whole trace as one instance (the family's reader of ``.swf`` and ``.swf.gz`` files); a name that is
    not a file is looked up in the trace cache and folders (``coschedopt solve KTH-SP2-1996-2.1-cln.swf.gz``)."""
    return trace_instance(read_trace(locate_trace(path)))


def first_jobs(instance: BatchInstance, jobs: int | None) -> BatchInstance:
    """The instance of the first ``jobs`` jobs of ``instance`` in FCFS order (all of them if ``jobs`` is None)."""
    if jobs is None or jobs >= instance.n:
        return instance
    order = instance.fcfs_order()[:jobs]
    return BatchInstance(
        instance.platform,
        tuple(instance.ids[k] for k in order),
        instance.submit[order],
        instance.run_time[order],
        instance.requested_time[order],
        instance.size[order],
        name=instance.name,
        source=instance.source,
    )
