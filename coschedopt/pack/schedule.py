"""Pack co-schedules, their cost, and the independent validator.

A co-schedule is a sequence of packs; a pack is a set of (task, processors)
pairs run side by side; packs run one after another.  Its cost is
sum over packs of max t(i, sigma(i)) (section 3 of the paper).  Nothing here
trusts a solver: :func:`pack_cost` recomputes the cost from the instance data and
:func:`validate_schedule` checks every constraint of the problem definition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import InputError
from .instance import PackInstance


@dataclass(frozen=True)
class PackSchedule:
    """Packs of ``(task name, processors)`` pairs, in execution order."""

    packs: tuple[tuple[tuple[str, int], ...], ...]

    @classmethod
    def from_indices(cls, instance: PackInstance, packs: Iterable[Iterable[tuple[int, int]]]) -> PackSchedule:
        """Build from packs of ``(task index, processors)`` (the form methods compute in)."""
        names = instance.task_names
        return cls(tuple(tuple((names[int(i)], int(q)) for i, q in pack) for pack in packs))

    def indices(self, instance: PackInstance) -> list[list[tuple[int, int]]]:
        idx = instance.index
        return [[(idx[name], q) for name, q in pack] for pack in self.packs]

    def to_dict(self) -> dict[str, Any]:
        return {"packs": [{"tasks": [{"task": t, "processors": q} for t, q in pack]} for pack in self.packs]}

    @classmethod
    def from_dict(cls, instance: PackInstance | None, data: dict[str, Any]) -> PackSchedule:
        """Read ``{"packs": [{"tasks": [{"task": "T1", "processors": 2}, ...]}, ...]}``."""
        packs = data.get("packs") if isinstance(data, dict) else None
        if not isinstance(packs, list):
            raise InputError(f"a pack schedule needs a list 'packs', got {packs!r}", where="schedule.packs")
        out = []
        for b, pack in enumerate(packs):
            tasks = pack.get("tasks") if isinstance(pack, dict) else None
            if not isinstance(tasks, list):
                raise InputError(f"a pack needs a list 'tasks', got {pack!r}", where=f"schedule.packs[{b}]")
            row = []
            for e, entry in enumerate(tasks):
                where = f"schedule.packs[{b}].tasks[{e}]"
                if not isinstance(entry, dict) or "task" not in entry or "processors" not in entry:
                    raise InputError(f"expected {{'task': name, 'processors': count}}, got {entry!r}", where=where)
                q = entry["processors"]
                if isinstance(q, bool) or not isinstance(q, int):
                    raise InputError(f"processors must be an integer, got {q!r}", where=f"{where}.processors")
                row.append((str(entry["task"]), q))
            out.append(tuple(row))
        return cls(tuple(out))

    def __len__(self) -> int:
        return len(self.packs)


def pack_costs(instance: PackInstance, schedule: PackSchedule) -> np.ndarray:
    """Execution time of each pack: the longest t(i, sigma(i)) in it."""
    idx, t = instance.index, instance.times
    return np.array([max(t[idx[name], q - 1] for name, q in pack) for pack in schedule.packs], dtype=float)


def pack_cost(instance: PackInstance, schedule: PackSchedule) -> float:
    """Cost of a co-schedule: the sum of its packs' execution times (section 3)."""
    return float(pack_costs(instance, schedule).sum())


def validate_schedule(instance: PackInstance, schedule: PackSchedule) -> None:
    """Raise :class:`~coschedopt.core.InputError` (a ``ValueError``) on the first broken constraint.

    Checked: every task of the instance appears exactly once, no unknown task,
    no empty pack, at most k tasks per pack, 1 <= sigma(i) <= p, and at most p
    processors per pack.
    """
    n, p, k = instance.n, instance.processors, instance.max_pack_size
    seen: dict[str, int] = {}
    for b, pack in enumerate(schedule.packs):
        where = f"packs[{b}]"
        if not pack:
            raise InputError("empty pack", where=where)
        if len(pack) > k:
            raise InputError(f"{len(pack)} tasks in a pack, more than max_pack_size k = {k}", where=where)
        used = 0
        for name, q in pack:
            if name not in instance.index:
                raise InputError(f"unknown task {name!r} (not in instance {instance.name!r})", where=where)
            if name in seen:
                raise InputError(f"task {name!r} scheduled twice (packs {seen[name]} and {b})", where=where)
            seen[name] = b
            if not 1 <= q <= p:
                raise InputError(f"task {name!r} given {q} processors, outside 1..p = {p}", where=where)
            used += q
        if used > p:
            raise InputError(f"pack uses {used} processors, more than p = {p}", where=where)
    if len(seen) != n:
        missing = [nm for nm in instance.task_names if nm not in seen]
        raise InputError(f"{len(missing)} task(s) not scheduled: {', '.join(missing[:10])}", where="packs")


def schedule_from_assignment(instance: PackInstance, packs: Sequence[Sequence[int]], allocate) -> PackSchedule:
    """Schedule given packs of task indices, each pack's processors chosen by ``allocate(times_rows, p)``."""
    out = []
    for pack in packs:
        rows = instance.times[list(pack)]
        sigma = allocate(rows, instance.processors)[1]
        out.append([(i, int(q)) for i, q in zip(pack, sigma, strict=True)])
    return PackSchedule.from_indices(instance, out)


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _task_left_out(instance: PackInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["packs"][0]["tasks"].pop(0)
    return data


def _task_twice(instance: PackInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["packs"].append({"tasks": [dict(data["packs"][0]["tasks"][0])]})
    return data


def _pack_over_p(instance: PackInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["packs"][0]["tasks"][0]["processors"] = instance.processors + 1
    return data


BREAKERS = {"a task left out": _task_left_out, "a task twice": _task_twice, "a pack over p": _pack_over_p}
