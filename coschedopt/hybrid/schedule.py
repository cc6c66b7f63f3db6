"""CPU/GPU schedules, their makespan recomputed from the data, and the independent validator.

A schedule places each task on one unit of one resource type at a start time:
``{"tasks": [{"task": "T1", "resource": "gpu", "unit": 0, "start": 0.0}, ...]}``
(``unit`` 0-based within its type).  The task then runs for its time on that type.
Nothing here trusts a method: :func:`makespan` recomputes C_max from the instance,
and :func:`validate_schedule` checks every constraint of the problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import InputError, refuse_unknown
from .instance import HybridInstance

_ENTRY_FIELDS = ("task", "resource", "unit", "start")
_RESOURCES = ("cpu", "gpu")


@dataclass(frozen=True, eq=False)
class HybridSchedule:
    """Placements: entry e puts task ``task[e]`` on GPU ``unit[e]`` if ``on_gpu[e]`` else on CPU ``unit[e]``,
    starting at ``start[e]``.  Methods build one entry per task (in task order); a schedule read
    from a file keeps its entries as given, so that the validator can name a task placed twice."""

    task: np.ndarray
    on_gpu: np.ndarray
    unit: np.ndarray
    start: np.ndarray
    #: the instance's task names (written in the JSON form)
    names: tuple[str, ...]

    @classmethod
    def from_assignment(
        cls, instance: HybridInstance, on_gpu: np.ndarray, unit: np.ndarray, start: np.ndarray
    ) -> HybridSchedule:
        """One entry per task j = 0..n-1."""
        on_gpu, unit = np.asarray(on_gpu, dtype=bool), np.asarray(unit, dtype=np.int64)
        return cls(np.arange(instance.n), on_gpu, unit, np.asarray(start, dtype=float), instance.names)

    @property
    def n_gpu_tasks(self) -> int:
        return int(self.on_gpu.sum())

    def durations(self, instance: HybridInstance) -> np.ndarray:
        """The running time of each entry: its task's time on the type it was placed on."""
        return np.where(self.on_gpu, instance.gpu_time[self.task], instance.cpu_time[self.task])

    def to_dict(self) -> dict[str, Any]:
        names = self.names
        rows = zip(self.task.tolist(), self.on_gpu.tolist(), self.unit.tolist(), self.start.tolist(), strict=True)
        return {"tasks": [{"task": names[t], "resource": _RESOURCES[g], "unit": u, "start": s} for t, g, u, s in rows]}

    @classmethod
    def from_dict(cls, instance: HybridInstance, data: dict[str, Any]) -> HybridSchedule:
        """Read the JSON form; every field of every entry is checked and located (``tasks[3].unit``)."""
        entries = data.get("tasks") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise InputError(f"a hybrid schedule needs a list 'tasks', got {entries!r}", where="schedule.tasks")
        refuse_unknown(data, ("tasks",), "schedule")
        task, on_gpu, unit, start = [], [], [], []
        for e, entry in enumerate(entries):
            where = f"schedule.tasks[{e}]"
            if not isinstance(entry, dict):
                raise InputError(
                    f"expected an object with fields {', '.join(_ENTRY_FIELDS)}, got {entry!r}", where=where
                )
            extra = sorted(set(entry) - set(_ENTRY_FIELDS))
            if extra:
                raise InputError(f"unknown field {extra[0]!r}; fields: {', '.join(_ENTRY_FIELDS)}", where=where)
            for key in _ENTRY_FIELDS:
                if key not in entry:
                    raise InputError(f"missing field {key!r}", where=f"{where}.{key}")
            name, res, u, s = (entry[k] for k in _ENTRY_FIELDS)
            if name not in instance.index:
                raise InputError(f"unknown task {name!r} (not in instance {instance.name!r})", where=f"{where}.task")
            if res not in _RESOURCES:
                raise InputError(f"must be 'cpu' or 'gpu', got {res!r}", where=f"{where}.resource")
            if isinstance(u, bool) or not isinstance(u, int):
                raise InputError(f"must be an integer unit index, got {u!r}", where=f"{where}.unit")
            if isinstance(s, bool) or not isinstance(s, int | float) or not math.isfinite(s):
                raise InputError(f"must be a finite number, got {s!r}", where=f"{where}.start")
            task.append(instance.index[name])
            on_gpu.append(res == "gpu")
            unit.append(u)
            start.append(float(s))
        arrays = np.array(task, np.int64), np.array(on_gpu, bool), np.array(unit, np.int64), np.array(start, float)
        return cls(*arrays, instance.names)


def makespan(instance: HybridInstance, schedule: HybridSchedule) -> float:
    """C_max: the latest end, start + time on the type the task runs on (0 for no entry)."""
    if schedule.task.size == 0:
        return 0.0
    return float((schedule.start + schedule.durations(instance)).max())


def validate_schedule(instance: HybridInstance, schedule: HybridSchedule) -> None:
    """Raise :class:`~coschedopt.core.InputError` (a ``ValueError``) on the first broken constraint.

    Checked: every task placed exactly once, resource types that exist, units in
    range, starts >= 0, and no two tasks overlapping on one unit (touching is allowed,
    with a relative tolerance of 1e-9 for float round-off).
    """
    n = instance.n
    count = np.bincount(schedule.task, minlength=n) if schedule.task.size else np.zeros(n, int)
    twice = np.flatnonzero(count > 1)
    if twice.size:
        j = int(twice[0])
        entries = np.flatnonzero(schedule.task == j).tolist()
        raise InputError(f"task {instance.names[j]!r} placed {count[j]} times (entries {entries})", where="tasks")
    missing = np.flatnonzero(count == 0)
    if missing.size:
        names = ", ".join(instance.names[j] for j in missing[:10])
        raise InputError(f"{missing.size} task(s) not placed: {names}", where="tasks")
    for gpu, limit, kind in ((False, instance.cpus, "cpu"), (True, instance.gpus, "gpu")):
        sel = np.flatnonzero(schedule.on_gpu == gpu)
        bad = sel[(schedule.unit[sel] < 0) | (schedule.unit[sel] >= limit)]
        if bad.size:
            e = int(bad[0])
            raise InputError(
                f"task {instance.names[schedule.task[e]]!r} on {kind} unit {schedule.unit[e]}, "
                f"but the instance has {limit} {kind.upper()}s (units 0..{limit - 1})",
                where=f"tasks[{e}].unit",
            )
    neg = np.flatnonzero(~(schedule.start >= 0))
    if neg.size:
        e = int(neg[0])
        raise InputError(f"start must be >= 0, got {schedule.start[e]!r}", where=f"tasks[{e}].start")
    _check_no_overlap(instance, schedule)


def _check_no_overlap(instance: HybridInstance, schedule: HybridSchedule) -> None:
    end = schedule.start + schedule.durations(instance)
    key = schedule.unit * 2 + schedule.on_gpu  # one key per (type, unit)
    order = np.lexsort((schedule.start, key))
    same = key[order][1:] == key[order][:-1]
    prev_end, next_start = end[order][:-1], schedule.start[order][1:]
    clash = np.flatnonzero(same & (next_start < prev_end - 1e-9 * np.maximum(1.0, np.abs(prev_end))))
    if clash.size:
        a, b = int(order[clash[0]]), int(order[clash[0] + 1])
        kind = _RESOURCES[int(schedule.on_gpu[a])]
        raise InputError(
            f"tasks {instance.names[schedule.task[a]]!r} (ends {end[a]:g}) and {instance.names[schedule.task[b]]!r} "
            f"(starts {schedule.start[b]:g}) overlap on {kind} unit {schedule.unit[a]}",
            where=f"tasks[{b}]",
        )


def stack_on_units(durations: np.ndarray, unit: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Start times when the tasks of each unit run back to back in ``order`` (indices into the arrays).

    Vectorised: a stable sort by unit keeps ``order`` within each unit, then a cumulative sum.
    """
    start = np.zeros(durations.size)
    if order.size == 0:
        return start
    seq = order[np.argsort(unit[order], kind="stable")]
    d = durations[seq]
    cum = np.cumsum(d) - d
    u = unit[seq]
    first = np.r_[True, u[1:] != u[:-1]]
    base = np.maximum.accumulate(np.where(first, cum, 0.0))
    start[seq] = cum - base
    return start


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _task_left_out(instance: HybridInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["tasks"].pop(0)
    return data


def _all_on_one_unit_at_once(instance: HybridInstance, data: dict[str, Any]) -> dict[str, Any]:
    for entry in data["tasks"]:
        entry.update(resource="cpu", unit=0, start=0.0)
    return data


def _unit_beyond_the_platform(instance: HybridInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["tasks"][0].update(resource="cpu", unit=instance.cpus)
    return data


BREAKERS = {
    "a task left out": _task_left_out,
    "every task on one CPU at once": _all_on_one_unit_at_once,
    "a unit beyond the platform": _unit_beyond_the_platform,
}
