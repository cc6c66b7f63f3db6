"""Schedules over combinations, their makespan, and the independent validator.

A schedule is a sequence of segments (S, x): combination S runs for x time units, its
tasks progressing at speeds a(i, S).  Section 3 of the paper: a schedule is *feasible*
when each task completes exactly its work, sum_k a(i, S_{j_k}) x_{j_k} = b_i, and its
makespan is C_max = sum_k x_{j_k}.  Nothing here trusts a method: :func:`makespan`
recomputes the objective from the segments and :func:`validate_schedule` checks every
constraint from the instance data alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import InputError
from .instance import CombosInstance

#: relative tolerance on the work each task receives (absorbs LP and floating-point round-off)
WORK_RTOL = 1e-6


@dataclass(frozen=True)
class CombosSchedule:
    """Segments ``(task names, duration)`` in execution order."""

    segments: tuple[tuple[tuple[str, ...], float], ...]

    @classmethod
    def from_masks(
        cls, instance: CombosInstance, segments: Iterable[tuple[int, float]], *, merge: bool = True
    ) -> CombosSchedule:
        """Build from ``(bitmask, duration)`` pairs (the form methods compute in).

        ``merge`` joins consecutive segments of the same combination and drops empty ones.
        """
        out: list[tuple[int, float]] = []
        for mask, d in segments:
            d = float(d)
            if merge and d == 0.0:
                continue
            if merge and out and out[-1][0] == int(mask):
                out[-1] = (out[-1][0], out[-1][1] + d)
            else:
                out.append((int(mask), d))
        return cls(tuple((instance.tasks_of(mk), d) for mk, d in out))

    @classmethod
    def from_combinations(
        cls, instance: Any, segments: Iterable[tuple[Sequence[int], float]], *, merge: bool = True
    ) -> CombosSchedule:
        """Build from ``(task indices, duration)`` pairs: the form with no limit on the number of
        tasks (an explicit instance or the pairwise model alike).  ``merge`` as in :meth:`from_masks`."""
        out: list[tuple[tuple[int, ...], float]] = []
        for tasks, d in segments:
            key, d = tuple(sorted(int(i) for i in tasks)), float(d)
            if merge and d == 0.0:
                continue
            if merge and out and out[-1][0] == key:
                out[-1] = (key, out[-1][1] + d)
            else:
                out.append((key, d))
        names = instance.task_names
        return cls(tuple((tuple(names[i] for i in key), d) for key, d in out))

    def to_dict(self) -> dict[str, Any]:
        return {"segments": [{"tasks": list(t), "duration": d} for t, d in self.segments]}

    @classmethod
    def from_dict(cls, instance: CombosInstance | None, data: dict[str, Any]) -> CombosSchedule:
        """Read ``{"segments": [{"tasks": ["T1", "T3"], "duration": 12.5}, ...]}``."""
        segs = data.get("segments") if isinstance(data, dict) else None
        if not isinstance(segs, list):
            raise InputError(f"a combos schedule needs a list 'segments', got {segs!r}", where="schedule.segments")
        out = []
        for k, seg in enumerate(segs):
            where = f"schedule.segments[{k}]"
            if not isinstance(seg, dict) or not isinstance(seg.get("tasks"), list) or "duration" not in seg:
                raise InputError(f"expected {{'tasks': [names], 'duration': time}}, got {seg!r}", where=where)
            d = seg["duration"]
            if isinstance(d, bool) or not isinstance(d, int | float):
                raise InputError(f"duration must be a number, got {d!r}", where=f"{where}.duration")
            out.append((tuple(str(t) for t in seg["tasks"]), float(d)))
        return cls(tuple(out))

    def __len__(self) -> int:
        return len(self.segments)

    @property
    def durations(self) -> np.ndarray:
        return np.array([d for _, d in self.segments], dtype=float)


def makespan(instance: CombosInstance, schedule: CombosSchedule) -> float:
    """C_max = sum of the segment durations (section 3.1)."""
    return float(sum(d for _, d in schedule.segments))


def work_done(instance: CombosInstance, schedule: CombosSchedule) -> np.ndarray:
    """Work each task receives, sum_k speed(i, S_k) x_k, in the instance's units (like ``work``).

    Speeds are read through ``instance.speeds_in`` (an explicit instance's table, or the
    pairwise model's formula), so the same validator serves both.

    Raises :class:`InputError` on a segment with an unknown task or a combination that is
    not allowed.
    """
    done = np.zeros(instance.n)
    index = instance.index
    for k, (tasks, _d) in enumerate(schedule.segments):
        where = f"segments[{k}]"
        if not tasks:
            raise InputError("empty combination", where=where)
        rows = []
        for t in tasks:
            if t not in index:
                raise InputError(f"unknown task {t!r} (not in instance {instance.name!r})", where=where)
            rows.append(index[t])
        if len(set(rows)) != len(rows):
            t = next(t for t in tasks if list(tasks).count(t) > 1)
            raise InputError(f"task {t!r} listed twice in one segment", where=where)
        rows.sort()
        try:
            speeds = instance.speeds_in(tuple(rows))
        except KeyError:
            raise InputError(
                f"combination {list(tasks)!r} is not an allowed combination of the instance", where=where
            ) from None
        done[rows] += speeds * _d
    return done


def validate_schedule(instance: CombosInstance, schedule: CombosSchedule) -> None:
    """Raise :class:`~coschedopt.core.InputError` (a ``ValueError``) on the first broken constraint.

    Checked: every segment names known tasks forming an allowed combination, every
    duration is finite and >= 0, and every task receives exactly its work (section 3:
    sum_k a(i, S_k) x_k = b_i), within a relative tolerance of 1e-6.  O(sum_k |S_k| + n).
    """
    for k, (_tasks, d) in enumerate(schedule.segments):
        if not math.isfinite(d) or d < 0:
            raise InputError(f"duration must be finite and >= 0, got {d!r}", where=f"segments[{k}].duration")
    done = work_done(instance, schedule)
    err = np.abs(done - instance.work)
    tol = WORK_RTOL * instance.work + 1e-9
    if np.any(err > tol):
        i = int(np.argmax(err / tol))
        what = "more" if done[i] > instance.work[i] else "less"
        raise InputError(
            f"task {instance.task_names[i]!r} receives {done[i]:.9g} units of work, {what} than its work "
            f"b = {instance.work[i]:.9g} (every task must complete exactly its work)",
            where="segments",
        )


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _work_left_undone(instance: CombosInstance, data: dict[str, Any]) -> dict[str, Any]:
    for seg in data["segments"]:
        seg["duration"] /= 2
    return data


def _negative_duration(instance: CombosInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["segments"][0]["duration"] = -1.0
    return data


def _unknown_task(instance: CombosInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["segments"][0]["tasks"] = ["no-such-task"]
    return data


BREAKERS = {
    "work left undone": _work_left_undone,
    "a negative duration": _negative_duration,
    "an unknown task": _unknown_task,
}
