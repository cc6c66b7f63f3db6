"""Method C (thesis §3.5.1): an instance of sequential tasks cut from a window of a parallel trace.

A window start t is drawn uniformly over the trace's time horizon (first to last
submission; ``inside`` keeps the whole window within it) and every job submitted
in [t, t + s] becomes a task, s the window length (Table 3.1's presets).  With
q_j the job's processors, e_j its actual run time and Q = Σ q_j / n the mean over
the instance, the task has p_j = (q_j / Q) · e_j and the instance m / Q
processors, m the platform's: the work over the processors (the offered load) is
the trace's.  The rounding of m / Q is unspecified (``rounding``: nearest by
default; ``processors`` overrides it), and Table 3.1's instance counts do not
come out of it (see the family's notes: Metacentrum's m / Q is about 512 where
the table has 18, a ninefold overload at 18); releases are shifted so that the
window starts at 0.  The stretch bound B = 10 s applies after the transformation.

``coschedopt generate online method-c --trace curie --seed 3`` draws instance 3
of Curie with Table 3.1's 60-day window and 80,640 processors.
"""

from __future__ import annotations

import math
import os

import numpy as np

from ..core import InputError, make_rng
from .instance import OnlineInstance
from .traces import PRESETS, find_trace, read_trace_jobs

DAY = 86400.0
ROUNDINGS = ("round", "floor", "ceil")


def method_c_instance(
    trace: str | os.PathLike,
    *,
    window_days: float | None = None,
    trace_processors: int | None = None,
    processors: int | None = None,
    rounding: str = "round",
    inside: bool = False,
    start: float | None = None,
    objective: str = "sum-stretch",
    stretch_bound: float = 10.0,
    seed: int | None = 0,
) -> OnlineInstance:
    """Method C's instance number ``seed`` of ``trace`` (a preset name, an archive file name or a path).

    ``window_days`` and ``trace_processors`` default to the preset's Table 3.1
    values (for a file without a preset: required, and the header's MaxProcs);
    ``start`` (seconds, in the trace's clock) fixes the window instead of drawing it.
    """
    preset = PRESETS.get(str(trace))
    find_trace(trace)  # a missing trace is the first thing to report
    if window_days is None:
        if preset is None:
            raise InputError(f"a trace without a preset needs a window length, got {trace!r}", where="--window-days")
        window_days = preset.window_days
    if not (isinstance(window_days, int | float) and math.isfinite(window_days) and window_days > 0):
        raise InputError(f"must be a positive number of days, got {window_days!r}", where="--window-days")
    if rounding not in ROUNDINGS:
        raise InputError(f"must be one of {', '.join(ROUNDINGS)}, got {rounding!r}", where="--rounding")
    if processors is not None and processors < 1:
        raise InputError(f"must be >= 1, got {processors}", where="--processors")
    jobs = read_trace_jobs(trace)
    m_trace = trace_processors or (preset.processors if preset else jobs.platform_processors)
    if m_trace is None or m_trace < 1:
        raise InputError(
            f"the trace {trace!r} gives no platform size (no MaxProcs in its header): give one",
            where="--trace-processors",
        )
    length = window_days * DAY
    first, last = float(jobs.submit.min()), float(jobs.submit.max())
    if start is None:
        high = max(first, last - length) if inside else last
        start = float(make_rng(seed).uniform(first, high))
    chosen = (jobs.submit >= start) & (jobs.submit <= start + length)
    if not chosen.any():
        raise InputError(
            f"no job of {trace!r} is submitted in the window [{start:.0f}, {start + length:.0f}] s", where="--start"
        )
    q, e = jobs.processors[chosen], jobs.run_time[chosen]
    mean_q = float(q.mean())
    ratio = m_trace / mean_q
    m = processors or max(1, int({"round": round, "floor": math.floor, "ceil": math.ceil}[rounding](ratio)))
    label = preset.name if preset else os.path.basename(str(trace))
    return OnlineInstance(
        release=jobs.submit[chosen] - start,
        time=q / mean_q * e,
        processors=m,
        objective=objective,
        stretch_bound=stretch_bound,
        task_names=tuple(f"J{int(i)}" for i in jobs.job_id[chosen]),
        name=f"{label}-{window_days:g}d-s{seed}",
        source={
            "trace": label,
            "method": "C",
            "window_start": start,
            "window_days": window_days,
            "trace_processors": int(m_trace),
            "mean_job_processors": mean_q,
            "m_over_q": ratio,
            "seed": seed,
        },
    )


def small_cut(
    instance: OnlineInstance, tasks: int, processors: int, *, max_time: int = 50, seed: int | None = 0
) -> OnlineInstance:
    """A small integer instance for the exact methods, cut from a Method C instance.

    ``tasks`` consecutive arrivals from a random position keep their sizes and the
    gaps between their releases, rescaled in time so that their offered load on
    ``processors`` processors is the whole instance's (a 12-task cut of a
    200-processor trace would otherwise run 70 times overloaded on 3 processors);
    times are then counted in a unit of (largest size) / ``max_time``: sizes rounded
    to the nearest unit (at least 1), releases down, the stretch bound B divided by
    the unit.  Integer data, so that the time-indexed exact methods apply."""
    if not 1 <= tasks <= instance.n:
        raise InputError(f"must be between 1 and {instance.n}, got {tasks}", where="--tasks")
    if processors < 1:
        raise InputError(f"must be >= 1, got {processors}", where="--processors")
    first = int(make_rng(seed).integers(0, instance.n - tasks + 1))
    pick = instance.arrival_order[first : first + tasks]
    r, p = instance.release[pick] - instance.release[pick].min(), instance.time[pick]
    span = float(r.max())
    if span > 0:  # stretch or squeeze the arrivals to the instance's offered load
        r = r * (float(p.sum()) / (processors * instance.offered_load() * span))
    unit = float(p.max()) / max_time
    return OnlineInstance(
        release=np.floor(r / unit),
        time=np.maximum(1.0, np.round(p / unit)),
        processors=processors,
        objective=instance.objective,
        stretch_bound=instance.stretch_bound / unit,
        task_names=tuple(instance.task_names[j] for j in pick.tolist()),
        name=f"{instance.name}-cut{tasks}-m{processors}",
        source={**instance.source, "cut_tasks": tasks, "cut_first": first, "time_unit": unit},
    )
