"""k-in-p pack co-scheduling instances (Aupy et al., *Co-scheduling algorithms for
high-throughput workload execution*, section 3).

``n`` tasks, ``p`` identical processors, at most ``k`` tasks per pack; ``times[i, j-1]``
is t(i, j), the execution time of task i on j processors.  Profiles must satisfy

* Eq. (1), non-increasing time:  t(i, j+1) <= t(i, j)
* Eq. (2), non-decreasing work:  j t(i, j) <= (j+1) t(i, j+1)

which :func:`repair` enforces on any profile (the paper: "we modified speedup
profiles to satisfy Equations (1) and (2)").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError
from ..core.limits import MAX_TIME, check_count, check_number, check_resolution, check_table

#: relative tolerance when checking Eq. (1) and (2) (absorbs float round-off of JSON files)
PROFILE_RTOL = 1e-9

#: processors at most: the file lists one time per processor count, and the heuristics'
#: Algorithm 1 and the exact models work on the whole tasks x processors table
MAX_PROCESSORS = 10**5
#: tasks at most: the heuristics sort and pack them (O(n log n) to O(n^2)); the exact methods
#: refuse far fewer themselves
MAX_TASKS = 10**5
#: cells of the tasks x processors table at most (80 MB of floats; the heuristics copy it a few
#: times); a file can only reach it by listing that many times, a generator by its arguments
MAX_CELLS = 10**7


def repair(times: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Return the closest profile that satisfies Eq. (1) and (2), row by row.

    Going from j = 1 to p, t'(i, j) is t(i, j) clipped into the interval allowed
    by the already repaired t'(i, j-1):

    * at most t'(i, j-1) (Eq. 1): a task that slows down with more processors is
      run as if it never used more than its best count j0 (the paper's remark
      "we can always let t(i,j) = t(i,j0) for j >= j0");
    * at least (j-1) t'(i, j-1) / j (Eq. 2): super-linear speedup is cut back to
      linear, so work never decreases.

    t'(i, 1) = t(i, 1).  A profile that already satisfies both is returned unchanged.
    """
    t = np.array(times, dtype=float, copy=True)
    if t.ndim != 2:
        raise InputError(f"times must be a 2-D table (tasks x processors), got shape {t.shape}")
    for j in range(1, t.shape[1]):
        prev = t[:, j - 1]
        t[:, j] = np.minimum(prev, np.maximum(t[:, j], prev * j / (j + 1)))
    return t


@dataclass(frozen=True, eq=False)
class PackInstance:
    """A k-in-p co-scheduling instance, validated at construction.

    ``times`` has shape (n, p); ``times[i, j-1]`` = t(i, j).  Raises
    :class:`~coschedopt.core.InputError` naming the task, the processor count and
    the values when a time is not positive and finite or when Eq. (1)/(2) fail.
    """

    kind: ClassVar[str] = "pack"

    times: np.ndarray
    max_pack_size: int
    task_names: tuple[str, ...] = ()
    name: str = "instance"
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        t = np.array(self.times, dtype=float)
        if t.ndim != 2 or t.shape[0] < 1 or t.shape[1] < 1:
            raise InputError(f"times must be a non-empty tasks x processors table, got shape {t.shape}", where="tasks")
        n, p = t.shape
        check_count(n, "tasks", high=MAX_TASKS, what="the tasks the methods can take")
        check_count(p, "processors", high=MAX_PROCESSORS, what="the processors the methods can take")
        check_count(n * p, "tasks", high=MAX_CELLS, what="cells of the tasks x processors table")
        names = tuple(self.task_names) if self.task_names else tuple(f"T{i + 1}" for i in range(n))
        if len(names) != n:
            raise InputError(f"{len(names)} task names for {n} tasks", where="tasks")
        if len(set(names)) != n:
            dup = next(x for x in names if names.count(x) > 1)
            raise InputError(f"duplicate task name {dup!r}", where="tasks")
        k = self.max_pack_size
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= p:
            raise InputError(
                f"max_pack_size must be an integer with 1 <= k <= p = {p}, got {k!r}", where="max_pack_size"
            )
        bad = ~np.isfinite(t) | (t <= 0) | (t > MAX_TIME)
        if bad.any():
            i, j = map(int, np.argwhere(bad)[0])
            raise InputError(
                f"task {names[i]!r}: execution time on {j + 1} processors must be positive, finite and "
                f"<= {MAX_TIME:g}, got {float(t[i, j])!r}",
                where=f"tasks[{i}].times[{j}]",
            )
        check_resolution(t.min(axis=1), float(t[:, 0].sum()), "tasks[{}].times")
        _check_profile(t, names)
        t.setflags(write=False)
        object.__setattr__(self, "times", t)
        object.__setattr__(self, "task_names", names)
        object.__setattr__(self, "max_pack_size", int(k))

    @property
    def n(self) -> int:
        return self.times.shape[0]

    @property
    def processors(self) -> int:
        return self.times.shape[1]

    p = processors

    @property
    def k(self) -> int:
        return self.max_pack_size

    @cached_property
    def index(self) -> dict[str, int]:
        """Task name -> row of ``times``."""
        return {name: i for i, name in enumerate(self.task_names)}

    def with_max_pack_size(self, k: int) -> PackInstance:
        return PackInstance(self.times, k, self.task_names, self.name, dict(self.meta))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "processors": self.processors,
            "max_pack_size": self.max_pack_size,
            "tasks": [{"name": nm, "times": row.tolist()} for nm, row in zip(self.task_names, self.times, strict=True)],
        }
        if self.meta:
            d["meta"] = self.meta
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, repair_profiles: bool = False) -> PackInstance:
        """Read the JSON form of DESIGN.md; ``repair_profiles`` applies :func:`repair` first."""
        if not isinstance(data, dict):
            raise InputError(f"a pack instance must be a JSON object, got {type(data).__name__}")
        if data.get("kind", "pack") != "pack":
            raise InputError(f"expected kind 'pack', got {data.get('kind')!r}", where="kind")
        p = _require(data, "processors", int)
        if "max_pack_size" not in data:
            raise InputError("missing field 'max_pack_size'", where="max_pack_size")
        k = data["max_pack_size"]  # range and type checked by the constructor
        tasks = _require(data, "tasks", list)
        check_count(p, "processors", high=MAX_PROCESSORS, what="the processors the methods can take")
        if not tasks:
            raise InputError("at least one task is needed", where="tasks")
        check_count(len(tasks), "tasks", high=MAX_TASKS, what="the tasks the methods can take")
        names, rows = [], []
        for i, task in enumerate(tasks):
            if not isinstance(task, dict):
                raise InputError(f"a task must be an object, got {task!r}", where=f"tasks[{i}]")
            names.append(str(task.get("name", f"T{i + 1}")))
            times = task.get("times")
            if not isinstance(times, list):
                raise InputError(f"'times' must be a list of {p} numbers, got {times!r}", where=f"tasks[{i}].times")
            if len(times) != p:
                raise InputError(
                    f"task {names[-1]!r} has {len(times)} times, expected one per processor count 1..{p}",
                    where=f"tasks[{i}].times",
                )
            for j, x in enumerate(times):
                check_number(
                    x,
                    f"tasks[{i}].times[{j}]",
                    high=MAX_TIME,
                    label=f"task {names[-1]!r}: execution time on {j + 1} processors",
                )
            rows.append([float(x) for x in times])
        t = np.array(rows, dtype=float)
        if repair_profiles:
            t = repair(t)
        return cls(t, k, tuple(names), str(data.get("name", "instance")), check_table(data.get("meta", {}), "meta"))


def _require(data: dict[str, Any], key: str, typ: type) -> Any:
    if key not in data:
        raise InputError(f"missing field {key!r}", where=key)
    value = data[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise InputError(f"{key!r} must be of type {typ.__name__}, got {value!r}", where=key)
    return value


def _check_profile(t: np.ndarray, names: Sequence[str]) -> None:
    """Raise on the first violation of Eq. (1) or Eq. (2), naming task, j and both values."""
    if t.shape[1] < 2:
        return
    cur, nxt = t[:, :-1], t[:, 1:]
    eq1 = nxt > cur * (1 + PROFILE_RTOL)
    if eq1.any():
        i, j = map(int, np.argwhere(eq1)[0])
        raise InputError(
            f"task {names[i]!r} breaks Eq. (1) (non-increasing time): t(j={j + 2}) = {float(t[i, j + 1])!r} > "
            f"t(j={j + 1}) = {float(t[i, j])!r}; fix the profile or repair it (repair(), --repair)",
            where=f"tasks[{i}].times[{j + 1}]",
        )
    j_col = np.arange(1, t.shape[1], dtype=float)
    work_cur, work_nxt = cur * j_col, nxt * (j_col + 1)
    eq2 = work_nxt < work_cur * (1 - PROFILE_RTOL)
    if eq2.any():
        i, j = map(int, np.argwhere(eq2)[0])
        raise InputError(
            f"task {names[i]!r} breaks Eq. (2) (non-decreasing work): work(j={j + 2}) = {j + 2} x {float(t[i, j + 1])!r} = "
            f"{float(work_nxt[i, j])!r} < work(j={j + 1}) = {j + 1} x {float(t[i, j])!r} = {float(work_cur[i, j])!r}; "
            "fix the profile or repair it (repair(), --repair)",
            where=f"tasks[{i}].times[{j + 1}]",
        )
