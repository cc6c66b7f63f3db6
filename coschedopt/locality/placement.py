"""Where a job's processors may go under each constraint: allowed id ranges and first-fit allocations.

The exact models and the heuristics place jobs through these two functions; the
validator (:mod:`.schedule`) checks the rules with its own code.

* :func:`range_starts` -- the first ids a of the ranges a, a+1, ..., a+size-1 (mod m on a
  ring) a contiguous job may take, restricted to the ranges touching ceil(size / ell)
  clusters when locality is asked too;
* :func:`first_fit` -- the lowest-id processor set a job may take among the free ones, or
  ``None``: the lowest free ids (``none``), the lowest free allowed range (contiguous
  constraints), the lowest cluster with room (``local``, size <= ell) or the clusters
  with the most free ids (``local``, size > ell: exact, since a local set exists iff the
  ceil(size / ell) emptiest clusters hold ``size`` free ids together).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .instance import LocalityInstance, is_contiguous_constraint, is_local_constraint


def _starts(size: int, processors: int, cluster_size: int, ring: bool, local: bool) -> np.ndarray:
    """:func:`range_starts` as an int64 array, computed in O(m) with numpy (the cluster count of a
    range from its two ends, a wrapping range as two pieces)."""
    m, ell = processors, cluster_size
    last = (m - 1 if size < m else 0) if ring else m - size
    a = np.arange(last + 1, dtype=np.int64)
    if not local:
        return a
    need = -(-size // ell)
    first, end = a // ell, a + size - 1
    e = (end - m) // ell  # last cluster of the wrapped piece (ids 0..end - m)
    wrapped = (m // ell - first) + (e + 1) - np.maximum(0, e - first + 1)
    count = np.where(end >= m, wrapped, end // ell - first + 1)
    return a[count == need]


@lru_cache(maxsize=64)
def range_starts(size: int, processors: int, cluster_size: int, ring: bool, local: bool) -> tuple[int, ...]:
    """The allowed first ids of a range of ``size`` consecutive ids, lowest first.

    Line: a in 0..m-size.  Ring: a in 0..m-1 (a range may wrap), only a = 0 when size = m.
    ``local`` keeps the ranges touching exactly ceil(size / ell) clusters.  (A few cached:
    at m = 10^5 one tuple takes megabytes.)
    """
    return tuple(_starts(size, processors, cluster_size, ring, local).tolist())


def range_ids(start: int, size: int, processors: int) -> list[int]:
    """The ids of the range starting at ``start`` (wrapping past m-1 on a ring)."""
    return [(start + i) % processors for i in range(size)]


def placement_count(instance: LocalityInstance, j: int) -> int:
    """How many placements a placement model lists for job j, counted without listing them:
    the allowed ranges (contiguous constraints), one (``none``, or one cluster), else the
    ceil(size / ell) clusters chosen times the ordered ways to split the size among them (each
    part in 1..ell, by inclusion-exclusion).  A model can refuse an instance on this count
    before building anything: listing ranges of 5,000 ids at 10^4 ids took 3 GB."""
    size, m, ell, k = int(instance.sizes[j]), instance.processors, instance.cluster_size, instance.clusters
    c = instance.constraint
    if is_contiguous_constraint(c):
        return int(_starts(size, m, ell, instance.ring, is_local_constraint(c)).size)
    if c == "none" or k == 1:
        return 1
    need = instance.min_clusters(size)
    splits = sum(
        (-1) ** i * math.comb(need, i) * math.comb(size - i * ell - 1, need - 1)
        for i in range(need + 1)
        if size - i * ell - 1 >= need - 1
    )
    return math.comb(k, need) * splits


def first_fit(free: np.ndarray, size: int, constraint: str, cluster_size: int, ring: bool) -> list[int] | None:
    """The lowest-id set of ``size`` free processors allowed by ``constraint``, or ``None``.

    ``free`` is a boolean array over the m ids.  O(m) (numpy) under every constraint.
    """
    m, ell = free.shape[0], cluster_size
    if int(free.sum()) < size:
        return None
    if is_contiguous_constraint(constraint):
        # busy ids in each allowed range at once, by prefix sums (doubled on a ring): O(m)
        starts = _starts(size, m, ell, ring, is_local_constraint(constraint))
        busy = ~free if not ring else np.concatenate([~free, ~free])
        prefix = np.concatenate([[0], np.cumsum(busy, dtype=np.int64)])
        fits = np.flatnonzero(prefix[starts + size] - prefix[starts] == 0)
        return range_ids(int(starts[fits[0]]), size, m) if fits.size else None
    if constraint == "none":
        return [int(p) for p in np.flatnonzero(free)[:size]]
    counts = free.reshape(-1, ell).sum(axis=1)
    if size <= ell:
        fits = np.flatnonzero(counts >= size)
        if not fits.size:
            return None
        c = int(fits[0])
        return [c * ell + int(p) for p in np.flatnonzero(free[c * ell : (c + 1) * ell])[:size]]
    need = -(-size // ell)
    emptiest = np.argsort(-counts, kind="stable")[:need]
    if int(counts[emptiest].sum()) < size:
        return None
    ids: list[int] = []
    for i, c in enumerate(sorted(int(c) for c in emptiest)):
        # as many as the cluster has, keeping one id for each cluster still to come
        take = min(int(counts[c]), size - len(ids) - (need - 1 - i))
        ids += [c * ell + int(p) for p in np.flatnonzero(free[c * ell : (c + 1) * ell])[:take]]
    return ids


def sweep_ids(
    starts: Sequence[int], ends: Sequence[int], demands: Sequence[dict[int, int]], pools: Sequence[Sequence[int]]
) -> list[list[int]]:
    """Processor ids for start times that respect each pool's capacity: job j takes
    ``demands[j][p]`` ids of pool p, the lowest free ones; the pools are the clusters in
    order, or one pool of all processors.

    Sweeping the events in time order (completions before starts at the same time), a
    start always finds enough free ids when the starts satisfy the pools' cumulative
    constraints, which is why cumulative constraints alone are exact without contiguity.
    O(E log E) for E = sum of demands.
    """
    width = len(pools[0])  # the pools are the clusters in order, or one pool of all ids
    free = [list(pool) for pool in pools]
    for heap in free:
        heapq.heapify(heap)
    events = sorted([(e, 0, j) for j, e in enumerate(ends)] + [(s, 1, j) for j, s in enumerate(starts)])
    out: list[list[int]] = [[] for _ in starts]
    for _, is_start, j in events:
        if not is_start:
            for p in out[j]:
                heapq.heappush(free[p // width], p)
            continue
        for pool, count in demands[j].items():
            if len(free[pool]) < count:
                raise ValueError(f"job {j} needs {count} ids of pool {pool}, {len(free[pool])} free: capacity broken")
            out[j] += [heapq.heappop(free[pool]) for _ in range(count)]
    return out
