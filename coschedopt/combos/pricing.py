"""Pricing for the pairwise model: the combination of at most K tasks with the largest y-weighted speed.

LP (2)'s dual is  max b^T y  s.t.  sum_{i in S} a(i, S) y_i <= 1  for every combination S,
so a column S has a negative reduced cost exactly when its *value*

    f(S) = sum_{i in S} y_i a(i, S),      a(i, S) = prod_{j in S, j != i} d_ij  (normalised)

exceeds 1, and max_S f(S) = t certifies the Farley bound b^T y / t <= OPT.  Finding that
maximum over the sum_{s <= K} C(n, s) combinations is the pricing problem; two routines:

* :func:`price_exact`, a depth-first branch-and-bound over sets in the order of decreasing
  y (tasks with y_i <= 0 are excluded: dropping such a task from S removes a term <= 0 and
  raises the others' speeds, since d <= 1).  At a partial set P, any completion P u Q with
  |Q| <= K - |P| has value at most f(P) + sum_{u in Q} y_u g_u(P), with
  g_u(P) = prod_{i in P} d_ui the speed u would have beside P: the speeds already in P
  only drop when tasks join, and u's own speed only drops further.  The cheap form of the
  bound (g <= 1: the next y's in order) cuts whole tails of the candidate list; the tight
  form (the best K - |P| products y_u g_u(P)) prunes a subtree before it is entered.  It
  keeps the ``keep`` best sets above a threshold, exactly (the threshold rises to the
  keep-th best value found), so one call yields many columns and the exact maximum.
  Worst case O(n^K K) (every set visited); the bounds make it far smaller when y is
  uneven, and smallest near the LP optimum, where few sets exceed 1.
* :func:`price_greedy`, a heuristic: from each task, add the task raising f most while it
  does, up to K tasks.  O(K^2 n^2); no proof, used first to generate columns cheaply.

The loops are compiled by numba on first use (cached on disk); without numba they run as
Python, correct but slow.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np


def _bnb(yv, order, dd, k, keep, thresh0, max_nodes, out_sets, out_vals):  # pragma: no cover - compiled by numba
    """Branch-and-bound over subsets of the r candidates (yv sorted decreasing, all > 0).

    ``dd[order[a], order[b]]`` is the factor of candidate a beside candidate b (the task
    matrix indexed through ``order``: no reordered copy).  Fills the ``keep`` best
    sets of value > thresh0 into out_sets (rows of k candidate positions, -1 padded) and
    out_vals; returns (number found, nodes visited, complete): ``complete`` is False when the
    search stopped at ``max_nodes`` (the sets found are then valid, but not proven the best).
    """
    r = yv.shape[0]
    cs = np.zeros(r + 1)
    for u in range(r):
        cs[u + 1] = cs[u] + yv[u]
    g = np.ones((k + 1, r))
    sp = np.ones((k + 1, k))
    chosen = np.zeros(k, dtype=np.int64)
    fval = np.zeros(k + 1)
    pos = np.zeros(k + 1, dtype=np.int64)
    tops = np.zeros(k + 1)
    found = 0
    thresh = thresh0
    nodes = 0
    t = 0
    while t >= 0:
        j = pos[t]
        if j >= r:
            t -= 1
            continue
        pos[t] = j + 1
        rem = k - t
        hi = min(r, j + rem)
        if fval[t] + cs[hi] - cs[j] <= thresh:  # no later candidate can do better at this depth
            t -= 1
            continue
        gj = g[t, j]
        hi1 = min(r, j + 1 + rem - 1)
        rest = cs[hi1] - cs[j + 1]
        if fval[t] + yv[j] * gj + rest <= thresh:
            continue
        nodes += 1
        if nodes > max_nodes:
            return found, nodes, False
        oj = order[j]
        v = yv[j] * gj
        for a in range(t):
            c = chosen[a]
            v += yv[c] * sp[t, a] * dd[order[c], oj]
        if v > thresh:
            if found < keep:
                slot = found
                found += 1
            else:
                slot = 0
                for q in range(1, keep):
                    if out_vals[q] < out_vals[slot]:
                        slot = q
            for a in range(t):
                out_sets[slot, a] = chosen[a]
            out_sets[slot, t] = j
            for a in range(t + 1, k):
                out_sets[slot, a] = -1
            out_vals[slot] = v
            if found == keep:
                low = out_vals[0]
                for q in range(1, keep):
                    if out_vals[q] < low:
                        low = out_vals[q]
                if low > thresh:
                    thresh = low
        if t + 1 < k and j + 1 < r and v + rest > thresh:
            q = k - t - 1
            for a in range(q):
                tops[a] = 0.0
            for u in range(j + 1, r):
                gu = g[t, u] * dd[order[u], oj]
                g[t + 1, u] = gu
                w = yv[u] * gu
                if w > tops[q - 1]:
                    a = q - 1
                    while a > 0 and tops[a - 1] < w:
                        tops[a] = tops[a - 1]
                        a -= 1
                    tops[a] = w
            bound = v
            for a in range(q):
                bound += tops[a]
            if bound > thresh:
                chosen[t] = j
                for a in range(t):
                    sp[t + 1, a] = sp[t, a] * dd[order[chosen[a]], oj]
                sp[t + 1, t] = gj
                fval[t + 1] = v
                t += 1
                pos[t] = j + 1
    return found, nodes, True


def _greedy(yv, order, dd, ddt, k, starts, out_sets, out_vals):  # pragma: no cover - compiled by numba
    """From each of the first ``starts`` candidates, add the candidate raising f most while it does.

    ``ddt`` is ``dd`` transposed (contiguous), so that a candidate's factors beside the set
    are read along rows, not down columns (the scan is memory-bound at large n); both are
    indexed through ``order``.
    """
    r = yv.shape[0]
    g = np.ones(r)
    sp = np.ones(k)
    members = np.zeros(k, dtype=np.int64)
    inset = np.zeros(r, dtype=np.bool_)
    for s in range(starts):
        os_ = order[s]
        for u in range(r):
            g[u] = ddt[os_, order[u]]
            inset[u] = False
        inset[s] = True
        members[0] = s
        sp[0] = 1.0
        size = 1
        f = yv[s]
        while size < k:
            best, bestv = -1, f
            for u in range(r):
                if inset[u]:
                    continue
                v = yv[u] * g[u]
                ou = order[u]
                for a in range(size):
                    c = members[a]
                    v += yv[c] * sp[a] * dd[order[c], ou]
                if v > bestv:
                    best, bestv = u, v
            if best < 0:
                break
            ob = order[best]
            for a in range(size):
                sp[a] *= dd[order[members[a]], ob]
            sp[size] = g[best]
            members[size] = best
            inset[best] = True
            size += 1
            f = bestv
            for u in range(r):
                g[u] *= ddt[ob, order[u]]
        for a in range(k):
            out_sets[s, a] = members[a] if a < size else -1
        out_vals[s] = f


@functools.cache
def _kernels():
    """(branch-and-bound, greedy), compiled by numba (cached on disk) or plain Python without it."""
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency
        return _bnb, _greedy
    jit = numba.njit(cache=True, nogil=True)
    return jit(_bnb), jit(_greedy)


def compile_kernels() -> None:
    """Compile (or load from numba's cache) both loops on a tiny problem: the ``prepare`` hook."""
    d = np.full((4, 4), 0.9)
    prepared = prepare(d, np.ones(4))
    price_exact(d, np.ones(4), 2, keep=2, prepared=prepared)
    price_greedy(d, np.ones(4), 2, prepared=prepared)


@dataclass
class Priced:
    """Sets (sorted task-index tuples) and their values f(S), best first; ``nodes`` visited;
    ``complete`` False when an exact pricing stopped at its node budget (nothing proven)."""

    sets: list[tuple[int, ...]]
    values: list[float]
    nodes: int = 0
    complete: bool = True


@dataclass
class Prepared:
    """The candidates of one dual vector: the tasks with y > 0 by decreasing y (``order``),
    their y (``yv``), and the task factor matrix ``dd`` with its transpose ``ddt`` (contiguous,
    both indexed through ``order`` by the kernels: a reordered copy cost 0.17 s a round at
    n = 3,000).  O(n log n) to build when ``ddt`` is given."""

    order: np.ndarray
    yv: np.ndarray
    dd: np.ndarray
    ddt: np.ndarray


def prepare(factors: np.ndarray, y: np.ndarray, factors_t: np.ndarray | None = None) -> Prepared:
    """The candidates of ``y`` (:class:`Prepared`); ``factors_t`` the contiguous transpose when kept."""
    y = np.asarray(y, dtype=float)
    order = np.flatnonzero(y > 0)
    order = np.ascontiguousarray(order[np.argsort(-y[order], kind="stable")], dtype=np.int64)
    yv = np.ascontiguousarray(y[order])
    dd = np.ascontiguousarray(factors, dtype=float)
    ddt = np.ascontiguousarray(dd.T) if factors_t is None else factors_t
    return Prepared(order, yv, dd, ddt)


def _collect(order: np.ndarray, sets: np.ndarray, vals: np.ndarray, count: int) -> tuple[list, list]:
    best = np.argsort(-vals[:count], kind="stable")
    out_sets, out_vals = [], []
    for q in best:
        row = sets[q]
        out_sets.append(tuple(sorted(int(order[c]) for c in row if c >= 0)))
        out_vals.append(float(vals[q]))
    return out_sets, out_vals


def price_exact(
    factors: np.ndarray,
    y: np.ndarray,
    max_size: int,
    *,
    threshold: float = 1.0,
    keep: int = 1,
    prepared: Prepared | None = None,
    max_nodes: int | None = None,
) -> Priced:
    """The ``keep`` combinations of at most ``max_size`` tasks with the largest f(S) > ``threshold``, exactly.

    An empty result proves max_S f(S) <= threshold (over the tasks with y_i > 0; when no
    y_i is positive every f(S) <= 0).  ``factors`` is the n x n matrix of d_ij; ``prepared``
    the candidates of ``y`` when already built (:func:`prepare`); ``max_nodes`` a node budget
    (a time limit's share), past which the result is marked incomplete.
    """
    p = prepared or prepare(factors, y)
    order, yv, dd = p.order, p.yv, p.dd
    keep = max(1, int(keep))
    if yv.size == 0:
        return Priced([], [], 0)
    k = min(int(max_size), yv.size)
    sets = np.full((keep, k), -1, dtype=np.int64)
    vals = np.full(keep, -np.inf)
    bnb, _ = _kernels()
    budget = np.iinfo(np.int64).max if max_nodes is None else max(1, int(max_nodes))
    found, nodes, complete = bnb(yv, order, dd, k, keep, float(threshold), budget, sets, vals)
    s, v = _collect(order, sets, vals, int(found))
    return Priced(s, v, int(nodes), bool(complete))


def price_greedy(
    factors: np.ndarray,
    y: np.ndarray,
    max_size: int,
    *,
    starts: int | None = None,
    prepared: Prepared | None = None,
) -> Priced:
    """Greedy sets from the ``starts`` tasks of largest y (default all with y > 0), distinct, best first."""
    p = prepared or prepare(factors, y)
    order, yv, dd = p.order, p.yv, p.dd
    if yv.size == 0:
        return Priced([], [], 0)
    k = min(int(max_size), yv.size)
    st = yv.size if starts is None else max(1, min(int(starts), yv.size))
    sets = np.full((st, k), -1, dtype=np.int64)
    vals = np.full(st, -np.inf)
    _, greedy = _kernels()
    greedy(yv, order, dd, p.ddt, k, st, sets, vals)
    s, v = _collect(order, sets, vals, st)
    seen: set[tuple[int, ...]] = set()
    out_s, out_v = [], []
    for a, b in zip(s, v, strict=True):
        if a not in seen:
            seen.add(a)
            out_s.append(a)
            out_v.append(b)
    return Priced(out_s, out_v, st)
