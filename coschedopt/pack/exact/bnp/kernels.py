"""Compiled inner loops of the pricing: the cardinality-constrained knapsack DP, the column enumeration.

The dynamic program of :mod:`.knapsack` (F[c, w] = max(F[c, w], F[c-1, w - m_i] + pi_i),
one update per item) written as plain loops and compiled by numba, where the numpy
version pays a gather of the whole (count, capacity) table per item and per batch
of levels.  Same recurrences, in the same item order, so the values are those of
the numpy code (bit for bit in the tests); the numpy code stays the reference and
the fallback when numba is not installed (:data:`COMPILED`), and after a stop request
for a kernel not compiled yet (:func:`ready`).

The batched DP also skips the items dominated within their weight (at most
min(k, p // w) items of weight w can be in a set, and the most profitable ones
may be taken).

The column enumeration below the reduced-cost gap (:func:`_enumerate_sets`, the
depth-first search of :func:`.enumeration.enumerate_level` over the same stack in the
same order) is compiled too: the probes and the enumerations of the tree and of the
neighbourhood search's windows run it.  Timings against the numpy code: the probe
``kernel-speed`` (:mod:`coschedopt.pack.probes`, suite ``pack-kernels``).
The first call of each kernel compiles it (seconds, cached on disk by numba).
"""

from __future__ import annotations

import time

import numpy as np

from ....core.deadline import stop_requested

try:
    import numba
except ImportError:  # pragma: no cover - numba is a dependency; the numpy DP still works without it
    numba = None

#: whether the compiled kernels are in use (numba importable)
COMPILED = numba is not None


def ready(*kernels) -> bool:
    """Whether to call the compiled ``kernels``: numba is there and, once a stop was requested
    (Ctrl-C: :mod:`coschedopt.core.deadline`), only if they are compiled in this process
    already -- compiling one takes seconds on a fresh install, the numpy code answers at once."""
    return COMPILED and (not stop_requested() or all(k.signatures for k in kernels))


def _jit(fn, nogil: bool = True):
    return numba.njit(cache=True, nogil=nogil)(fn) if COMPILED else None


def _add_item(g: np.ndarray, kk: int, p: int, wr: int, v: float) -> None:
    """One item of the (count, capacity) DP: g[c, cap] = max(g[c, cap], g[c-1, cap-wr] + v).

    Rows from the top down, so that row c - 1 is read before this item updates it;
    inside a row the source and the target are different rows, so the capacity loop
    runs upwards over two row views, a loop LLVM vectorises (the same loop over the 2-d
    array does not vectorise)."""
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
    (value, mask of the chosen items), the choice :func:`.knapsack.knapsack` makes."""
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


def _suffix_tables(m: np.ndarray, pi: np.ndarray, p: int, kk: int) -> np.ndarray:
    """:func:`.knapsack.suffix_tables`: G[r, c, w] = max profit of items r..end with at most
    c items and weight at most w (G[end] = 0), the same recurrence in the same order."""
    nitems = m.size
    g = np.zeros((nitems + 1, kk + 1, p + 1))
    for r in range(nitems - 1, -1, -1):
        g[r] = g[r + 1]
        if m[r] <= p:
            add_item(g[r], kk, p, m[r], pi[r])
    return g


def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


def _cheapest_here(chosen: np.ndarray, mp: np.ndarray, op: np.ndarray, p: int) -> bool:
    """Whether the set of positions ``chosen`` has its cheapest allowed level here: it
    does not fit one level lower (needs ``mp`` over p) or a task's window opens here."""
    need = 0
    opens = False
    for j in chosen:
        need += mp[j]
        opens = opens or op[j]
    return need > p or opens


def _append_set(
    out_pos: np.ndarray, out_off: np.ndarray, nout: int, chosen: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Store set number ``nout`` (positions ``chosen``) in the flat output of
    :func:`_enumerate_sets`, growing its arrays when full; returns them."""
    ln = chosen.size
    if out_off[nout] + ln > out_pos.size:
        grown = np.empty(2 * out_pos.size + ln, dtype=np.int64)
        grown[: out_pos.size] = out_pos
        out_pos = grown
    if nout + 2 > out_off.size:
        grown_off = np.zeros(2 * out_off.size, dtype=np.int64)
        grown_off[: out_off.size] = out_off
        out_off = grown_off
    base = out_off[nout]
    out_pos[base : base + ln] = chosen
    out_off[nout + 1] = base + ln
    return out_pos, out_off


#: compiled when numba is there (the compiled search calls them), else the Python functions
cheapest_here = _jit(_cheapest_here) or _cheapest_here
append_set = _jit(_append_set) or _append_set


def _enumerate_sets(
    mo: np.ndarray,
    po: np.ndarray,
    mp: np.ndarray,
    op: np.ndarray,
    g: np.ndarray,
    ncrit: int,
    kk: int,
    p: int,
    target: float,
    budget: int,
    stop_at: float,
) -> tuple[int, np.ndarray, np.ndarray]:
    """The depth-first search of :func:`.enumeration.enumerate_level` (same stack, same order):
    every set of positions whose first is critical (< ``ncrit``), of at most ``kk`` items
    within ``p``, with profit >= ``target`` and not fitting one level lower (previous needs
    ``mp`` over p, or a window opening here, ``op``); a branch is followed only while the
    suffix table ``g`` can still reach the target.  Returns (status, positions, offsets):
    status 0 done, 1 more than ``budget`` sets (the first budget + 1 are returned), 2 the
    clock passed ``stop_at`` (perf_counter seconds); set j is positions[offsets[j]:offsets[j + 1]]."""
    nitems = mo.size
    cap_stack = nitems * kk + ncrit + 1
    st_start = np.empty(cap_stack, dtype=np.int64)
    st_c = np.empty(cap_stack, dtype=np.int64)
    st_cap = np.empty(cap_stack, dtype=np.int64)
    st_prof = np.empty(cap_stack)
    st_len = np.empty(cap_stack, dtype=np.int64)
    st_chosen = np.empty((cap_stack, max(kk, 1)), dtype=np.int64)
    top = 0
    for r in range(ncrit - 1, -1, -1):
        w = mo[r]
        if w <= p and po[r] + g[r + 1, kk - 1, p - w] >= target:
            st_start[top] = r + 1
            st_c[top] = kk - 1
            st_cap[top] = p - w
            st_prof[top] = po[r]
            st_len[top] = 1
            st_chosen[top, 0] = r
            top += 1
    out_pos = np.empty(16 * max(kk, 1), dtype=np.int64)
    out_off = np.zeros(17, dtype=np.int64)
    nout = 0
    count = 0
    while top > 0:
        top -= 1
        start = st_start[top]
        c = st_c[top]
        cap = st_cap[top]
        prof = st_prof[top]
        ln = st_len[top]
        if prof >= target and cheapest_here(st_chosen[top, :ln], mp, op, p):
            out_pos, out_off = append_set(out_pos, out_off, nout, st_chosen[top, :ln])
            nout += 1
            if nout > budget:
                return 1, out_pos[: out_off[nout]], out_off[: nout + 1]
        count += 1
        if count % 2048 == 0 and _now() >= stop_at:
            return 2, out_pos[: out_off[nout]], out_off[: nout + 1]
        if c == 0 or cap == 0 or start >= nitems:
            continue
        # children pushed from the last to the first, so that the first is popped first;
        # the first push reuses the parent's slot: copy its path before overwriting it
        path = st_chosen[top, :ln].copy()
        for r in range(nitems - 1, start - 1, -1):
            w = mo[r]
            if w <= cap and prof + po[r] + g[r + 1, c - 1, cap - w] >= target:
                st_start[top] = r + 1
                st_c[top] = c - 1
                st_cap[top] = cap - w
                st_prof[top] = prof + po[r]
                st_len[top] = ln + 1
                st_chosen[top, :ln] = path
                st_chosen[top, ln] = r
                top += 1
    return 0, out_pos[: out_off[nout]], out_off[: nout + 1]


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
suffix_tables = _jit(_suffix_tables)
# the search reads the clock in object mode (it takes the GIL): compiled without nogil
_now = _jit(_now, nogil=False) or _now
enumerate_sets = _jit(_enumerate_sets, nogil=False)
min_level = _jit(_min_level)
