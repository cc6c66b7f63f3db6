"""Graham's list scheduling on identical machines, and a whole schedule from a CPU/GPU split.

List scheduling (Graham 1966) takes the tasks in a given order and puts each on the
machine that is free first (ties: the lowest index); its makespan is at most
W/m + max p, the bound behind every guarantee of the dual approximations.  The loop
is compiled by numba (a binary heap of the m loads, O(n log m)): the 2-dual step
schedules 100,000 tasks in milliseconds.  Without numba the same loop runs with
:mod:`heapq` (identical result: same order, same tie-break).  numba is imported and
the loops compiled (or loaded from its disk cache) at the first list of more than 64
tasks, or by :func:`compile_loops`, the ``prepare`` hook of the methods using them.
"""

from __future__ import annotations

import functools
import heapq

import numpy as np

from .instance import HybridInstance
from .schedule import HybridSchedule


def _list_schedule_loop(durations: np.ndarray, order: np.ndarray, machines: int, unit: np.ndarray, start: np.ndarray):
    """Heap of (load, machine) kept as two arrays; the root is the machine free first (lowest index on ties)."""
    load = np.zeros(machines)
    mach = np.arange(machines)
    for j in order:
        u, t = mach[0], load[0]
        unit[j] = u
        start[j] = t
        load[0] = t + durations[j]
        # sift the root down
        i = 0
        while True:
            left = 2 * i + 1
            if left >= machines:
                break
            c = left
            right = left + 1
            if right < machines and (
                load[right] < load[left] or (load[right] == load[left] and mach[right] < mach[left])
            ):
                c = right
            if load[c] < load[i] or (load[c] == load[i] and mach[c] < mach[i]):
                load[i], load[c] = load[c], load[i]
                mach[i], mach[c] = mach[c], mach[i]
                i = c
            else:
                break


def _list_makespan_loop(durations: np.ndarray, order: np.ndarray, machines: int) -> float:
    """The makespan only: a min-heap of the loads (which of two equal loads takes a task changes no load)."""
    load = np.zeros(machines)
    for j in order:
        load[0] += durations[j]
        i = 0
        v = load[0]
        while True:
            c = 2 * i + 1
            if c >= machines:
                break
            if c + 1 < machines and load[c + 1] < load[c]:
                c += 1
            if load[c] < v:
                load[i] = load[c]
                i = c
            else:
                break
        load[i] = v
    return load.max()


@functools.cache
def _compiled_loops() -> tuple:
    """The two loops compiled by numba, or (None, None) without numba."""
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency; the heapq loop still works without it
        return None, None
    jit = numba.njit(cache=True, nogil=True)
    return jit(_list_schedule_loop), jit(_list_makespan_loop)


def compile_loops() -> None:
    """Compile (or load from the cache) both loops by running them once on 65 tasks."""
    durations, order = np.ones(65), np.arange(65, dtype=np.int64)
    list_schedule(durations, order, 2)
    list_makespan(durations, order, 2)


def _heapq_loop(durations: np.ndarray, order: np.ndarray, machines: int, unit: np.ndarray, start: np.ndarray):
    heap = [(0.0, u) for u in range(machines)]
    for j in order.tolist():
        t, u = heap[0]
        unit[j], start[j] = u, t
        heapq.heapreplace(heap, (t + float(durations[j]), u))


def list_schedule(durations: np.ndarray, order: np.ndarray, machines: int) -> tuple[np.ndarray, np.ndarray]:
    """(unit, start) of every task in ``order`` on ``machines`` identical machines (Graham's list scheduling).

    ``durations`` is indexed by task; entries of tasks not in ``order`` are left 0.
    """
    n = durations.size
    unit, start = np.zeros(n, dtype=np.int64), np.zeros(n)
    if order.size == 0:
        return unit, start
    if machines < 1:
        raise ValueError(f"cannot list-schedule {order.size} tasks on {machines} machines")
    compiled = _compiled_loops()[0] if order.size > 64 else None
    loop = compiled if compiled is not None else _heapq_loop
    loop(
        np.ascontiguousarray(durations, dtype=float), np.ascontiguousarray(order, dtype=np.int64), machines, unit, start
    )
    return unit, start


def list_makespan(durations: np.ndarray, order: np.ndarray, machines: int) -> float:
    """The makespan :func:`list_schedule` would reach (0 for no task), without building the schedule."""
    if order.size == 0:
        return 0.0
    if machines < 1:
        return float("inf")
    compiled = _compiled_loops()[1] if order.size > 64 else None
    if compiled is not None:
        return float(
            compiled(
                np.ascontiguousarray(durations, dtype=float), np.ascontiguousarray(order, dtype=np.int64), machines
            )
        )
    heap = [0.0] * machines
    for j in order.tolist():
        heapq.heapreplace(heap, heap[0] + float(durations[j]))
    return max(heap)


def lpt_order(durations: np.ndarray, tasks: np.ndarray) -> np.ndarray:
    """``tasks`` by non-increasing duration (ties by index): the LPT list."""
    return tasks[np.lexsort((tasks, -durations[tasks]))]


def schedule_split(
    instance: HybridInstance,
    on_gpu: np.ndarray,
    cpu_order: np.ndarray | None = None,
    gpu_order: np.ndarray | None = None,
) -> HybridSchedule:
    """List-schedule each type's tasks (``on_gpu`` says which) in the given orders (default LPT).

    An order may list only the tasks of its type; by default the tasks of the type by
    non-increasing time on it.
    """
    on_gpu = np.asarray(on_gpu, dtype=bool)
    cpu_tasks, gpu_tasks = np.flatnonzero(~on_gpu), np.flatnonzero(on_gpu)
    if cpu_order is None:
        cpu_order = lpt_order(instance.cpu_time, cpu_tasks)
    if gpu_order is None:
        gpu_order = lpt_order(instance.gpu_time, gpu_tasks)
    cu, cs = list_schedule(instance.cpu_time, cpu_order, instance.cpus) if cpu_tasks.size else (None, None)
    gu, gs = list_schedule(instance.gpu_time, gpu_order, instance.gpus) if gpu_tasks.size else (None, None)
    unit, start = np.zeros(instance.n, dtype=np.int64), np.zeros(instance.n)
    if cu is not None:
        unit[cpu_tasks], start[cpu_tasks] = cu[cpu_tasks], cs[cpu_tasks]
    if gu is not None:
        unit[gpu_tasks], start[gpu_tasks] = gu[gpu_tasks], gs[gpu_tasks]
    return HybridSchedule.from_assignment(instance, on_gpu, unit, start)
