"""``enumerate``: every CPU/GPU split, each type then scheduled by an exact P||C_max (the brute-force oracle).

The optimum of (Pm, Pk) || C_max is the least over the 2^n splits S (tasks on the
GPUs) of max(OPT_m(CPU times of the rest), OPT_k(GPU times of S)).  The splits are
visited in increasing order of their area bound max(max time, W_C / m, W_G / k)
(vectorised over all splits), and the search stops when that bound reaches the
best makespan found.  Each identical-machine problem is solved by a depth-first
branch-and-bound (:func:`identical_machines_optimum`).  It is the reference the
other exact methods are tested against, so it shares none of their models; it
refuses more than :data:`ENUMERATE_MAX_N` tasks.
"""

from __future__ import annotations

import math

import numpy as np

from ...core import Deadline, MethodRefused, NoOptions, Result, Status, method
from ..instance import HybridInstance
from ..schedule import makespan
from .common import incumbent, schedule_from_units

#: largest n accepted (2^16 splits; the bound leaves a few hundred to solve exactly)
ENUMERATE_MAX_N = 16


def identical_machines_optimum(times: list[float], machines: int, upper: float) -> tuple[float, list[int]] | None:
    """Least makespan of ``times`` on ``machines`` identical machines if below ``upper``, with each task's machine.

    Depth-first over the tasks by non-increasing time; a task never goes to a
    machine whose load equals an earlier machine's (symmetry); a branch is cut when
    max(its largest load, the remaining area spread evenly) cannot beat the best.
    Returns None when nothing beats ``upper``.
    """
    order = sorted(range(len(times)), key=lambda j: -times[j])
    t = [times[j] for j in order]
    if not t:
        return 0.0, []
    if machines == 0:
        return None
    suffix = [0.0] * (len(t) + 1)
    for i in range(len(t) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + t[i]
    loads = [0.0] * machines
    where = [0] * len(t)
    best: list = [upper, None]

    def dfs(i: int, cmax: float) -> None:
        if i == len(t):
            best[0], best[1] = cmax, list(where)
            return
        if max(cmax, (sum(loads) + suffix[i]) / machines, t[i]) >= best[0] - 1e-12 * best[0]:
            return
        seen = set()
        for u in range(machines):
            if loads[u] in seen:
                continue
            seen.add(loads[u])
            new = loads[u] + t[i]
            if new >= best[0] - 1e-12 * best[0]:
                continue
            loads[u], where[i] = new, u
            dfs(i + 1, max(cmax, new))
            loads[u] -= t[i]

    dfs(0, 0.0)
    if best[1] is None:
        return None
    unit = [0] * len(t)
    for i, j in enumerate(order):
        unit[j] = best[1][i]
    return best[0], unit


def split_bounds(instance: HybridInstance) -> tuple[np.ndarray, np.ndarray]:
    """For every split mask (bit j: task j on the GPUs), its area bound; and the masks, by it."""
    n, m, k = instance.n, instance.cpus, instance.gpus
    masks = np.arange(1 << n, dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(n)) & 1).astype(bool)
    p, q = instance.cpu_time, instance.gpu_time
    inf = np.inf
    cpu_area = (~bits * p).sum(axis=1)
    gpu_area = (bits * q).sum(axis=1)
    bound = np.maximum(np.where(~bits, p, 0).max(axis=1), np.where(bits, q, 0).max(axis=1))
    bound = np.maximum(bound, cpu_area / m if m else np.where(cpu_area > 0, inf, 0))
    bound = np.maximum(bound, gpu_area / k if k else np.where(gpu_area > 0, inf, 0))
    order = np.argsort(bound, kind="stable")
    return bound[order], masks[order]


@method("hybrid", "enumerate", exact=True, options=NoOptions)
def enumerate_splits(instance: HybridInstance, *, time_limit, seed, verbose, options: NoOptions) -> Result:
    """All 2^n CPU/GPU splits, an exact P||C_max per type (brute-force reference, n <= 16)."""
    n = instance.n
    if n > ENUMERATE_MAX_N:
        raise MethodRefused(
            f"enumerate visits 2^n CPU/GPU splits and takes n <= {ENUMERATE_MAX_N} tasks, got n = {n}", where="tasks"
        )
    deadline = Deadline(time_limit)
    bounds, masks = split_bounds(instance)
    p, q = instance.cpu_time.tolist(), instance.gpu_time.tolist()
    best, best_split = math.inf, None
    visited = 0
    for bound, mask in zip(bounds.tolist(), masks.tolist(), strict=True):
        if bound >= best - 1e-12 * best or not math.isfinite(bound):
            break
        if deadline.expired():
            break
        visited += 1
        gpu_tasks = [j for j in range(n) if mask >> j & 1]
        cpu_tasks = [j for j in range(n) if not mask >> j & 1]
        cpu = identical_machines_optimum([p[j] for j in cpu_tasks], instance.cpus, best)
        if cpu is None:
            continue
        gpu = identical_machines_optimum([q[j] for j in gpu_tasks], instance.gpus, best)
        if gpu is None:
            continue
        value = max(cpu[0], gpu[0])
        if value < best:
            best, best_split = value, (cpu_tasks, cpu[1], gpu_tasks, gpu[1])
    stats = {"splits": 1 << n, "solved": visited}
    if best_split is None:  # out of time before the first split was solved
        schedule = incumbent(instance)
        return Result(Status.TIME_LIMIT, schedule, lower_bound=float(bounds[0]), stats=stats)
    on_gpu = np.zeros(n, dtype=bool)
    unit = np.zeros(n, dtype=np.int64)
    cpu_tasks, cpu_units, gpu_tasks, gpu_units = best_split
    unit[cpu_tasks], unit[gpu_tasks] = cpu_units, gpu_units
    on_gpu[gpu_tasks] = True
    schedule = schedule_from_units(instance, on_gpu, unit)
    if deadline.expired() and visited < masks.size:
        return Result(Status.TIME_LIMIT, schedule, lower_bound=min(bound, makespan(instance, schedule)), stats=stats)
    return Result(Status.OPTIMAL, schedule, lower_bound=makespan(instance, schedule), stats=stats)
