"""What the exact methods share: an incumbent, the symmetry-breaking ranks, schedules from machine assignments."""

from __future__ import annotations

import numpy as np

from ...core import solve as cs_solve
from ..heuristics.greedy import heft_schedule, heteroprio_schedule
from ..instance import HybridInstance
from ..listsched import schedule_split
from ..schedule import HybridSchedule, makespan, stack_on_units


def incumbent(instance: HybridInstance) -> HybridSchedule:
    """The best of the quick heuristics (dual2 with LPT lists, HEFT, HeteroPrio, and the splits of the last two
    re-listed in LPT order): the starting upper bound and solver hint of the exact methods."""
    candidates = [
        cs_solve(instance, "dual2", list_order="lpt").schedule,
        heft_schedule(instance),
        heteroprio_schedule(instance)[0],
    ]
    candidates += [schedule_split(instance, c.on_gpu) for c in candidates[1:]]
    return min(candidates, key=lambda s: makespan(instance, s))


def decreasing_ranks(times: np.ndarray) -> np.ndarray:
    """rank[j] = position of task j in non-increasing ``times`` (ties by index), 0-based.

    Symmetry breaking: relabel the machines of a type in the order in which they
    receive their first task in this ranking; then the task of rank r is on one of
    machines 0..r, which every optimal schedule can be relabelled to satisfy.
    """
    order = np.lexsort((np.arange(times.size), -times))
    rank = np.empty(times.size, dtype=np.int64)
    rank[order] = np.arange(times.size)
    return rank


def schedule_from_units(instance: HybridInstance, on_gpu: np.ndarray, unit: np.ndarray) -> HybridSchedule:
    """The schedule running the tasks of each unit back to back (by index)."""
    on_gpu = np.asarray(on_gpu, dtype=bool)
    unit = np.asarray(unit, dtype=np.int64)
    durations = np.where(on_gpu, instance.gpu_time, instance.cpu_time)
    key = unit * 2 + on_gpu  # one key per (type, unit)
    start = stack_on_units(durations, key, np.arange(instance.n))
    return HybridSchedule.from_assignment(instance, on_gpu, unit, start)


def rank_relabel(schedule: HybridSchedule, gpu: bool, rank: np.ndarray) -> dict[int, int]:
    """Task -> unit of one type, the units renumbered in the order they receive their first task by ``rank``.

    The result satisfies the symmetry-breaking rule (task of rank r on a unit <= r),
    so a schedule can be passed to a model that enforces it (as a hint or a start).
    """
    tasks = [int(j) for j, g in zip(schedule.task, schedule.on_gpu, strict=True) if g == gpu]
    unit_of = {
        int(j): int(u) for j, g, u in zip(schedule.task, schedule.on_gpu, schedule.unit, strict=True) if g == gpu
    }
    label: dict[int, int] = {}
    for j in sorted(tasks, key=lambda t: rank[t]):
        label.setdefault(unit_of[j], len(label))
    return {j: label[unit_of[j]] for j in tasks}
