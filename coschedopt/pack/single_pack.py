"""Optimal processor allocation inside one pack (section 4.2 of the paper).

Given the tasks of a pack, choose sigma(i) >= 1 with sum sigma(i) <= p so that
max t(i, sigma(i)) is minimal (a *1-pack-schedule*).  Three independent ways:

* :func:`optimal_single_pack` -- Algorithm 1 (greedy with a heap, Theorem 3), O(p log k);
  it hands out all p processors, as the paper's algorithm does;
* :func:`single_pack_dp` -- the paper's dynamic program c(i, q) = min_q' max(c(i-1, q-q'), t(i, q')), O(k p^2);
* :func:`min_processors_single_pack` -- binary search on the cost level tau using the
  least processor count of each task at that level; returns the *fewest* processors
  reaching the optimal cost (less work, so a better packing ratio), O(k p log(kp)).
"""

from __future__ import annotations

import heapq

import numpy as np


def optimal_single_pack(rows: np.ndarray, p: int) -> tuple[float, list[int]]:
    """Algorithm 1: give each task one processor, then p - k times give one more to the longest task.

    ``rows[i, j-1]`` = t(i, j) for the pack's tasks.  Returns (cost, sigma).
    Ties between equally long tasks go to the lower row index.
    """
    k = rows.shape[0]
    if k > p:
        raise ValueError(f"{k} tasks cannot share a pack of {p} processors")
    sigma = [1] * k
    heap = [(-float(rows[i, 0]), i) for i in range(k)]
    heapq.heapify(heap)
    for _ in range(p - k):
        _, i = heap[0]
        sigma[i] += 1
        heapq.heapreplace(heap, (-float(rows[i, sigma[i] - 1]), i))
    return -heap[0][0], sigma


def single_pack_dp(rows: np.ndarray, p: int) -> tuple[float, list[int]]:
    """The paper's O(k p^2) dynamic program for the optimal 1-pack-schedule.

    c(1, q) = t(1, q); c(i, q) = min_{1<=q'<q} max(c(i-1, q-q'), t(i, q')), c(i, 0) = +inf.
    Returns (c(k, p), sigma) with sigma recovered by backtracking.
    """
    k = rows.shape[0]
    if k > p:
        raise ValueError(f"{k} tasks cannot share a pack of {p} processors")
    inf = np.inf
    c = np.full((k, p + 1), inf)
    choice = np.zeros((k, p + 1), dtype=int)
    c[0, 1:] = rows[0]
    qs = np.arange(1, p + 1)
    for i in range(1, k):
        for q in range(1, p + 1):
            qq = qs[: q - 1]  # q' = 1..q-1 for task i, q - q' >= 1 for the others
            if qq.size == 0:
                continue
            vals = np.maximum(c[i - 1, q - qq], rows[i, qq - 1])
            best = int(np.argmin(vals))
            c[i, q], choice[i, q] = vals[best], qq[best]
    sigma = [0] * k
    q = p
    for i in range(k - 1, 0, -1):
        sigma[i] = int(choice[i, q])
        q -= sigma[i]
    sigma[0] = q
    return float(c[k - 1, p]), sigma


def min_processors_single_pack(rows: np.ndarray, p: int) -> tuple[float, list[int]] | None:
    """Optimal pack cost with the fewest processors, or ``None`` if the tasks cannot share p processors.

    At a level tau, task i needs m_i(tau) = 1 + #{j : t(i, j) > tau} processors
    (times are non-increasing, Eq. 1); tau is feasible when sum m_i(tau) <= p.
    Binary search over the distinct times gives the least feasible level, which is
    the optimal 1-pack cost.
    """
    k = rows.shape[0]
    if k > p:
        return None
    levels = np.unique(rows)
    lo, hi = 0, levels.size - 1
    need = (rows > levels[hi]).sum(axis=1) + 1
    if need.sum() > p:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if ((rows > levels[mid]).sum(axis=1) + 1).sum() <= p:
            hi = mid
        else:
            lo = mid + 1
    tau = float(levels[lo])
    sigma = ((rows > tau).sum(axis=1) + 1).tolist()
    return tau, sigma
