"""Exact k-in-p pack co-scheduling: column generation, then enumeration of the columns
below the reduced-cost gap and a MIP over them.  See :mod:`coschedopt.pack.bnp` for the
method, its lower bounds and why it closes the gap this way.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core import Deadline, Result, Status, available_cores, get_method, methods
from ..instance import PackInstance
from ..schedule import PackSchedule, validate_schedule
from .levels import LevelTable
from .master import CoveringMaster, solve_covering_mip
from .pricing import Cuts, TooManyColumns, Windows, enumerate_columns, price

#: the paper's heuristics tried for a first incumbent, when registered (best first)
SEED_HEURISTICS = ("pack-by-pack-9", "pack-approx", "random-proc-9", "random-pack-9")

#: a column enters the master when its reduced cost (costs scaled to order 1) is below -RC_EPS
RC_EPS = 1e-9
#: default subset-row cut rounds when k <= AUTO_CUT_MAX_K (none above)
AUTO_CUT_ROUNDS = 10
AUTO_CUT_MAX_K = 4
#: schedules within this relative distance above the incumbent get the local search too
LOCAL_SEARCH_WINDOW = 0.02
#: time box of one local search: this share of the remaining time, at most LOCAL_SEARCH_MAX seconds
LOCAL_SEARCH_SHARE = 0.02
LOCAL_SEARCH_MAX = 5.0
#: share of the time limit (at most ``ILS_MAX`` seconds) for the iterated local search at the root
ILS_SHARE = 0.05
ILS_MAX = 10.0
#: relative slack on every bound handed back to the user (float round-off of the bound arithmetic)
BOUND_SAFETY = 1e-9
#: the enumeration computes the exact ratio of its duals (:func:`_exact_ratio`) when the
#: pricing's bound exceeds 1 by more than RATIO_SLACK, over at most RATIO_COLUMNS columns
RATIO_SLACK = 1e-9
RATIO_COLUMNS = 20_000
#: a tree node's column generation stops its pricing once this many columns price out
#: and prices exactly only when fewer do (Workload-III k = 16, seed 0, 400 s without the
#: neighbourhood search: 32 tree nodes instead of 27, bound 98467.6 instead of 98454.8)
NODE_PRICING_ENOUGH = 30
#: top-down diving (:func:`_dive`): candidates scored at each step, least LP value x of a candidate
DIVE_CANDIDATES = 8
DIVE_MIN_X = 0.05
#: time box of the root's dive, as a share of the time left
DIVE_SHARE = 0.2
#: instances with at most this many task sets of size <= k start from the complete master
#: (every set at its cheapest level): no heuristics, and the exact-cover search over it is the proof
COMPLETE_MASTER_MAX = 500
#: time box of the MIP of a tree node's probe over its enumerated columns (seconds): at Workload-III
#: k = 32, seed 1, one such MIP took 220 s of a 600 s run to close a single node
NODE_MIP_TIME = 30.0


@dataclass
class _State:
    """Everything the phases share: instance data, the column pool, incumbent and bounds."""

    inst: PackInstance
    table: LevelTable
    deadline: Deadline
    verbose: bool
    gap: float
    seed: int
    integral: bool = False
    smoothing: float = 0.5
    per_level: int = 3
    cut_rounds: int = 0
    cuts_per_round: int = 50
    cut_share: float = 0.4
    cut_nodes: int = 40  # node limit of the exact pricing branch and bound per level
    probe_columns: int = 3000  # column budget of an enumeration over a whole gap (0: never tried)
    mip_cuts: list | None = None  # subset-row triples handed to the MIPs
    level_cuts: list | None = None  # pack-count cuts (level, rhs) handed to the MIPs
    node_level_cuts: list | None = None  # the same, tightened in the current tree node
    node_level_upper: list | None = None  # and their upper bounds there (count branches)
    best_sets: list[tuple[int, ...]] = field(default_factory=list)
    complete: list[tuple[int, ...]] | None = None  # every feasible task set, when the master starts complete
    neighbourhoods: Any = None  # the large neighbourhood search (.lns.Neighbourhoods), if on
    ub: float = math.inf  # scaled
    lb: float = 0.0  # scaled, certified
    stats: dict = field(default_factory=dict)
    t0: float = field(default_factory=time.perf_counter)

    def log(self, msg: str) -> None:
        if self.verbose:
            print(f"[branch-and-price {time.perf_counter() - self.t0:7.2f}s] {msg}", file=sys.stderr, flush=True)

    def closed(self) -> bool:
        return self.ub - self.lb <= self.gap * self.ub + 1e-8 * max(1.0, self.ub)

    def column(
        self, tasks, bonus: np.ndarray | None = None, windows: Windows | None = None
    ) -> tuple[tuple[int, ...], int]:
        """The column of a task set: its cheapest (allowed) level, or with pack-count duals
        the allowed level minimising tau_l - B(l) (the cheapest one or one where B steps up)."""
        s = tuple(sorted(int(i) for i in tasks))
        lv = self.table.min_level(s)
        top = self.table.L - 1
        if windows is not None and s:
            idx = list(s)
            lv = max(lv, int(windows.lo[idx].max()))
            top = int(windows.hi[idx].min())
        if bonus is not None:
            steps = np.flatnonzero(np.diff(bonus[lv : top + 1]) > 0) + lv + 1
            if steps.size:
                cand = np.concatenate([[lv], steps])
                lv = int(cand[np.argmin(self.table.tau[cand] - bonus[cand])])
        return s, lv

    def offer(self, sets: list[tuple[int, ...]], source: str, improve: bool = True) -> bool:
        """Consider a cover by task sets as incumbent (each set priced at its optimal level),
        after the local search of :func:`local_search` (time-boxed) when it is close to or
        better than the incumbent.  A cover that misses a task or holds a pack that fits
        no level or exceeds k tasks is not a schedule: it is refused (and counted in
        ``stats["refused_covers"]``), so that no such cover can cut the search short."""
        sets = _partition(sets, self.table)
        k, n = self.inst.max_pack_size, self.inst.n
        if sorted(i for s in sets for i in s) != list(range(n)) or any(
            len(s) > k or self.table.min_level(s) < 0 for s in sets
        ):
            self.stats["refused_covers"] = self.stats.get("refused_covers", 0) + 1
            self.log(f"refused a cover from {source}: not a schedule of the {n} tasks in packs of <= {k}")
            return False
        cost = _cost(self.table, sets)
        if improve and cost < self.ub * (1 + LOCAL_SEARCH_WINDOW):
            box = self.deadline.share(LOCAL_SEARCH_SHARE, LOCAL_SEARCH_MAX)
            better, cost2 = local_search(self.table, self.inst.max_pack_size, sets, box)
            if cost2 < cost - 1e-12 * max(1.0, cost):
                source += f" + local search ({cost * self.table.scale:.6g})"
                sets, cost = better, cost2
        if cost < self.ub - 1e-12 * max(1.0, cost):
            self.ub, self.best_sets = cost, sets
            self.log(f"incumbent {cost * self.table.scale:.6g} from {source} (bound {self.lb * self.table.scale:.6g})")
            return True
        return False

    def raise_lb(self, value: float, source: str) -> None:
        if self.integral:
            # every schedule costs an integer: opt >= lb implies opt >= ceil(lb) (1e-6: float slack)
            value = max(value, math.ceil(value * self.table.scale - 1e-6) / self.table.scale)
        if value > self.lb:
            self.lb = value
            self.stats.setdefault("bound_history", []).append([round(time.perf_counter() - self.t0, 3), source])


def local_search(
    table: LevelTable, k: int, sets: list[tuple[int, ...]], deadline: Deadline, max_passes: int = 50
) -> tuple[list[tuple[int, ...]], float]:
    """Improve a schedule by moving one task to another pack (or to a new one) and by
    swapping two tasks of different packs, first improvement, until no move helps.

    Pack costs are the optimal 1-pack costs (cheapest fitting level, Algorithm 1's
    value), so every accepted move lowers the schedule's cost strictly.  A move
    costs two binary searches over the levels: O(n^2 k log L) per pass.
    """
    packs = [list(s) for s in sets]
    cost = [float(table.tau[table.min_level(s)]) for s in sets]

    def price(tasks: list[int]) -> float:
        if not tasks:
            return 0.0
        if len(tasks) > k:
            return math.inf
        lv = table.min_level(tasks)
        return math.inf if lv < 0 else float(table.tau[lv])

    for _ in range(max_passes):
        improved = False
        for a in range(len(packs)):
            for i in list(packs[a]):
                if deadline.expired():
                    break
                rest = [t for t in packs[a] if t != i]
                ca = price(rest)
                # move i to another pack (or alone)
                for b in [*range(len(packs)), -1]:
                    if b == a or i not in packs[a]:
                        continue
                    target = [] if b == -1 else packs[b]
                    cb = price([*target, i])
                    old = cost[a] + (cost[b] if b != -1 else 0.0)
                    if ca + cb < old - 1e-12 * max(1.0, old):
                        packs[a] = rest
                        cost[a] = ca
                        if b == -1:
                            packs.append([i])
                            cost.append(cb)
                        else:
                            packs[b] = [*target, i]
                            cost[b] = cb
                        improved = True
                        break
                if i not in packs[a]:
                    continue
                # swap i with a task j of another pack
                for b in range(len(packs)):
                    if b == a or i not in packs[a]:
                        continue
                    for j in list(packs[b]):
                        na = [*rest, j]
                        nb = [t for t in packs[b] if t != j] + [i]
                        old = cost[a] + cost[b]
                        pa, pb = price(na), price(nb)
                        if pa + pb < old - 1e-12 * max(1.0, old):
                            packs[a], packs[b] = na, nb
                            cost[a], cost[b] = pa, pb
                            improved = True
                            break
        keep = [q for q, pk in enumerate(packs) if pk]
        packs = [packs[q] for q in keep]
        cost = [cost[q] for q in keep]
        if not improved or deadline.expired():
            break
    return [tuple(sorted(pk)) for pk in packs], float(sum(cost))


def iterated_local_search(st: _State, until: Deadline) -> int:
    """Kick the incumbent (two random swaps of tasks between packs), re-run the local
    search, keep the result when it is better; repeat until ``until`` or until
    max(20, n) kicks in a row bring nothing.  Returns the number of kicks."""
    rng = np.random.default_rng(st.seed)
    kicks = idle = 0
    while not until.expired() and len(st.best_sets) >= 2 and not st.closed() and idle < max(20, st.inst.n):
        packs = [list(s) for s in st.best_sets]
        for _ in range(2):
            a, b = rng.choice(len(packs), 2, replace=False)
            ia, ib = rng.integers(len(packs[a])), rng.integers(len(packs[b]))
            packs[a][ia], packs[b][ib] = packs[b][ib], packs[a][ia]
        sets, cost = local_search(st.table, st.inst.max_pack_size, [tuple(p) for p in packs], until)
        found = math.isfinite(cost) and st.offer(sets, f"iterated local search (kick {kicks + 1})")
        idle = 0 if found else idle + 1
        kicks += 1
    return kicks


def _partition(sets: list[tuple[int, ...]], table: LevelTable) -> list[tuple[int, ...]]:
    """Turn a cover into a partition: a task covered twice stays only in its first set (never costs more)."""
    seen: set[int] = set()
    out = []
    for s in sets:
        rest = tuple(i for i in s if i not in seen)
        seen.update(rest)
        if rest:
            out.append(rest)
    return out


def _cost(table: LevelTable, sets: list[tuple[int, ...]]) -> float:
    """Cost of the packs, each at its cheapest fitting level (Algorithm 1's value), in table units."""
    return float(sum(table.tau[table.min_level(s)] for s in sets))


def allocations(table: LevelTable, sets: list[tuple[int, ...]]) -> list[list[tuple[int, int]]]:
    """Packs of (task, processors): each set at its cheapest level, each task on its least count there."""
    packs = []
    for s in sets:
        m = table.m(table.min_level(s))
        packs.append([(i, int(m[i])) for i in s])
    return packs


def _schedule(st: _State) -> PackSchedule:
    return PackSchedule.from_indices(st.inst, allocations(st.table, st.best_sets))


def _add_columns(st: _State, master: CoveringMaster, cols: list[tuple[tuple[int, ...], int]]) -> int:
    """Add (task set, level) columns to the master at cost tau_level; how many were new."""
    return master.add([c[0] for c in cols], [float(st.table.tau[c[1]]) for c in cols], [c[1] for c in cols])


def _add_schedule(st: _State, master: CoveringMaster, schedule: PackSchedule, source: str, improve: bool) -> None:
    """A schedule's packs enter the master as columns and are offered as incumbent."""
    sets = [tuple(sorted(i for i, _ in pack)) for pack in schedule.indices(st.inst)]
    _add_columns(st, master, [st.column(s) for s in sets])
    st.offer(sets, source, improve=improve)


def _set_count(n: int, k: int) -> int:
    """Number of task sets of size 1..k: sum_s C(n, s)."""
    return sum(math.comb(n, s) for s in range(1, min(n, k) + 1))


def _seed_incumbent(st: _State, master: CoveringMaster, use_heuristics: bool) -> None:
    """Singletons (each task alone on p processors), then the paper's heuristics if
    registered; or, when ``st.complete`` holds every feasible set, those sets instead of
    the heuristics (:func:`_solve_complete` finishes the job)."""
    n = st.inst.n
    singles = [(i,) for i in range(n)]
    lv = [int(st.table.first_level[i]) for i in range(n)]
    master.add(singles, [float(st.table.tau[v]) for v in lv], lv)
    st.offer(singles, "singletons", improve=False)
    if st.complete is not None:
        _add_columns(st, master, [st.column(s) for s in st.complete])
        return
    if not use_heuristics:
        return
    known = set(methods("pack"))
    for name in SEED_HEURISTICS:
        if name not in known or st.deadline.expired():
            continue
        rem = st.deadline.remaining()
        try:
            res = get_method("pack", name).func(
                st.inst, time_limit=min(10.0, max(0.05, 0.05 * rem)) if math.isfinite(rem) else 10.0, seed=st.seed
            )
        except Exception as exc:  # a heuristic failing must not stop the exact method
            st.log(f"heuristic {name} failed: {exc!r}")
            continue
        if res.schedule is None:
            continue
        _add_schedule(st, master, res.schedule, name, improve=True)


@dataclass
class _CG:
    """Outcome of column generation: the final LP duals (tasks, cuts), a lower bound on
    every reduced cost, whether the LP is optimal over all columns, and the LP point."""

    duals: np.ndarray | None = None
    cut_duals: np.ndarray | None = None
    cuts: Cuts | None = None
    bonus: np.ndarray | None = None  # B(l) of the pack-count cuts
    level_rhs: float = 0.0  # sum mu_c rhs_c of the pack-count cuts
    rc_lb: float = -math.inf
    converged: bool = False
    x: np.ndarray | None = None
    lp: float = math.nan
    ratio: float = 1.0  # upper bound on max (pi(S) - pen(S)) / tau(S) at these duals
    bound: float = -math.inf  # best Farley bound met (for the node when windows were given)


def _cuts_of(master: CoveringMaster, sigma: np.ndarray | None) -> Cuts | None:
    data = master.cut_data(sigma)
    return None if data is None else Cuts(data[0], data[1], master.n)


def _price(st: _State, master: CoveringMaster, pi: np.ndarray, sigma: np.ndarray, mu: np.ndarray, dl: Deadline, **kw):
    """Price columns at duals (pi tasks, sigma subset-row cuts, mu pack-count rows): the
    pricing result, the cuts and the level bonus it used."""
    cuts = _cuts_of(master, sigma)
    bonus = master.bonus(mu, st.table.L)
    pr = price(
        st.table,
        pi,
        st.inst.max_pack_size,
        column_threshold=-RC_EPS,
        deadline=dl,
        columns_per_level=st.per_level,
        cuts=cuts,
        bonus=bonus,
        **kw,
    )
    return pr, cuts, bonus


def _column_generation(
    st: _State,
    master: CoveringMaster,
    until: Deadline | None = None,
    windows: Windows | None = None,
    cutoff: float = math.inf,
) -> _CG:
    """Solve the master LP (with its current cuts) over all columns.

    With ``windows`` (a tree node: the master's columns outside them already have
    upper bound 0) pricing respects them, the Farley bounds are the node's (kept in
    ``_CG.bound``, not raised globally), and the loop stops as soon as that bound
    reaches ``cutoff`` (the node is pruned; ``converged`` stays False).

    Dual smoothing (Wentges): pricing uses pi = a pi_center + (1 - a) pi_LP (task and
    cut duals alike), with pi_center the duals of the best Farley bound so far;
    columns that price out against the LP duals enter.  When none does (a
    mis-price), pricing falls back to the LP duals themselves, so the loop ends
    exactly when the LP is optimal over all columns.  Every priced dual vector gives
    a valid bound (the Farley bound holds for any duals >= 0).  In a tree node the
    pricing at the LP duals comes first and stops after ``NODE_PRICING_ENOUGH``
    columns (no bound then); the full passes follow only when it found none.
    """
    table = st.table
    dl = until or st.deadline
    alpha = st.smoothing
    rounds = st.stats.get("cg_rounds", 0)
    last_log = 0.0
    center = None
    center_lb = -math.inf
    node_bound = -math.inf
    while True:
        lp = master.solve(dl)
        if lp is None:
            return _CG(bound=node_bound)
        rounds += 1
        st.stats["cg_rounds"] = rounds
        full_lp = np.concatenate([lp.duals, lp.cut_duals, lp.level_duals])
        if center is None or center.size != full_lp.size:
            center, center_lb = full_lp, -math.inf
        n, nsr = st.inst.n, lp.cut_duals.size
        # attempts: smoothed duals, then the LP duals; with cuts, the cheap pricing
        # (penalties checked on the DP's best set only) before the exact branch and bound
        if st.neighbourhoods is not None and st.neighbourhoods.workers > 0:
            st.neighbourhoods.catch_up()  # exchange incumbents with the worker process
        attempts = [(alpha, 1), (0.0, 1), (0.0, st.cut_nodes)] if master.cuts else [(alpha, 0), (0.0, 0)]
        if windows is not None and not master.cuts:
            attempts.insert(0, (0.0, -1))  # in a tree node: partial pricing at the LP duals first
        for a, nodes in attempts:
            vec = full_lp if a == 0.0 else a * center + (1.0 - a) * full_lp
            pi, sigma, mu = vec[:n], vec[n : n + nsr], vec[n + nsr :]
            partial = {"enough": NODE_PRICING_ENOUGH} if nodes < 0 else {}
            pr, cuts, bonus = _price(st, master, pi, sigma, mu, dl, cut_nodes=max(nodes, 1), windows=windows, **partial)
            st.stats["pricing_levels_evaluated"] = st.stats.get("pricing_levels_evaluated", 0) + pr.evaluated
            if not pr.complete and partial and not dl.expired():
                # stopped once it had enough columns (no bound then): add them, or price fully
                cols = [st.column(tasks, bonus, windows) for _, _, tasks in pr.columns]
                added = _add_columns(st, master, cols)
                if added:
                    break
                continue
            if not pr.complete:
                return _CG(bound=node_bound)
            # Farley bound: (pi, sigma) / max ratio is feasible for the dual of the full LP
            dual_obj = float(pi.sum()) - float(sigma.sum()) + master.level_cut_rhs(mu)
            bound = dual_obj / max(1.0, pr.ratio_ub) * (1 - BOUND_SAFETY)
            node_bound = max(node_bound, bound)
            if windows is None:
                st.raise_lb(bound, "farley")
            if bound > center_lb:
                center, center_lb = vec, bound
            if node_bound >= cutoff:
                return _CG(bound=node_bound)
            cols = [st.column(tasks, bonus, windows) for _, _, tasks in pr.columns]
            if a > 0.0:  # keep the columns (at their best level for the LP duals) that price out against them
                lp_cuts = _cuts_of(master, lp.cut_duals)
                lp_bonus = master.bonus(lp.level_duals, table.L)
                cols = [st.column(c[0], lp_bonus, windows) for c in cols]
                cols = [
                    c
                    for c in cols
                    if table.tau[c[1]]
                    - (lp_bonus[c[1]] if lp_bonus is not None else 0.0)
                    - float(lp.duals[list(c[0])].sum())
                    + (lp_cuts.penalty(c[0]) if lp_cuts is not None else 0.0)
                    < -RC_EPS
                ]
            added = _add_columns(st, master, cols)
            if added or (a == 0.0 and not master.cuts):
                break  # (nothing prices out at the LP duals themselves: the LP is optimal)
        now = time.perf_counter() - st.t0
        if st.verbose and windows is None and (now - last_log > 2.0 or added == 0):
            last_log = now
            st.log(
                f"CG round {rounds}: LP {lp.objective * table.scale:.6g}, bound {st.lb * table.scale:.6g}, "
                f"min rc {pr.min_rc:.3g}, {added} new columns ({len(master.sets)} total, {len(master.cuts)} cuts), "
                f"{pr.evaluated} levels priced"
            )
        if added == 0:
            if windows is None:
                st.stats["lp_bound"] = float(lp.objective * table.scale)
            return _CG(
                lp.duals,
                lp.cut_duals,
                cuts,
                master.bonus(lp.level_duals, table.L),
                master.level_cut_rhs(lp.level_duals),
                min(pr.rc_lb, -RC_EPS),
                True,
                lp.x,
                lp.objective,
                pr.ratio_ub,
                node_bound,
            )
        if st.closed():
            return _CG(bound=node_bound)


def pack_count_bounds(
    table: LevelTable, k: int, lo: np.ndarray | None = None, hi: np.ndarray | None = None
) -> dict[int, int]:
    """Right-hand sides of the pack-count cuts: {l: rhs} with N(>= l) >= rhs in every schedule.

    A_l = {i : t(i, p) > tau_{l-1}} (the tasks that cannot finish before tau_l) must sit
    in packs of level >= l, each holding at most k tasks and p processors, and task i
    needs at least m_i(tau_max) processors at any level, so

        N(>= l) >= ceil(max(|A_l| / min(k, p), sum_{i in A_l} m_i(tau_max) / p)).

    The LP only implies the fractional value; only the levels where rounding up
    adds something are returned (at most n of them: A_l changes at the t(i, p)).
    In a tree node with level windows [lo_i, hi_i], A_l = {i : lo_i >= l} and task i
    needs at least m_i(tau_{hi_i}) processors: the same bound, valid in its subtree.
    """
    p = table.p
    kk = min(k, p)
    first = table.first_level if lo is None else np.asarray(lo)
    if hi is None:
        top = table.m(table.L - 1).astype(np.int64)
    elif table.table is not None:
        top = table.table[np.asarray(hi), np.arange(table.n)].astype(np.int64)
    else:
        top = np.array([table.m(int(h))[i] for i, h in enumerate(np.asarray(hi).tolist())], dtype=np.int64)
    out: dict[int, int] = {}
    for level in np.unique(first).tolist():
        members = first >= level
        cnt = int(members.sum())
        procs = int(top[members].sum())
        frac = max(cnt / kk, procs / p)
        rhs = max(-(-cnt // kk), -(-procs // p))
        if rhs > frac + 1e-9:
            out[int(level)] = int(rhs)
    return out


def _level_cut_rounds(st: _State, master: CoveringMaster, cg: _CG, max_rounds: int = 50) -> _CG:
    """Add the violated pack-count cuts (:func:`pack_count_bounds`) and re-run column
    generation until none is violated; returns the last converged state."""
    need = pack_count_bounds(st.table, st.inst.max_pack_size)
    rounds = 0
    while not st.closed() and rounds < max_rounds and not st.deadline.expired():
        new = master.separate_level_cuts(cg.x, need)
        if not new:
            break
        rounds += 1
        master.add_level_cuts(new)
        st.level_cuts = list(master.level_cuts)
        nxt = _column_generation(st, master)
        if not nxt.converged:
            break
        st.log(
            f"pack-count round {rounds}: {len(new)} cuts ({len(master.level_cuts)} in all), LP {nxt.lp * st.table.scale:.6g}"
        )
        cg = nxt
    st.stats["pack_count_cuts"] = len(master.level_cuts)
    return cg


def _cut_rounds(st: _State, master: CoveringMaster, cg: _CG) -> _CG:
    """Strengthen the LP with subset-row cuts on task triples, re-running column generation.

    Stops after ``cut_rounds`` rounds, when no cut is violated, when a round closes
    less than 10 % of the gap between the LP and the incumbent, or when its share of the remaining time is spent
    (``cut_share``; a round cut short is dropped); keeps the last converged state,
    whose duals drive the enumeration (its cut rows stay in the master: valid).
    """
    rounds = 0
    box = st.deadline.share(st.cut_share)
    while not st.closed() and rounds < st.cut_rounds and not box.expired():
        triples = master.separate(cg.x, st.cuts_per_round)
        if not triples:
            break
        rounds += 1
        master.add_cuts(triples)
        st.log(f"cut round {rounds}: {len(triples)} subset-row cuts ({len(master.cuts)} in all)")
        nxt = _column_generation(st, master, box)
        if not nxt.converged:
            break
        # stop when a round closes less than 10 % of the gap left between the LP and the incumbent
        improved = nxt.lp - cg.lp >= max(1e-6 * max(1.0, nxt.lp), 0.1 * (st.ub - cg.lp))
        cg = nxt
        if not improved:
            break
        # the gap left may already be closed by few columns: one probe (``probe_columns``)
        _enumerate_and_solve(st, cg, st.probe_columns, probe_only=True)
    st.stats["cuts"] = len(master.cuts)
    st.stats["cut_rounds"] = rounds
    return cg


def _dive(st: _State, master: CoveringMaster, until: Deadline | None = None, demanding: bool = False) -> float:
    """Top-down strong diving: fix a column of the highest fractional level, re-solve the
    residual LP by column generation, repeat until the LP is integral; returns the cost of
    the cover it offers (table units, before the local search).

    Column-fixing diving is the primal heuristic of branch-and-price that Sadykov,
    Vanderbeck, Pessoa, Tahiri and Uchoa ("Primal heuristics for branch and price: the
    assets of diving methods", INFORMS J. Computing 31(2), 2019) found best, with the
    candidates of each step scored by a trial fix ("strong diving").  Here the packs'
    costs fall fast with their rank (Workload-III k = 32: 40 000, 17 000, 7 000, ...)
    and a pack fixed high decides what the packs below must hold, so the candidates
    are the ``DIVE_CANDIDATES`` fractional columns of highest level (x >= DIVE_MIN_X),
    each scored by the restricted master LP with its tasks removed (no pricing: an
    estimate), and the least wins.  Columns at 1 are fixed for free.  After a fix the
    residual problem (the fixed tasks' rows relaxed, every column holding one of them
    at upper bound 0, the pricing blind to them, the pack-count rows dropped) is
    re-solved by column generation as a tree node, so its bounds stay local.  Fixing
    the largest x instead (small packs first, their x is larger) left the last
    residual LPs so fractional that every fix cost 2-4 % (k = 32, seed 0: 80 421
    after the local search, against 78 916 top down); a dive of the previous kind
    (five partial pricing rounds per step, no scoring) found nothing below the
    paper's heuristics there.  Once ``until`` expires the residual is covered
    greedily (LP support by x, then singletons).  The cover goes to :meth:`_State.offer`
    (local search); every bound, row and basis is restored afterwards and the columns
    priced stay in the master.

    With ``demanding`` the candidates are instead the fractional columns that hold the
    most demanding task left, the uncovered task whose cheapest column in the LP
    support has the highest level (largest x first): the packs are then fixed in the
    order of the levels that some pack must reach, where the default order follows the
    columns' levels among those of x >= DIVE_MIN_X, which can leave a large task
    spread over columns of small x until the end.  :func:`_phases` dives a second
    time this way, from the columns the first dive started from, when the first
    dive's cover is not below the incumbent (in a solve with the paper's heuristics,
    not in the neighbourhood search's windows).  Workload-III, solves stopped after
    the dives, k = 16 seeds 0 / 2: the second dive's cover 99 333.8 / 87 010.2
    (98 954.5 / 87 002.2 after the local search, at 55 / 61 s; the search's windows
    had reached 99 036.9 / 87 052.4 at 58 / 60 s in earlier runs), k = 8 seed 0:
    155 259 (154 847, 27 s; the first dive 162 552).  The demanding dive alone, as
    the only dive: 99 232.8 / 96 788.8 / 86 947.0 at k = 16 seeds 0 / 1 / 2, 79 390.4
    at k = 32 seed 0, where the default order does better at k = 16 seed 1 (96 601)
    and k = 32 seed 0 (78 878): hence second, not first.  The 600 s benchmark at
    k = 16 with it (at 53285bd): 98 771.5 / 98 657.3, 96 389.2 / 96 221.4 (no second
    dive), 86 903.5 / 86 783.1 (gaps 0.116 / 0.174 / 0.139 %; the incumbent of seed 2
    below the 86 909-86 958 of every earlier 600 s run; 180-187 tree nodes).

    At Workload-III k = 16 it ends above the paper's heuristics at seeds 0 and 2
    (100 365 and 91 229, against 99 088 and 87 149 for PACK-BY-PACK-9 and the local
    search; 96 601 against 96 932 at seed 1): at seed 0 the LP was 98 836 with 230 of
    the 260 tasks fixed and the last fix raised it to 100 365, at seed 2 the fourth fix
    raised it from 86 772 to 91 130.  Tried and left out: limited backtracking (a fix
    that raises the re-priced LP by more than 0.5 % undone and the next candidate
    tried, up to three times per step, as in Sadykov et al.'s diving with backtracking;
    branch dive-backtrack): 100 332 and 91 297, since every alternative fix jumped as
    well; and scoring the columns of largest x too when every fix from the top looked
    costly (101 245 and 90 566: the trial LPs, without pricing, overestimate the jumps,
    so small packs were fixed first; at seed 0 the first step's best estimate from the
    top was +0.57 %, its re-priced LP +0.03 %).
    """
    n, table = st.inst.n, st.table
    dl = until or st.deadline
    start = master.basis()
    need = dict(master.level_cuts)
    covered = np.zeros(n, dtype=bool)
    fixed: list[tuple[int, ...]] = []
    all_lo = table.first_level.astype(np.int64)
    all_hi = np.full(n, table.L - 1, dtype=np.int64)
    steps = 0

    def residual(cov: np.ndarray) -> Windows:
        """The master restricted to the tasks outside ``cov`` (empty windows for the others)."""
        lo = np.where(cov, table.L - 1, all_lo)
        hi = np.where(cov, 0, all_hi)
        master.relax_rows(cov)
        master.restrict(lo, hi, np.arange(n))
        return Windows(lo, hi)

    master.set_level_rhs({})
    try:
        lp = master.solve(dl)
        x = None if lp is None else lp.x
        while x is not None and not dl.expired():
            lv = np.asarray(master.levels)[: x.size]
            supp = np.flatnonzero((x > 1e-6) & (lv >= 0))  # packs only
            frac = [c for c in supp.tolist() if x[c] < 1 - 1e-6]
            if not frac:
                break
            for c in supp.tolist():
                if x[c] >= 1 - 1e-6:
                    fixed.append(master.sets[c])
                    covered[list(master.sets[c])] = True
            cands = [c for c in frac if x[c] >= DIVE_MIN_X] or frac
            cands = sorted(cands, key=lambda c: (-lv[c], -x[c]))[:DIVE_CANDIDATES]
            if demanding:
                low = np.full(n, -1, dtype=np.int64)  # least level of an LP column holding task i
                for c in frac:
                    idx = [i for i in master.sets[c] if not covered[i]]
                    low[idx] = np.where(low[idx] < 0, lv[c], np.minimum(low[idx], lv[c]))
                t = int(np.argmax(low))
                held = sorted((c for c in frac if t in master.sets[c]), key=lambda c: -x[c])
                cands = held[:DIVE_CANDIDATES] or cands
            best, best_val = cands[0], math.inf
            if len(cands) > 1:
                base = master.basis()
                for c in cands:
                    trial = covered.copy()
                    trial[list(master.sets[c])] = True
                    residual(trial)
                    master.start_from(base)
                    sol = master.solve(dl)
                    if sol is None:
                        break
                    if sol.objective + master.costs[c] < best_val:
                        best, best_val = c, sol.objective + master.costs[c]
                master.start_from(base)
            s = master.sets[best]
            fixed.append(s)
            covered[list(s)] = True
            steps += 1
            windows = residual(covered)
            cg = _column_generation(st, master, dl, windows)
            if not cg.converged:  # out of time: complete from the last LP point
                break
            x = cg.x
            st.log(
                f"dive step {steps}: a pack at {table.tau[master.levels[best]] * table.scale:.6g} fixed, "
                f"{int(covered.sum())} tasks, LP {(cg.lp + _cost(table, fixed)) * table.scale:.6g}"
            )
        # the residual's LP support, largest x first (all of it when integral; a greedy
        # completion when time ran out), tasks still uncovered alone; offer() makes it a partition
        rest = [] if x is None else [master.sets[c] for c in np.argsort(-x).tolist() if x[c] > 1e-6]
        rest = [r for r in rest if r]
        for r in rest:
            covered[list(r)] = True
        cover = _partition(fixed + rest + [(i,) for i in np.flatnonzero(~covered).tolist()], table)
        cost = _cost(table, cover)
        label = "demanding-task diving" if demanding else "diving"
        st.log(f"{label}: {steps} steps, cover {cost * table.scale:.6g}")
        st.offer(cover, f"{label} ({steps} steps)")
        return cost
    finally:
        master.relax_rows(np.zeros(n, dtype=bool))
        master.restrict(all_lo, all_hi, np.arange(n))
        master.set_level_rhs(need)
        master.start_from(start)
        st.stats["dive_steps"] = st.stats.get("dive_steps", 0) + steps


def _restricted_mip(
    st: _State,
    sets: list[tuple[int, ...]],
    time_limit: float,
    label: str,
    windows: Windows | None = None,
):
    """MIP over a column set (each set at its cheapest allowed level), with the pack-count
    cuts as rows; at the root warm-started from the incumbent (whose columns are added
    if missing), in a tree node (``windows``) cut off at the incumbent's cost instead."""
    index: dict[tuple[int, ...], int] = {}
    uniq: list[tuple[int, ...]] = []
    for s in [*sets, *(st.best_sets if windows is None else [])]:
        if s and s not in index:
            index[s] = len(uniq)
            uniq.append(s)
    levels = [st.column(s, None, windows)[1] for s in uniq]
    costs = [float(st.table.tau[lv]) for lv in levels]
    inc = [index[s] for s in st.best_sets] if windows is None else None
    # (the levels of 10^5 columns take seconds: the run's deadline caps the limit set before)
    rem = st.deadline.remaining()
    sol = solve_covering_mip(
        st.inst.n,
        uniq,
        costs,
        time_limit=min(time_limit, max(rem, 0.0)) if math.isfinite(rem) else time_limit,
        incumbent=inc,
        cutoff=st.ub if windows is not None else None,
        seed=st.seed,
        cuts=st.mip_cuts,
        levels=levels,
        level_cuts=st.level_cuts if windows is None else st.node_level_cuts,
        level_upper=None if windows is None else st.node_level_upper,
    )
    if sol.chosen is not None:
        st.offer([uniq[c] for c in sol.chosen], label)
    return sol


def _cover_search(
    n: int,
    sets: list[tuple[int, ...]],
    rcs: list[float],
    budget: float,
    dl: Deadline,
    node_limit: int = 200_000,
    best: bool = False,
):
    """Exact cover by the given columns with total reduced cost <= ``budget``: depth-first
    search in the manner of Knuth's Algorithm X (branch on the uncovered task with the
    fewest live columns, cheapest columns first; reduced costs >= 0, so a partial cover
    over budget is pruned).  A primal heuristic: with the enumeration duals a partition
    costs D + its total reduced cost, so a cover within budget is a schedule within
    ``budget`` of the bound; ``None`` when none is found within the node limit or the
    deadline.  With ``best`` the search goes on below each cover found (branch and
    bound) and returns (the least cover or ``None``, whether the search was exhausted).
    """
    order = sorted(range(len(sets)), key=lambda c: rcs[c])
    live: list[set[int]] = [set() for _ in range(n)]
    for c in order:
        for i in sets[c]:
            live[i].add(c)
    uncovered = set(range(n))
    chosen: list[int] = []
    least: list[int] | None = None
    nodes = 0
    stop = False

    def remove(c: int) -> list[tuple[int, int]]:
        gone = []
        for i in sets[c]:
            for c2 in live[i]:
                for j in sets[c2]:
                    if j != i and c2 in live[j]:
                        live[j].discard(c2)
                        gone.append((j, c2))
        return gone

    def search(spent: float) -> bool:
        nonlocal nodes, stop, budget, least
        if not uncovered:
            if not best:
                return True
            least, budget = list(chosen), spent - 1e-12
            return False
        nodes += 1
        if nodes > node_limit or (nodes % 16 == 0 and dl.expired()):
            stop = True
        if stop:
            return False
        i = min(uncovered, key=lambda t: len(live[t]))
        for c in sorted(live[i], key=lambda c: rcs[c]):
            if spent + rcs[c] > budget + 1e-12:
                break
            gone = remove(c)
            saved = [(t, live[t]) for t in sets[c]]
            for t in sets[c]:
                live[t] = set()
                uncovered.discard(t)
            chosen.append(c)
            if search(spent + rcs[c]):
                return True
            chosen.pop()
            for t, lv in saved:
                live[t] = lv
                uncovered.add(t)
            for j, c2 in gone:
                live[j].add(c2)
            if stop:
                return False
        return False

    found = search(0.0)
    if best:
        return least, not stop
    return list(chosen) if found else None


def _exact_ratio(st: _State, cg: _CG, dl: Deadline, windows: Windows | None) -> float:
    """max (pi(S) - pen(S) + B(l)) / tau_l at ``cg``'s duals over the columns the gap's
    argument prices, each set at its cheapest allowed level (at least 1), or ``cg.ratio``
    when that takes more than RATIO_COLUMNS columns or the deadline passes.

    A column above 1 has a negative reduced cost, so enumerating every column of reduced
    cost <= 0 (exhaustive, as for the gap) finds them all.  With subset-row cuts the
    pricing's ratio bound stays loose wherever its branch and bound stopped early, and
    the enumeration's Farley bound D with it.  Workload-II k = 4, seed 2, solver seed 2:
    the bound 1.0075 put D 597 below the LP (79 433.9 against 80 031.0), so the
    enumeration needed 117 080 columns to prove an incumbent 7.2 above the LP (76.5 s in
    all); with the exact ratio, 362 columns (39.0 s).
    """
    try:
        cols = enumerate_columns(
            st.table,
            cg.duals,
            st.inst.max_pack_size,
            0.0,
            budget=RATIO_COLUMNS,
            deadline=dl,
            cuts=cg.cuts,
            bonus=cg.bonus,
            windows=windows,
        )
    except (TooManyColumns, TimeoutError):
        return cg.ratio
    best = 1.0
    for level, tasks in cols:
        gain = float(cg.duals[list(tasks)].sum()) - (cg.cuts.penalty(tasks) if cg.cuts is not None else 0.0)
        best = max(best, (gain + (cg.bonus[level] if cg.bonus is not None else 0.0)) / float(st.table.tau[level]))
    return min(best, cg.ratio)


def _enumerate_and_solve(
    st: _State,
    cg: _CG,
    budget: int,
    probe_only: bool = False,
    windows: Windows | None = None,
    time_box: Deadline | None = None,
) -> float:
    """Close the gap: MIP over every column whose reduced cost is at most delta.

    The duals are divided by r >= max (pi(S) - pen(S) + B(l)) / tau_l (the pricing's
    ratio bound), so every column has reduced cost rc >= 0, and D = (sum pi - sum sigma
    + sum mu rhs) / r is the Farley bound.  A partition x costs at least
    D + sum_{c in x} rc_c (each row's slack times its dual is >= 0), so a partition
    using a column with rc > delta costs more than D + delta: opt >= min(MIP bound,
    D + delta), and the MIP optimum is the optimum as soon as delta >= incumbent - D.
    In a tree node (``windows``) everything holds for the node's schedules, with each
    set at its cheapest allowed level.  Returns the lower bound proven (-inf: none);
    ``probe_only``: one attempt over the whole gap, given up past ``st.probe_columns``.
    """
    table, k = st.table, st.inst.max_pack_size
    dl = time_box or st.deadline
    # scaled by the ratio bound, the duals are feasible for the dual of the full LP:
    # every column has reduced cost >= 0 and D is the Farley bound (no rounding slack)
    r = max(1.0, _exact_ratio(st, cg, dl, windows) if cg.ratio > 1 + RATIO_SLACK else cg.ratio) * (1 + 1e-12)
    duals = cg.duals / r
    cuts = None
    if cg.cuts is not None:
        cuts = Cuts(cg.cuts.triples, cg.cuts.sigma / r, st.inst.n)
    bonus = None if cg.bonus is None else cg.bonus / r
    d = (float(cg.duals.sum()) - (float(cg.cut_duals.sum()) if cg.cut_duals is not None else 0.0) + cg.level_rhs) / r
    proven = -math.inf
    stage = 0
    delta, delta_ok, delta_bad = None, 0.0, math.inf

    def enum(delta: float, cap: int):
        return enumerate_columns(
            table, duals, k, delta, budget=cap, deadline=dl, cuts=cuts, bonus=bonus, windows=windows
        )

    while not dl.expired():
        needed = st.ub * (1 - st.gap) - d
        if needed <= 0:
            return max(proven, st.ub * (1 - st.gap))
        if delta is None and probe_only and st.probe_columns <= 0:
            return proven
        if delta is None:
            # small gaps first: the whole gap at once when its columns are few (one MIP proves it)
            delta = needed
            try:
                probe = enum(delta, min(budget, st.probe_columns)) if st.probe_columns > 0 else None
                if probe is None:
                    raise TooManyColumns
            except TooManyColumns:
                if probe_only:
                    return proven
                delta, probe = needed / 4096, None
            except TimeoutError:
                return proven
        else:
            probe = None
        delta = min(needed, delta)
        if delta <= delta_ok:
            break
        stage += 1
        try:
            cols = probe if probe is not None else enum(delta, budget)
        except TooManyColumns:
            delta_bad = delta
            st.log(f"enumeration stage {stage}: more than {budget} columns below delta {delta:.4g}")
            st.stats["enumeration"] = f"column budget {budget} exceeded at delta {delta:.4g} (gap needs {needed:.4g})"
            delta = max(delta / 4, (delta_ok + delta) / 2) if delta_ok > 0 else delta / 4
            if delta < 1.05 * delta_ok or delta < 1e-12:
                break
            continue
        except TimeoutError:
            return proven
        sets = [c[1] for c in cols]
        if st.ub - d > 1e-9 * max(1.0, st.ub):
            # a cover made of columns below delta, searched directly (fast on exact-cover-like cases)
            rcs = [
                float(table.tau[lv])
                - (float(bonus[lv]) if bonus is not None else 0.0)
                - float(duals[list(c)].sum())
                + (cuts.penalty(c) if cuts is not None else 0.0)
                for lv, c in cols
            ]
            cap = 30.0 if windows is None else 2.0  # in a tree node it is only a primal heuristic
            box = dl.share(0.1, cap)
            found = _cover_search(st.inst.n, sets, rcs, min(delta, st.ub - d), box)
            if found is not None:
                st.offer([sets[c] for c in found], f"cover search (delta {delta:.3g})")
        # (pool columns above delta are left out: they cannot improve the proof and slow HiGHS;
        # the incumbent's columns are added by _restricted_mip as its warm start)
        st.stats["enumerated_columns"] = len(cols)
        st.stats["enumeration_delta"] = delta
        if windows is None:
            st.log(f"enumeration stage {stage}: delta {delta:.4g} of {needed:.4g} needed, {len(cols)} columns; MIP")
        rem = dl.remaining()
        limit = rem if math.isfinite(rem) else 1e7
        if windows is not None and probe_only:  # a node's probe: its MIP's bound counts even when stopped
            limit = min(limit, NODE_MIP_TIME)
        if sets:
            sol = _restricted_mip(st, sets, limit, f"enumeration MIP (delta {delta:.3g})", windows)
            mip_bound, optimal = sol.bound, sol.optimal
        else:
            mip_bound, optimal = math.inf, True
        st.stats["mip_columns"] = len(sets)
        outside = d + delta  # every cover using a column outside the set costs more than this
        proven = max(proven, min(mip_bound, outside) * (1 - BOUND_SAFETY))
        if windows is None:
            st.raise_lb(proven, "enumeration")
        if not optimal or delta >= needed or probe_only:
            break
        delta_ok = delta
        delta = delta * 8 if delta * 8 < delta_bad else (delta + delta_bad) / 2
        if delta < 1.05 * delta_ok:
            break
    return proven


def _complete_sets(inst: PackInstance, table: LevelTable) -> list[tuple[int, ...]]:
    """Every set of at most k tasks that fits on p processors at some level."""
    n, k, top = inst.n, inst.max_pack_size, table.L - 1
    return [c for s in range(1, min(n, k) + 1) for c in itertools.combinations(range(n), s) if table.fits(list(c), top)]


def _solve_complete(st: _State, master: CoveringMaster) -> None:
    """Solve an instance whose master holds every column (each set at its cheapest level,
    the pack's optimal cost, Algorithm 1): the master LP is the full LP, so its duals give
    Farley's bound without pricing, and the exact cover of least total reduced cost at its
    duals is the optimum (a partition costs sum_i pi_i + the sum of its columns'
    reduced costs, for any pi), searched by :func:`_cover_search` below the gap."""
    st.stats["complete_master"] = len(master.sets)
    lp = master.solve(st.deadline)
    if lp is None:
        return
    scale = st.table.scale
    st.stats["lp_bound"] = st.stats["lp_bound_plain"] = float(lp.objective * scale)
    pi = np.maximum(lp.duals, 0.0)
    costs = np.asarray(master.costs)
    covered = np.array([pi[list(s)].sum() for s in master.sets])
    d = float(pi.sum())
    # Farley's bound over all columns, in our own arithmetic (not the LP solver's tolerances)
    st.raise_lb(d / max(1.0, float((covered / costs).max())) * (1 - BOUND_SAFETY), "complete LP")
    rcs = costs - covered
    # the LP's reduced costs are >= 0 up to the simplex tolerance: the search runs on their
    # positive parts, and a partition's cost is within n * neg of what the search sees
    slack = st.inst.n * max(0.0, -float(rcs.min()))
    found, exhausted = _cover_search(
        st.inst.n, master.sets, np.maximum(rcs, 0.0).tolist(), st.ub - d + slack, st.deadline, best=True
    )
    if found is not None:
        st.offer([master.sets[c] for c in found], "least-cost exact cover", improve=False)
    if exhausted:  # no partition costs less than the incumbent, up to twice the slack
        st.raise_lb(st.ub - 2 * slack, "exhausted cover search")
    st.log(
        f"complete master: {len(master.sets)} columns, LP {lp.objective * scale:.6g}, cover search "
        f"{'exhausted' if exhausted else 'stopped'}, cost {st.ub * scale:.6g}"
    )


def _phases(
    st: _State,
    master: CoveringMaster,
    max_columns: int,
    rmp_time: float,
    pack_count_cuts: bool,
    tree: bool,
    second_dive: bool = False,
) -> None:
    """The root (column generation, cuts, primal heuristics, enumeration probe), then
    the tree or the staged enumeration, until the gap is closed or time is up; a
    complete master goes from its LP to :func:`_solve_complete` instead."""
    cg = _CG()
    if st.complete is not None and not st.closed():
        _solve_complete(st, master)
    if not st.closed():
        cg = _column_generation(st, master)
        if cg.converged:
            st.stats["lp_bound_plain"] = st.stats["lp_bound"]
            if pack_count_cuts:
                cg = _level_cut_rounds(st, master, cg)
    st.stats["columns"] = len(master.sets)
    if not st.closed() and not st.deadline.expired():
        before, ncol = st.ub, len(master.sets)
        cost = _dive(st, master, st.deadline.share(DIVE_SHARE))
        if second_dive and cost >= before and not st.closed() and not st.deadline.expired():
            # the second dive starts from the columns the first one started from (the
            # first one's go to the retired pool): the dives' choices depend on them
            master.delete(np.arange(ncol, len(master.sets)))
            _dive(st, master, st.deadline.share(DIVE_SHARE), demanding=True)
    if not st.closed() and not st.deadline.expired():
        st.stats["ils_kicks"] = iterated_local_search(st, st.deadline.share(ILS_SHARE, ILS_MAX))
    if rmp_time > 0 and not st.closed() and not st.deadline.expired():
        rem = st.deadline.remaining()
        _restricted_mip(st, master.sets, min(rmp_time, rem), "restricted master MIP")
    if st.neighbourhoods is not None:
        st.neighbourhoods.catch_up()
    if cg.converged and not st.closed() and not st.deadline.expired():
        # a small gap is closed right away by the plain LP's columns (no cuts needed)
        _enumerate_and_solve(st, cg, max_columns, probe_only=True)
    if cg.converged and st.cut_rounds > 0 and not st.closed():
        cg = _cut_rounds(st, master, cg)
        st.stats["columns"] = len(master.sets)
        # No second dive on the cut LP (it had a quarter of the time left): its pricing
        # branches on the cuts, and it never offered a cover below the incumbent.
        # Workload-II k = 4, seeds 0 / 1 / 2, 120 s, no search: covers 83 306.6 / 88 804 /
        # 90 439.8 against optima 77 202.9 / 88 653.3 / 80 038.2, proven in 42.5 / 52.4 /
        # 42.8 s without it instead of 51.7 / 54.5 / 63.7 s; Workload-III k = 4 seed 0:
        # one step in 40 s, cover 301 660 against an incumbent of 271 765
    if cg.converged and not st.closed() and not st.deadline.expired():
        # with subset-row cuts the staged enumeration closes small packs' gaps best;
        # the tree (whose pricing would have to branch on the cuts) comes after it
        if master.cuts or not tree:
            _enumerate_and_solve(st, cg, max_columns)
        if tree and not st.closed() and not st.deadline.expired():
            from .tree import branch

            branch(st, master, cg, max_columns, rmp_time)


def solve(
    instance: PackInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    verbose: bool = False,
    gap: float = 0.0,
    heuristics: bool = True,
    max_columns: int = 400_000,
    rmp_time: float = 10.0,
    cut_rounds: int | None = None,
    pack_count_cuts: bool = True,
    tree: bool = True,
    probe_columns: int = 3000,
    lns: bool = True,
    lns_workers: int | None = None,
    start: PackSchedule | None = None,
    complete_master: int | None = None,
    dominance: bool = True,
) -> Result:
    """Exact: set-covering column generation (knapsack pricing per cost level), pack-count
    cuts, then a branch-and-price tree (on pack counts, then on the tasks' level windows)
    whose nodes close by reduced-cost column enumeration and a MIP; the algorithm is
    documented in :mod:`coschedopt.pack.bnp`.

    Options: ``gap`` relative optimality gap to stop at (default 0: proven optimum);
    ``heuristics`` seed the incumbent with the paper's registered heuristics;
    ``max_columns`` cap on enumerated columns (memory); ``rmp_time`` seconds for
    the restricted-master MIP heuristic (0: none, in the tree either); ``cut_rounds`` rounds of subset-row cuts
    (default: 10 when k <= 4, else 0; with cuts the gap is first attacked by the
    staged enumeration, then by the tree); ``pack_count_cuts`` the rounded
    pack-count inequalities (default on); ``tree`` branch after the root (default
    on; off: staged enumeration only); ``probe_columns`` column budget of the
    enumeration tried over a whole gap at the root and in the nodes (0: never);
    ``lns`` re-solve windows of the incumbent's packs exactly once the run is long
    (:mod:`.lns`, default on); ``lns_workers`` worker processes for that search
    (0: between tree nodes in this process, deterministic; default 1 when the
    machine has two cores or more, else 0; the worker is started by spawn, so a
    script calling this at top level needs the ``if __name__ == "__main__":``
    guard); ``start`` a schedule of this instance to start from (its packs become
    columns and its cost the first upper bound); ``complete_master`` an instance with at
    most this many task sets of size <= k starts from all of them and is solved by
    :func:`_solve_complete`, without the heuristics (default ``COMPLETE_MASTER_MAX``;
    0: never); ``dominance`` the dual-optimal inequalities pi_i <= pi_j of tasks
    ordered by their processor needs (:meth:`.master.CoveringMaster.add_dominance`;
    default on, used without subset-row cuts).
    Returns the best schedule, a certified lower bound and ``TIME_LIMIT`` when
    ``time_limit`` stops it.
    """
    if not (isinstance(gap, int | float) and 0 <= gap < 1):
        from ...core import InputError

        raise InputError(f"gap must be a relative gap in [0, 1), got {gap!r}", where="gap")
    deadline = Deadline(time_limit)
    t = instance.times
    scale = float(np.mean(t[:, -1]))
    table = LevelTable(t, scale)
    st = _State(instance, table, deadline, verbose, float(gap), 0 if seed is None else int(seed), _integral(t))
    if cut_rounds is None:  # subset-row cuts on triples pay off for small packs only (bnp.md)
        cut_rounds = AUTO_CUT_ROUNDS if instance.max_pack_size <= AUTO_CUT_MAX_K else 0
    st.cut_rounds = int(cut_rounds)
    if complete_master is None:
        complete_master = COMPLETE_MASTER_MAX
    if _set_count(instance.n, instance.max_pack_size) <= complete_master:
        st.complete = _complete_sets(instance, table)
    st.probe_columns = int(probe_columns)
    st.stats.update(levels=table.L)
    # trivial bounds: the longest task alone on p processors; the total least work over p
    st.raise_lb(
        max(float(t[:, -1].max()), float(t[:, 0].sum()) / instance.processors) / scale * (1 - BOUND_SAFETY), "trivial"
    )
    master = CoveringMaster(instance.n)
    # the artificial columns of the pack-count rows cost more than any schedule (all singletons)
    master.artificial_cost = 10.0 * float(table.tau[table.first_level].sum()) + 1.0
    if dominance and st.cut_rounds == 0 and st.complete is None:
        master.add_dominance(table.dominance())
    if start is not None:
        validate_schedule(instance, start)
        _add_schedule(st, master, start, "start", improve=False)
    _seed_incumbent(st, master, heuristics)
    if lns:
        from .lns import Neighbourhoods

        if lns_workers is None:
            lns_workers = 1 if available_cores() >= 2 else 0
        if not (isinstance(lns_workers, int) and 0 <= lns_workers <= 1):
            from ...core import InputError

            raise InputError(f"lns_workers must be 0 or 1, got {lns_workers!r}", where="lns_workers")
        st.neighbourhoods = Neighbourhoods(st, lns_workers)
    try:
        _phases(st, master, max_columns, rmp_time, pack_count_cuts, tree, second_dive=heuristics)
    finally:
        if st.neighbourhoods is not None:
            st.neighbourhoods.close()
    lb = min(st.lb, st.ub) * scale
    ub = st.ub * scale
    closed = st.closed()
    if closed:
        status = Status.OPTIMAL
    elif deadline.expired():
        status = Status.TIME_LIMIT
    else:
        status = Status.FEASIBLE
    st.stats["runtime_phases"] = round(time.perf_counter() - st.t0, 3)
    st.log(f"done: {status} cost {ub:.6g} bound {lb:.6g}")
    return Result(
        status=status,
        schedule=_schedule(st),
        lower_bound=lb,
        stats=st.stats,
        message=str(st.stats.get("enumeration", "")),
    )


def _integral(t: np.ndarray) -> bool:
    return bool(np.all(t == np.round(t)))
