"""Rigid jobs on clustered processors (thesis ch. 4, section 4.3): the instance and its JSON form.

``m`` processors numbered 0..m-1 are split into ``k`` clusters of ell = m/k consecutive ids
(cluster c holds ids c*ell .. (c+1)*ell - 1).  Each job j needs ``size_j`` processors for
``time_j`` units, all at once and without preemption; every job is known at time 0.  The
``constraint`` says which processor sets a job may take:

================== ==========================================================================
``none``           any ``size_j`` ids
``contiguous``     one range of consecutive ids (on a ``ring`` a range may wrap from m-1 to 0)
``local``          ids from the least possible number of clusters, ceil(size_j / ell)
``contiguous+local`` both
================== ==========================================================================

The ``line`` topology is the thesis's reading (Theorem 3 uses clusters i, i+1 with
1 <= i <= k-1); ``ring`` is the reading of the thesis author's simulator, which counts a
range wrapping from the last id to the first as contiguous.

JSON::

    {"kind": "locality", "name": "I1", "processors": 6, "clusters": 2,
     "constraint": "contiguous+local", "topology": "line",
     "jobs": [{"name": "J1", "time": 1.0, "size": 2}]}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError, MethodRefused, refuse_unknown
from ..core.limits import MAX_TIME, check_count, check_number, check_resolution

#: the constraints on a job's processor set, weakest first
CONSTRAINTS = ("none", "contiguous", "local", "contiguous+local")
#: how processor ids are laid out for contiguity
TOPOLOGIES = ("line", "ring")

_FIELDS = {"kind", "name", "processors", "clusters", "constraint", "topology", "jobs"}
_JOB_FIELDS = {"name", "time", "size"}

#: times are made integral by a power of ten up to this many decimals for the exact models
MAX_TIME_DECIMALS = 6

#: processors at most: the placement search and CP-SAT's contiguity model work per processor
#: id; measured on 12 jobs of half the platform on one ring, cpsat grew to 1.1 GB at 10^6 ids
#: and stayed under 0.2 GB at 10^5 (the thesis's platforms have a few thousand)
MAX_PROCESSORS = 10**5
#: jobs at most: every method is at least quadratic in the jobs; a 1 MB file holds ~30,000
MAX_JOBS = 10**5
#: the exact models' integers (CP-SAT's end at 2^62): :func:`integer_times` refuses data whose
#: total area in ticks would pass it
MAX_TICKS = 2**62


@dataclass(frozen=True)
class Job:
    """A rigid job: ``size`` processors for ``time`` units."""

    name: str
    time: float
    size: int


def is_contiguous_constraint(constraint: str) -> bool:
    return constraint in ("contiguous", "contiguous+local")


def is_local_constraint(constraint: str) -> bool:
    return constraint in ("local", "contiguous+local")


@dataclass(frozen=True)
class LocalityInstance:
    """Jobs, ``processors`` = m split into ``clusters`` = k, the ``constraint`` and the ``topology``.

    Validated at construction: one :class:`~coschedopt.core.InputError` naming the field
    (``jobs[3].size``) and the value for anything outside the model.
    """

    kind: ClassVar[str] = "locality"

    processors: int
    clusters: int
    jobs: tuple[Job, ...]
    constraint: str = "none"
    topology: str = "line"
    name: str = "locality"

    def __post_init__(self) -> None:
        for field in ("processors", "clusters"):
            check_count(getattr(self, field), field, high=MAX_PROCESSORS, what="the processors the methods can take")
        if self.processors % self.clusters:
            raise InputError(
                f"processors = {self.processors} is not divisible by clusters = {self.clusters} "
                "(the clusters are equal ranges of consecutive ids)",
                where="clusters",
            )
        if self.constraint not in CONSTRAINTS:
            raise InputError(
                f"unknown constraint {self.constraint!r}; one of {', '.join(CONSTRAINTS)}", where="constraint"
            )
        if self.topology not in TOPOLOGIES:
            raise InputError(f"unknown topology {self.topology!r}; one of {', '.join(TOPOLOGIES)}", where="topology")
        jobs = tuple(self.jobs)
        if not jobs:
            raise InputError("at least one job is needed, got []", where="jobs")
        check_count(len(jobs), "jobs", high=MAX_JOBS, what="the jobs the methods can take")
        seen: dict[str, int] = {}
        for i, job in enumerate(jobs):
            t, s = job.time, job.size
            check_number(t, f"jobs[{i}].time", high=MAX_TIME)
            if isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= self.processors:
                raise InputError(
                    f"job {job.name!r}: size must be an integer in 1..processors = {self.processors}, got {s!r}",
                    where=f"jobs[{i}].size",
                )
            if job.name in seen:
                raise InputError(
                    f"duplicate job name {job.name!r} (jobs[{seen[job.name]}] and jobs[{i}])", where=f"jobs[{i}].name"
                )
            seen[job.name] = i
        check_resolution([j.time for j in jobs], float(sum(j.time for j in jobs)), "jobs[{}].time")
        object.__setattr__(self, "jobs", jobs)

    # ---- sizes and derived data ------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.jobs)

    @property
    def cluster_size(self) -> int:
        """ell = m / k, the processors of one cluster."""
        return self.processors // self.clusters

    @property
    def ring(self) -> bool:
        return self.topology == "ring"

    @cached_property
    def times(self) -> np.ndarray:
        out = np.array([j.time for j in self.jobs], dtype=float)
        out.setflags(write=False)
        return out

    @cached_property
    def sizes(self) -> np.ndarray:
        out = np.array([j.size for j in self.jobs], dtype=np.int64)
        out.setflags(write=False)
        return out

    @cached_property
    def index(self) -> dict[str, int]:
        """Job name -> position in ``jobs``."""
        return {j.name: i for i, j in enumerate(self.jobs)}

    @property
    def area(self) -> float:
        """A = sum_j time_j * size_j, the total work (section 4.4.3)."""
        return float(np.dot(self.times, self.sizes))

    @property
    def lower_bound(self) -> float:
        """max(A / m, p_max): a lower bound on every optimum, with or without constraints."""
        return max(self.area / self.processors, float(self.times.max()))

    def min_clusters(self, size: int) -> int:
        """ceil(size / ell): the clusters a local job of ``size`` processors uses."""
        return -(-int(size) // self.cluster_size)

    @property
    def fits_clusters(self) -> bool:
        """Whether every job fits in one cluster (size_j <= ell), the hypothesis of Theorems 2-5."""
        return bool(self.sizes.max() <= self.cluster_size)

    def with_constraint(self, constraint: str) -> LocalityInstance:
        """The same jobs and platform under another constraint."""
        return dataclasses.replace(self, constraint=constraint)

    # ---- JSON -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "processors": self.processors,
            "clusters": self.clusters,
            "constraint": self.constraint,
            "topology": self.topology,
            "jobs": [{"name": j.name, "time": float(j.time), "size": j.size} for j in self.jobs],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LocalityInstance:
        """Read the issue's JSON; unknown fields (top level or in a job) are refused."""
        if not isinstance(data, dict):
            raise InputError(f"a locality instance must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _FIELDS, show_value=True)
        if data.get("kind", "locality") != "locality":
            raise InputError(f"expected kind 'locality', got {data.get('kind')!r}", where="kind")
        for field in ("processors", "clusters"):
            if field not in data:
                raise InputError(f"missing field {field!r}", where=field)
        jobs = data.get("jobs")
        if not isinstance(jobs, list):
            raise InputError(f"must be a list of {{'name', 'time', 'size'}}, got {jobs!r:.80}", where="jobs")
        out = []
        for i, job in enumerate(jobs):
            if not isinstance(job, dict):
                raise InputError(f"a job must be an object with 'time' and 'size', got {job!r}", where=f"jobs[{i}]")
            refuse_unknown(job, _JOB_FIELDS, f"jobs[{i}]", show_value=True)
            for field in ("time", "size"):
                if field not in job:
                    raise InputError(f"missing field {field!r}", where=f"jobs[{i}].{field}")
            out.append(Job(str(job.get("name", f"J{i + 1}")), job["time"], job["size"]))
        return cls(
            data["processors"],
            data["clusters"],
            tuple(out),
            data.get("constraint", "none"),
            data.get("topology", "line"),
            str(data.get("name", "locality")),
        )


def make_instance(
    jobs: list[tuple[float, int]] | list[Job],
    processors: int,
    clusters: int,
    *,
    constraint: str = "none",
    topology: str = "line",
    name: str = "locality",
) -> LocalityInstance:
    """An instance from ``(time, size)`` pairs (named J1, J2, ...) or :class:`Job` objects."""
    out = [j if isinstance(j, Job) else Job(f"J{i + 1}", j[0], j[1]) for i, j in enumerate(jobs)]
    return LocalityInstance(processors, clusters, tuple(out), constraint, topology, name)


def integer_times(instance: LocalityInstance) -> tuple[np.ndarray, float]:
    """The job times as integers in a common unit: ``(ticks, unit)`` with time_j = ticks_j * unit.

    The exact models (CP-SAT, the time-indexed MILP) need integer times; a left-shifted
    schedule then starts every job at an integer tick, so the optimum over integer starts
    is the optimum.  The unit is 10^-d for the least d <= MAX_TIME_DECIMALS that makes every
    time integral; a time with more decimals makes the exact methods refuse the instance.
    """
    for d in range(MAX_TIME_DECIMALS + 1):
        scaled = instance.times * 10**d
        ticks = np.round(scaled)
        if np.all(np.abs(scaled - ticks) <= 1e-9 * np.maximum(1.0, scaled)):
            area = float(np.dot(ticks, instance.sizes))
            if area > MAX_TICKS:
                raise MethodRefused(
                    f"the jobs' area is {area:.3g} ticks of {10.0**-d:g}, above the exact models' 2^62; "
                    "the heuristics take this instance",
                    where="jobs",
                )
            return ticks.astype(np.int64), 10.0**-d
    i = int(
        np.argmax(np.abs(instance.times * 10**MAX_TIME_DECIMALS - np.round(instance.times * 10**MAX_TIME_DECIMALS)))
    )
    raise MethodRefused(
        f"job {instance.jobs[i].name!r}: time {float(instance.times[i])!r} has more than {MAX_TIME_DECIMALS} decimals; "
        "the exact models need times on a common grid (round them)",
        where=f"jobs[{i}].time",
    )


def lower_bound_ticks(instance: LocalityInstance) -> int:
    """max(p_max, ceil(A/m)) in the ticks of :func:`integer_times`: every optimum is an integer number
    of ticks (left-shifted schedules start on ticks), so the area bound rounds up."""
    ticks, _ = integer_times(instance)
    return max(int(ticks.max()), -(-int((ticks * instance.sizes).sum()) // instance.processors))
