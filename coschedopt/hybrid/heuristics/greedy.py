"""The peers' heuristics, so users can measure what they use today against the optimum.

* ``heft`` -- HEFT for independent tasks (Topcuoglu et al.; the variants of the
  moldable CPU/GPU literature, the note's section 5): tasks in non-increasing order
  of min(p_j, p̄_j) (or another order, an option), each to the unit, of either
  type, where it finishes first.  O(n log(m + k)).
* ``heteroprio`` -- HeteroPrio (Beaumont, Eyraud-Dubois, Kumar, IPDPS 2017): the
  tasks sorted once by acceleration p_j / p̄_j; whenever a GPU is idle it takes the
  most accelerated remaining task, whenever a CPU is idle the least accelerated.
  When none remains, an idle worker *spoliates*: among the tasks running on the
  other type that it would finish strictly earlier if restarted now, it takes the
  one that would end last, and the worker that ran it is idle again.  The
  schedule keeps each task's final run (aborted work is lost time, not shown).
  Workers idle at the same time pick GPUs first, then by index.  O(n log(m + k))
  plus the spoliation phase, at most n spoliations per worker in practice.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np

from ...core import MethodOptions, Result, Status, method, option
from ..bounds import best_lower_bound
from ..instance import HybridInstance
from ..knapsack import ratio_order
from ..schedule import HybridSchedule, makespan

_INF = float("inf")


def _times(instance: HybridInstance) -> tuple[list[float], list[float]]:
    """CPU and GPU times as lists, +inf on a type without machines."""
    p = instance.cpu_time.tolist() if instance.cpus else [_INF] * instance.n
    q = instance.gpu_time.tolist() if instance.gpus else [_INF] * instance.n
    return p, q


@dataclass(frozen=True)
class HeftOptions(MethodOptions):
    order: str = option(
        "lpt-min",
        "task order: non-increasing min(p, p̄) ('lpt-min'), non-decreasing ('spt-min'), or by acceleration ('ratio')",
        choices=("lpt-min", "spt-min", "ratio"),
    )


def heft_schedule(instance: HybridInstance, order: str = "lpt-min") -> HybridSchedule:
    """Earliest finish time, one task at a time in ``order`` (ties: the CPU, then the lowest unit)."""
    p, q = _times(instance)
    mins = instance.min_time
    idx = np.arange(instance.n)
    if order == "lpt-min":
        seq = np.lexsort((idx, -mins))
    elif order == "spt-min":
        seq = np.lexsort((idx, mins))
    else:
        seq = ratio_order(instance).order
    cpus = [(0.0, u) for u in range(instance.cpus)]
    gpus = [(0.0, u) for u in range(instance.gpus)]
    on_gpu = np.zeros(instance.n, dtype=bool)
    unit, start = np.zeros(instance.n, dtype=np.int64), np.zeros(instance.n)
    for j in seq.tolist():
        end_cpu = cpus[0][0] + p[j] if cpus else _INF
        end_gpu = gpus[0][0] + q[j] if gpus else _INF
        heap, t = (gpus, q[j]) if end_gpu < end_cpu else (cpus, p[j])
        s, u = heap[0]
        on_gpu[j], unit[j], start[j] = heap is gpus, u, s
        heapq.heapreplace(heap, (s + t, u))
    return HybridSchedule.from_assignment(instance, on_gpu, unit, start)


@method("hybrid", "heft", options=HeftOptions)
def heft(instance: HybridInstance, *, time_limit, seed, verbose, options: HeftOptions) -> Result:
    """HEFT: each task (largest min(p, p̄) first) to the unit where it finishes first."""
    sched = heft_schedule(instance, options.order)
    return _heuristic_result(instance, sched)


def heteroprio_schedule(instance: HybridInstance, spoliation: bool = True) -> tuple[HybridSchedule, int]:
    """HeteroPrio's schedule and its number of spoliations (see the module docstring)."""
    p, q = _times(instance)
    queue = ratio_order(instance).order.tolist()  # most accelerated first
    head, tail = 0, len(queue) - 1
    n = instance.n
    on_gpu = np.zeros(n, dtype=bool)
    unit, start, end = np.zeros(n, dtype=np.int64), np.zeros(n), np.zeros(n)
    # idle events: (time, 0 for GPU / 1 for CPU, unit, version); running[(type, unit)] = task
    events = [(0.0, 0, u, 0) for u in range(instance.gpus)] + [(0.0, 1, u, 0) for u in range(instance.cpus)]
    heapq.heapify(events)
    version = {(g, u): 0 for _, g, u, _ in events}
    running: dict[tuple[int, int], int] = {}
    spoliations = 0
    while events:
        t, kind, u, ver = heapq.heappop(events)
        if ver != version[(kind, u)]:
            continue  # this worker was spoliated (its end changed) after the event was queued
        running.pop((kind, u), None)
        gpu = kind == 0
        if head <= tail:
            if gpu:
                j, head = queue[head], head + 1
            else:
                j, tail = queue[tail], tail - 1
        elif spoliation:
            j = _victim(running, end, p, q, t, gpu)
            if j is None:
                continue
            victim_worker = (1 - kind, int(unit[j]))
            running.pop(victim_worker)
            version[victim_worker] += 1
            heapq.heappush(events, (t, victim_worker[0], victim_worker[1], version[victim_worker]))
            spoliations += 1
        else:
            continue
        on_gpu[j], unit[j], start[j] = gpu, u, t
        end[j] = t + (q[j] if gpu else p[j])
        running[(kind, u)] = j
        heapq.heappush(events, (end[j], kind, u, version[(kind, u)]))
    return HybridSchedule.from_assignment(instance, on_gpu, unit, start), spoliations


def _victim(running: dict, end: np.ndarray, p: list, q: list, t: float, gpu: bool) -> int | None:
    """The task running on the other type that would end strictly earlier here, the latest-ending one."""
    best, best_end = None, -_INF
    for (kind, _), j in running.items():
        if (kind == 0) == gpu:
            continue
        here = t + (q[j] if gpu else p[j])
        if here < end[j] - 1e-12 * max(1.0, end[j]) and end[j] > best_end:
            best, best_end = j, end[j]
    return best


@dataclass(frozen=True)
class HeteroPrioOptions(MethodOptions):
    spoliation: bool = option(
        True, "let idle workers restart the tasks of the other type that they would finish earlier"
    )


@method("hybrid", "heteroprio", options=HeteroPrioOptions)
def heteroprio(instance: HybridInstance, *, time_limit, seed, verbose, options: HeteroPrioOptions) -> Result:
    """HeteroPrio: GPUs take the most accelerated task, CPUs the least, spoliation at the end."""
    sched, spoliations = heteroprio_schedule(instance, options.spoliation)
    res = _heuristic_result(instance, sched)
    res.stats["spoliations"] = spoliations
    return res


def _heuristic_result(instance: HybridInstance, schedule: HybridSchedule) -> Result:
    """FEASIBLE with the best lower bound (OPTIMAL when the schedule meets it)."""
    lb = best_lower_bound(instance)
    status = Status.OPTIMAL if makespan(instance, schedule) <= lb else Status.FEASIBLE
    return Result(status, schedule, lower_bound=lb)


__all__ = ["HeftOptions", "HeteroPrioOptions", "heft_schedule", "heteroprio_schedule"]
