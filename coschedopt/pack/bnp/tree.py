"""Branch-and-price over pack counts and the level windows of the tasks' packs.

After the root (column generation, pack-count cuts, primal heuristics and a first
enumeration attempt), the gap left between the covering LP and the incumbent is
closed by a best-first search.  A node restricts

* pack counts: lo_l <= N(>= l) <= hi_l, rows of the master whose duals give every
  column at level >= l the same bonus (negative under an upper bound), and
* level windows: task i may only sit in a column of level l in [lo_i, hi_i]; the
  master's columns outside are at upper bound 0 and the pricing removes the task
  from the levels outside its window (:class:`.pricing.Windows`),

so the pricing stays a knapsack per level and its level pruning (inside runs of
levels where no window opens or closes) and Farley bound hold in every node.

Branching: first on a fractional pack count N(>= l) of the LP point (children
N <= floor | N >= ceil), chosen by strong branching: the ``STRONG_CANDIDATES``
counts whose fractional part is closest to 1/2, weighted by tau_l, have their two
children re-solved on the columns at hand (the restricted master LP, no pricing:
an estimate, not a bound), and the count with the largest product of the two LP
increases wins (the product rule of Achterberg, Koch and Martin, "Branching rules
revisited", 2005).  The LP of the synthetic workloads slides packs of k
neighbouring tasks (by size) over many fractional offsets; fixing the counts fixes
where the packs break, which is what makes Workload-II's trees small (tens of
nodes).  At Workload-III's k >= 16 the gap is spread over every pack boundary
(the package docstring, "Where it stops"), hence the need to choose the counts
well.  When every count is integral, over the tasks spread over packs of several
levels and the thresholds h between those levels, take the largest (LP mass of i
at levels <= h) x (mass above h) x (difference of the two parts' mean tau): the
children get hi_i = h | lo_i = h + 1.
Every schedule, with each pack at its cheapest level, lies in exactly one child
(its counts are integers, its task levels on one side of h); a child may also
hold sets raised to a higher level, which only costs more, so its bound remains
valid for the schedules it must cover.

Node selection: best first (least bound), with plunges.  After a best-first node is
branched, its child is processed next, and so on, while the child's bound stays
within ``PLUNGE_QUOT`` of the gap (lb + 0.5 (ub - lb)) and until a leaf (an integral
LP, a pruned or an unresolved node); then the best open node again.  A new plunge
starts only while the plunges have taken less than ``PLUNGE_SHARE`` of the tree's
time, quartered for every plunge that ended without an incumbent.  A plunge node
skips strong branching (the tau-weighted most fractional count, rounded to the
nearest integer first); a best-first node's plunge goes into the child strong
branching found cheaper.  Plunges are the tree's primal heuristic: at Workload-III
k = 32, seed 1, best first alone raised the bound to within 0.01 % of the optimum
in 480 s while the incumbent stayed 0.58 % above it; the first plunge reached an
integral node LP 0.08 % above the optimum after 45 s and 17 count branchings
(leaves were reached at depths 17 to 54 in the runs measured).  At k = 16 they
rarely reach one (the LP stays fractional among the many sets of 16 tasks at a
level: a pure depth-first search went 83 nodes deep in 500 s without one), hence
the quartering: there the neighbourhood search finds the incumbents.  A node whose
pack counts are all integral (where the tree turns to window branching) fixes the
number of packs at each level and hence its LP value; the tasks are then assigned to
those packs by a feasibility MIP (:func:`_profile_cover`), which found the optimum of
Workload-III k = 32 seed 0 where plunges and the neighbourhood search had not.

Each node is first attacked by the reduced-cost enumeration of
:func:`.solver._enumerate_and_solve` restricted to its windows and counts (every
node column within the node gap, then a MIP), once its gap has halved since the
last failed attempt above it: deep nodes have small gaps and few such columns.  A
node whose LP has integral counts and every task at a single level but is still
fractional (a bin-packing-like residue) is closed by the staged enumeration
under the column budget; if even that fails its bound stays in the global bound,
which is then reported as is.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field, replace

import numpy as np

from .master import BASIC, DOMINANCE_LEVEL, Basis, CoveringMaster, solve_profile_assignment
from .pricing import Windows
from .solver import (
    _CG,
    BOUND_SAFETY,
    _column_generation,
    _enumerate_and_solve,
    _restricted_mip,
    _State,
    pack_count_bounds,
)

#: nodes between two restricted-master MIPs over the whole column pool
RMP_EVERY = 25
#: their time limit, as a share of the root's ``rmp_time``
RMP_NODE_SHARE = 0.3
#: and their total time, as a share of the time spent in the tree
RMP_TREE_SHARE = 0.15
#: a node probes its gap only when it is below this share of the gap of the last failed probe above it.
#: At Workload-III k = 16 no probe ever pruned a node (10-151 per 600 s run, up to 82.6 s); a
#: cap on the probes that prune nothing (2 s + 5 % of the tree's time, at 9cf54cf) left the
#: k = 16 bounds where they were (98 663 / 96 232 / 86 802 after 211-215 nodes, against
#: 98 664 / 96 234 / 86 806 after 225-228) and k = 32 seed 0 unproven after 600 s (gap
#: 0.081 %, the bound at the optimum; in its run of record, proven in 451 s, a node's
#: enumeration had completed, 2 577 columns, in this one none did) and seed 2 unproven
#: (0.114 %, proven in 534 s without).  Not kept
PROBE_SHRINK = 0.5
#: pack counts N(>= l) whose fractional part is within this of an integer are not branched on
COUNT_FRACTION = 0.02
#: strong branching on pack counts: candidates whose two children are re-solved on the
#: restricted master (Workload-III k = 16, seed 0, 400 s without the neighbourhood
#: search: bound 98552 after 14 nodes with 5 candidates, 98495 with 3, 98535 with 10, 98474 after
#: 35 nodes with none; in the full 600 s runs, with the search, the bounds moved by -113..+89).
#: Pseudocosts per level in place of strong branching once a level had one strong branching
#: each way (10 candidates scored, at most 5 of them strong-branched) made the tree faster and
#: its bound worse: seeds 0 / 1, 300 s, no search: 84 / 52 nodes, bound 98 545 / 96 081, against
#: 44 / 53 nodes, 98 589 / 96 105.  With the dual-optimal inequalities (nodes 2-7x cheaper),
#: 3 candidates instead of 5 (seeds 1 / 2, 300 s, no search): 136 / 125 nodes, bound 96 201 /
#: 86 760, against 98 / 101 nodes, 96 169 / 86 777: no clear winner, 5 kept
STRONG_CANDIDATES = 5
#: time box of one such re-solve (seconds)
STRONG_LP_TIME = 5.0
#: and its dual simplex iteration limit (None: to optimality, the default).  The dual
#: simplex starts from the node's optimal basis, which stays dual feasible when a count's
#: bound moves, so its objective only rises: where a limit stops it is a lower estimate of
#: the child's LP.  Workload-III k = 16, 200 s with the search: a re-solve to optimality
#: took 643 iterations (median 581) and 0.12 s, 35 % of the tree's time.  A limit of 50,
#: 300 s without the search, seeds 0 / 1 / 2: 172 / 194 / 144-152 nodes, bound 98 633 /
#: 96 206 / 86 789 (40 or 100 at seed 2), against 118 / 104 / 100 nodes, 98 638 / 96 174 /
#: 86 774 without (200 at seed 2: 120 nodes, 86 770; 50 with 10 candidates, seeds 0 / 2:
#: 98 621 / 86 774).  The full 600 s benchmark with 50 (at 2e86680): k = 16, 279-318 nodes
#: instead of 225-228, bounds +7 / +4 / +14 (98 671 / 96 238 / 86 820) but the search's
#: incumbents worse (98 772 / 96 475 / 86 930: gaps 0.102 / 0.246 / 0.126 %); k = 32 seeds
#: 1 / 2 proven in 155 / 484 s (135 / 534 s without), seed 0 left at a gap of 3e-7 after
#: 600 s (proven in 451 s without).  Second runs: k = 16 seed 1 96 314 / 96 239 (0.077 %,
#: 347 nodes: the incumbents are the search's noise), k = 32 seed 0 78 779 / 78 699
#: (0.10 %: the bound reached the optimum, the incumbent did not).  Third run, k = 16 with
#: the probe cap (see PROBE_SHRINK): 285 / 291 / 273 nodes, bounds 98 666 / 96 232 / 86 820,
#: incumbents 98 779 / 96 427 / 86 935: of the seven 600 s runs at k = 16 with the limit and
#: the search, six ended above the incumbents of the benchmark without it (by 5-93).  With
#: the demanding-task second dive (branch strong50, against the same code without the limit
#: the same day): 255 / 280 / 249 nodes instead of 187 / 180 / 185, bounds 98 655.4 /
#: 96 229.2 / 86 816.1 instead of 98 657.3 / 96 221.4 / 86 783.1, incumbents 98 771.5 /
#: 96 348.7 / 86 951.8 instead of 98 771.5 / 96 389.2 / 86 903.5 (gaps 0.118 / 0.124 /
#: 0.156 %): left off
STRONG_ITERATIONS = None
#: once the master holds more than PURGE_ABOVE columns, a node starts by deleting the
#: columns of largest reduced cost (outside the LP support for PURGE_AGE solves, nonbasic
#: in the LP and in the open nodes' stored bases) down to PURGE_TO (CoveringMaster.purge).
#: Workload-III k = 16, seeds 0 / 1 / 2, 300 s, tree without the neighbourhood search: with
#: 4500 / 3000 (and the children started from their strong-branching bases) 44 / 53 / 61
#: nodes, bound 98 589 / 96 105 / 86 629, against 35 / 37 / 38 nodes, 98 563 / 96 062 /
#: 86 614 with 9000 / 6000 (k = 32 seed 0: 25 nodes, 78 550 against 22, 78 556)
#: Lower thresholds, k = 16 seed 2, 300 s without the search: 3000 / 2000 and 2000 / 1300 gave
#: 79 and 85 nodes, bounds 86 699.8 and 86 704.0 (with HiGHS' Devex dual pricing in the master
#: as well, 91 nodes, 86 702.9; Devex alone 82 nodes, 86 709.3), against 75 and 83 nodes,
#: 86 678.7 and 86 697.9 in two runs of 4500 / 3000: within the spread of the same code, not kept
PURGE_ABOVE = 4500
PURGE_TO = 3000
PURGE_AGE = 100
#: plunging: after branching, the tree goes on with a child of the node (down to a leaf)
#: while the plunges have taken at most this share of the tree's time, quartered for each
#: plunge that found no incumbent; a plunge stops at a child whose bound exceeds
#: lb + PLUNGE_QUOT x (ub - lb)
PLUNGE_SHARE = 0.5
PLUNGE_QUOT = 0.5
#: the pack-profile heuristic (:func:`_profile_cover`) takes at most this share of the tree's
#: time, each assignment MIP at most PROFILE_TIME seconds (Workload-III k = 32: 0.8-2.1 s each)
PROFILE_SHARE = 0.1
PROFILE_TIME = 5.0
#: seconds between two progress lines of the tree (with ``verbose``)
LOG_EVERY = 10.0


@dataclass(order=True)
class _Node:
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


def _cutoff(st: _State) -> float:
    """A node whose bound reaches this cannot hold a schedule that improves the incumbent enough."""
    return st.ub * (1 - st.gap) - 1e-8 * max(1.0, st.ub)


def _round_bound(st: _State, value: float) -> float:
    if st.integral and math.isfinite(value):
        return max(value, math.ceil(value * st.table.scale - 1e-6) / st.table.scale)
    return value


def _candidates(st: _State, master: CoveringMaster, x: np.ndarray, limit: int) -> list[tuple[int, int]]:
    """Branching candidates (task, h), best first: over the tasks spread over packs of
    several levels in the LP point and the thresholds h between those levels, the
    largest (mass <= h) x (mass > h) x (mean tau above h - mean tau up to h), a proxy
    of how far each child must move the LP; empty when every task sits at one level."""
    tau = st.table.tau
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


def _children(node: _Node, i: int, h: int) -> list[tuple[np.ndarray, np.ndarray]]:
    left_hi = node.hi.copy()
    left_hi[i] = h
    right_lo = node.lo.copy()
    right_lo[i] = h + 1
    return [(lo, hi) for lo, hi in ((node.lo, left_hi), (right_lo, node.hi)) if lo[i] <= hi[i]]


def _count_split(lo: dict, hi: dict, level: int, value: float) -> tuple[tuple[dict, dict], tuple[dict, dict]]:
    """The pack-count bounds (least, most N(>= l) by level) of the two children of a
    branching on N(>= ``level``) = ``value``: N <= floor(value) | N >= ceil(value)."""
    down_hi, up_lo = dict(hi), dict(lo)
    down_hi[level] = min(math.floor(value), hi.get(level, math.inf))
    up_lo[level] = max(math.ceil(value), lo.get(level, 0))
    return (dict(lo), down_hi), (up_lo, dict(hi))


def _fractional(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(fractional parts, mask of the counts the tree branches on: farther than
    ``COUNT_FRACTION`` from an integer) of pack counts N(>= l)."""
    frac = counts - np.floor(counts)
    return frac, (frac > COUNT_FRACTION) & (frac < 1 - COUNT_FRACTION)


def _count_branch(
    st: _State,
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

    Candidates: the ``STRONG_CANDIDATES`` most fractional counts, weighted by tau_l
    (the cost an extra or a missing pack above l moves).  Each one's children are
    re-solved on the master's columns (rows ``need`` <= N <= ``upper`` are the node's;
    they are restored afterwards) and the largest product of the two LP increases
    over ``lp``, each capped at the node's gap, wins, and the child with the smaller
    increase is the one to plunge into.  Without ``strong`` (a node of a plunge) the
    first candidate is taken and the plunge rounds its count to the nearest integer.
    The children start their column generation from the winner's two bases: their
    first dual simplex re-solve is then done (or begun, under ``STRONG_ITERATIONS``).
    """
    levels, counts = master.level_counts(x)
    frac, fractional = _fractional(counts)
    score = np.minimum(frac, 1 - frac) * st.table.tau[levels]
    ok = np.flatnonzero(fractional)
    if ok.size == 0:
        return None
    cands = ok[np.argsort(-score[ok], kind="stable")][: STRONG_CANDIDATES if strong else 1].tolist()
    if len(cands) == 1:
        return int(levels[cands[0]]), float(counts[cands[0]]), bool(frac[cands[0]] >= 0.5), None
    cap = max(_cutoff(st) - lp, 1e-9)
    best, best_score, best_up = cands[0], -math.inf, bool(frac[cands[0]] >= 0.5)
    best_bases = None
    start = master.basis()  # each child is re-solved from the node's optimal basis
    try:
        for c in cands:
            level, value = int(levels[c]), float(counts[c])
            gains, bases = [], []
            for need_c, upper_c in _count_split(need, upper, level, value):
                master.set_level_rhs(need_c, upper_c)
                master.start_from(start)
                box = st.deadline.share(1.0, STRONG_LP_TIME)
                sol = master.solve(box, STRONG_ITERATIONS)
                st.stats["strong_branching_lps"] = st.stats.get("strong_branching_lps", 0) + 1
                if sol is None:  # out of time: keep what was measured
                    return int(levels[best]), float(counts[best]), best_up, best_bases
                gains.append(min(cap, max(sol.objective - lp, 0.0)))
                bases.append(master.basis())
            product = max(gains[0], 1e-6 * cap) * max(gains[1], 1e-6 * cap)
            if product > best_score:
                best, best_score, best_up, best_bases = c, product, gains[1] < gains[0], (bases[0], bases[1])
    finally:
        master.set_level_rhs(need, upper)
        master.start_from(start)
    return int(levels[best]), float(counts[best]), best_up, best_bases


def _node_lp(
    st: _State, master: CoveringMaster, windows: Windows, need: dict[int, int], valid: dict[int, int], upper: dict
) -> _CG:
    """Column generation of a node whose pack-count rows are ``need`` (lower) and ``upper``,
    adding the node's other valid counts ``valid`` as rows only once the LP violates them.

    A pack-count row holds every column above its level, so it is dense: with all of
    :func:`.solver.pack_count_bounds` as rows (257 of them at Workload-III k = 32,
    seed 0, none violated) LP re-solves took 0.1-1.6 s instead of 0.02-0.5 s (means over
    25 consecutive re-solves in the tree).  ``need`` is updated in place to the rows the
    master ends with.
    """
    levels = sorted(set(valid) | set(upper))
    st.node_level_cuts = [(lv, valid.get(lv, 0)) for lv in levels]  # the MIPs take them all
    st.node_level_upper = [float(upper.get(lv, math.inf)) for lv in levels]
    while True:
        master.set_level_rhs(need, upper)
        cg = _column_generation(st, master, windows=windows, cutoff=_cutoff(st))
        if not cg.converged:
            return cg
        new = master.separate_level_cuts(cg.x, valid)
        if not new:
            return cg
        need.update(new)


def _purge(st: _State, master: CoveringMaster, nodes: list[_Node]) -> None:
    """Shrink the master (:data:`PURGE_ABOVE`) keeping every column basic in a basis
    stored with ``nodes``, whose bases are then re-indexed."""
    if len(master.sets) <= PURGE_ABOVE:
        return
    protect = np.zeros(len(master.sets), dtype=bool)
    for node in nodes:
        if node.basis is not None:
            cols = node.basis[0]
            protect[: cols.size] |= cols[: protect.size] == BASIC
    keep = master.purge(PURGE_TO, PURGE_AGE, protect)
    if keep is None:
        return
    for node in nodes:
        node.basis = master.remap_basis(node.basis, keep)
    st.stats["purged_columns"] = st.stats.get("purged_columns", 0) + int((~keep).sum())


def _add_singletons(st: _State, master: CoveringMaster, lo: np.ndarray, hi: np.ndarray) -> None:
    """Each task alone at its cheapest allowed level, so that every node LP is feasible."""
    lv = np.maximum(st.table.first_level, lo)
    ok = lv <= hi
    sets = [(i,) for i in np.flatnonzero(ok).tolist()]
    levels = [int(v) for v in lv[ok].tolist()]
    master.add(sets, [float(st.table.tau[v]) for v in levels], levels)


def _profile_cover(
    st: _State, master: CoveringMaster, x: np.ndarray, time_limit: float
) -> tuple[list[tuple[int, ...]] | None, str]:
    """A schedule with the pack profile of the LP point ``x``, when its pack counts N(>= l)
    are integral (as the count branching reads them, within ``COUNT_FRACTION``).

    The counts then give c_l packs at each level l of the LP's support, whose cost
    sum_l c_l tau_l is the LP value (up to that rounding); what the LP leaves fractional
    is only which tasks go together.  Tasks are assigned to those packs by a feasibility
    MIP (:func:`.master.solve_profile_assignment`), and a solution is a schedule of at
    most that cost (:meth:`_State.offer` prices each pack at its cheapest level).  At
    Workload-III k = 32, seed 0, the bound reaches the optimum (78 699.3) after about
    220 s while the neighbourhood search stops at 78 829.8 (no window short of the whole
    instance leads further: the package docstring); the first node whose counts were all
    integral (387 s) gave 78 700.6, and another one the optimum at 421 s.
    (schedule or None, what happened)."""
    levels, counts = master.level_counts(x)  # descending levels, N(>= level)
    if _fractional(counts)[1].any():
        return None, "fractional"
    per_level = np.diff(np.r_[0, np.round(counts)]).astype(np.int64)  # N(>= l) grows as l falls
    bins = [int(lv) for lv, c in zip(levels.tolist(), per_level.tolist(), strict=True) for _ in range(c)]
    out = solve_profile_assignment(
        [st.table.m(lv) for lv in bins], st.table.p, st.inst.max_pack_size, time_limit=time_limit, seed=st.seed
    )
    if out is None:
        return None, f"no assignment to {len(bins)} packs"
    return [tuple(sorted(b)) for b in out if b], f"{len(bins)} packs"


def _select(heap: list[_Node], plunge: _Node | None, go_on: bool) -> tuple[_Node, bool]:
    """The next node and whether it is a plunge's: the child ``plunge`` of the node just
    branched when ``go_on``, else the best open node (``plunge`` goes on the heap)."""
    if plunge is not None:
        if go_on:
            return plunge, True
        heapq.heappush(heap, plunge)
    return heapq.heappop(heap), False


def _integral_cover(st: _State, master: CoveringMaster, x: np.ndarray) -> list[tuple[int, ...]] | None:
    """The packs of an integral LP point; None when it is fractional.

    A task the point covers only through dual-optimal-inequality columns e_i - e_j
    (:meth:`CoveringMaster.add_dominance`) takes the place of a task j above it
    (:meth:`.levels.LevelTable.above`) that the packs cover twice, as in the proof
    that those columns keep the LP value (following the flow of the y_ij up from i
    reaches such a j); None if none is found.
    """
    supp = np.flatnonzero(x > 1e-6)
    packs_idx = supp[np.asarray(master.levels)[supp] != DOMINANCE_LEVEL]
    if (x[packs_idx] < 1 - 1e-6).any():
        return None
    packs = [list(master.sets[c]) for c in packs_idx.tolist() if master.sets[c]]
    cov = np.zeros(st.inst.n, dtype=np.int64)
    for p in packs:
        cov[p] += 1
    for i in np.flatnonzero(cov == 0).tolist():
        donors = np.flatnonzero((cov >= 2) & st.table.above(i)).tolist()
        j, pack = next(((j, p) for j in donors for p in packs if j in p), (None, None))
        if pack is None:
            return None
        pack[pack.index(j)] = i
        cov[j] -= 1
        cov[i] += 1
    return [tuple(sorted(p)) for p in packs]


def branch(
    st: _State,
    master: CoveringMaster,
    root: _CG,
    budget: int,
    rmp_time: float,
) -> None:
    """Best-first branch-and-price from the converged root ``root``; raises ``st.lb`` as
    the open nodes' bounds rise and stops when the gap is closed or time is up."""
    table, n, k = st.table, st.inst.n, st.inst.max_pack_size
    root_need = {lv: rhs for lv, rhs in master.level_cuts}
    lo0 = table.first_level.astype(np.int64).copy()
    hi0 = np.full(n, table.L - 1, dtype=np.int64)
    heap: list[_Node] = [_Node(_round_bound(st, max(st.lb, root.bound)), 0, lo0, hi0, 0)]
    unresolved: list[float] = []  # bounds of nodes the tree could not split nor close
    tick = 0
    nodes = 0
    t_tree, rmp_spent = time.perf_counter(), 0.0
    count_branches = window_branches = 0
    deepest = 0
    last_log = -math.inf
    plunge: _Node | None = None  # the child the current plunge goes on with
    plunging, plunge_time, t_node = False, 0.0, t_tree
    plunges = failed_plunges = found_before = 0
    profile_spent, profiles = 0.0, 0
    try:
        while (heap or plunge is not None) and not st.deadline.expired():
            now = time.perf_counter()
            if plunging:
                plunge_time += now - t_node
            t_node = now
            open_lb = min([*(h.bound for h in heap[:1]), *([plunge.bound] if plunge else []), *unresolved])
            st.raise_lb(open_lb * (1 - BOUND_SAFETY), "tree")
            if st.closed():
                break
            if st.verbose and time.perf_counter() - last_log >= LOG_EVERY:
                last_log = time.perf_counter()
                st.log(
                    f"tree: {nodes} nodes ({count_branches} count / {window_branches} window branchings, "
                    f"{plunges} plunges, {failed_plunges} without incumbent), "
                    f"{len(heap)} open, depth {deepest}, bound {st.lb * table.scale:.6g}, "
                    f"incumbent {st.ub * table.scale:.6g}, gap {(st.ub - st.lb) / st.ub:.3%}, {len(master.sets)} columns"
                )
            if st.neighbourhoods is not None:
                st.neighbourhoods.catch_up()
                if st.closed():
                    break
            # a plunge goes on while its child's bound stays within PLUNGE_QUOT of the gap; a new
            # one starts after a best-first node while the plunges had less than their share
            was_plunging = plunging
            share = PLUNGE_SHARE / 4**failed_plunges
            go_on = plunging and plunge is not None and plunge.bound <= st.lb + PLUNGE_QUOT * (st.ub - st.lb)
            node, plunging = _select(heap, plunge, go_on or (not plunging and plunge_time <= share * (now - t_tree)))
            found = len(st.stats.get("tree_incumbents", ()))
            if plunging and not was_plunging:
                plunges += 1
                found_before = found
            elif was_plunging and not plunging and found == found_before:
                failed_plunges += 1  # a plunge that found no incumbent quarters the plunges' share
            plunge = None
            if node.bound >= _cutoff(st):
                continue
            nodes += 1
            deepest = max(deepest, node.depth)
            constrained = np.flatnonzero((node.lo > lo0) | (node.hi < hi0))
            windows = None if nodes == 1 else Windows(node.lo, node.hi)
            need = dict(root_need)
            if nodes == 1:
                # the root's LP again, over the columns the heuristics added since: its
                # basis (after the dive) is where the children and strong branching start
                sol = master.solve(st.deadline)
                cg = root if sol is None else replace(root, x=sol.x, lp=sol.objective)
            else:
                _purge(st, master, [node, *heap])
                _add_singletons(st, master, node.lo, node.hi)
                master.restrict(node.lo, node.hi, constrained)
                master.start_from(node.basis)
                valid = dict(root_need)
                for lv, rhs in [*pack_count_bounds(table, k, node.lo, node.hi).items(), *node.count_lo.items()]:
                    valid[lv] = max(rhs, valid.get(lv, 0))
                have = {lv for lv, _ in master.level_cuts}
                need = {lv: rhs for lv, rhs in valid.items() if lv in have or lv in node.count_lo}
                cg = _node_lp(st, master, windows, need, valid, node.count_hi)
            bound = _round_bound(st, max(node.bound, cg.bound))
            if not cg.converged:
                if bound < _cutoff(st):  # stopped by the time limit: the node stays open, as it was
                    heapq.heappush(heap, replace(node, bound=bound))
                continue
            if bound >= _cutoff(st):
                continue
            basis = master.basis()
            if st.neighbourhoods is not None and not plunging:
                st.neighbourhoods.set_levels(master.level_counts(cg.x)[0])  # the profile moves' levels
            cover = _integral_cover(st, master, cg.x)
            if cover is not None:
                if st.offer(cover, f"integral node LP (depth {node.depth})"):
                    st.stats.setdefault("tree_incumbents", []).append([nodes, node.depth])
                continue
            # the probe enumerates the node's whole gap; skip it until the gap has halved
            # since an ancestor's probe overflowed (it would overflow again)
            failed_gap = node.failed_gap
            node_gap = _cutoff(st) - bound
            if nodes > 1 and node_gap < PROBE_SHRINK * failed_gap:
                proven = _enumerate_and_solve(st, cg, budget, probe_only=True, windows=windows)
                bound = _round_bound(st, max(bound, proven))
                if bound >= _cutoff(st):
                    continue
                failed_gap = node_gap
            elif nodes == 1:
                failed_gap = node_gap
            if rmp_time > 0 and nodes % RMP_EVERY == 0 and rmp_spent < RMP_TREE_SHARE * (time.perf_counter() - t_tree):
                rem = st.deadline.remaining()
                t1 = time.perf_counter()
                _restricted_mip(
                    st,
                    master.sets + master.retired,
                    min(RMP_NODE_SHARE * rmp_time, rem),
                    f"restricted master MIP ({nodes} nodes)",
                )
                rmp_spent += time.perf_counter() - t1
            count = _count_branch(st, master, cg.x, cg.lp, need, node.count_hi, strong=not plunging)
            if count is not None:
                count_branches += 1
                level, value, up_first, kid_bases = count
                kids = []
                split = _count_split(node.count_lo, node.count_hi, level, value)
                for (clo, chi), kid_basis in zip(split, kid_bases or (basis, basis), strict=True):
                    tick += 1
                    kids.append(_Node(bound, tick, node.lo, node.hi, node.depth + 1, failed_gap, clo, chi, kid_basis))
                if up_first:
                    kids.reverse()
                plunge = kids[0]
                heapq.heappush(heap, kids[1])
                continue
            if profile_spent < PROFILE_SHARE * (time.perf_counter() - t_tree):
                # every pack count is integral: look for a schedule with the LP's pack profile
                t1 = time.perf_counter()
                cover, what = _profile_cover(st, master, cg.x, PROFILE_TIME)
                profile_spent += time.perf_counter() - t1
                profiles += 1
                if cover is not None and st.offer(cover, f"pack profile of a node LP (depth {node.depth}, {what})"):
                    st.stats.setdefault("tree_incumbents", []).append([nodes, node.depth])
            cands = _candidates(st, master, cg.x, 1)
            if not cands:
                proven = _enumerate_and_solve(st, cg, budget, windows=windows)
                bound = _round_bound(st, max(bound, proven))
                if bound < _cutoff(st):
                    unresolved.append(bound)
                continue
            window_branches += 1
            for lo, hi in _children(node, *cands[0]):
                tick += 1
                kid = _Node(bound, tick, lo, hi, node.depth + 1, failed_gap, node.count_lo, node.count_hi, basis)
                if plunge is None:
                    plunge = kid
                else:
                    heapq.heappush(heap, kid)
        if plunge is not None:
            heapq.heappush(heap, plunge)
        if not heap and not unresolved and not st.deadline.expired():
            st.raise_lb(st.ub, "tree exhausted")
        elif heap or unresolved:
            st.raise_lb(min([h.bound for h in heap] + unresolved) * (1 - BOUND_SAFETY), "tree")
    finally:
        master.restrict(lo0, hi0, np.arange(n))
        master.set_level_rhs(root_need)
        st.stats["tree_nodes"] = nodes
        st.stats["tree_depth"] = deepest
        st.stats["tree_open"] = len(heap) + len(unresolved)
        st.stats["count_branches"] = count_branches
        st.stats["window_branches"] = window_branches
        if plunging:
            plunge_time += time.perf_counter() - t_node
        st.stats["plunge_seconds"] = round(plunge_time, 6)
        st.stats["plunges"] = plunges
        st.stats["failed_plunges"] = failed_plunges
        st.stats["profile_covers"] = profiles
        st.stats["profile_seconds"] = round(profile_spent, 6)
        st.log(f"tree: {nodes} nodes, {len(heap)} open, {len(unresolved)} unresolved")
