"""Branching decisions of the tree: on pack counts N(>= l), then on the tasks' level windows.

First on a fractional pack count N(>= l) of the LP point (children N <= floor |
N >= ceil), chosen by strong branching: the ``strong_candidates`` counts whose
fractional part is closest to 1/2, weighted by tau_l, have their two children
re-solved on the columns at hand (the restricted master LP, no pricing: an estimate,
not a bound), and the count with the largest product of the two LP increases wins
(the product rule of Achterberg, Koch and Martin, "Branching rules revisited",
Oper. Res. Letters 33(1), 2005).  Fixing the counts fixes where the LP's sliding
windows of packs break.  When every count is integral, over the tasks spread over
packs of several levels and the thresholds h between those levels, take the largest
(LP mass of i at levels <= h) x (mass above h) x (difference of the two parts' mean
tau): the children get hi_i = h | lo_i = h + 1.  Both keep the pricing a knapsack per
level.  Every schedule, with each pack at its cheapest level, lies in exactly one
child (its counts are integers, its task levels on one side of h); a child may also
hold sets raised to a higher level, which only costs more, so its bound remains valid
for the schedules it must cover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .master import Basis, CoveringMaster
from .state import State


@dataclass(order=True)
class Node:
    """An open node of the tree: its bound, the windows [lo_i, hi_i] of the tasks' levels
    and its pack-count bounds, ordered by bound (then by creation)."""

    bound: float
    tick: int
    lo: np.ndarray = field(compare=False)
    hi: np.ndarray = field(compare=False)
    depth: int = field(compare=False, default=0)
    failed_gap: float = field(compare=False, default=math.inf)  # node gap at which an ancestor's probe failed
    count_lo: dict = field(compare=False, default_factory=dict)  # level -> least N(>= level) (branches)
    count_hi: dict = field(compare=False, default_factory=dict)  # level -> most N(>= level) (branches)
    # where its LP starts: its strong-branching LP's optimal basis, else its parent's
    basis: Basis | None = field(compare=False, default=None)


def cutoff(st: State) -> float:
    """A node whose bound reaches this cannot hold a schedule that improves the incumbent enough."""
    return st.incumbent.ub * (1 - st.incumbent.gap) - 1e-8 * max(1.0, st.incumbent.ub)


def fractional(counts: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """(fractional parts, mask of the counts the tree branches on: farther than
    ``tolerance`` (``count_fraction``) from an integer) of pack counts N(>= l)."""
    frac = counts - np.floor(counts)
    return frac, (frac > tolerance) & (frac < 1 - tolerance)


def count_split(lo: dict, hi: dict, level: int, value: float) -> tuple[tuple[dict, dict], tuple[dict, dict]]:
    """The pack-count bounds (least, most N(>= l) by level) of the two children of a
    branching on N(>= ``level``) = ``value``: N <= floor(value) | N >= ceil(value)."""
    down_hi, up_lo = dict(hi), dict(lo)
    down_hi[level] = min(math.floor(value), hi.get(level, math.inf))
    up_lo[level] = max(math.ceil(value), lo.get(level, 0))
    return (dict(lo), down_hi), (up_lo, dict(hi))


def _strong(
    st: State, master: CoveringMaster, level: int, value: float, lp: float, need: dict, upper: dict, cap: float, start
) -> tuple[list[float], list[Basis]] | None:
    """The two children's LP increases over ``lp`` (capped at ``cap``) and optimal bases,
    re-solved on the master's columns from the node's basis ``start``; None out of time."""
    gains, bases = [], []
    for need_c, upper_c in count_split(need, upper, level, value):
        master.set_level_rhs(need_c, upper_c)
        master.start_from(start)
        box = st.problem.deadline.share(1.0, st.problem.opts.strong_lp_time)
        sol = master.solve(box, st.problem.opts.strong_iterations)
        st.incumbent.count("strong_branching_lps")
        if sol is None:
            return None
        gains.append(min(cap, max(sol.objective - lp, 0.0)))
        bases.append(master.basis())
    return gains, bases


def count_branch(
    st: State,
    master: CoveringMaster,
    x: np.ndarray,
    lp: float,
    need: dict[int, int],
    upper: dict[int, int],
    strong: bool = True,
) -> tuple[int, float, bool, tuple[Basis, Basis] | None] | None:
    """(level l, N(>= l), whether the up child N >= ceil looks better, the optimal bases of
    the down and up children's strong-branching LPs or None) to branch on; None when every
    pack count is integral.

    Candidates: the ``strong_candidates`` most fractional counts, weighted by tau_l
    (the cost an extra or a missing pack above l moves).  Each one's children are
    re-solved on the master's columns (rows ``need`` <= N <= ``upper`` are the node's;
    they are restored afterwards) and the largest product of the two LP increases
    over ``lp``, each capped at the node's gap, wins, and the child with the smaller
    increase is the one to plunge into.  Without ``strong`` (a node of a plunge) the
    first candidate is taken and the plunge rounds its count to the nearest integer.
    The children start their column generation from the winner's two bases: their
    first dual simplex re-solve is then done (or begun, under ``strong_iterations``).
    """
    levels, counts = master.level_counts(x)
    frac, branchable = fractional(counts, st.problem.opts.count_fraction)
    score = np.minimum(frac, 1 - frac) * st.problem.table.tau[levels]
    ok = np.flatnonzero(branchable)
    if ok.size == 0:
        return None
    cands = ok[np.argsort(-score[ok], kind="stable")][: st.problem.opts.strong_candidates if strong else 1].tolist()
    if len(cands) == 1:
        return int(levels[cands[0]]), float(counts[cands[0]]), bool(frac[cands[0]] >= 0.5), None
    cap = max(cutoff(st) - lp, 1e-9)
    best, best_score, best_up = cands[0], -math.inf, bool(frac[cands[0]] >= 0.5)
    best_bases = None
    start = master.basis()  # each child is re-solved from the node's optimal basis
    try:
        for c in cands:
            measured = _strong(st, master, int(levels[c]), float(counts[c]), lp, need, upper, cap, start)
            if measured is None:  # out of time: keep what was measured
                break
            gains, bases = measured
            product = max(gains[0], 1e-6 * cap) * max(gains[1], 1e-6 * cap)
            if product > best_score:
                best, best_score, best_up, best_bases = c, product, gains[1] < gains[0], (bases[0], bases[1])
    finally:
        master.set_level_rhs(need, upper)
        master.start_from(start)
    return int(levels[best]), float(counts[best]), best_up, best_bases


def window_candidates(st: State, master: CoveringMaster, x: np.ndarray, limit: int) -> list[tuple[int, int]]:
    """Branching candidates (task, h), best first: over the tasks spread over packs of
    several levels in the LP point and the thresholds h between those levels, the
    largest (mass <= h) x (mass > h) x (mean tau above h - mean tau up to h), a proxy
    of how far each child must move the LP; empty when every task sits at one level."""
    tau = st.problem.table.tau
    supp = np.flatnonzero(x > 1e-9)
    per_task: dict[int, dict[int, float]] = {}
    for c in supp.tolist():
        lv = master.levels[c]
        for i in master.sets[c]:
            d = per_task.setdefault(i, {})
            d[lv] = d.get(lv, 0.0) + float(x[c])
    scored: list[tuple[float, int, int]] = []
    for i, dist in per_task.items():
        if len(dist) < 2:
            continue
        lv = np.array(sorted(dist))
        mass = np.array([dist[v] for v in lv.tolist()])
        mass = mass / mass.sum()
        cum = np.cumsum(mass)[:-1]
        # best split: left mass x right mass x gap between their mean levels
        t = tau[lv] * mass
        ct = np.cumsum(t)[:-1]
        sc = cum * (1 - cum) * ((t.sum() - ct) / (1 - cum) - ct / cum)
        cut = int(np.argmax(sc))
        if sc[cut] > 1e-9:
            scored.append((float(sc[cut]), i, int(lv[cut])))
    scored.sort(reverse=True)
    return [(i, h) for _, i, h in scored[:limit]]


def window_children(node: Node, i: int, h: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The windows of the children hi_i = h | lo_i = h + 1 (an empty one left out)."""
    left_hi = node.hi.copy()
    left_hi[i] = h
    right_lo = node.lo.copy()
    right_lo[i] = h + 1
    return [(lo, hi) for lo, hi in ((node.lo, left_hi), (right_lo, node.hi)) if lo[i] <= hi[i]]
