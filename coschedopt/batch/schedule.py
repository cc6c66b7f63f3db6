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
from .penalty import PENALTIES, penalised_duration
from .procsets import bits_from_ids

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


def validate_schedule(instance: BatchInstance, schedule: BatchSchedule) -> None:
    """Raise ``ValueError`` on the first broken rule: every job once, start >= submit, its size of processors
    in range, the duration its run time and penalty give (killed at the requested time), no processor used by
    two jobs at once, and (when reservations are recorded) no job later than its first reservation."""
    n, m = instance.n, instance.processors
    if len(schedule.start) != n or len(schedule.processors) != n:
        raise ValueError(f"the schedule has {len(schedule.start)} jobs, the instance {n}")
    bits = []
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
        bits.append(bits_from_ids(ids, m))
    _check_no_overlap(instance, schedule, bits)


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


def _check_no_overlap(instance, schedule, bits) -> None:
    """Sweep the starts and ends in time order (ends first at equal times) with the set of busy processors."""
    n = instance.n
    times = np.concatenate((schedule.end, schedule.start))
    kinds = np.concatenate((np.zeros(n, np.int64), np.ones(n, np.int64)))  # 0: end, 1: start
    jobs = np.concatenate((np.arange(n), np.arange(n)))
    busy = 0
    for k in np.lexsort((kinds, times)).tolist():
        j = int(jobs[k])
        if schedule.start[j] == schedule.end[j]:
            clash = busy & bits[j]
            if kinds[k] == 1 and clash:
                raise ValueError(f"job {instance.ids[j]!r} starts at {schedule.start[j]} on busy processors")
            continue
        if kinds[k] == 0:
            busy ^= bits[j]
            continue
        clash = busy & bits[j]
        if clash:
            s = schedule.start[j]
            other = next(o for o in range(n) if o != j and bits[o] & clash and schedule.start[o] <= s < schedule.end[o])
            raise ValueError(
                f"jobs {instance.ids[other]!r} and {instance.ids[j]!r} share a processor at time {schedule.start[j]}"
            )
        busy |= bits[j]


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
