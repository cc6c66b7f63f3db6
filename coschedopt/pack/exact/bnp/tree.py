"""Branch-and-price over pack counts and the level windows of the tasks' packs.

After the root (column generation, pack-count cuts, primal heuristics and a first
enumeration attempt), the gap left between the covering LP and the incumbent is
closed by a best-first search.  A node restricts

* pack counts: lo_l <= N(>= l) <= hi_l, rows of the master whose duals give every
  column at level >= l the same bonus (negative under an upper bound), and
* level windows: task i may only sit in a column of level l in [lo_i, hi_i]; the
  master's columns outside are at upper bound 0 and the pricing removes the task
  from the levels outside its window (:class:`.levels.Windows`),

so the pricing stays a knapsack per level and its level pruning and Farley bound
hold in every node.  How a node is split: :mod:`.branching`.

Node selection: best first (least bound), with plunges.  After a best-first node is
branched, its child is processed next, and so on, while the child's bound stays
within ``plunge_quot`` of the gap and until a leaf (an integral LP, a pruned or an
unresolved node); then the best open node again.  A new plunge starts only while the
plunges have taken less than ``plunge_share`` of the tree's time, divided by ``plunge_decay`` for every
plunge that ended without an incumbent.  A plunge node skips strong branching; a
best-first node's plunge goes into the child strong branching found cheaper.
Plunges are the tree's primal heuristic where the LP leads to integral leaves.  A node
whose pack counts are all integral fixes the number of packs at each level and hence
its LP value; the tasks are then assigned to those packs by a feasibility MIP
(:func:`profile_cover`).

Each node is first attacked by the reduced-cost enumeration of
:func:`.closing.enumerate_and_solve` restricted to its windows and counts (every
node column within the node gap, then a MIP), once its gap has shrunk below
``probe_shrink`` of the last failed attempt above it: deep nodes have small gaps and
few such columns.  A node whose LP has integral counts and every task at a single
level but is still fractional (a bin-packing-like residue) is closed by the staged
enumeration under the column budget; if even that fails its bound stays in the
global bound, which is then reported as is.  Past ``purge_above`` columns a node
first deletes the master's idle columns of largest reduced cost (a dual simplex
iteration prices every column).
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .branching import Node, count_branch, count_split, cutoff, fractional, window_candidates, window_children
from .closing import enumerate_and_solve, restricted_mip
from .colgen import CGResult, column_generation, pack_count_bounds
from .levels import Windows
from .master import BASIC, DOMINANCE_LEVEL, CoveringMaster
from .mips import solve_profile_assignment
from .state import State

if TYPE_CHECKING:
    from .lns import Neighbourhoods


def round_bound(st: State, value: float) -> float:
    """With integer times every schedule costs an integer: a bound rounds up."""
    if st.problem.integral and math.isfinite(value):
        return max(value, math.ceil(value * st.problem.table.scale - 1e-6) / st.problem.table.scale)
    return value


def node_lp(
    st: State,
    master: CoveringMaster,
    windows: Windows,
    need: dict[int, int],
    valid: dict[int, int],
    upper: dict,
    search: Neighbourhoods | None = None,
) -> CGResult:
    """Column generation of a node whose pack-count rows are ``need`` (lower) and ``upper``,
    adding the node's other valid counts ``valid`` as rows only once the LP violates them
    (a pack-count row holds every column above its level, so it is dense and slows every
    re-solve).  ``need`` is updated in place to the rows the master ends with.
    """
    levels = sorted(set(valid) | set(upper))
    st.node.node_level_cuts = [(lv, valid.get(lv, 0)) for lv in levels]  # the MIPs take them all
    st.node.node_level_upper = [float(upper.get(lv, math.inf)) for lv in levels]
    while True:
        master.set_level_rhs(need, upper)
        cg = column_generation(st, master, windows=windows, cutoff=cutoff(st), search=search)
        if not cg.converged:
            return cg
        new = master.separate_level_cuts(cg.x, valid)
        if not new:
            return cg
        need.update(new)


def purge(st: State, master: CoveringMaster, nodes: list[Node]) -> None:
    """Shrink the master (``purge_above``) keeping every column basic in a basis
    stored with ``nodes``, whose bases are then re-indexed."""
    if len(master.sets) <= st.problem.opts.purge_above:
        return
    protect = np.zeros(len(master.sets), dtype=bool)
    for node in nodes:
        if node.basis is not None:
            cols = node.basis[0]
            protect[: cols.size] |= cols[: protect.size] == BASIC
    keep = master.purge(st.problem.opts.purge_to, st.problem.opts.purge_age, protect)
    if keep is None:
        return
    for node in nodes:
        node.basis = master.remap_basis(node.basis, keep)
    st.incumbent.count("purged_columns", int((~keep).sum()))


def add_singletons(st: State, master: CoveringMaster, lo: np.ndarray, hi: np.ndarray) -> None:
    """Each task alone at its cheapest allowed level, so that every node LP is feasible."""
    lv = np.maximum(st.problem.table.first_level, lo)
    ok = lv <= hi
    sets = [(i,) for i in np.flatnonzero(ok).tolist()]
    levels = [int(v) for v in lv[ok].tolist()]
    master.add(sets, [float(st.problem.table.tau[v]) for v in levels], levels)


def profile_cover(
    st: State, master: CoveringMaster, x: np.ndarray, time_limit: float
) -> tuple[list[tuple[int, ...]] | None, str]:
    """A schedule with the pack profile of the LP point ``x``, when its pack counts N(>= l)
    are integral (as the count branching reads them, within ``count_fraction``).

    The counts then give c_l packs at each level l of the LP's support, whose cost
    sum_l c_l tau_l is the LP value (up to that rounding); what the LP leaves fractional
    is only which tasks go together.  Tasks are assigned to those packs by a feasibility
    MIP (:func:`.mips.solve_profile_assignment`), and a solution is a schedule of at
    most that cost (:meth:`.state.Incumbent.offer` prices each pack at its cheapest level).
    (schedule or None, what happened)."""
    levels, counts = master.level_counts(x)  # descending levels, N(>= level)
    if fractional(counts, st.problem.opts.count_fraction)[1].any():
        return None, "fractional"
    per_level = np.diff(np.r_[0, np.round(counts)]).astype(np.int64)  # N(>= l) grows as l falls
    bins = [int(lv) for lv, c in zip(levels.tolist(), per_level.tolist(), strict=True) for _ in range(c)]
    out = solve_profile_assignment(
        [st.problem.table.m(lv) for lv in bins],
        st.problem.table.p,
        st.problem.inst.max_pack_size,
        time_limit=time_limit,
        seed=st.problem.seed,
    )
    if out is None:
        return None, f"no assignment to {len(bins)} packs"
    return [tuple(sorted(b)) for b in out if b], f"{len(bins)} packs"


def select(heap: list[Node], plunge: Node | None, go_on: bool) -> tuple[Node, bool]:
    """The next node and whether it is a plunge's: the child ``plunge`` of the node just
    branched when ``go_on``, else the best open node (``plunge`` goes on the heap)."""
    if plunge is not None:
        if go_on:
            return plunge, True
        heapq.heappush(heap, plunge)
    return heapq.heappop(heap), False


def integral_cover(st: State, master: CoveringMaster, x: np.ndarray) -> list[tuple[int, ...]] | None:
    """The packs of an integral LP point; None when it is fractional.

    A task the point covers only through dual-optimal-inequality columns e_i - e_j
    (:meth:`.master.CoveringMaster.add_dominance`) takes the place of a task j above it
    (:meth:`.levels.LevelTable.above`) that the packs cover twice, as in the proof
    that those columns keep the LP value (following the flow of the y_ij up from i
    reaches such a j); None if none is found.
    """
    supp = np.flatnonzero(x > 1e-6)
    packs_idx = supp[np.asarray(master.levels)[supp] != DOMINANCE_LEVEL]
    if (x[packs_idx] < 1 - 1e-6).any():
        return None
    packs = [list(master.sets[c]) for c in packs_idx.tolist() if master.sets[c]]
    cov = np.zeros(st.problem.inst.n, dtype=np.int64)
    for p in packs:
        cov[p] += 1
    for i in np.flatnonzero(cov == 0).tolist():
        donors = np.flatnonzero((cov >= 2) & st.problem.table.above(i)).tolist()
        j, pack = next(((j, p) for j in donors for p in packs if j in p), (None, None))
        if pack is None:
            return None
        pack[pack.index(j)] = i
        cov[j] -= 1
        cov[i] += 1
    return [tuple(sorted(p)) for p in packs]


class _Tree:
    """One run of the tree: its open nodes, the plunge under way, its counters."""

    def __init__(
        self,
        st: State,
        master: CoveringMaster,
        root: CGResult,
        budget: int,
        rmp_time: float,
        search: Neighbourhoods | None,
    ) -> None:
        self.st, self.master, self.root, self.budget, self.rmp_time = st, master, root, budget, rmp_time
        self.search = search  # the neighbourhood search (the driver's), if on
        n, table = st.problem.inst.n, st.problem.table
        self.root_need = {lv: rhs for lv, rhs in master.level_cuts}
        self.lo0 = table.first_level.astype(np.int64).copy()
        self.hi0 = np.full(n, table.L - 1, dtype=np.int64)
        self.heap: list[Node] = [Node(round_bound(st, max(st.incumbent.lb, root.bound)), 0, self.lo0, self.hi0, 0)]
        self.unresolved: list[float] = []  # bounds of nodes the tree could not split nor close
        self.tick = self.nodes = self.deepest = 0
        self.t_tree = self.t_node = time.perf_counter()
        self.rmp_spent = self.plunge_time = self.profile_spent = 0.0
        self.count_branches = self.window_branches = self.profiles = 0
        self.plunge: Node | None = None  # the child the current plunge goes on with
        self.plunging = False
        self.plunges = self.failed_plunges = self.found_before = 0
        self.last_log = -math.inf

    def run(self) -> None:
        st = self.st
        try:
            while (self.heap or self.plunge is not None) and not st.problem.deadline.expired():
                node = self.next_node()
                if node is None:  # the gap is closed
                    break
                if node.bound >= cutoff(st):
                    continue
                self.nodes += 1
                self.deepest = max(self.deepest, node.depth)
                self.process(node)
            if self.plunge is not None:
                heapq.heappush(self.heap, self.plunge)
            if not self.heap and not self.unresolved and not st.problem.deadline.expired():
                st.incumbent.raise_lb(st.incumbent.ub, "tree exhausted")
            elif self.heap or self.unresolved:
                st.incumbent.raise_lb(st.incumbent.safe(min([h.bound for h in self.heap] + self.unresolved)), "tree")
        finally:
            self.finish()

    def next_node(self) -> Node | None:
        """Raise the global bound to the open nodes', exchange with the neighbourhood
        search, then select: the plunge's child while the plunge goes on (its child's bound
        within ``plunge_quot`` of the gap), else the best open node, a new plunge starting
        after it while the plunges had less than their share; None once the gap is closed."""
        st = self.st
        now = time.perf_counter()
        if self.plunging:
            self.plunge_time += now - self.t_node
        self.t_node = now
        plunge = self.plunge
        open_lb = min([*(h.bound for h in self.heap[:1]), *([plunge.bound] if plunge else []), *self.unresolved])
        st.incumbent.raise_lb(st.incumbent.safe(open_lb), "tree")
        if st.incumbent.closed():
            return None
        self.log_progress()
        if self.search is not None:
            self.search.catch_up()
            if st.incumbent.closed():
                return None
        was_plunging = self.plunging
        share = st.problem.opts.plunge_share / st.problem.opts.plunge_decay**self.failed_plunges
        go_on = (
            was_plunging
            and plunge is not None
            and plunge.bound <= st.incumbent.lb + st.problem.opts.plunge_quot * (st.incumbent.ub - st.incumbent.lb)
        )
        start = not was_plunging and self.plunge_time <= share * (now - self.t_tree)
        node, self.plunging = select(self.heap, plunge, go_on or start)
        found = len(st.incumbent.stats.get("tree_incumbents", ()))
        if self.plunging and not was_plunging:
            self.plunges += 1
            self.found_before = found
        elif was_plunging and not self.plunging and found == self.found_before:
            self.failed_plunges += 1  # a plunge that found no incumbent divides the plunges' share by plunge_decay
        self.plunge = None
        return node

    def solve_lp(self, node: Node) -> tuple[CGResult, Windows | None, dict[int, int]]:
        """The node's LP (column generation within its windows and counts), its windows and
        the pack-count rows it ends with; the first node re-solves the root's LP over the
        columns the heuristics added since (its basis is where the children start)."""
        st, master = self.st, self.master
        if self.nodes == 1:
            sol = master.solve(st.problem.deadline)
            cg = self.root if sol is None else replace(self.root, x=sol.x, lp=sol.objective)
            return cg, None, dict(self.root_need)
        windows = Windows(node.lo, node.hi)
        purge(st, master, [node, *self.heap])
        add_singletons(st, master, node.lo, node.hi)
        master.restrict(node.lo, node.hi, np.flatnonzero((node.lo > self.lo0) | (node.hi < self.hi0)))
        master.start_from(node.basis)
        valid = dict(self.root_need)
        bounds = pack_count_bounds(st.problem.table, st.problem.inst.max_pack_size, node.lo, node.hi)
        for lv, rhs in [*bounds.items(), *node.count_lo.items()]:
            valid[lv] = max(rhs, valid.get(lv, 0))
        have = {lv for lv, _ in master.level_cuts}
        need = {lv: rhs for lv, rhs in valid.items() if lv in have or lv in node.count_lo}
        return node_lp(st, master, windows, need, valid, node.count_hi, self.search), windows, need

    def process(self, node: Node) -> None:
        """Solve a node, then prune it, close it, or branch on it."""
        st, master = self.st, self.master
        cg, windows, need = self.solve_lp(node)
        bound = round_bound(st, max(node.bound, cg.bound))
        if not cg.converged:
            if bound < cutoff(st):  # stopped by the time limit: the node stays open, as it was
                heapq.heappush(self.heap, replace(node, bound=bound))
            return
        if bound >= cutoff(st):
            return
        basis = master.basis()
        if self.search is not None and not self.plunging:
            self.search.set_levels(master.level_counts(cg.x)[0])  # the profile moves' levels
        cover = integral_cover(st, master, cg.x)
        if cover is not None:
            if st.incumbent.offer(cover, f"integral node LP (depth {node.depth})"):
                self.found(node)
            return
        probed = self.probe(node, cg, bound, windows)
        if probed is None:
            return
        bound, failed_gap = probed
        self.restricted_mip()
        if self.branch_on_count(node, cg, need, bound, failed_gap, basis):
            return
        self.try_profile(node, cg)
        cands = window_candidates(st, master, cg.x, 1)
        if not cands:
            proven = enumerate_and_solve(st, cg, self.budget, windows=windows)
            bound = round_bound(st, max(bound, proven))
            if bound < cutoff(st):
                self.unresolved.append(bound)
            return
        self.window_branches += 1
        for lo, hi in window_children(node, *cands[0]):
            self.tick += 1
            kid = Node(bound, self.tick, lo, hi, node.depth + 1, failed_gap, node.count_lo, node.count_hi, basis)
            if self.plunge is None:
                self.plunge = kid
            else:
                heapq.heappush(self.heap, kid)

    def probe(self, node: Node, cg: CGResult, bound: float, windows) -> tuple[float, float] | None:
        """The enumeration probe over the node's whole gap, skipped until the gap has
        shrunk since an ancestor's probe overflowed (it would overflow again): (bound,
        the gap of the last failed probe), or None when the probe pruned the node."""
        st = self.st
        failed_gap = node.failed_gap
        node_gap = cutoff(st) - bound
        if self.nodes > 1 and node_gap < st.problem.opts.probe_shrink * failed_gap:
            proven = enumerate_and_solve(st, cg, self.budget, probe_only=True, windows=windows)
            bound = round_bound(st, max(bound, proven))
            if bound >= cutoff(st):
                return None
            failed_gap = node_gap
        elif self.nodes == 1:
            failed_gap = node_gap
        return bound, failed_gap

    def restricted_mip(self) -> None:
        """Every ``rmp_every`` nodes, within ``rmp_tree_share`` of the tree's time, a MIP
        over the whole column pool (the purged columns included)."""
        st, opts = self.st, self.st.problem.opts
        if self.rmp_time <= 0 or self.nodes % opts.rmp_every != 0:
            return
        if self.rmp_spent >= opts.rmp_tree_share * (time.perf_counter() - self.t_tree):
            return
        rem = st.problem.deadline.remaining()
        t1 = time.perf_counter()
        restricted_mip(
            st,
            self.master.sets + self.master.retired,
            min(opts.rmp_node_share * self.rmp_time, rem),
            f"restricted master MIP ({self.nodes} nodes)",
        )
        self.rmp_spent += time.perf_counter() - t1

    def branch_on_count(self, node: Node, cg: CGResult, need: dict, bound: float, failed_gap: float, basis) -> bool:
        """Branch on a fractional pack count (plunging into the child that looks cheaper);
        False when every count is integral."""
        count = count_branch(self.st, self.master, cg.x, cg.lp, need, node.count_hi, strong=not self.plunging)
        if count is None:
            return False
        self.count_branches += 1
        level, value, up_first, kid_bases = count
        kids = []
        split = count_split(node.count_lo, node.count_hi, level, value)
        for (clo, chi), kid_basis in zip(split, kid_bases or (basis, basis), strict=True):
            self.tick += 1
            kids.append(Node(bound, self.tick, node.lo, node.hi, node.depth + 1, failed_gap, clo, chi, kid_basis))
        if up_first:
            kids.reverse()
        self.plunge = kids[0]
        heapq.heappush(self.heap, kids[1])
        return True

    def try_profile(self, node: Node, cg: CGResult) -> None:
        """Every pack count is integral: look for a schedule with the LP's pack profile
        (within ``profile_share`` of the tree's time)."""
        st = self.st
        if self.profile_spent >= st.problem.opts.profile_share * (time.perf_counter() - self.t_tree):
            return
        t1 = time.perf_counter()
        cover, what = profile_cover(st, self.master, cg.x, st.problem.opts.profile_time)
        self.profile_spent += time.perf_counter() - t1
        self.profiles += 1
        if cover is not None and st.incumbent.offer(cover, f"pack profile of a node LP (depth {node.depth}, {what})"):
            self.found(node)

    def found(self, node: Node) -> None:
        self.st.incumbent.stats.setdefault("tree_incumbents", []).append([self.nodes, node.depth])

    def log_progress(self) -> None:
        st = self.st
        if not st.incumbent.verbose or time.perf_counter() - self.last_log < st.problem.opts.log_every:
            return
        self.last_log = time.perf_counter()
        st.incumbent.log(
            f"tree: {self.nodes} nodes ({self.count_branches} count / {self.window_branches} window branchings, "
            f"{self.plunges} plunges, {self.failed_plunges} without incumbent), "
            f"{len(self.heap)} open, depth {self.deepest}, bound {st.incumbent.lb * st.problem.table.scale:.6g}, "
            f"incumbent {st.incumbent.ub * st.problem.table.scale:.6g}, gap {(st.incumbent.ub - st.incumbent.lb) / st.incumbent.ub:.3%}, {len(self.master.sets)} columns"
        )

    def finish(self) -> None:
        """Give the master back its root rows and bounds; record the tree's counters."""
        st, master = self.st, self.master
        master.restrict(self.lo0, self.hi0, np.arange(st.problem.inst.n))
        master.set_level_rhs(self.root_need)
        if self.plunging:
            self.plunge_time += time.perf_counter() - self.t_node
        st.incumbent.stats.update(
            tree_nodes=self.nodes,
            tree_depth=self.deepest,
            tree_open=len(self.heap) + len(self.unresolved),
            count_branches=self.count_branches,
            window_branches=self.window_branches,
            plunge_seconds=round(self.plunge_time, 6),
            plunges=self.plunges,
            failed_plunges=self.failed_plunges,
            profile_covers=self.profiles,
            profile_seconds=round(self.profile_spent, 6),
        )
        st.incumbent.log(f"tree: {self.nodes} nodes, {len(self.heap)} open, {len(self.unresolved)} unresolved")


def branch(
    st: State,
    master: CoveringMaster,
    root: CGResult,
    budget: int,
    rmp_time: float,
    search: Neighbourhoods | None = None,
) -> None:
    """Best-first branch-and-price from the converged root ``root``; raises ``st.incumbent.lb`` as
    the open nodes' bounds rise and stops when the gap is closed or time is up; between
    nodes (and column-generation rounds) it exchanges with the neighbourhood search ``search``."""
    _Tree(st, master, root, budget, rmp_time, search).run()
