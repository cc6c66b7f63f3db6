"""Certified lower bounds on the optimal makespan of (Pm, Pk) || C_max.

* :func:`longest_task_bound` -- max_j min(p_j, p̄_j): every task runs somewhere;
* :func:`area_bound` -- the LP min C s.t. sum p x <= mC, sum p̄ (1 - x) <= kC,
  x in [0, 1], in closed form: moving tasks to the GPUs by acceleration order is
  optimal (a fractional knapsack), and C is where the CPU and GPU areas per
  machine meet, inside one split task.  O(n log n);
* :func:`lambda_bound` -- LB_λ: the least λ at which the fractional dual test
  (forced assignments, then the fractional knapsack, :mod:`.knapsack`) passes.
  The test is monotone in λ and passes at any λ >= OPT, so bisection gives it;
  it dominates both others;
* :func:`best_lower_bound` -- the largest of the three, rounded up to the data's
  grid (with integer times OPT is an integer): what every method reports as
  ``Result.lower_bound`` unless it proves more.
"""

from __future__ import annotations

import math

import numpy as np

from .instance import HybridInstance
from .knapsack import RatioOrder, knapsack_step, ratio_order


def longest_task_bound(instance: HybridInstance) -> float:
    """max_j min(p_j, p̄_j) (the time on the only type when the other has no machine)."""
    return float(instance.min_time.max())


def area_bound(instance: HybridInstance, ro: RatioOrder | None = None) -> float:
    """The area LP's optimum, max(W_C / m, W_G / k) at the best fractional split."""
    m, k = instance.cpus, instance.gpus
    if m == 0:
        return float(instance.gpu_time.sum()) / k
    if k == 0:
        return float(instance.cpu_time.sum()) / m
    ro = ro or ratio_order(instance)
    p, q = ro.p, ro.q
    # moving the first i tasks (most accelerated) to the GPUs: CPU area A_i, GPU area B_i
    a = p.sum() - np.r_[0.0, np.cumsum(p)]
    b = np.r_[0.0, np.cumsum(q)]
    gap = a / m - b / k  # decreasing in i
    i = int(np.searchsorted(-gap, 0.0, side="left"))  # first i with a/m <= b/k
    if i == 0:
        return float(a[0] / m)
    # task i - 1 (0-based position) split: fraction f on the GPUs with a_{i-1}/m - f p/m = b_{i-1}/k + f q/k
    pj, qj = p[i - 1], q[i - 1]
    f = (a[i - 1] / m - b[i - 1] / k) / (pj / m + qj / k)
    return float(b[i - 1] / k + f * qj / k)


def fractional_test(instance: HybridInstance, lam: float, ro: RatioOrder | None = None) -> bool:
    """Whether the fractional dual test passes at ``lam`` (it passes at every λ >= OPT)."""
    return knapsack_step(ro or ratio_order(instance), lam, fractional=True) is not None


def lambda_bound(instance: HybridInstance, ro: RatioOrder | None = None, *, iterations: int = 100) -> float:
    """LB_λ: a certified lower bound, the least λ where :func:`fractional_test` passes.

    On data on a grid 1/s (``instance.time_scale``) OPT is a multiple of 1/s and the
    bisection runs over that grid, returning the least passing multiple (exact).
    Otherwise it returns the largest failing λ found (OPT > it), within a relative
    1e-12 of LB_λ.
    """
    ro = ro or ratio_order(instance)
    start = max(longest_task_bound(instance), area_bound(instance, ro))
    hi = float(instance.min_time.sum())
    s = instance.time_scale
    if s is not None:
        lo_i = math.ceil(start * s - 1e-9) - 1  # fails: below both simple bounds' grid value
        hi_i = math.ceil(hi * s - 1e-9)
        if knapsack_step(ro, (lo_i + 1) / s, fractional=True) is not None:
            return (lo_i + 1) / s
        lo_i += 1
        while hi_i - lo_i > 1:
            mid = (lo_i + hi_i) // 2
            if knapsack_step(ro, mid / s, fractional=True) is not None:
                hi_i = mid
            else:
                lo_i = mid
        return hi_i / s
    if knapsack_step(ro, start, fractional=True) is not None:
        return start
    lo = start
    for _ in range(iterations):
        if hi - lo <= 1e-12 * hi:
            break
        mid = 0.5 * (lo + hi)
        if knapsack_step(ro, mid, fractional=True) is not None:
            hi = mid
        else:
            lo = mid
    return lo


def round_up_to_grid(instance: HybridInstance, bound: float, *, strict: bool = False) -> float:
    """The least multiple of 1/s that is >= ``bound`` (> ``bound`` if ``strict``), s the data's grid.

    OPT is a sum of times, hence a multiple of 1/s; without a grid the bound is returned as is.
    """
    s = instance.time_scale
    if s is None:
        return bound
    x = bound * s
    nearest = round(x)
    if abs(x - nearest) <= 1e-9 * max(1.0, abs(x)):
        return (nearest + 1) / s if strict else nearest / s
    return math.ceil(x) / s


def best_lower_bound(instance: HybridInstance, ro: RatioOrder | None = None) -> float:
    """The best of the three bounds, rounded up to the data's grid."""
    ro = ro or ratio_order(instance)
    lb = max(longest_task_bound(instance), area_bound(instance, ro), lambda_bound(instance, ro))
    return round_up_to_grid(instance, lb)
