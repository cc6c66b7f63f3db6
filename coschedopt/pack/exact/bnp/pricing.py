"""Pricing: the least reduced cost over every (task set, level) column, by bisection over the levels.

A column (S, tau_l) has reduced cost tau_l - B(l) - pi(S) + pen(S): task duals pi,
the step function B of the pack-count rows' duals and the penalties of the subset-row
cuts S hits twice.  At a fixed level the best set is a knapsack (:mod:`.knapsack`).

Levels: V is non-decreasing in tau (m_i is non-increasing), so on an interval of
levels (a, b) every reduced cost is at least tau_{a+1} - max B - V(b), and when
V(a) = V(b) no interior level beats level a unless B steps up there.  :func:`price`
is a best-first bisection over the L levels using these two facts plus V(l) <= (sum
of the k largest duals among the tasks that fit at l); it returns the *exact*
minimum reduced cost and an upper bound on max_S (pi(S) - pen(S) + B(l)) / tau_l
(for Farley's bound) after evaluating only the levels that could improve.  Within a
tree node (:class:`.levels.Windows`) the same holds inside each run of levels where
no window opens or closes.
"""

from __future__ import annotations

import bisect
import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from ....core import Deadline
from .knapsack import PI_EPS, batch_size, best_set_at_level, knapsack, knapsack_values, topk_by_level, useful_items
from .levels import LevelTable, Windows
from .options import BnpOptions


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


def _cut_node(
    m: np.ndarray, pi: np.ndarray, base: np.ndarray, p: int, k: int, cuts: Cuts, forced: tuple, banned: frozenset
) -> tuple[float, np.ndarray] | None:
    """Bound and set of a node of :func:`best_set_with_cuts`: pi(F) - pen(F) plus the knapsack
    DP over the free tasks (penalties ignored), the forced tasks F in, the banned ones out."""
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


def _cut_children(cuts: Cuts, forced: tuple, banned: frozenset, sset: np.ndarray) -> list[tuple[tuple, frozenset]]:
    """The partition {i out}, {i in, j out}, {i, j in} of a node whose set ``sset`` pays a cut
    R not already paid inside the forced tasks, i and j two tasks of S & R (unforced first)."""
    fset = set(forced)
    hits = cuts.hits(sset.tolist())
    fh = cuts.hits(forced)
    pick = next(c for c, h in hits.items() if h >= 2 and fh.get(c, 0) < 2)
    inside = [i for i in cuts.triples[pick].tolist() if i in set(sset.tolist())]
    inside.sort(key=lambda i: i in fset)  # unforced first
    i, j = inside[0], inside[1]
    if i in fset:  # both forced: the cut would be paid inside F already
        return []
    if j in fset:
        return [(forced, banned | {i}), ((*forced, i), banned)]
    return [(forced, banned | {i}), ((*forced, i), banned | {j}), ((*forced, i, j), banned)]


def best_set_with_cuts(
    table: LevelTable,
    level: int,
    pi: np.ndarray,
    k: int,
    cuts: Cuts,
    floor: float,
    node_limit: int | None = None,
) -> tuple[float, float, np.ndarray]:
    """max pi(S) - pen(S) over the sets that fit at ``level``, by best-first branch and bound.

    A node fixes tasks in (F) and out; its bound pi(F) - pen(F) + V_free (the knapsack
    DP over the free tasks, penalties ignored) is valid since penalties are >= 0.
    When the DP's best set pays a cut R not already paid inside F, the node splits on
    a pair i, j of S & R into {i out}, {i in, j out}, {i, j in} (a partition).  The
    search stops once no node can beat max(best, floor).  Returns (value of the best
    set found, upper bound on the optimum, best set); the two values are equal
    unless the floor or the node limit stopped the search (``node_limit``:
    :attr:`.options.BnpOptions.cut_nodes` unless given).
    """
    if node_limit is None:
        node_limit = BnpOptions().cut_nodes
    p = table.p
    m = table.m(level).astype(np.int64)
    base = np.flatnonzero((pi > PI_EPS) & (m <= p))
    best_val, best_set = 0.0, np.empty(0, dtype=np.int64)
    root = _cut_node(m, pi, base, p, k, cuts, (), frozenset())
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
        true = float(pi[sset].sum()) - cuts.penalty(sset.tolist())
        if true > best_val:
            best_val, best_set = true, sset
        if true >= -neg_ub - 1e-12:
            continue
        for f2, b2 in _cut_children(cuts, forced, banned, sset):
            r = _cut_node(m, pi, base, p, k, cuts, tuple(sorted(f2)), frozenset(b2))
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


class _Bisection:
    """One pricing pass: the values V found per evaluated level (a lower and an upper one:
    equal without cuts) and the :class:`Pricing` they add up to."""

    def __init__(
        self, table, pi, k, column_threshold, fixed_threshold, columns_per_level, cuts, cut_nodes, bonus, windows
    ):
        self.table, self.pi, self.k, self.tau = table, pi, k, table.tau
        self.column_threshold, self.fixed_threshold = column_threshold, fixed_threshold
        self.columns_per_level, self.cuts, self.windows = columns_per_level, cuts, windows
        self.cut_nodes = BnpOptions().cut_nodes if cut_nodes is None else cut_nodes
        self.bon = np.zeros(table.L) if bonus is None else np.asarray(bonus, dtype=float)
        self.bsteps = (np.flatnonzero(np.diff(self.bon) != 0) + 1).tolist()  # levels where B changes
        self.bvals = self.bon.tolist()
        self.topk = topk_by_level(table, pi, k)
        self.res = Pricing(min_rc=math.inf, ratio_ub=0.0)
        self.vlo: dict[int, float] = {}
        self.vhi: dict[int, float] = {}

    def bmax(self, x: int, y: int) -> float:
        """max B(l) over x <= l <= y (B is a step function: its value at x and at its steps);
        Python lists and bisect: called per interval, where numpy's per-call cost dominated."""
        bsteps, bvals = self.bsteps, self.bvals
        i0, i1 = bisect.bisect_right(bsteps, x), bisect.bisect_right(bsteps, y)
        return max(bvals[x], *(bvals[v] for v in bsteps[i0:i1])) if i1 > i0 else bvals[x]

    def pi_at(self, level: int) -> np.ndarray:
        return self.pi if self.windows is None else self.pi * self.windows.mask(level)

    def thr(self) -> float:
        if self.fixed_threshold is not None:
            return self.fixed_threshold
        return min(self.column_threshold, self.res.min_rc)

    def record_columns(self, level: int, t_eff: float) -> None:
        """The level's best set, then sets disjoint from the previous ones, while their
        reduced cost (``t_eff`` = tau_l - B(l) minus their duals) stays below the threshold."""
        rest = self.pi_at(level)
        for _ in range(self.columns_per_level):
            val2, tasks = best_set_at_level(self.table, level, rest, self.k, want_set=True)
            if t_eff - val2 >= self.column_threshold or tasks is None or tasks.size == 0:
                break
            self.res.columns.append((t_eff - val2, level, tasks))
            rest = rest.copy()
            rest[tasks] = 0.0

    def record_empty(self, level: int, t: float, bl: float) -> None:
        """A level where the DP took no task (every allowed dual is ~0): a column is never
        empty, so the best one is an allowed task alone, and a level where no task is
        allowed has none (with a bonus B(l) > tau_l the empty set would fake a negative
        reduced cost)."""
        res, t_eff = self.res, t - bl
        ok = self.table.first_level <= level
        if self.windows is not None:
            ok &= self.windows.mask(level)
        allowed = np.flatnonzero(ok)
        self.vlo[level] = self.vhi[level] = 0.0
        if allowed.size == 0:
            return
        i = int(allowed[np.argmax(self.pi[allowed])])
        val = max(float(self.pi[i]), 0.0)
        if t_eff - val < self.column_threshold:
            res.columns.append((t_eff - val, level, np.array([i])))
        if self.fixed_threshold is not None and t_eff - val <= self.fixed_threshold:
            res.levels_le.append(level)
        res.min_rc = min(res.min_rc, t_eff - val)
        res.rc_lb = min(res.rc_lb, t_eff - val)
        res.ratio_ub = max(res.ratio_ub, (val + bl) / t)

    def record(self, level: int, ub0: float) -> None:
        """Evaluate one level whose DP value (penalties ignored) is ``ub0``."""
        res = self.res
        res.evaluated += 1
        t = float(self.tau[level])
        bl = float(self.bon[level])
        t_eff = t - bl
        if ub0 <= 0.0:
            self.record_empty(level, t, bl)
            return
        if self.cuts is None:
            lo = hi = ub0
            if t_eff - ub0 < self.column_threshold:
                self.record_columns(level, t_eff)
        elif self.fixed_threshold is not None or t_eff - ub0 >= self.thr():
            lo, hi = -math.inf, ub0
        else:
            lo, hi, tasks = best_set_with_cuts(
                self.table,
                level,
                self.pi_at(level),
                self.k,
                self.cuts,
                floor=t_eff - self.thr(),
                node_limit=self.cut_nodes,
            )
            if t_eff - lo < self.column_threshold and tasks.size:
                res.columns.append((t_eff - lo, level, tasks))
        if self.fixed_threshold is not None and t_eff - hi <= self.fixed_threshold:
            res.levels_le.append(level)
        res.min_rc = min(res.min_rc, t_eff - lo)
        res.rc_lb = min(res.rc_lb, t_eff - hi)
        res.ratio_ub = max(res.ratio_ub, (hi + bl) / t)
        self.vlo[level], self.vhi[level] = lo, hi

    def evaluate(self, batch: list[int]) -> None:
        """Evaluate a batch of levels (one batched DP)."""
        lv = np.array(batch)
        vals = knapsack_values(self.table, lv, self.pi, self.k, self.windows)
        if self.cuts is not None or (vals <= 0.0).any():
            for level, val in zip(batch, vals.tolist(), strict=True):
                self.record(level, val)
            return
        # record() for a whole batch without cuts (lo = hi = V(l) everywhere), in numpy
        res = self.res
        res.evaluated += lv.size
        t = self.tau[lv]
        t_eff = t - self.bon[lv]
        rc = t_eff - vals
        for c in np.flatnonzero(rc < self.column_threshold).tolist():
            self.record_columns(batch[c], float(t_eff[c]))
        if self.fixed_threshold is not None:
            res.levels_le.extend(lv[rc <= self.fixed_threshold].tolist())
        least = float(rc.min())
        res.min_rc = min(res.min_rc, least)
        res.rc_lb = min(res.rc_lb, least)
        res.ratio_ub = max(res.ratio_ub, float(((vals + self.bon[lv]) / t).max()))
        vl = vals.tolist()
        self.vlo.update(zip(batch, vl, strict=True))
        self.vhi.update(zip(batch, vl, strict=True))

    def push(self, heap: list, a: int, b: int) -> None:
        """Queue the interval (a, b) of unevaluated levels with its reduced-cost bound."""
        if b - a > 1:
            vb = min(self.vhi[b], float(self.topk[b - 1]))
            heapq.heappush(heap, (float(self.tau[a + 1] - self.bmax(a + 1, b - 1) - vb), a, b))

    def settle_flat(self, a: int, b: int) -> None:
        """An interval where V is constant (= V(a)): the reduced costs inside are known
        exactly without a DP; without a bonus step nothing beats level a."""
        res, tau, bon, va = self.res, self.tau, self.bon, self.vlo[a]
        inner_rc = tau[a + 1 : b] - bon[a + 1 : b] - va
        if self.fixed_threshold is not None:
            inner = np.arange(a + 1, b)
            res.levels_le.extend(inner[inner_rc <= self.fixed_threshold].tolist())
        if self.bmax(a + 1, b - 1) > bon[a]:
            res.ratio_ub = max(res.ratio_ub, float(((va + bon[a + 1 : b]) / tau[a + 1 : b]).max()))
            best_inner = int(np.argmin(inner_rc))
            res.rc_lb = min(res.rc_lb, float(inner_rc[best_inner]))
            if self.fixed_threshold is None and inner_rc[best_inner] < self.thr():
                # a bonus step makes an interior level better: price it for its set
                self.record(a + 1 + best_inner, va)

    def wave(self, heap: list, size: int) -> list[tuple[int, int]]:
        """Up to ``size`` intervals to bisect next, best bound first; the intervals popped
        on the way that need no DP (flat, or bounded above the threshold) are settled."""
        out: list[tuple[int, int]] = []
        while heap and len(out) < size:
            bound, a, b = heapq.heappop(heap)
            vb = min(self.vhi[b], float(self.topk[b - 1]))
            if self.vlo[a] >= vb:
                self.settle_flat(a, b)
                continue
            if bound >= self.thr():
                # every interior level l has V(l) <= vb, tau_l >= tau_{a+1} and B(l) <= max B there
                self.res.ratio_ub = max(self.res.ratio_ub, (vb + self.bmax(a + 1, b - 1)) / self.tau[a + 1])
                continue
            out.append((a, b))
        return out

    def run(self, deadline: Deadline | None, enough: int | None) -> Pricing:
        res, L = self.res, self.table.L
        nbatch = batch_size(self.table, self.k)
        points = [0, L - 1]
        if self.windows is not None:
            br = self.windows.breakpoints(L)
            points += br.tolist() + (br - 1).tolist()
        points = sorted(set(points))
        for start in range(0, len(points), nbatch):
            self.evaluate(points[start : start + nbatch])
        heap: list[tuple[float, int, int]] = []
        for a, b in zip(points[:-1], points[1:], strict=True):
            self.push(heap, a, b)  # never across a breakpoint: b - 1 and b are both points there
        while heap:
            if deadline is not None and deadline.expired():
                res.complete = False
                return res
            wave = self.wave(heap, nbatch)
            if not wave:
                continue
            if enough is not None and len(res.columns) >= enough:
                res.complete = False
                return res
            self.evaluate([(a + b) // 2 for a, b in wave])
            for a, b in wave:
                mid = (a + b) // 2
                self.push(heap, a, mid)
                self.push(heap, mid, b)
        res.rc_lb = min(res.rc_lb, self.thr())
        return res


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
    cut_nodes: int | None = None,
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
    Complexity: O(E n k p) for the E levels evaluated (E << L in practice).
    """
    search = _Bisection(
        table, pi, k, column_threshold, fixed_threshold, columns_per_level, cuts, cut_nodes, bonus, windows
    )
    return search.run(deadline, enough)
