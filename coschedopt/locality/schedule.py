"""Schedules of rigid jobs with processor ids, their makespan, and the independent validator.

A schedule gives each job a start time and the ids of its processors::

    {"jobs": [{"job": "J1", "start": 0.0, "processors": [0, 1]}]}

The makespan is recomputed from the instance's times (never taken from a solver), and
:func:`validate_schedule` checks every rule of the model without sharing code with any
method: each job exactly once, ``size`` distinct ids in 0..m-1, no id used by two jobs at
once, and the instance's constraint (contiguity on its topology, locality).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import InputError
from ..workloads.idsets import runs as id_runs
from .instance import LocalityInstance, is_contiguous_constraint, is_local_constraint

#: relative tolerance when comparing start and end times of two jobs on one processor
TIME_RTOL = 1e-9


@dataclass(frozen=True)
class Assignment:
    """One job's place in a schedule: its start and its processor ids (sorted)."""

    job: str
    start: float
    processors: tuple[int, ...]


@dataclass(frozen=True)
class LocalitySchedule:
    """The assignments of a schedule (any order)."""

    assignments: tuple[Assignment, ...]

    @classmethod
    def from_lists(
        cls, instance: LocalityInstance, starts: Sequence[float], processors: Sequence[Sequence[int]]
    ) -> LocalitySchedule:
        """From per-job starts and id lists in instance order (the form methods compute in)."""
        return cls(
            tuple(
                Assignment(job.name, float(s), tuple(sorted(int(p) for p in ids)))
                for job, s, ids in zip(instance.jobs, starts, processors, strict=True)
            )
        )

    def by_job(self, instance: LocalityInstance) -> list[Assignment]:
        """The assignments in instance order (KeyError if a job is missing)."""
        table = {a.job: a for a in self.assignments}
        return [table[j.name] for j in instance.jobs]

    def to_dict(self) -> dict[str, Any]:
        return {"jobs": [{"job": a.job, "start": a.start, "processors": list(a.processors)} for a in self.assignments]}

    @classmethod
    def from_dict(cls, instance: LocalityInstance | None, data: dict[str, Any]) -> LocalitySchedule:
        """Read ``{"jobs": [{"job", "start", "processors"}]}``; shapes are checked here, rules by the validator."""
        jobs = data.get("jobs") if isinstance(data, dict) else None
        if not isinstance(jobs, list):
            raise InputError(f"a locality schedule needs a list 'jobs', got {jobs!r}", where="schedule.jobs")
        out = []
        for i, entry in enumerate(jobs):
            where = f"schedule.jobs[{i}]"
            if not isinstance(entry, dict) or not {"job", "start", "processors"} <= set(entry):
                raise InputError(f"expected {{'job', 'start', 'processors'}}, got {entry!r}", where=where)
            unknown = sorted(set(entry) - {"job", "start", "processors"})
            if unknown:
                raise InputError(f"unknown field {unknown[0]!r}", where=f"{where}.{unknown[0]}")
            start, ids = entry["start"], entry["processors"]
            if isinstance(start, bool) or not isinstance(start, int | float):
                raise InputError(f"start must be a number, got {start!r}", where=f"{where}.start")
            if not isinstance(ids, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in ids):
                raise InputError(f"processors must be a list of integer ids, got {ids!r}", where=f"{where}.processors")
            out.append(Assignment(str(entry["job"]), float(start), tuple(sorted(ids))))
        return cls(tuple(out))


def makespan(instance: LocalityInstance, schedule: LocalitySchedule) -> float:
    """max_j (start_j + time_j), with times from the instance."""
    return max(a.start + instance.times[instance.index[a.job]] for a in schedule.assignments)


def clusters_of(ids: Sequence[int], cluster_size: int) -> set[int]:
    """The clusters (id // ell) an id set touches."""
    return {p // cluster_size for p in ids}


def validate_schedule(instance: LocalityInstance, schedule: LocalitySchedule) -> None:
    """Raise :class:`~coschedopt.core.InputError` (a ``ValueError``) on the first broken rule.

    Checked: every job of the instance exactly once and no other; a finite start >= 0;
    ``size`` distinct ids in 0..m-1; contiguity (one run of ids, wrapping on a ring) and
    locality (ceil(size / ell) clusters) when the instance's constraint asks for them; and
    no processor running two jobs at once (intervals [start, start + time) overlapping by
    more than a relative 1e-9).  O(sum_j size_j log n).
    """
    m, ell = instance.processors, instance.cluster_size
    contiguous, local = is_contiguous_constraint(instance.constraint), is_local_constraint(instance.constraint)
    seen: dict[str, int] = {}
    per_id: dict[int, list[tuple[float, float, str]]] = {}
    end = 0.0
    for i, a in enumerate(schedule.assignments):
        where = f"jobs[{i}]"
        if a.job not in instance.index:
            raise InputError(f"unknown job {a.job!r} (not in instance {instance.name!r})", where=where)
        if a.job in seen:
            raise InputError(f"job {a.job!r} scheduled twice (jobs[{seen[a.job]}] and jobs[{i}])", where=where)
        seen[a.job] = i
        job = instance.jobs[instance.index[a.job]]
        if not (a.start >= 0 and a.start < float("inf")):
            raise InputError(
                f"job {a.job!r}: start must be a finite number >= 0, got {a.start!r}", where=f"{where}.start"
            )
        ids = a.processors
        if len(set(ids)) != len(ids):
            raise InputError(f"job {a.job!r}: processor ids repeated in {list(ids)}", where=f"{where}.processors")
        if len(ids) != job.size:
            raise InputError(
                f"job {a.job!r} needs {job.size} processors, given {len(ids)}: {list(ids)}", where=f"{where}.processors"
            )
        bad = [p for p in ids if not 0 <= p < m]
        if bad:
            raise InputError(f"job {a.job!r}: processor id {bad[0]} outside 0..{m - 1}", where=f"{where}.processors")
        if contiguous and len(id_runs(ids, ring_size=m if instance.ring else None)) != 1:
            raise InputError(
                f"job {a.job!r}: processors {list(ids)} are not one range of consecutive ids on a {instance.topology}, "
                f"as constraint {instance.constraint!r} demands",
                where=f"{where}.processors",
            )
        if local and len(clusters_of(ids, ell)) != instance.min_clusters(job.size):
            raise InputError(
                f"job {a.job!r}: processors {list(ids)} touch {len(clusters_of(ids, ell))} clusters of {ell} ids, not the "
                f"least possible ceil({job.size}/{ell}) = {instance.min_clusters(job.size)}, as constraint "
                f"{instance.constraint!r} demands",
                where=f"{where}.processors",
            )
        stop = a.start + job.time
        end = max(end, stop)
        for p in ids:
            per_id.setdefault(p, []).append((a.start, stop, a.job))
    missing = [j.name for j in instance.jobs if j.name not in seen]
    if missing:
        raise InputError(f"{len(missing)} job(s) not scheduled: {', '.join(missing[:10])}", where="jobs")
    tol = TIME_RTOL * max(1.0, end)
    for p, runs in per_id.items():
        runs.sort()
        for (s1, e1, j1), (s2, _, j2) in zip(runs, runs[1:], strict=False):
            if s2 < e1 - tol:
                raise InputError(
                    f"processor {p} runs jobs {j1!r} [{s1:g}, {e1:g}) and {j2!r} (from {s2:g}) at once", where="jobs"
                )


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _job_left_out(instance: LocalityInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"].pop(0)
    return data


def _processor_beyond_m(instance: LocalityInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"][0]["processors"][0] = instance.processors
    return data


def _start_before_zero(instance: LocalityInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["jobs"][0]["start"] = -1.0
    return data


def _one_processor_short(instance: LocalityInstance, data: dict[str, Any]) -> dict[str, Any]:
    job = data["jobs"][0]
    job["processors"] = (
        job["processors"][:-1] or [p for p in range(instance.processors) if p not in job["processors"]][:2]
    )
    return data


BREAKERS = {
    "a job left out": _job_left_out,
    "a processor beyond m": _processor_beyond_m,
    "a start before 0": _start_before_zero,
    "a job on the wrong number of processors": _one_processor_short,
}
