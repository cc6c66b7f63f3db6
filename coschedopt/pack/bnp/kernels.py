"""Compiled inner loops of the pricing: the cardinality-constrained knapsack DP.

The dynamic program of :mod:`.pricing` (F[c, w] = max(F[c, w], F[c-1, w - m_i] + pi_i),
one update per item) written as plain loops and compiled by numba, where the numpy
version pays a gather of the whole (count, capacity) table per item and per batch
of levels.  Same recurrences, in the same item order, so the values are those of
the numpy code (bit for bit in the tests); the numpy code stays the reference and
the fallback when numba is not installed (:data:`COMPILED`).

The batched DP also skips the items dominated within their weight (at most
min(k, p // w) items of weight w can be in a set, and the most profitable ones
may be taken): at Workload-III k = 16 about a third of the 260 tasks remain.

Measured on Workload-III, seed 0: the batched DP of 64 random levels at random
duals takes 1.6 ms instead of 16.4 ms at k = 16 (3.7 ms without the dominance skip)
and 0.19 ms instead of 1.7 ms at k = 32 (one-dimensional DP); the cheapest level of a
set (:func:`_min_level`, the local searches' move evaluation) 1.3 us instead of
16 us.  A whole k = 16 solve (best first, no neighbourhood search, another solve on
the other core), without the dominance skip: root column generation 10.9 s instead
of 29.4 s, 57 tree nodes instead of 30 after 285 s, bound 98 623 instead of 98 583.
The first call of each kernel compiles it (about 4 s, cached on disk by numba).
"""

from __future__ import annotations

import numpy as np

try:
    import numba
except ImportError:  # pragma: no cover - numba is a dependency; the numpy DP still works without it
    numba = None

#: whether the compiled kernels are in use (numba importable)
COMPILED = numba is not None


def _jit(fn):
    return numba.njit(cache=True, nogil=True)(fn) if COMPILED else None


def _add_item(g: np.ndarray, kk: int, p: int, wr: int, v: float) -> None:
    """One item of the (count, capacity) DP: g[c, cap] = max(g[c, cap], g[c-1, cap-wr] + v).

    Rows from the top down, so that row c - 1 is read before this item updates it;
    inside a row the source and the target are different rows, so the capacity loop
    runs upwards over two row views, a loop LLVM vectorises (2.5x faster than the
    same loop over the 2-d array at Workload-III k = 16)."""
    n = p + 1 - wr
    for c in range(kk, 0, -1):
        src = g[c - 1]
        dst = g[c]
        for q in range(n):
            x = src[q] + v
            y = dst[q + wr]
            dst[q + wr] = x if x > y else y


#: compiled when numba is there (the compiled DPs call it), else the Python function
add_item = _jit(_add_item) or _add_item


def _values(w: np.ndarray, prof: np.ndarray, p: int, kk: int, one_dim: bool, order: np.ndarray) -> np.ndarray:
    """V for each row b of (w, prof): max sum prof[b, S] s.t. sum w[b, S] <= p, |S| <= kk
    (|S| unconstrained when ``one_dim``).  Items with w > p or prof <= 0 never help, nor
    does an item with min(kk, p // w) items of its weight and larger profit (``order``:
    the items by non-increasing profit, the same in every row): an optimal set holds
    at most that many items of weight w, and the most profitable ones do as well."""
    nb, ni = w.shape
    out = np.zeros(nb)
    use = np.zeros(ni, dtype=np.bool_)
    seen = np.zeros(p + 1, dtype=np.int64)
    g = np.zeros((kk + 1, p + 1))
    for b in range(nb):
        seen[:] = 0
        use[:] = False
        for r in order:
            wr = w[b, r]
            if wr <= p and prof[b, r] > 0.0 and seen[wr] < (p // wr if one_dim else min(kk, p // wr)):
                seen[wr] += 1
                use[r] = True
        if one_dim:
            f = np.zeros(p + 1)
            for r in range(ni):
                if not use[r]:
                    continue
                wr = w[b, r]
                v = prof[b, r]
                for cap in range(p, wr - 1, -1):  # in place: downwards, so each item counts once
                    x = f[cap - wr] + v
                    if x > f[cap]:
                        f[cap] = x
            out[b] = f[p]
            continue
        g[:, :] = 0.0
        for r in range(ni):
            if not use[r]:
                continue
            add_item(g, kk, p, w[b, r], prof[b, r])
        out[b] = g[kk, p]
    return out


def _best_set(w: np.ndarray, prof: np.ndarray, p: int, kk: int, one_dim: bool) -> tuple[float, np.ndarray]:
    """The same DP over one item list, keeping every item's table for the traceback:
    (value, mask of the chosen items), the choice :func:`.pricing.knapsack` makes."""
    ni = w.size
    chosen = np.zeros(ni, dtype=np.bool_)
    if one_dim:
        h = np.zeros((ni + 1, p + 1))
        for r in range(ni):
            h[r + 1, :] = h[r, :]
            wr = w[r]
            for cap in range(wr, p + 1):
                x = h[r, cap - wr] + prof[r]
                if x > h[r + 1, cap]:
                    h[r + 1, cap] = x
        cap = p
        for r in range(ni - 1, -1, -1):
            if h[r + 1, cap] != h[r, cap]:
                chosen[r] = True
                cap -= w[r]
        return h[ni, p], chosen
    t = np.zeros((ni + 1, kk + 1, p + 1))
    for r in range(ni):
        t[r + 1, :, :] = t[r, :, :]
        wr = w[r]
        for c in range(1, kk + 1):
            for cap in range(wr, p + 1):
                x = t[r, c - 1, cap - wr] + prof[r]
                if x > t[r + 1, c, cap]:
                    t[r + 1, c, cap] = x
    c, cap = kk, p
    for r in range(ni - 1, -1, -1):
        if t[r + 1, c, cap] != t[r, c, cap]:
            chosen[r] = True
            c -= 1
            cap -= w[r]
    return t[ni, kk, p], chosen


def _level_best_set(m: np.ndarray, pi: np.ndarray, order: np.ndarray, p: int, k: int) -> tuple[float, np.ndarray]:
    """max pi(S) s.t. sum m(S) <= p, |S| <= k, and a set S reaching it (task indices), for
    one level: the tasks of ``order`` (positive duals, by non-increasing dual) past the
    min(k, p // w) most profitable of their weight w are skipped (an optimal set holds
    no more of them, as in :func:`_values`), then :func:`_best_set`'s traceback DP."""
    ni = order.size
    sel = np.empty(ni, dtype=np.int64)
    seen = np.zeros(p + 1, dtype=np.int64)
    cnt = 0
    for r in range(ni):
        i = order[r]
        w = m[i]
        if w <= p and seen[w] < min(k, p // w):
            seen[w] += 1
            sel[cnt] = i
            cnt += 1
    if cnt == 0:
        return 0.0, np.empty(0, dtype=np.int64)
    kk = min(k, p, cnt)
    # the cardinality never binds when kk covers every item or any kk + 1 items overflow p
    one_dim = kk >= cnt
    if not one_dim:
        need, total = kk + 1, 0
        for w in range(1, p + 1):
            take = min(seen[w], need)
            total += take * w
            need -= take
            if need == 0:
                break
        one_dim = total > p
    items = sel[:cnt]
    val, mask = best_set(m[items].astype(np.int64), pi[items], p, kk, one_dim)
    return val, items[mask]


def _min_level(table: np.ndarray, first_level: np.ndarray, idx: np.ndarray, p: int) -> int:
    """:meth:`.levels.LevelTable.min_level` over the full (L, n) table: the least level
    where sum_i m_i(tau) <= p (binary search from the highest first level), -1 if none."""
    top = table.shape[0] - 1
    lo = 0
    s = 0
    for i in idx:
        lo = max(lo, first_level[i])
        s += table[top, i]
    if s > p:
        return -1
    hi = top
    while lo < hi:
        mid = (lo + hi) // 2
        s = 0
        for i in idx:
            s += table[mid, i]
        if s <= p:
            hi = mid
        else:
            lo = mid + 1
    return lo


values = _jit(_values)
best_set = _jit(_best_set)
level_best_set = _jit(_level_best_set)
min_level = _jit(_min_level)
