"""Pricing and column enumeration: cardinality-constrained knapsacks over processors.

With covering duals pi >= 0 (one per task), a column (S, tau_l) has reduced cost
tau_l - pi(S).  At a fixed level the best column solves

    V(l) = max { pi(S) : sum_{i in S} m_i(tau_l) <= p, |S| <= k },

a 0-1 knapsack with a cardinality constraint, solved by the dynamic program over
(count, capacity) F[c, w] = max(F[c, w], F[c-1, w - m_i] + pi_i), one numpy update
per item: O(n k p) per level, O(n p) when the cardinality is redundant (k >= p, or
any k+1 items overflow p).  Before the DP, items that cannot be in an optimal set
are dropped (k-dominance, :func:`useful_items`).

Levels: V is non-decreasing in tau (m_i is non-increasing), so on an interval of
levels (a, b) every reduced cost is at least tau_{a+1} - V(b), and when V(a) = V(b)
no interior level beats level a.  :func:`price` is a best-first bisection over the
L levels using these two facts plus V(l) <= (sum of the k largest duals among the
tasks that fit at l); it returns the *exact* minimum reduced cost and an upper
bound on max_S pi(S)/tau(S) (for the Farley bound) after evaluating only the
levels that could improve.

Enumeration (:func:`enumerate_columns`): every set whose optimal level is l and whose
reduced cost is at most delta, by depth-first search with suffix-DP bounds
(output-sensitive: each search node can still reach a qualifying set).
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import time
from dataclasses import dataclass, field

import numpy as np

from ...core import Deadline
from . import kernels
from .levels import LevelTable

#: duals at or below this are treated as zero (HiGHS returns -0.0 and 1e-17 noise)
PI_EPS = 1e-12


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
    if kernels.COMPILED:
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
    if kernels.COMPILED and want_set:
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
    if kernels.COMPILED:
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


class Cuts:
    """Subset-row cuts with positive duals: task triples R and penalties sigma_R > 0.

    A column S pays sigma_R when it holds at least two tasks of R, so its reduced
    cost is tau - pi(S) + pen(S), pen(S) = sum_{R : |S & R| >= 2} sigma_R.
    """

    def __init__(self, triples: np.ndarray, sigma: np.ndarray, n: int) -> None:
        self.triples = np.asarray(triples, dtype=np.int64).reshape(-1, 3)
        self.sigma = np.asarray(sigma, dtype=float)
        self.of_task: list[list[int]] = [[] for _ in range(n)]
        for c, r in enumerate(self.triples.tolist()):
            for i in r:
                self.of_task[i].append(c)

    def hits(self, tasks) -> dict[int, int]:
        out: dict[int, int] = {}
        for i in tasks:
            for c in self.of_task[int(i)]:
                out[c] = out.get(c, 0) + 1
        return out

    def penalty(self, tasks) -> float:
        return float(sum(self.sigma[c] for c, h in self.hits(tasks).items() if h >= 2))


def best_set_with_cuts(
    table: LevelTable,
    level: int,
    pi: np.ndarray,
    k: int,
    cuts: Cuts,
    floor: float,
    node_limit: int = 40,
) -> tuple[float, float, np.ndarray]:
    """max pi(S) - pen(S) over the sets that fit at ``level``, by best-first branch and bound.

    A node fixes tasks in (F) and out; its bound pi(F) - pen(F) + V_free (the knapsack
    DP over the free tasks, penalties ignored) is valid since penalties are >= 0.
    When the DP's best set pays a cut R not already paid inside F, the node splits on
    a pair i, j of S & R into {i out}, {i in, j out}, {i, j in} (a partition).  The
    search stops once no node can beat max(best, floor).  Returns (value of the best
    set found, upper bound on the optimum, best set); the two values are equal
    unless the floor or the node limit stopped the search.
    """
    p = table.p
    m = table.m(level).astype(np.int64)
    base = np.flatnonzero((pi > PI_EPS) & (m <= p))
    best_val, best_set = 0.0, np.empty(0, dtype=np.int64)

    def solve_node(forced: tuple[int, ...], banned: frozenset[int]) -> tuple[float, np.ndarray] | None:
        cap = p - int(m[list(forced)].sum())
        cnt = k - len(forced)
        if cap < 0 or cnt < 0:
            return None
        free = base[~np.isin(base, list(forced) + list(banned))] if (forced or banned) else base
        sub_m = m[free]
        items = useful_items(sub_m, pi[free], cap, max(cnt, 1)) if cnt > 0 and cap > 0 else np.empty(0, np.int64)
        val, pos = knapsack(sub_m[items], pi[free][items], cap, max(cnt, 1), want_set=True)
        chosen = free[items[pos]] if pos is not None and pos.size else np.empty(0, dtype=np.int64)
        fixed_val = float(pi[list(forced)].sum()) - cuts.penalty(forced)
        return fixed_val + val, np.concatenate([np.array(forced, dtype=np.int64), chosen])

    root = solve_node((), frozenset())
    heap: list[tuple[float, int, tuple[int, ...], frozenset[int], np.ndarray]] = []
    tick = 0
    if root is not None:
        heapq.heappush(heap, (-root[0], tick, (), frozenset(), root[1]))
    nodes = 0
    dropped = -math.inf  # best bound among the children discarded below the floor
    while heap:
        neg_ub, _, forced, banned, sset = heap[0]
        if -neg_ub <= max(best_val, floor) + 1e-12 or nodes >= node_limit:
            break
        heapq.heappop(heap)
        nodes += 1
        ub = -neg_ub
        true = float(pi[sset].sum()) - cuts.penalty(sset.tolist())
        if true > best_val:
            best_val, best_set = true, sset
        if true >= ub - 1e-12:
            continue
        # a cut paid by S but not already by the forced tasks: branch on two of its tasks in S
        fset = set(forced)
        hits = cuts.hits(sset.tolist())
        fh = cuts.hits(forced)
        pick = next(c for c, h in hits.items() if h >= 2 and fh.get(c, 0) < 2)
        inside = [i for i in cuts.triples[pick].tolist() if i in set(sset.tolist())]
        inside.sort(key=lambda i: i in fset)  # unforced first
        i, j = inside[0], inside[1]
        if i in fset:  # then j is unforced too? no: sort puts unforced first, so both are forced: impossible
            children = []
        elif j in fset:
            children = [(forced, banned | {i}), ((*forced, i), banned)]
        else:
            children = [(forced, banned | {i}), ((*forced, i), banned | {j}), ((*forced, i, j), banned)]
        for f2, b2 in children:
            r = solve_node(tuple(sorted(f2)), frozenset(b2))
            if r is None:
                continue
            if r[0] > max(best_val, floor) + 1e-12:
                tick += 1
                heapq.heappush(heap, (-r[0], tick, tuple(sorted(f2)), frozenset(b2), r[1]))
            else:
                dropped = max(dropped, r[0])
    upper = max(best_val, dropped, -heap[0][0] if heap else -math.inf)
    return best_val, upper, np.sort(best_set)


@dataclass
class Pricing:
    """Outcome of one pricing pass.

    ``min_rc``: least reduced cost of a set actually found at an evaluated level;
    ``rc_lb``: a lower bound on every column's reduced cost (valid when ``complete``);
    ``ratio_ub``: an upper bound on max (pi(S) - pen(S))/tau(S) over all columns (valid
    when ``complete``); ``columns``: (reduced cost, level, tasks) for evaluated levels
    whose best set has reduced cost below the column threshold;
    ``levels_le``: levels whose reduced cost may be <= the fixed threshold.
    """

    min_rc: float
    ratio_ub: float
    columns: list[tuple[float, int, np.ndarray]] = field(default_factory=list)
    evaluated: int = 0
    complete: bool = True
    levels_le: list[int] = field(default_factory=list)
    rc_lb: float = math.inf


def price(
    table: LevelTable,
    pi: np.ndarray,
    k: int,
    *,
    column_threshold: float,
    fixed_threshold: float | None = None,
    deadline: Deadline | None = None,
    columns_per_level: int = 1,
    enough: int | None = None,
    cuts: Cuts | None = None,
    cut_nodes: int = 40,
    bonus: np.ndarray | None = None,
    windows: Windows | None = None,
) -> Pricing:
    """Exact pricing over all levels by best-first bisection (see module docstring).

    Intervals are pruned when their reduced-cost bound is >= the threshold, which is
    the best reduced cost found so far (capped at ``column_threshold``), or
    ``fixed_threshold`` when given (then every level with reduced cost <= it is
    evaluated and listed in ``levels_le``: the candidates of the enumeration).
    Columns are returned for evaluated levels with reduced cost < ``column_threshold``:
    the best set, then up to ``columns_per_level - 1`` more sets disjoint from the
    previous ones (the DP re-run with their duals zeroed), while still below it.
    ``enough``: stop (``complete = False``) once that many columns are found
    (partial pricing for heuristics; no bound is then available).
    With ``cuts``, the batched DP (penalties ignored) gives upper bounds and
    :func:`best_set_with_cuts` the exact value where it can beat the threshold;
    each evaluated level keeps a lower (achieved) and an upper value, and V stays
    non-decreasing in tau, so the same pruning holds with upper values on the
    right and lower values on the left.  ``cut_nodes`` = 1 is the cheap pricing
    (the DP's best set only); the bounds stay valid, only weaker.
    ``bonus``: the step function B(l) of the pack-count rows (a column at level l
    has reduced cost tau_l - B(l) - pi(S) + pen(S)); an interval (a, b) is then
    bounded by tau_{a+1} - max_{(a, b)} B - V(b), and the ratio bound is (V + B) / tau.
    ``windows``: only tasks inside their level window count at a level; the
    bisection then starts from the segments between the windows' ends.
    """
    L, tau = table.L, table.tau
    bon = np.zeros(L) if bonus is None else np.asarray(bonus, dtype=float)
    bsteps = (np.flatnonzero(np.diff(bon) != 0) + 1).tolist()  # levels where B changes
    bvals = bon.tolist()

    def bmax(x: int, y: int) -> float:
        """max B(l) over x <= l <= y (B is a step function: its value at x and at its steps);
        Python lists and bisect: called per interval, where numpy's per-call cost dominated."""
        i0, i1 = bisect.bisect_right(bsteps, x), bisect.bisect_right(bsteps, y)
        return max(bvals[x], *(bvals[v] for v in bsteps[i0:i1])) if i1 > i0 else bvals[x]

    topk = topk_by_level(table, pi, k)
    res = Pricing(min_rc=math.inf, ratio_ub=0.0)
    vlo: dict[int, float] = {}
    vhi: dict[int, float] = {}

    def pi_at(level: int) -> np.ndarray:
        return pi if windows is None else pi * windows.mask(level)

    def thr() -> float:
        if fixed_threshold is not None:
            return fixed_threshold
        return min(column_threshold, res.min_rc)

    def record_columns(level: int, t_eff: float) -> None:
        """The level's best set, then sets disjoint from the previous ones, while their
        reduced cost (``t_eff`` = tau_l - B(l) minus their duals) stays below the threshold."""
        rest = pi_at(level)
        for _ in range(columns_per_level):
            val2, tasks = best_set_at_level(table, level, rest, k, want_set=True)
            if t_eff - val2 >= column_threshold or tasks is None or tasks.size == 0:
                break
            res.columns.append((t_eff - val2, level, tasks))
            rest = rest.copy()
            rest[tasks] = 0.0

    def record(level: int, ub0: float) -> None:
        res.evaluated += 1
        t = float(tau[level])
        bl = float(bon[level])
        t_eff = t - bl
        if ub0 <= 0.0:
            # the DP took no task (every allowed dual is ~0): a column is never empty, so the
            # best one is an allowed task alone, and a level where no task is allowed has
            # none (with a bonus B(l) > tau_l the empty set would fake a negative reduced cost)
            ok = table.first_level <= level
            if windows is not None:
                ok &= windows.mask(level)
            allowed = np.flatnonzero(ok)
            vlo[level] = vhi[level] = 0.0
            if allowed.size == 0:
                return
            i = int(allowed[np.argmax(pi[allowed])])
            val = max(float(pi[i]), 0.0)
            if t_eff - val < column_threshold:
                res.columns.append((t_eff - val, level, np.array([i])))
            if fixed_threshold is not None and t_eff - val <= fixed_threshold:
                res.levels_le.append(level)
            res.min_rc = min(res.min_rc, t_eff - val)
            res.rc_lb = min(res.rc_lb, t_eff - val)
            res.ratio_ub = max(res.ratio_ub, (val + bl) / t)
            return
        if cuts is None:
            lo = hi = ub0
            if t_eff - ub0 < column_threshold:
                record_columns(level, t_eff)
        elif fixed_threshold is not None or t_eff - ub0 >= thr():
            lo, hi = -math.inf, ub0
        else:
            lo, hi, tasks = best_set_with_cuts(
                table, level, pi_at(level), k, cuts, floor=t_eff - thr(), node_limit=cut_nodes
            )
            if t_eff - lo < column_threshold and tasks.size:
                res.columns.append((t_eff - lo, level, tasks))
        if fixed_threshold is not None and t_eff - hi <= fixed_threshold:
            res.levels_le.append(level)
        res.min_rc = min(res.min_rc, t_eff - lo)
        res.rc_lb = min(res.rc_lb, t_eff - hi)
        res.ratio_ub = max(res.ratio_ub, (hi + bl) / t)
        vlo[level], vhi[level] = lo, hi

    def evaluate(batch: list[int]) -> None:
        lv = np.array(batch)
        vals = knapsack_values(table, lv, pi, k, windows)
        if cuts is not None or (vals <= 0.0).any():
            for level, val in zip(batch, vals.tolist(), strict=True):
                record(level, val)
            return
        # record() for a whole batch without cuts (lo = hi = V(l) everywhere), in numpy
        res.evaluated += lv.size
        t = tau[lv]
        t_eff = t - bon[lv]
        rc = t_eff - vals
        for c in np.flatnonzero(rc < column_threshold).tolist():
            record_columns(batch[c], float(t_eff[c]))
        if fixed_threshold is not None:
            res.levels_le.extend(lv[rc <= fixed_threshold].tolist())
        least = float(rc.min())
        res.min_rc = min(res.min_rc, least)
        res.rc_lb = min(res.rc_lb, least)
        res.ratio_ub = max(res.ratio_ub, float(((vals + bon[lv]) / t).max()))
        vl = vals.tolist()
        vlo.update(zip(batch, vl, strict=True))
        vhi.update(zip(batch, vl, strict=True))

    nbatch = batch_size(table, k)
    points = [0, L - 1]
    if windows is not None:
        br = windows.breakpoints(L)
        points += br.tolist() + (br - 1).tolist()
    points = sorted(set(points))
    for start in range(0, len(points), nbatch):
        evaluate(points[start : start + nbatch])
    heap: list[tuple[float, int, int]] = []

    def push(a: int, b: int) -> None:
        if b - a > 1:
            vb = min(vhi[b], float(topk[b - 1]))
            heapq.heappush(heap, (float(tau[a + 1] - bmax(a + 1, b - 1) - vb), a, b))

    for a, b in zip(points[:-1], points[1:], strict=True):
        push(a, b)  # never across a breakpoint: b - 1 and b are both points there
    while heap:
        if deadline is not None and deadline.expired():
            res.complete = False
            return res
        wave: list[tuple[int, int]] = []
        while heap and len(wave) < nbatch:
            bound, a, b = heapq.heappop(heap)
            vb = min(vhi[b], float(topk[b - 1]))
            if vlo[a] >= vb:
                # V is constant (= V(a)) strictly inside (a, b): the reduced costs there are
                # known exactly without a DP; without a bonus step nothing beats level a
                inner_rc = tau[a + 1 : b] - bon[a + 1 : b] - vlo[a]
                if fixed_threshold is not None:
                    inner = np.arange(a + 1, b)
                    res.levels_le.extend(inner[inner_rc <= fixed_threshold].tolist())
                if bmax(a + 1, b - 1) > bon[a]:
                    res.ratio_ub = max(res.ratio_ub, float(((vlo[a] + bon[a + 1 : b]) / tau[a + 1 : b]).max()))
                    best_inner = int(np.argmin(inner_rc))
                    res.rc_lb = min(res.rc_lb, float(inner_rc[best_inner]))
                    if fixed_threshold is None and inner_rc[best_inner] < thr():
                        # a bonus step makes an interior level better: price it for its set
                        record(a + 1 + best_inner, vlo[a])
                continue
            if bound >= thr():
                # every interior level l has V(l) <= vb, tau_l >= tau_{a+1} and B(l) <= max B there
                res.ratio_ub = max(res.ratio_ub, (vb + bmax(a + 1, b - 1)) / tau[a + 1])
                continue
            wave.append((a, b))
        if not wave:
            continue
        if enough is not None and len(res.columns) >= enough:
            res.complete = False
            return res
        evaluate([(a + b) // 2 for a, b in wave])
        for a, b in wave:
            mid = (a + b) // 2
            push(a, mid)
            push(mid, b)
    res.rc_lb = min(res.rc_lb, thr())
    return res


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


class TooManyColumns(Exception):
    """The enumeration went past its column budget."""


def enumerate_level(
    table: LevelTable,
    level: int,
    pi: np.ndarray,
    k: int,
    delta: float,
    out: list[tuple[int, tuple[int, ...]]],
    budget: int,
    deadline: Deadline | None = None,
    tol: float = 1e-9,
    cuts: Cuts | None = None,
    bonus: float = 0.0,
    windows: Windows | None = None,
) -> None:
    """Append to ``out`` every (level, S) with optimal level exactly ``level`` and tau - pi(S) <= delta.

    S must contain a *critical* task (its requirement drops at this level), so the
    critical tasks come first in the item order and the first chosen item is
    critical: each set is produced once.  Depth-first search; a branch is followed
    only if its suffix-DP bound can still reach pi(S) >= tau - delta.  Raises
    :class:`TooManyColumns` once ``out`` holds more than ``budget`` columns.
    With ``windows`` only tasks allowed at this level are used, and "cheapest level"
    means cheapest *allowed* level: a task whose window opens here is critical too.
    Without cuts the search runs compiled (:func:`.kernels.enumerate_sets`, same order).
    """
    p = table.p
    m = table.m(level).astype(np.int64)
    crit = table.critical(level)
    opens = np.zeros(table.n, dtype=bool)
    allowed = np.ones(table.n, dtype=bool)
    if windows is not None:
        allowed = windows.mask(level)
        opens = allowed & (windows.lo == level)
        crit = np.union1d(crit[allowed[crit]], np.flatnonzero(opens & (m <= p)))
    if crit.size == 0:
        return
    mprev = table.m(level - 1).astype(np.int64) if level > 0 else np.full(table.n, p + 1, dtype=np.int64)
    fits = np.flatnonzero((m <= p) & allowed)
    is_crit = np.zeros(table.n, dtype=bool)
    is_crit[crit] = True
    others = fits[~is_crit[fits]]
    # inside each group, heavy profits first tends to find the qualifying sets early
    crit = crit[np.argsort(-pi[crit], kind="stable")]
    others = others[np.argsort(-pi[others], kind="stable")]
    items = np.concatenate([crit, others])
    ncrit = crit.size
    mo = m[items]
    po = np.maximum(pi[items], 0.0)
    mp = mprev[items]
    op = opens[items]
    kk = min(k, p, items.size)
    target = float(table.tau[level]) - bonus - delta - tol
    if kernels.COMPILED and cuts is None:
        g = kernels.suffix_tables(mo, po, p, kk)
        stop_at = math.inf if deadline is None else time.perf_counter() + deadline.remaining()
        status, pos, off = kernels.enumerate_sets(mo, po, mp, op, g, ncrit, kk, p, target, budget - len(out), stop_at)
        for j in range(off.size - 1):
            out.append((level, tuple(sorted(items[pos[off[j] : off[j + 1]]].tolist()))))
        if status == 1:
            raise TooManyColumns
        if status == 2:
            raise TimeoutError
        return
    g = suffix_tables(mo, po, p, kk)
    # stack entries: (next index, items left, capacity left, profit, chosen positions)
    stack: list[tuple[int, int, int, float, tuple[int, ...]]] = []
    for r in range(ncrit - 1, -1, -1):
        w = int(mo[r])
        if w <= p and po[r] + g[r + 1, kk - 1, p - w] >= target:
            stack.append((r + 1, kk - 1, p - w, float(po[r]), (r,)))
    nitems = items.size
    count = 0
    while stack:
        start, c, cap, prof, chosen = stack.pop()
        if prof >= target and (int(mp[list(chosen)].sum()) > p or op[list(chosen)].any()):
            col = tuple(sorted(int(items[q]) for q in chosen))
            if cuts is None or prof - cuts.penalty(col) >= target:
                out.append((level, col))
                if len(out) > budget:
                    raise TooManyColumns
        count += 1
        if deadline is not None and count % 2048 == 0 and deadline.expired():
            raise TimeoutError
        if c == 0 or cap == 0 or start >= nitems:
            continue
        nxt = np.arange(start, nitems)
        wn = mo[nxt]
        ok = wn <= cap
        if not ok.any():
            continue
        nxt, wn = nxt[ok], wn[ok]
        bound = prof + po[nxt] + g[nxt + 1, c - 1, cap - wn]
        good = nxt[bound >= target]
        for r in good[::-1].tolist():
            stack.append((r + 1, c - 1, cap - int(mo[r]), prof + float(po[r]), (*chosen, r)))


def enumerate_columns(
    table: LevelTable,
    pi: np.ndarray,
    k: int,
    delta: float,
    *,
    budget: int,
    deadline: Deadline | None = None,
    cuts: Cuts | None = None,
    bonus: np.ndarray | None = None,
    windows: Windows | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    """All columns (optimal level, task set) with reduced cost <= delta.

    Candidate levels come from :func:`price` with the fixed threshold delta (every
    level whose best set has reduced cost <= delta is evaluated); each is then
    enumerated by :func:`enumerate_level`.  Raises :class:`TooManyColumns` past
    ``budget`` columns and ``TimeoutError`` at the deadline.
    """
    pr = price(
        table,
        pi,
        k,
        column_threshold=-math.inf,
        fixed_threshold=delta + 1e-9,
        deadline=deadline,
        cuts=cuts,
        bonus=bonus,
        windows=windows,
    )
    if not pr.complete:
        raise TimeoutError
    out: list[tuple[int, tuple[int, ...]]] = []
    for level in sorted(set(pr.levels_le)):
        b = 0.0 if bonus is None else float(bonus[level])
        enumerate_level(table, level, pi, k, delta, out, budget, deadline, cuts=cuts, bonus=b, windows=windows)
    return out
