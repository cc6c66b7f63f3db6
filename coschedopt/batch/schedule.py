"""A batch schedule (each job's start, end, processors, failure), its objective, and the independent validator.

JSON::

    {"jobs": [{"id": "1", "start": 3600, "end": 10800, "processors": "0-15", "failed": false,
               "reserved": 3600}],
     "model": {"allocation": "basic", "penalty": "none", "factor": 2.0, "topology": "line",
               "metric_topology": "line"}}

``processors`` is an interval-set string of 0-based ids; ``reserved`` (the
start of the job's first reservation) is written by ``conservative`` only;
``model`` records the simulator's settings that decide what a valid duration is
(the penalty) and what the contiguity metric counts as one range
(``metric_topology``, else ``topology``: ids on a line or a ring).  The objective is
the sum of flow times, Σ (end − submit), recomputed from the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core import InputError, refuse_unknown
from ..workloads.idsets import parse_ids
from .instance import BatchInstance
from .kernels import compiled_sweep_applies
from .penalty import PENALTIES, penalised_duration
from .procsets import RunTable, parse_interval_strings

_JOB_FIELDS = {"id", "start", "end", "processors", "failed", "reserved"}
_MODEL_DEFAULT = {"allocation": "basic", "penalty": "none", "factor": 2.0, "topology": "line"}


@dataclass(frozen=True, eq=False)
class BatchSchedule:
    """Columns in the instance's job order; ``processors[j]`` an interval string."""

    ids: tuple[str, ...]
    start: np.ndarray
    end: np.ndarray
    processors: tuple[str, ...]
    failed: np.ndarray
    reserved: np.ndarray | None = None
    model: dict[str, Any] = field(default_factory=lambda: dict(_MODEL_DEFAULT))

    def to_dict(self) -> dict[str, Any]:
        rows = zip(self.ids, self.start.tolist(), self.end.tolist(), self.processors, self.failed.tolist(), strict=True)
        jobs = [{"id": x, "start": s, "end": e, "processors": p, "failed": f} for x, s, e, p, f in rows]
        if self.reserved is not None:
            for job, r in zip(jobs, self.reserved.tolist(), strict=True):
                job["reserved"] = r
        return {"jobs": jobs, "model": dict(self.model)}

    @classmethod
    def from_dict(cls, instance: BatchInstance, data: dict[str, Any]) -> BatchSchedule:
        """Read the JSON form; jobs may come in any order but must match the instance's ids."""
        refuse_unknown(data, {"jobs", "model"}, "schedule")
        jobs = data.get("jobs")
        if not isinstance(jobs, list):
            raise InputError(f"must be a list of jobs, got {type(jobs).__name__}", where="schedule.jobs")
        index = {x: i for i, x in enumerate(instance.ids)}
        n = instance.n
        start, end = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
        failed, reserved = np.zeros(n, bool), np.full(n, -1, np.int64)
        procs = [""] * n
        seen = np.zeros(n, bool)
        for k, job in enumerate(jobs):
            where = f"schedule.jobs[{k}]"
            if not isinstance(job, dict):
                raise InputError(f"must be an object, got {job!r}", where=where)
            bad = sorted(set(job) - _JOB_FIELDS)
            if bad:
                raise InputError(f"unknown field {bad[0]!r}; fields: {', '.join(sorted(_JOB_FIELDS))}", where=where)
            j = index.get(str(job.get("id")))
            if j is None:
                raise InputError(f"no job {job.get('id')!r} in the instance", where=f"{where}.id")
            if seen[j]:
                raise InputError(f"job {job['id']!r} appears twice", where=f"{where}.id")
            seen[j] = True
            for key, col in (("start", start), ("end", end)):
                v = job.get(key)
                if isinstance(v, bool) or not isinstance(v, int):
                    raise InputError(f"must be an integer, got {v!r}", where=f"{where}.{key}")
                col[j] = v
            if "reserved" in job:
                reserved[j] = int(job["reserved"])
            if not isinstance(job.get("failed", False), bool):
                raise InputError(f"must be true or false, got {job['failed']!r}", where=f"{where}.failed")
            failed[j] = job.get("failed", False)
            parse_ids(job.get("processors"), where=f"{where}.processors")
            procs[j] = job["processors"]
        missing = np.flatnonzero(~seen)
        if len(missing):
            raise InputError(f"job {instance.ids[missing[0]]!r} is not scheduled", where="schedule.jobs")
        model = {**_MODEL_DEFAULT, **data.get("model", {})}
        if model["penalty"] not in PENALTIES:
            raise InputError(f"unknown penalty {model['penalty']!r}", where="schedule.model.penalty")
        has_reserved = any("reserved" in job for job in jobs)
        return cls(instance.ids, start, end, tuple(procs), failed, reserved if has_reserved else None, model)


def sum_flow(instance: BatchInstance, schedule: BatchSchedule) -> float:
    """Σ (end − submit): the thesis's sum flow, with the penalised run times."""
    return float((schedule.end - instance.submit).sum())


def processor_runs(schedule: BatchSchedule) -> RunTable:
    """Every job's processors as one table of runs (:class:`.procsets.RunTable`), read once per schedule and
    kept on it (the validator and the metrics both read it).  A string the vectorised reader does not take
    is read with :func:`..workloads.idsets.parse_ids`, which raises the :class:`InputError` naming it."""
    table = schedule.__dict__.get("_runs")
    if table is None:
        table = parse_interval_strings(schedule.processors)
        if table is None:
            table = RunTable.from_ids(
                [parse_ids(text, where=f"processors of job {j}") for j, text in enumerate(schedule.processors)]
            )
        schedule.__dict__["_runs"] = table  # frozen dataclass: a cache, not a field
    return table


def platform_levels(instance: BatchInstance, lowest: np.ndarray, highest: np.ndarray) -> np.ndarray:
    """L of each job from its smallest and largest ids (:meth:`.platform.Platform.level_of`, vectorised)."""
    plat = instance.platform
    level = np.full(len(lowest), plat.depth, dtype=np.int64)  # the root holds every set
    for d in range(plat.depth - 1, -1, -1):  # deepest first: the first block holding both ids decides
        b = plat.block_size(d)
        hold = (lowest // b == highest // b) & (level == plat.depth)
        level[hold] = plat.depth - d
    return level


def min_levels(instance: BatchInstance) -> np.ndarray:
    """L_min of each job (:meth:`.platform.Platform.min_level` of its size, vectorised)."""
    plat = instance.platform
    sizes, where = np.unique(instance.size, return_inverse=True)
    return np.array([plat.min_level(int(s)) for s in sizes.tolist()], dtype=np.int64)[where]


def expected_durations(
    instance: BatchInstance, extra: np.ndarray, model: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """(duration, failed) of each job for R = ``extra`` extra levels: :func:`.penalty.penalised_duration`
    vectorised, its multipliers computed by the same Python expressions (so rounded alike)."""
    run, req = instance.run_time, instance.requested_time
    penalty, factor = model["penalty"], float(model["factor"])
    depth = instance.platform.depth
    if penalty == "none":
        t = run.copy()
    else:
        rs = range(depth + 1)
        mult = np.array([1.0 + r * factor if penalty == "linear" else factor**r for r in rs], dtype=np.float64)
        t = np.ceil(run * mult[np.clip(extra, 0, depth)] - 1e-9).astype(np.int64)
        t = np.where(extra == 0, run, t)
    failed = t > req
    return np.where(failed, req, t), failed


def validate_schedule(instance: BatchInstance, schedule: BatchSchedule) -> None:
    """Raise ``ValueError`` on the first broken rule: every job once, start >= submit, its size of processors
    in range, the duration its run time and penalty give (killed at the requested time), no processor used by
    two jobs at once, and (when reservations are recorded) no job later than its first reservation.

    Each rule is checked for all jobs at once on columns and on the runs of processor ids
    (:func:`processor_runs`); the message is the first broken rule of the first job that breaks one, as a
    job-by-job check would find it.  The overlap check is a sweep over the starts and ends
    (:func:`_check_no_overlap`).  Time and memory are linear in the jobs and their runs."""
    n, m = instance.n, instance.processors
    if len(schedule.start) != n or len(schedule.processors) != n:
        raise ValueError(f"the schedule has {len(schedule.start)} jobs, the instance {n}")
    start, end = np.asarray(schedule.start, dtype=np.int64), np.asarray(schedule.end, dtype=np.int64)
    early = start < instance.submit
    try:
        table = processor_runs(schedule)
    except InputError:  # a string parse_ids refuses: the job-by-job check raises at the first broken job
        table = None
    if table is None or early.any():
        _check_job_by_job(instance, schedule)
    lowest, highest = table.lowest(), table.highest()
    bad_size = (table.sizes != instance.size) | (highest >= m)
    extra = platform_levels(instance, np.maximum(lowest, 0), np.maximum(highest, 0)) - min_levels(instance)
    expected, failed = expected_durations(instance, extra, schedule.model)
    duration = end - start
    flagged = np.asarray(schedule.failed, dtype=bool)
    ok = (duration == expected) & (flagged == failed)
    if schedule.reserved is not None:
        reserved = np.asarray(schedule.reserved, dtype=np.int64)
        moved = start < reserved
        if schedule.model.get("reassign_penalty") == "keep":  # penalised on the processors of its first reservation
            run, req = instance.run_time, instance.requested_time
            kept = (np.minimum(run, req) <= duration) & (duration <= req) & ((duration == req) | ~flagged)
            ok = np.where(moved, kept, ok)
        late = (start > reserved) & (reserved >= 0)
    else:
        late = np.zeros(n, dtype=bool)
    broken = np.flatnonzero(bad_size | ~ok | late)
    if len(broken):
        j = int(broken[0])
        name = f"job {instance.ids[j]!r}"
        if bad_size[j]:
            raise ValueError(
                f"{name} needs {instance.size[j]} of processors 0..{m - 1}, got {schedule.processors[j]!r}"
            )
        if not ok[j]:
            raise ValueError(
                f"{name} runs {duration[j]} s (failed={bool(flagged[j])}); its run time {instance.run_time[j]} s "
                f"with R = {extra[j]} extra levels and the {schedule.model['penalty']} penalty gives {expected[j]} s "
                f"(failed={bool(failed[j])})"
            )
        raise ValueError(f"{name} starts at {start[j]}, after its first reservation at {schedule.reserved[j]}")
    _check_no_overlap(instance, start, end, table)


def _check_job_by_job(instance, schedule) -> None:
    """The rules of :func:`validate_schedule` job by job, raising the first broken one: the path of a
    schedule known to break one (a job starting before its submission, a processor string parse_ids
    refuses), where the message must name the first job that breaks any rule."""
    n, m = instance.n, instance.processors
    for j in range(n):
        name = f"job {instance.ids[j]!r}"
        s, e = int(schedule.start[j]), int(schedule.end[j])
        if s < instance.submit[j]:
            raise ValueError(f"{name} starts at {s}, before its submission at {instance.submit[j]}")
        ids = parse_ids(schedule.processors[j])
        if len(ids) != instance.size[j] or (len(ids) and ids[-1] >= m):
            raise ValueError(
                f"{name} needs {instance.size[j]} of processors 0..{m - 1}, got {schedule.processors[j]!r}"
            )
        _check_duration(instance, schedule, j, ids, e - s, name)
        if schedule.reserved is not None and s > schedule.reserved[j] >= 0:
            raise ValueError(f"{name} starts at {s}, after its first reservation at {schedule.reserved[j]}")
    raise AssertionError("a job reported as broken passed every rule")


def _check_duration(instance, schedule, j, ids, duration, name) -> None:
    model = schedule.model
    plat = instance.platform
    run, req = int(instance.run_time[j]), int(instance.requested_time[j])
    extra = plat.level_of(int(ids[0]), int(ids[-1])) - plat.min_level(int(instance.size[j]))
    expected, failed = penalised_duration(run, extra, req, model["penalty"], float(model["factor"]))
    moved = schedule.reserved is not None and schedule.start[j] < schedule.reserved[j]
    if moved and model.get("reassign_penalty") == "keep":  # penalised on the processors of its first reservation
        ok = min(run, req) <= duration <= req and (duration == req or not schedule.failed[j])
    else:
        ok = duration == expected and bool(schedule.failed[j]) == failed
    if not ok:
        raise ValueError(
            f"{name} runs {duration} s (failed={bool(schedule.failed[j])}); its run time {run} s with R = {extra} "
            f"extra levels and the {model['penalty']} penalty gives {expected} s (failed={failed})"
        )


def _check_no_overlap(instance: BatchInstance, start: np.ndarray, end: np.ndarray, table: RunTable) -> None:
    """Sweep the starts and ends in time order (ends first at equal times, then by job) with the set of busy
    processors: a start on a busy processor breaks the rule.  A zero-length job is checked against the busy
    set at its start and occupies nothing.  Each event costs the words its job's runs cover."""
    n = instance.n
    start, end = np.array(start, dtype=np.int64), np.array(end, dtype=np.int64)  # writable: one compiled type
    times = np.concatenate((end, start))
    kinds = np.concatenate((np.zeros(n, np.int64), np.ones(n, np.int64)))  # 0: end, 1: start
    events = np.lexsort((kinds, times))
    if compiled_sweep_applies(n):
        from .schedule_kernels import sweep
    else:
        sweep = sweep_bitsets
    words = np.zeros((instance.processors + 63) // 64, dtype=np.uint64)
    k = int(sweep(events, n, start, end, table.offsets, table.first, table.last, words))
    if k < 0:
        return
    j = int(events[k]) % n
    s = int(start[j])
    if start[j] == end[j]:
        raise ValueError(f"job {instance.ids[j]!r} starts at {s} on busy processors")
    mine = _ids_of(table, j)
    running = np.flatnonzero((start <= s) & (s < end) & (start != end))
    other = next(int(o) for o in running.tolist() if o != j and len(np.intersect1d(_ids_of(table, o), mine)))
    raise ValueError(f"jobs {instance.ids[other]!r} and {instance.ids[j]!r} share a processor at time {s}")


def sweep_bitsets(events, n, start, end, offsets, first, last, words) -> int:
    """:func:`.schedule_kernels.sweep` in Python, the busy set an ``int`` (``words`` is not used)."""
    starts, ends = start.tolist(), end.tolist()
    offs, firsts, lasts = offsets.tolist(), first.tolist(), last.tolist()

    def bits(j: int) -> int:
        out = 0
        for r in range(offs[j], offs[j + 1]):
            out |= (1 << (lasts[r] + 1)) - (1 << firsts[r])
        return out

    busy = 0
    for pos, k in enumerate(events.tolist()):
        starting = k >= n
        j = k - n if starting else k
        if starts[j] == ends[j]:
            if starting and busy & bits(j):
                return pos
            continue
        if not starting:
            busy &= ~bits(j)
            continue
        b = bits(j)
        if busy & b:
            return pos
        busy |= b
    return -1


def _ids_of(table: RunTable, j: int) -> np.ndarray:
    lo, hi = table.offsets[j], table.offsets[j + 1]
    parts = [np.arange(a, b + 1) for a, b in zip(table.first[lo:hi].tolist(), table.last[lo:hi].tolist(), strict=True)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _job_left_out(instance: BatchInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"].pop(0)
    return data


def _start_before_submission(instance: BatchInstance, data: dict[str, Any]) -> dict[str, Any]:
    job = data["jobs"][0]
    shift = job["start"] - int(instance.submit[instance.ids.index(job["id"])]) + 1
    job["start"] -= shift
    job["end"] -= shift
    return data


def _processor_beyond_the_platform(instance: BatchInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"][0]["processors"] = str(instance.processors)
    return data


def _runs_too_long(instance: BatchInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"][0]["end"] += 1
    return data


BREAKERS = {
    "a job left out": _job_left_out,
    "a start before the submission": _start_before_submission,
    "a processor beyond the platform": _processor_beyond_the_platform,
    "a job longer than its run time": _runs_too_long,
}
