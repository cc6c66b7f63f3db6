"""Column generation on the covering master, with its cuts: pack-count and subset-row rows.

The restricted master LP is re-solved warm after each round of columns; the pricing
(:mod:`.pricing`) runs at Wentges-smoothed duals, pi = a pi_center + (1 - a) pi_LP,
with pi_center the duals of the best Farley bound so far (Wentges, "Weighted Dantzig-
Wolfe decomposition for linear mixed-integer programming", ITOR 4(2), 1997).  Every
priced dual vector gives a valid bound: for duals pi >= 0, sigma >= 0 and mu, and
r >= max (pi(S) - pen(S) + B(l)) / tau_l over all columns, dual objective / max(1, r)
is a lower bound of the full LP (Farley's bound), certified by the knapsack DP rather
than the LP solver's tolerances.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ....core import Deadline
from .levels import LevelTable, Windows
from .master import CoveringMaster, LPSolution
from .pricing import Cuts, Pricing, price
from .state import State

if TYPE_CHECKING:
    from .lns import Neighbourhoods


@dataclass
class CGResult:
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


def cuts_of(master: CoveringMaster, sigma: np.ndarray | None) -> Cuts | None:
    """The master's subset-row cuts with a positive dual in ``sigma``, for the pricing."""
    data = master.cut_data(sigma)
    return None if data is None else Cuts(data[0], data[1], master.n)


def price_at(st: State, master: CoveringMaster, pi: np.ndarray, sigma: np.ndarray, mu: np.ndarray, dl: Deadline, **kw):
    """Price columns at duals (pi tasks, sigma subset-row cuts, mu pack-count rows): the
    pricing result, the cuts and the level bonus it used."""
    cuts = cuts_of(master, sigma)
    bonus = master.bonus(mu, st.problem.table.L)
    pr = price(
        st.problem.table,
        pi,
        st.problem.inst.max_pack_size,
        column_threshold=-st.problem.opts.rc_eps,
        deadline=dl,
        columns_per_level=st.problem.opts.per_level,
        cuts=cuts,
        bonus=bonus,
        **kw,
    )
    return pr, cuts, bonus


def add_columns(st: State, master: CoveringMaster, cols: list[tuple[tuple[int, ...], int]]) -> int:
    """Add (task set, level) columns to the master at cost tau_level; how many were new."""
    return master.add([c[0] for c in cols], [float(st.problem.table.tau[c[1]]) for c in cols], [c[1] for c in cols])


class _Rounds:
    """The rounds of one column generation: the stabilization center, the best bound met."""

    def __init__(
        self,
        st: State,
        master: CoveringMaster,
        dl: Deadline,
        windows: Windows | None,
        cutoff: float,
        search: Neighbourhoods | None,
    ) -> None:
        self.st, self.master, self.dl, self.windows, self.cutoff = st, master, dl, windows, cutoff
        self.search = search
        self.center: np.ndarray | None = None
        self.center_lb = -math.inf
        self.node_bound = -math.inf
        self.last_log = 0.0

    def run(self) -> CGResult:
        st = self.st
        rounds = st.incumbent.stats.get("cg_rounds", 0)
        while True:
            lp = self.master.solve(self.dl)
            if lp is None:
                return CGResult(bound=self.node_bound)
            rounds += 1
            st.incumbent.stats["cg_rounds"] = rounds
            if self.search is not None and self.search.workers > 0:
                self.search.catch_up()  # exchange incumbents with the worker process
            priced = self.price_round(lp)
            if priced is None:  # out of time, or the node's bound reached the cutoff
                return CGResult(bound=self.node_bound)
            pr, cuts, added = priced
            self.log_round(rounds, lp, pr, added)
            if added == 0:
                return self.converged(lp, pr, cuts)
            if st.incumbent.closed():
                return CGResult(bound=self.node_bound)

    def price_round(self, lp: LPSolution) -> tuple[Pricing, Cuts | None, int] | None:
        """Price at the smoothed duals, then at the LP duals (with cuts, the cheap pricing,
        penalties checked on the DP's best set only, before the exact branch and bound; in a
        tree node, partial pricing at the LP duals first) until some column enters; None
        when the pricing was cut short or the bound reached the cutoff."""
        st, master, windows, dl = self.st, self.master, self.windows, self.dl
        full_lp = np.concatenate([lp.duals, lp.cut_duals, lp.level_duals])
        if self.center is None or self.center.size != full_lp.size:
            self.center, self.center_lb = full_lp, -math.inf
        n, nsr = st.problem.inst.n, lp.cut_duals.size
        alpha = st.problem.opts.smoothing
        attempts = [(alpha, 1), (0.0, 1), (0.0, st.problem.opts.cut_nodes)] if master.cuts else [(alpha, 0), (0.0, 0)]
        if windows is not None and not master.cuts:
            attempts.insert(0, (0.0, -1))  # in a tree node: partial pricing at the LP duals first
        for a, nodes in attempts:
            vec = full_lp if a == 0.0 else a * self.center + (1.0 - a) * full_lp
            pi, sigma, mu = vec[:n], vec[n : n + nsr], vec[n + nsr :]
            partial = {"enough": st.problem.opts.node_pricing_enough} if nodes < 0 else {}
            pr, cuts, bonus = price_at(
                st, master, pi, sigma, mu, dl, cut_nodes=max(nodes, 1), windows=windows, **partial
            )
            st.incumbent.count("pricing_levels_evaluated", pr.evaluated)
            if not pr.complete and partial and not dl.expired():
                # stopped once it had enough columns (no bound then): add them, or price fully
                cols = [st.problem.column(tasks, bonus, windows) for _, _, tasks in pr.columns]
                added = add_columns(st, master, cols)
                if added:
                    break
                continue
            if not pr.complete:
                return None
            self.farley(vec, pi, sigma, mu, pr)
            if self.node_bound >= self.cutoff:
                return None
            cols = [st.problem.column(tasks, bonus, windows) for _, _, tasks in pr.columns]
            if a > 0.0:
                cols = self.pricing_out_at(lp, cols)
            added = add_columns(st, master, cols)
            if added or (a == 0.0 and not master.cuts):
                break  # (nothing prices out at the LP duals themselves: the LP is optimal)
        return pr, cuts, added

    def farley(self, vec: np.ndarray, pi: np.ndarray, sigma: np.ndarray, mu: np.ndarray, pr: Pricing) -> None:
        """Farley's bound of a complete pricing: (pi, sigma, mu) / max ratio is feasible for
        the dual of the full LP; the best one becomes the stabilization center."""
        st = self.st
        dual_obj = float(pi.sum()) - float(sigma.sum()) + self.master.level_cut_rhs(mu)
        bound = st.incumbent.safe(dual_obj / max(1.0, pr.ratio_ub))
        self.node_bound = max(self.node_bound, bound)
        if self.windows is None:
            st.incumbent.raise_lb(bound, "farley")
        if bound > self.center_lb:
            self.center, self.center_lb = vec, bound

    def pricing_out_at(self, lp: LPSolution, cols: list[tuple[tuple[int, ...], int]]) -> list:
        """The columns found at smoothed duals that price out against the LP duals, each at
        its best level for them."""
        st, table, windows = self.st, self.st.problem.table, self.windows
        lp_cuts = cuts_of(self.master, lp.cut_duals)
        lp_bonus = self.master.bonus(lp.level_duals, table.L)
        cols = [st.problem.column(c[0], lp_bonus, windows) for c in cols]
        return [
            c
            for c in cols
            if table.tau[c[1]]
            - (lp_bonus[c[1]] if lp_bonus is not None else 0.0)
            - float(lp.duals[list(c[0])].sum())
            + (lp_cuts.penalty(c[0]) if lp_cuts is not None else 0.0)
            < -st.problem.opts.rc_eps
        ]

    def log_round(self, rounds: int, lp: LPSolution, pr: Pricing, added: int) -> None:
        st, table = self.st, self.st.problem.table
        now = time.perf_counter() - st.incumbent.t0
        if (
            st.incumbent.verbose
            and self.windows is None
            and (now - self.last_log > st.problem.opts.cg_log_every or added == 0)
        ):
            self.last_log = now
            st.incumbent.log(
                f"CG round {rounds}: LP {lp.objective * table.scale:.6g}, bound {st.incumbent.lb * table.scale:.6g}, "
                f"min rc {pr.min_rc:.3g}, {added} new columns ({len(self.master.sets)} total, "
                f"{len(self.master.cuts)} cuts), {pr.evaluated} levels priced"
            )

    def converged(self, lp: LPSolution, pr: Pricing, cuts: Cuts | None) -> CGResult:
        st, table, master = self.st, self.st.problem.table, self.master
        if self.windows is None:
            st.incumbent.stats["lp_bound"] = float(lp.objective * table.scale)
        return CGResult(
            lp.duals,
            lp.cut_duals,
            cuts,
            master.bonus(lp.level_duals, table.L),
            master.level_cut_rhs(lp.level_duals),
            min(pr.rc_lb, -st.problem.opts.rc_eps),
            True,
            lp.x,
            lp.objective,
            pr.ratio_ub,
            self.node_bound,
        )


def column_generation(
    st: State,
    master: CoveringMaster,
    until: Deadline | None = None,
    windows: Windows | None = None,
    cutoff: float = math.inf,
    search: Neighbourhoods | None = None,
) -> CGResult:
    """Solve the master LP (with its current cuts) over all columns.

    With ``windows`` (a tree node: the master's columns outside them already have
    upper bound 0) pricing respects them, the Farley bounds are the node's (kept in
    ``CGResult.bound``, not raised globally), and the loop stops as soon as that bound
    reaches ``cutoff`` (the node is pruned; ``converged`` stays False).

    Columns found at the smoothed duals enter when they price out against the LP duals.
    When none does (a mis-price), pricing falls back to the LP duals themselves, so the
    loop ends exactly when the LP is optimal over all columns.  In a tree node the
    pricing at the LP duals comes first and stops after ``node_pricing_enough`` columns
    (no bound then); the full passes follow only when it found none.  With a worker
    process, the neighbourhood search ``search`` exchanges incumbents between rounds.
    """
    return _Rounds(st, master, until or st.problem.deadline, windows, cutoff, search).run()


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


def level_cut_rounds(st: State, master: CoveringMaster, cg: CGResult, search: Neighbourhoods | None = None) -> CGResult:
    """Add the violated pack-count cuts (:func:`pack_count_bounds`) and re-run column
    generation until none is violated (at most ``pack_count_rounds`` rounds); returns the
    last converged state."""
    max_rounds = st.problem.opts.pack_count_rounds
    need = pack_count_bounds(st.problem.table, st.problem.inst.max_pack_size)
    rounds = 0
    while not st.incumbent.closed() and rounds < max_rounds and not st.problem.deadline.expired():
        new = master.separate_level_cuts(cg.x, need)
        if not new:
            break
        rounds += 1
        master.add_level_cuts(new)
        st.node.level_cuts = list(master.level_cuts)
        nxt = column_generation(st, master, search=search)
        if not nxt.converged:
            break
        st.incumbent.log(
            f"pack-count round {rounds}: {len(new)} cuts ({len(master.level_cuts)} in all), LP {nxt.lp * st.problem.table.scale:.6g}"
        )
        cg = nxt
    st.incumbent.stats["pack_count_cuts"] = len(master.level_cuts)
    return cg


def cut_rounds(
    st: State,
    master: CoveringMaster,
    cg: CGResult,
    probe: Callable[[CGResult], Any],
    search: Neighbourhoods | None = None,
) -> CGResult:
    """Strengthen the LP with subset-row cuts on task triples (Jepsen, Petersen, Spoorendonk
    and Pisinger, Oper. Res. 56(2), 2008), re-running column generation.

    Stops after ``st.problem.cut_rounds`` rounds, when no cut is violated, when a round closes
    less than ``cut_min_gain`` of the gap between the LP and the incumbent, or when its share of the
    time left is spent (``cut_share``; a round cut short is dropped); keeps the last
    converged state, whose duals drive the enumeration (its cut rows stay in the master:
    valid).  After each round that raises the LP, ``probe`` tries to close the gap left.
    """
    rounds = 0
    box = st.problem.deadline.share(st.problem.opts.cut_share)
    while not st.incumbent.closed() and rounds < st.problem.cut_rounds and not box.expired():
        triples = master.separate(cg.x, st.problem.opts.cuts_per_round)
        if not triples:
            break
        rounds += 1
        master.add_cuts(triples)
        st.incumbent.log(f"cut round {rounds}: {len(triples)} subset-row cuts ({len(master.cuts)} in all)")
        nxt = column_generation(st, master, box, search=search)
        if not nxt.converged:
            break
        # stop when a round closes less than cut_min_gain of the gap left between the LP and the incumbent
        improved = nxt.lp - cg.lp >= max(
            1e-6 * max(1.0, nxt.lp), st.problem.opts.cut_min_gain * (st.incumbent.ub - cg.lp)
        )
        cg = nxt
        if not improved:
            break
        probe(cg)
    st.incumbent.stats["cuts"] = len(master.cuts)
    st.incumbent.stats["cut_rounds"] = rounds
    return cg
