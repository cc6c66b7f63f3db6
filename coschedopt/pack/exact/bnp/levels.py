"""Cost levels of the set-partitioning formulation, the processor counts they require, and
the level windows of a tree node.

A pack that finishes by time tau needs, for each of its tasks, the least processor
count j with t(i, j) <= tau (times are non-increasing, Eq. (1)):

    m_i(tau) = 1 + #{j : t(i, j) > tau},   infinite when t(i, p) > tau.

A set S of at most k tasks fits at level tau when sum_{i in S} m_i(tau) <= p, and
the cheapest level at which it fits is its optimal pack cost (this is the binary
search of :func:`coschedopt.pack.single_pack.min_processors_single_pack`).  Only the
distinct values t(i, j) can be optimal pack costs, so they are the levels.
"""

from __future__ import annotations

import numpy as np

from . import kernels
from .options import BnpOptions


class LevelTable:
    """The distinct times tau_0 < ... < tau_{L-1} and m_i(tau_l) for every task and level.

    ``m(l)[i]`` is m_i(tau_l), with ``p + 1`` standing for "cannot finish by tau_l".
    The full (L, n) table is kept when it has at most ``full_table_limit`` entries
    (:attr:`.options.BnpOptions.full_table_limit` unless given; O(n p log p) to build);
    otherwise each row costs O(n p).
    """

    def __init__(self, times: np.ndarray, scale: float = 1.0, full_table_limit: int | None = None) -> None:
        if full_table_limit is None:
            full_table_limit = BnpOptions().full_table_limit
        self.times = np.asarray(times, dtype=float)
        self.n, self.p = self.times.shape
        self.levels = np.unique(self.times)
        self.L = int(self.levels.size)
        #: pack costs as the master problem sees them (levels / scale, so that they are of order 1)
        self.scale = float(scale)
        self.tau = self.levels / self.scale
        #: first level at which task i fits (alone on p processors): index of t(i, p)
        self.first_level = np.searchsorted(self.levels, self.times[:, -1])
        self._asc = self.times[:, ::-1].copy()  # each row ascending
        dtype = np.int16 if self.p < 32_000 else np.int32
        self.table: np.ndarray | None = None
        if self.L * self.n <= full_table_limit:
            tab = np.empty((self.L, self.n), dtype=dtype)
            for i in range(self.n):
                le = np.searchsorted(self._asc[i], self.levels, side="right")  # #{j : t(i,j) <= tau}
                tab[:, i] = self.p + 1 - le
            self.table = tab
        self._dtype = dtype
        self._sorted: np.ndarray | None = None  # each task's times in ascending order (above)

    def m(self, level: int) -> np.ndarray:
        """m_i(tau_level) for all tasks (``p + 1`` where task i cannot finish by tau_level)."""
        if self.table is not None:
            return self.table[level]
        le = (self.times <= self.levels[level]).sum(axis=1)
        return (self.p + 1 - le).astype(self._dtype)

    def critical(self, level: int) -> np.ndarray:
        """Tasks whose processor requirement drops when going from level-1 to level.

        A set S has optimal cost exactly tau_level (fits at level, not at level-1)
        only if it contains one of them: every other task needs as many processors
        at level-1 as at level.
        """
        cur = self.m(level)
        if level == 0:
            return np.flatnonzero(cur <= self.p)
        return np.flatnonzero(self.m(level - 1) != cur)

    def fits(self, tasks: np.ndarray | list[int], level: int) -> bool:
        return int(self.m(level)[tasks].astype(np.int64).sum()) <= self.p

    def above(self, i: int) -> np.ndarray:
        """Mask of the tasks j (i included) with m_j(tau) >= m_i(tau) at every level: task
        i may take the place of any of them in a pack, at the same level."""
        if self._sorted is None:
            self._sorted = np.sort(self.times, axis=1)
        return (self._sorted[i] <= self._sorted).all(axis=1)

    def dominance(self) -> np.ndarray:
        """The pairs (i, j) where task j needs at least as many processors as task i at
        every level (m_i(tau) <= m_j(tau) for all tau: task i's sorted times are
        pointwise <= task j's), as an (E, 2) array: only the covering pairs of that
        order (ties broken by index), whose transitive closure is all of it.  O(n^2 p)
        for the comparisons, O(n^3) for the covering pairs.
        """
        n = self.n
        le = np.empty((n, n), dtype=bool)
        for i in range(n):
            le[i] = self.above(i)
        idx = np.arange(n)
        strict = le & (~le.T | (idx[:, None] < idx[None, :]))  # a strict partial order
        s = strict.astype(np.float32)
        return np.argwhere(strict & ((s @ s) < 0.5))

    def min_level(self, tasks: np.ndarray | list[int]) -> int:
        """Cheapest level at which ``tasks`` fit in one pack (binary search, O(|S| log L)); -1 if never."""
        idx = np.asarray(tasks, dtype=np.int64)
        if idx.size == 0:
            return 0
        if idx.size > self.p:
            return -1
        if self.table is not None and kernels.ready(kernels.min_level):
            return int(kernels.min_level(self.table, self.first_level, idx, self.p))
        if not self.fits(idx, self.L - 1):
            return -1
        lo, hi = int(self.first_level[idx].max()), self.L - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.fits(idx, mid):
                hi = mid
            else:
                lo = mid + 1
        return lo


class Windows:
    """Branching restrictions on the level of each task's pack: task i may only sit in
    a column of level l with lo[i] <= l <= hi[i] (a node of the branch-and-price tree).

    Within a run of levels where no window starts or ends, the allowed task set is
    fixed, so V(l) stays non-decreasing there and the pricing's interval pruning
    holds inside each such segment.
    """

    def __init__(self, lo: np.ndarray, hi: np.ndarray) -> None:
        self.lo = np.asarray(lo, dtype=np.int64)
        self.hi = np.asarray(hi, dtype=np.int64)

    def mask(self, level: int) -> np.ndarray:
        return (self.lo <= level) & (level <= self.hi)

    def masks(self, levels: np.ndarray) -> np.ndarray:
        lv = np.asarray(levels, dtype=np.int64)[:, None]
        return (self.lo[None, :] <= lv) & (lv <= self.hi[None, :])

    def breakpoints(self, num_levels: int) -> np.ndarray:
        """Levels b at which the allowed set may change between b - 1 and b."""
        pts = np.concatenate([self.lo[self.lo > 0], self.hi[self.hi < num_levels - 1] + 1])
        return np.unique(pts)

    def allows(self, tasks, level: int) -> bool:
        idx = np.asarray(tasks, dtype=np.int64)
        return bool(((self.lo[idx] <= level) & (level <= self.hi[idx])).all())
