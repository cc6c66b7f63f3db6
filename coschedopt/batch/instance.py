"""A batch workload: rigid jobs submitted over time to one platform (thesis ch. 4-5).

JSON::

    {"kind": "batch", "name": "KTH-week-3",
     "platform": {"processors": 100, "levels": [1, 2, 10, 100]},
     "jobs": [{"id": "1", "submit": 0, "run_time": 7200, "requested_time": 10800, "size": 16}],
     "source": {"trace": "KTH-SP2-1996-2.1-cln.swf.gz", "start": 0}}

Times are integer seconds (SWF's unit); ``run_time`` is what the job really
runs on an ideal allocation, ``requested_time`` the user's wall time (a job
running past it is killed); ``size`` is its number of processors.  ``source``
(optional, free-form) records where the jobs came from.  The columns are numpy
arrays, so a 280,000-job trace costs a few megabytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..core import InputError, refuse_unknown
from ..core.limits import check_count, check_table
from .platform import Platform

_FIELDS = {"kind", "name", "platform", "jobs", "source"}
_PLATFORM_FIELDS = {"processors", "levels"}
_JOB_FIELDS = ("id", "submit", "run_time", "requested_time", "size")

#: jobs at most: the archive's largest traces have a few million jobs (the columns cost
#: 40 bytes a job; the simulators are event loops in Python)
MAX_JOBS = 10**7
#: the latest second any time may reach (integer seconds, about 31 million years): the
#: simulators add times in int64 (which ends at 9.2e18) and the metrics sum them in floats
MAX_SECONDS = 10**15


@dataclass(frozen=True, eq=False)
class BatchInstance:
    """Jobs (columns of equal length) on a :class:`Platform`; checked at construction."""

    kind: ClassVar[str] = "batch"
    platform: Platform
    ids: tuple[str, ...]
    submit: np.ndarray
    run_time: np.ndarray
    requested_time: np.ndarray
    size: np.ndarray
    name: str = "batch"
    source: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.ids)
        if n == 0:
            raise InputError("a workload needs at least one job (is the trace window empty?)", where="jobs")
        check_count(n, "jobs", high=MAX_JOBS, what="the jobs the simulators can take")
        for col in ("submit", "run_time", "requested_time", "size"):
            values = np.asarray(getattr(self, col), dtype=np.int64)
            values.setflags(write=False)
            object.__setattr__(self, col, values)
            if values.shape != (n,):
                raise InputError(f"has {values.shape} values for {n} jobs", where=col)
        for col in ("submit", "run_time", "requested_time"):
            bad = np.flatnonzero((getattr(self, col) < 0) | (getattr(self, col) > MAX_SECONDS))
            if len(bad):
                i = int(bad[0])
                raise InputError(
                    f"must be in 0..{MAX_SECONDS:,} seconds, got {getattr(self, col)[i]}", where=f"jobs[{i}].{col}"
                )
        bad = np.flatnonzero((self.size < 1) | (self.size > self.platform.processors))
        if len(bad):
            i = int(bad[0])
            raise InputError(
                f"must be between 1 and the platform's {self.platform.processors} processors, got {self.size[i]}",
                where=f"jobs[{i}].size",
            )
        if len(set(self.ids)) != n:
            seen: set[str] = set()
            i = next(k for k, x in enumerate(self.ids) if x in seen or seen.add(x))
            raise InputError(f"job id {self.ids[i]!r} is used twice", where=f"jobs[{i}].id")

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def processors(self) -> int:
        return self.platform.processors

    def fcfs_order(self) -> np.ndarray:
        """Job indices by submission time, ties in file order (the queue order of every simulator)."""
        return np.argsort(self.submit, kind="stable")

    def to_dict(self) -> dict[str, Any]:
        cols = [self.submit.tolist(), self.run_time.tolist(), self.requested_time.tolist(), self.size.tolist()]
        jobs = [dict(zip(_JOB_FIELDS, row, strict=True)) for row in zip(self.ids, *cols, strict=True)]
        out = {"kind": "batch", "name": self.name, "platform": self.platform.to_dict(), "jobs": jobs}
        if self.source:
            out["source"] = dict(self.source)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BatchInstance:
        if not isinstance(data, dict):
            raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _FIELDS)
        plat = data.get("platform")
        if not isinstance(plat, dict):
            raise InputError(f"must be an object {{'processors': P, 'levels': [...]}}, got {plat!r}", where="platform")
        refuse_unknown(plat, _PLATFORM_FIELDS, "platform")
        levels = plat.get("levels", [])
        if not isinstance(levels, list):
            raise InputError(f"must be a list of node counts, got {levels!r}", where="platform.levels")
        platform = Platform(plat.get("processors"), tuple(levels))
        jobs = data.get("jobs")
        if not isinstance(jobs, list):
            raise InputError(f"must be a list of jobs, got {type(jobs).__name__}", where="jobs")
        columns: dict[str, list[Any]] = {k: [] for k in _JOB_FIELDS}
        for i, job in enumerate(jobs):
            if not isinstance(job, dict):
                raise InputError(f"must be an object, got {job!r}", where=f"jobs[{i}]")
            refuse_unknown(job, set(_JOB_FIELDS), f"jobs[{i}]")
            for key in _JOB_FIELDS:
                if key not in job:
                    raise InputError("missing", where=f"jobs[{i}].{key}")
                value = job[key]
                if key == "id":
                    if not isinstance(value, str | int) or isinstance(value, bool):
                        raise InputError(f"must be a string, got {value!r}", where=f"jobs[{i}].id")
                    value = str(value)
                elif key == "size":
                    check_count(value, f"jobs[{i}].size", high=platform.processors, what="the platform's processors")
                else:
                    check_count(value, f"jobs[{i}].{key}", low=0, high=MAX_SECONDS, what="integer seconds")
                columns[key].append(value)
        source = check_table(data.get("source", {}), "source")
        return cls(
            platform=platform,
            ids=tuple(columns["id"]),
            submit=np.array(columns["submit"], dtype=np.int64),
            run_time=np.array(columns["run_time"], dtype=np.int64),
            requested_time=np.array(columns["requested_time"], dtype=np.int64),
            size=np.array(columns["size"], dtype=np.int64),
            name=str(data.get("name", "batch")),
            source=source,
        )
