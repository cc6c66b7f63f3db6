"""The minimisation knapsack of the 2-dual step (thesis eqs. 2.5-2.7), greedy and fractional.

For a guess λ, every task of a schedule of length <= λ takes <= λ, so
(forced assignments) a task with p_j > λ and p̄_j > λ answers NO, one with
p̄_j > λ goes to the CPUs, one with p_j > λ to the GPUs.  The free tasks are
sorted once by acceleration p_j / p̄_j, largest first (ties: larger p̄_j first),
and moved to the GPUs in that order while the GPU area stays below kλ:

    min  sum_j p_j x_j   s.t.  sum_j p̄_j (1 - x_j) <= kλ,  x_j in {0, 1}      (2.5-2.7)

* the *greedy* (integer) answer keeps the critical task, the one that crosses kλ,
  on the GPUs (l. 817 of the thesis); its CPU area is therefore at most the LP
  optimum, so a greedy CPU area > mλ proves that no schedule of length <= λ exists;
* the *fractional* answer splits the critical task: the LP optimum, monotone in λ,
  whose least passing λ is the lower bound LB_λ (:mod:`.bounds`).

A machine type the instance lacks (m = 0 or k = 0) is an infinite time on it.
Each step is O(n) numpy work on the arrays sorted once (O(n log n)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .instance import HybridInstance

#: relative slack when comparing areas with capacities: an answer is NO only beyond it (round-off)
REL_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class RatioOrder:
    """The tasks sorted once by acceleration, with their times in that order."""

    order: np.ndarray  # task indices, most accelerated first
    p: np.ndarray  # CPU times in that order (inf without CPUs)
    q: np.ndarray  # GPU times in that order (inf without GPUs)
    m: int
    k: int


def ratio_order(instance: HybridInstance, ties: str = "gpu-time") -> RatioOrder:
    """Sort by p_j / p̄_j non-increasing; ties by p̄_j non-increasing (``ties="gpu-time"``) or by index.

    The ratio is compared as a float quotient of positive finite times; a
    throughput time model (the SWDUAL workload) makes every ratio equal, and then
    the tie rule decides the whole knapsack.
    """
    p = instance.cpu_time if instance.cpus else np.full(instance.n, np.inf)
    q = instance.gpu_time if instance.gpus else np.full(instance.n, np.inf)
    with np.errstate(invalid="ignore"):
        ratio = np.where(np.isinf(p), np.inf, np.where(np.isinf(q), 0.0, p / q))
    idx = np.arange(instance.n)
    if ties == "gpu-time":
        order = np.lexsort((idx, -instance.gpu_time, -ratio))
    elif ties == "index":
        order = np.lexsort((idx, -ratio))
    else:
        raise ValueError(f"unknown tie rule {ties!r}")
    return RatioOrder(order, p[order], q[order], instance.cpus, instance.gpus)


@dataclass(frozen=True, eq=False)
class KnapsackAnswer:
    """A YES of one knapsack step: which tasks (in ratio order) go to the GPUs, and the areas."""

    on_gpu: np.ndarray  # bool, in ratio order (fractional: the critical task counted as on the GPUs)
    cpu_area: float
    gpu_area: float
    critical: int  # position (in ratio order) of the task that crossed kλ, -1 if none


def knapsack_step(ro: RatioOrder, lam: float, *, fractional: bool = False) -> KnapsackAnswer | None:
    """One dual step at guess ``lam``: the greedy (or fractional) assignment, or None for NO.

    NO is a certificate that no schedule of length <= ``lam`` exists.
    """
    p, q, m, k = ro.p, ro.q, ro.m, ro.k
    tol = REL_TOL * max(1.0, lam)
    if np.any(np.minimum(p, q) > lam + tol):
        return None
    force_cpu = q > lam + tol
    force_gpu = ~force_cpu & (p > lam + tol)
    free = ~force_cpu & ~force_gpu
    gpu_forced = float(q[force_gpu].sum())
    cap = k * lam - gpu_forced
    if cap < -tol * max(1, k):
        return None
    fidx = np.flatnonzero(free)
    qf, pf = q[fidx], p[fidx]
    cum = np.cumsum(qf)
    before = cum - qf
    moved = int(np.searchsorted(before, cap, side="left"))  # free tasks with area before them < cap
    critical = -1
    if fractional:
        full = int(np.searchsorted(cum, cap + tol, side="right"))
        moved_p = float(pf[:full].sum())
        if full < fidx.size and cap > (before[full] if full else 0.0):
            moved_p += float(pf[full]) * (cap - before[full]) / float(qf[full])
            critical = int(fidx[full])
        moved = full
    else:
        moved_p = float(pf[:moved].sum())
        if moved and cum[moved - 1] > cap + tol:
            critical = int(fidx[moved - 1])
    cpu_area = float(p[force_cpu].sum()) + float(pf.sum()) - moved_p
    if cpu_area > m * lam + tol * max(1, m):
        return None
    on_gpu = force_gpu.copy()
    on_gpu[fidx[:moved]] = True
    if critical >= 0:
        on_gpu[critical] = True
    gpu_area = gpu_forced + (float(cum[moved - 1]) if moved else 0.0)
    return KnapsackAnswer(on_gpu, cpu_area, gpu_area, critical)
