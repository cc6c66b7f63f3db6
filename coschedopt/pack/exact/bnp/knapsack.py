"""Knapsack dynamic programs of the pricing: the best task set of a cost level.

With covering duals pi >= 0 (one per task), the best column at level l solves

    V(l) = max { pi(S) : sum_{i in S} m_i(tau_l) <= p, |S| <= k },

a 0-1 knapsack with a cardinality constraint, solved by the dynamic program over
(count, capacity) F[c, w] = max(F[c, w], F[c-1, w - m_i] + pi_i), one numpy update
per item: O(n k p) per level, O(n p) when the cardinality is redundant (k >= p, or
any k+1 items overflow p).  Before the DP, items that cannot be in an optimal set
are dropped (k-dominance, :func:`useful_items`).  The numpy code here is the
reference; :mod:`.kernels` runs the same recurrences compiled.
"""

from __future__ import annotations

import functools
import heapq

import numpy as np

from . import kernels
from .levels import LevelTable, Windows

#: duals at or below this are treated as zero (HiGHS returns -0.0 and 1e-17 noise)
PI_EPS = 1e-12


def useful_items(m: np.ndarray, pi: np.ndarray, p: int, k: int) -> np.ndarray:
    """Indices of the items that some optimal knapsack solution may use.

    Items with pi <= 0 or m > p are dropped.  Order the rest by (weight, -profit,
    index); j *dominates* i when it comes earlier (so w_j <= w_i, pi_j >= pi_i).
    A solution containing i holds at most min(k, p - w_i + 1) - 1 other items and
    at most min(k, p // w_i) - 1 other items of weight w_i, so if i has that many
    dominators (resp. same-weight dominators) one of them is outside and can
    replace i without losing profit or exceeding capacity.  Repeating the swap
    strictly decreases the sum of ranks, so an optimal solution avoids all the
    dropped items.  O(n^2) (a vectorised count), n = number of items with pi > 0.
    """
    cand = np.flatnonzero((pi > PI_EPS) & (m <= p))
    if cand.size <= 1:
        return cand
    w = m[cand].astype(np.int64)
    prof = pi[cand]
    order = np.lexsort((cand, -prof, w))
    w, prof, idx = w[order], prof[order], cand[order]
    kk = min(k, p)
    # dominators of item r: earlier items with profit >= its profit (earlier => weight <=)
    ge = prof[None, :] >= prof[:, None]
    ge &= _strictly_lower(idx.size)
    ndom = ge.sum(axis=1)
    # same-weight dominators: rank inside its weight group (the group is sorted by profit desc)
    starts = np.searchsorted(w, w, side="left")
    same = np.arange(idx.size) - starts
    keep = (ndom < np.minimum(kk, p - w + 1)) & (same < np.minimum(kk, p // w))
    return idx[keep]


@functools.lru_cache(maxsize=64)
def _strictly_lower(size: int) -> np.ndarray:
    return np.tri(size, k=-1, dtype=bool)


def knapsack(m: np.ndarray, pi: np.ndarray, p: int, k: int, *, want_set: bool) -> tuple[float, np.ndarray | None]:
    """max pi(S) s.t. sum m(S) <= p, |S| <= k over the given items (all assumed useful).

    Returns (value, positions of the chosen items in ``m``/``pi`` or None).
    O(len(m) * k * p) with one numpy update per item; the count dimension is dropped
    when k items can never be exceeded.
    """
    nitems = m.size
    if nitems == 0:
        return 0.0, (np.empty(0, dtype=np.int64) if want_set else None)
    kk = min(k, p, nitems)
    ws = np.sort(m)
    one_dim = kk >= nitems or int(ws[: kk + 1].sum()) > p
    if kernels.ready(kernels.values, kernels.best_set):
        w64, prof = np.ascontiguousarray(m, dtype=np.int64), np.ascontiguousarray(pi, dtype=float)
        if not want_set:
            order = np.argsort(-prof, kind="stable")
            return float(kernels.values(w64[None, :], prof[None, :], p, kk, one_dim, order)[0]), None
        val, mask = kernels.best_set(w64, prof, p, kk, one_dim)
        return float(val), np.flatnonzero(mask)
    ml = m.tolist()
    pl = pi.tolist()
    if one_dim:
        if not want_set:
            f = np.zeros(p + 1)
            for w, v in zip(ml, pl, strict=True):
                np.maximum(f[w:], f[: p + 1 - w] + v, out=f[w:])
            return float(f[p]), None
        h = np.zeros((nitems + 1, p + 1))
        for r, (w, v) in enumerate(zip(ml, pl, strict=True)):
            h[r + 1] = h[r]
            np.maximum(h[r + 1, w:], h[r, : p + 1 - w] + v, out=h[r + 1, w:])
        chosen = []
        cap = p
        for r in range(nitems - 1, -1, -1):
            if h[r + 1, cap] != h[r, cap]:
                chosen.append(r)
                cap -= ml[r]
        return float(h[nitems, p]), np.array(chosen[::-1], dtype=np.int64)
    if not want_set:
        f = np.zeros((kk + 1, p + 1))
        for w, v in zip(ml, pl, strict=True):
            np.maximum(f[1:, w:], f[:-1, : p + 1 - w] + v, out=f[1:, w:])
        return float(f[kk, p]), None
    h = np.zeros((nitems + 1, kk + 1, p + 1))
    for r, (w, v) in enumerate(zip(ml, pl, strict=True)):
        h[r + 1] = h[r]
        np.maximum(h[r + 1, 1:, w:], h[r, :-1, : p + 1 - w] + v, out=h[r + 1, 1:, w:])
    chosen = []
    c, cap = kk, p
    for r in range(nitems - 1, -1, -1):
        if h[r + 1, c, cap] != h[r, c, cap]:
            chosen.append(r)
            c -= 1
            cap -= ml[r]
    return float(h[nitems, kk, p]), np.array(chosen[::-1], dtype=np.int64)


def best_set_at_level(table: LevelTable, level: int, pi: np.ndarray, k: int, *, want_set: bool):
    """V(level) and (optionally) a task set reaching it."""
    m = table.m(level)
    if want_set and kernels.ready(kernels.level_best_set):
        items = np.flatnonzero(pi > PI_EPS)
        order = items[np.argsort(-pi[items], kind="stable")]
        val, tasks = kernels.level_best_set(m.astype(np.int64), np.asarray(pi, dtype=float), order, table.p, k)
        return float(val), tasks
    items = useful_items(m, pi, table.p, k)
    val, pos = knapsack(m[items].astype(np.int64), pi[items], table.p, k, want_set=want_set)
    return val, (None if pos is None else items[pos])


def knapsack_values(
    table: LevelTable, levels: np.ndarray, pi: np.ndarray, k: int, windows: Windows | None = None
) -> np.ndarray:
    """V(l) for a batch of levels at once (values only).

    The same DP as :func:`knapsack`, vectorised over the levels of the batch: each
    item's weight differs per level, so the shifted table is a gather
    (``take_along_axis``) from a copy padded with -inf on the left.  One numpy
    update per item for the whole batch, O(B n k p) work: the per-call overhead of
    numpy is paid once per item instead of once per (item, level).  With ``windows``
    a task outside its window at a level has profit 0 there.
    """
    p = table.p
    lv = np.asarray(levels, dtype=np.int64)
    nb = lv.size
    mat = table.table[lv] if table.table is not None else np.stack([table.m(int(x)) for x in lv])
    items = np.flatnonzero((pi > PI_EPS) & (mat.min(axis=0) <= p))
    if items.size == 0:
        return np.zeros(nb)
    w = mat[:, items].astype(np.int64)
    if windows is None:
        prof = pi[items][None, :].repeat(nb, axis=0)
    else:
        prof = pi[items][None, :] * windows.masks(lv)[:, items]
    ni = items.size
    kk = min(k, p, ni)
    base = np.arange(p + 1, 2 * p + 2, dtype=np.int64)
    one_dim = kk >= ni or bool((np.partition(w, kk, axis=1)[:, : kk + 1].sum(axis=1) > p).all())
    if kernels.ready(kernels.values):
        order = np.argsort(-pi[items], kind="stable")  # a window only zeroes profits: same order per level
        return kernels.values(np.ascontiguousarray(w), np.ascontiguousarray(prof, dtype=float), p, kk, one_dim, order)
    width = 2 * p + 2
    # the gathers index the flat table: row offsets are fixed, only the shift by the weight varies
    if one_dim:
        fp = np.full((nb, width), -np.inf)
        fp[:, p + 1 :] = 0.0
        right = fp[:, p + 1 :]
        flat = fp.ravel()
        off = (np.arange(nb, dtype=np.int64) * width)[:, None] + base[None, :]
        for r in range(ni):
            g = flat.take(off - w[:, r : r + 1])
            g += prof[:, r : r + 1]
            np.maximum(right, g, out=right)
        return right[:, p].copy()
    fp = np.full((nb, kk + 1, width), -np.inf)
    fp[:, :, p + 1 :] = 0.0
    dst = fp[:, 1:, p + 1 :]
    flat = fp.ravel()
    off = (
        (np.arange(nb, dtype=np.int64) * ((kk + 1) * width))[:, None, None]
        + (np.arange(kk, dtype=np.int64) * width)[None, :, None]
        + base[None, None, :]
    )
    for r in range(ni):
        g = flat.take(off - w[:, r : r + 1, None])
        g += prof[:, r : r + 1, None]
        np.maximum(dst, g, out=dst)
    return fp[:, kk, 2 * p + 1].copy()


def batch_size(table: LevelTable, k: int) -> int:
    """Levels per batched DP: about 32k table cells per numpy update, at most 64 levels."""
    kk = min(k, table.p)
    return int(max(1, min(64, 32768 // ((kk + 1) * (table.p + 1)))))


def topk_by_level(table: LevelTable, pi: np.ndarray, k: int) -> np.ndarray:
    """For each level l: sum of the min(k, p) largest duals among tasks that fit at l (an upper bound on V(l))."""
    kk = min(k, table.p)
    order = np.argsort(table.first_level, kind="stable")
    run = np.empty(order.size)
    heap: list[float] = []
    s = 0.0
    for r, i in enumerate(order.tolist()):
        v = float(max(pi[i], 0.0))
        if len(heap) < kk:
            heapq.heappush(heap, v)
            s += v
        elif v > heap[0]:
            s += v - heapq.heapreplace(heap, v)
        run[r] = s
    fl = table.first_level[order]
    # number of tasks feasible at level l = #{first_level <= l}
    cnt = np.searchsorted(fl, np.arange(table.L), side="right")
    out = np.zeros(table.L)
    nz = cnt > 0
    out[nz] = run[cnt[nz] - 1]
    return out


def suffix_tables(m: np.ndarray, pi: np.ndarray, p: int, kk: int) -> np.ndarray:
    """G[r, c, w] = max profit of items r..end with at most c items and weight at most w (G[end] = 0)."""
    nitems = m.size
    g = np.zeros((nitems + 1, kk + 1, p + 1))
    for r in range(nitems - 1, -1, -1):
        g[r] = g[r + 1]
        w = int(m[r])
        if w <= p:
            np.maximum(g[r, 1:, w:], g[r + 1, :-1, : p + 1 - w] + pi[r], out=g[r, 1:, w:])
    return g
