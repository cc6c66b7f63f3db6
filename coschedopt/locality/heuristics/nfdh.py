"""``nfdh-ls``: Next-Fit Decreasing-Height batches, list-scheduled on the clusters (thesis Theorem 4).

1. Each job is a rectangle of width size_j / ell and height p_j.
2. NFDH [Coffman et al. 1980]: in non-increasing height (ties: the instance's order), put
   each rectangle in the latest batch if the batch's width stays <= 1, else open a new
   batch; batch i lasts H_i, its tallest (first) rectangle, so H_1 = p_max >= H_2 >= ...
3. Graham's list scheduling [Graham 1969] of the batches, in that order, on the k
   clusters as k machines: the cluster that becomes idle first (the lowest on ties) takes
   the next batch.
4. A batch's jobs start together, side by side from the cluster's first id, so every job
   is contiguous and local (on a line and on a ring).

Lemma 1 gives sum_i H_i <= 2 sum_j w_j h_j + H_1 and Lemma 2 gives
C <= (1/k) sum_i H_i + (1 - 1/k) H_1, hence C <= 2A/m + p_max <= 3 max(A/m, p_max)
(Theorem 4, :func:`nfdh_bound`).  O(n log n).  Needs size_j <= ell.
"""

from __future__ import annotations

import heapq

import numpy as np

from ...core import Result, Status, method
from ..instance import LocalityInstance
from ..schedule import LocalitySchedule
from .listsched import refuse_above_cluster


def nfdh_batches(instance: LocalityInstance) -> list[list[int]]:
    """NFDH batches of job indices: non-increasing time, next fit by total size <= ell."""
    ell = instance.cluster_size
    order = sorted(range(instance.n), key=lambda j: (-instance.times[j], j))
    batches: list[list[int]] = []
    width = ell + 1
    for j in order:
        size = int(instance.sizes[j])
        if width + size > ell:
            batches.append([])
            width = 0
        batches[-1].append(j)
        width += size
    return batches


def nfdh_list_schedule(instance: LocalityInstance) -> LocalitySchedule:
    """Theorem 4's schedule: the NFDH batches list-scheduled on the clusters."""
    ell = instance.cluster_size
    starts = [0.0] * instance.n
    procs: list[list[int]] = [[] for _ in range(instance.n)]
    idle = [(0.0, c) for c in range(instance.clusters)]  # (time the cluster becomes idle, cluster)
    for batch in nfdh_batches(instance):
        at, c = heapq.heappop(idle)
        first = c * ell
        for j in batch:
            size = int(instance.sizes[j])
            starts[j], procs[j] = at, list(range(first, first + size))
            first += size
        heapq.heappush(idle, (at + float(instance.times[batch[0]]), c))
    return LocalitySchedule.from_lists(instance, starts, procs)


def nfdh_bound(instance: LocalityInstance) -> float:
    """2A/m + p_max, Theorem 4's guarantee."""
    return 2 * instance.area / instance.processors + float(instance.times.max())


def nfdh_lemma_bound(instance: LocalityInstance) -> float:
    """(1/k) sum_i H_i + (1 - 1/k) H_1: Lemma 2 applied to the batches (before Lemma 1)."""
    heights = np.array([instance.times[b[0]] for b in nfdh_batches(instance)])
    k = instance.clusters
    return float(heights.sum() / k + (1 - 1 / k) * heights[0])


@method("locality", "nfdh-ls")
def solve_nfdh_ls(instance: LocalityInstance, *, time_limit, seed, verbose, options) -> Result:
    """NFDH + list scheduling (Theorem 4): contiguous and local, C <= 2A/m + p_max; sizes <= ell."""
    refuse_above_cluster("nfdh-ls", instance)
    schedule = nfdh_list_schedule(instance)
    return Result(
        Status.FEASIBLE, schedule, stats={"batches": len(nfdh_batches(instance)), "bound": nfdh_bound(instance)}
    )
