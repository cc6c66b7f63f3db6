"""Closing a gap exactly: reduced-cost enumeration, exact-cover search and the restricted MIP.

Divide the duals by r >= max (pi(S) - pen(S) + B(l)) / tau_l, so that every column
has reduced cost rc >= 0 and D (the scaled dual objective) is Farley's bound.  Any
schedule x costs at least D + sum_{c in x} rc_c, so after enumerating every column
with rc <= delta (:mod:`.enumeration`) and solving the covering MIP over them (with
the pack-count rows), opt >= min(MIP bound, D + delta), which proves optimality as
soon as delta reaches incumbent - D.  Where the pricing's bound on r is loose (with
subset-row cuts its branch and bound may stop early) r is computed exactly from the
columns of reduced cost <= 0 (:func:`exact_ratio`).  At the root with subset-row
cuts the enumeration is staged (delta grows ``enum_growth`` x per stage under ``max_columns``); in
the tree it is one probe over the node's whole gap under ``probe_columns``.  An
exact-cover search (Algorithm X order, Knuth, "Dancing links", 2000) over the
enumerated columns finds Theorem 2's perfect 3-partitions directly.

Small instances start from the complete master, every task set at its cheapest
level (:func:`solve_complete`): its LP is the full LP, and since any partition costs
sum_i pi_i plus its columns' reduced costs, the exact-cover branch and bound below
the incumbent's gap finds the optimum and proves it when it is exhausted.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ....core import Deadline
from ...instance import PackInstance
from .colgen import CGResult
from .enumeration import TooManyColumns, enumerate_columns
from .levels import LevelTable, Windows
from .master import CoveringMaster
from .mips import MIPSolution, solve_covering_mip
from .options import BnpOptions
from .pricing import Cuts
from .state import State


def restricted_mip(
    st: State, sets: list[tuple[int, ...]], time_limit: float, label: str, windows: Windows | None = None
) -> MIPSolution:
    """MIP over a column set (each set at its cheapest allowed level), with the pack-count
    cuts as rows; at the root warm-started from the incumbent (whose columns are added
    if missing), in a tree node (``windows``) cut off at the incumbent's cost instead."""
    index: dict[tuple[int, ...], int] = {}
    uniq: list[tuple[int, ...]] = []
    for s in [*sets, *(st.incumbent.best_sets if windows is None else [])]:
        if s and s not in index:
            index[s] = len(uniq)
            uniq.append(s)
    levels = [st.problem.column(s, None, windows)[1] for s in uniq]
    costs = [float(st.problem.table.tau[lv]) for lv in levels]
    inc = [index[s] for s in st.incumbent.best_sets] if windows is None else None
    # (the levels of 10^5 columns take seconds: the run's deadline caps the limit set before)
    rem = st.problem.deadline.remaining()
    level_cuts, level_upper = st.node.mip_rows(windows is not None)
    sol = solve_covering_mip(
        st.problem.inst.n,
        uniq,
        costs,
        time_limit=min(time_limit, max(rem, 0.0)) if math.isfinite(rem) else time_limit,
        incumbent=inc,
        cutoff=st.incumbent.ub if windows is not None else None,
        seed=st.problem.seed,
        levels=levels,
        level_cuts=level_cuts,
        level_upper=level_upper,
    )
    if sol.chosen is not None:
        st.incumbent.offer([uniq[c] for c in sol.chosen], label)
    return sol


def luby(i: int) -> int:
    """The i-th term (i >= 1) of Luby, Sinclair and Zuckerman's universal restart sequence
    1, 1, 2, 1, 1, 2, 4, 1, ... (Inf. Proc. Letters 47(4), 1993)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def cover_search(
    n: int,
    sets: list[tuple[int, ...]],
    rcs: list[float],
    budget: float,
    dl: Deadline,
    node_limit: int | None = None,
    best: bool = False,
    restarts: np.random.Generator | None = None,
    restart_nodes: int | None = None,
):
    """Exact cover by the given columns with total reduced cost <= ``budget``: depth-first
    search in the manner of Knuth's Algorithm X (branch on the uncovered task with the
    fewest live columns, cheapest columns first; reduced costs >= 0, so a partial cover
    over budget is pruned).  A primal heuristic: with the enumeration duals a partition
    costs D + its total reduced cost, so a cover within budget is a schedule within
    ``budget`` of the bound; ``None`` when none is found within the node limit or the
    deadline.  With ``best`` the search goes on below each cover found (branch and
    bound) and returns (the least cover or ``None``, whether the search was exhausted).
    ``node_limit``: :attr:`.options.BnpOptions.cover_nodes` unless given.

    With ``restarts`` (a generator; not with ``best``) the search restarts after
    ``restart_nodes`` (:attr:`.options.BnpOptions.cover_restart_nodes`) times the i-th
    Luby term nodes, the first run as above and each later one with its ties broken at
    random: the task of fewest live columns among equals, and the columns ordered by
    reduced cost plus a random tenth of the budget.  Exact-cover searches have
    heavy-tailed run times (a bad early choice is never undone within the limit) and
    randomised restarts cut the tail (Gomes, Selman and Kautz, AAAI 1998); a run that
    ends within its limit has searched everything, and ends the restarts.
    """
    if node_limit is None:
        node_limit = BnpOptions().cover_nodes
    if restarts is None or best:
        found, _, exhausted = _cover_run(n, sets, rcs, budget, dl, node_limit, best, None)
        return (found, exhausted) if best else found
    base = BnpOptions().cover_restart_nodes if restart_nodes is None else restart_nodes
    spent, run = 0, 0
    while spent < node_limit and not dl.expired():
        run += 1
        limit = min(base * luby(run), node_limit - spent)
        found, nodes, exhausted = _cover_run(n, sets, rcs, budget, dl, limit, False, restarts if run > 1 else None)
        if found is not None or exhausted:  # a run that ends within its limit has searched everything
            return found
        spent += nodes
    return None


def _cover_run(n, sets, rcs, budget, dl, node_limit, best, rng):
    """One run of :func:`cover_search` (``rng``: random tie-breaking); returns (the cover
    found, or with ``best`` the least one, or ``None``; the nodes it took; whether the search
    was exhausted, not stopped by its node limit or the deadline)."""
    key = list(rcs) if rng is None else (np.asarray(rcs) + rng.random(len(sets)) * (0.1 * max(budget, 0.0))).tolist()
    tie = [0.0] * n if rng is None else rng.random(n).tolist()
    order = sorted(range(len(sets)), key=lambda c: key[c])
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
        i = min(uncovered, key=lambda t: (len(live[t]), tie[t]))
        for c in sorted(live[i], key=lambda c: key[c]):
            if spent + rcs[c] > budget + 1e-12:
                if rng is None:
                    break
                continue
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
        return least, nodes, not stop
    return (list(chosen) if found else None), nodes, not stop


def exact_ratio(st: State, cg: CGResult, dl: Deadline, windows: Windows | None) -> float:
    """max (pi(S) - pen(S) + B(l)) / tau_l at ``cg``'s duals over the columns the gap's
    argument prices, each set at its cheapest allowed level (at least 1), or ``cg.ratio``
    when that takes more than ``ratio_columns`` columns or the deadline passes.

    A column above 1 has a negative reduced cost, so enumerating every column of reduced
    cost <= 0 (exhaustive, as for the gap) finds them all.  With subset-row cuts the
    pricing's ratio bound stays loose wherever its branch and bound stopped early, and
    the enumeration's Farley bound D with it.
    """
    try:
        cols = enumerate_columns(
            st.problem.table,
            cg.duals,
            st.problem.inst.max_pack_size,
            0.0,
            budget=st.problem.opts.ratio_columns,
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
        best = max(
            best, (gain + (cg.bonus[level] if cg.bonus is not None else 0.0)) / float(st.problem.table.tau[level])
        )
    return min(best, cg.ratio)


class _ScaledDuals:
    """``cg``'s duals divided by the ratio r, feasible for the dual of the full LP: every
    column has reduced cost >= 0 and ``d`` is Farley's bound (no rounding slack)."""

    def __init__(self, st: State, cg: CGResult, dl: Deadline, windows: Windows | None) -> None:
        self.st, self.dl, self.windows = st, dl, windows
        slack = st.problem.opts.ratio_slack
        r = max(1.0, exact_ratio(st, cg, dl, windows) if cg.ratio > 1 + slack else cg.ratio) * (1 + 1e-12)
        self.duals = cg.duals / r
        self.cuts = None if cg.cuts is None else Cuts(cg.cuts.triples, cg.cuts.sigma / r, st.problem.inst.n)
        self.bonus = None if cg.bonus is None else cg.bonus / r
        cut_sum = float(cg.cut_duals.sum()) if cg.cut_duals is not None else 0.0
        self.d = (float(cg.duals.sum()) - cut_sum + cg.level_rhs) / r

    def enumerate(self, delta: float, cap: int) -> list[tuple[int, tuple[int, ...]]]:
        st = self.st
        return enumerate_columns(
            st.problem.table,
            self.duals,
            st.problem.inst.max_pack_size,
            delta,
            budget=cap,
            deadline=self.dl,
            cuts=self.cuts,
            bonus=self.bonus,
            windows=self.windows,
        )

    def reduced_cost(self, level: int, tasks: tuple[int, ...]) -> float:
        return (
            float(self.st.problem.table.tau[level])
            - (float(self.bonus[level]) if self.bonus is not None else 0.0)
            - float(self.duals[list(tasks)].sum())
            + (self.cuts.penalty(tasks) if self.cuts is not None else 0.0)
        )


def _cover_below(st: State, scaled: _ScaledDuals, cols: list, delta: float, box: Deadline, label: str) -> None:
    """A cover made of the enumerated columns within ``delta`` (and below the incumbent),
    searched directly with restarts (fast on exact-cover-like cases) within ``box``, offered
    as incumbent under ``label``."""
    opts = st.problem.opts
    sets = [c[1] for c in cols]
    rcs = [scaled.reduced_cost(lv, c) for lv, c in cols]
    found = cover_search(
        st.problem.inst.n,
        sets,
        rcs,
        min(delta, st.incumbent.ub - scaled.d),
        box,
        node_limit=opts.cover_nodes,
        restarts=np.random.default_rng(st.problem.seed),
        restart_nodes=opts.cover_restart_nodes,
    )
    if found is not None:
        st.incumbent.offer([sets[c] for c in found], label)


def _stage_mip(
    st: State, sets: list, delta: float, dl: Deadline, windows: Windows | None, probe_only: bool
) -> tuple[float, bool]:
    """(MIP bound, whether optimal) of the covering MIP over the enumerated columns; a
    node's probe MIP is time-boxed (``node_mip_time``), its bound counts even when stopped."""
    if not sets:
        return math.inf, True
    rem = dl.remaining()
    limit = rem if math.isfinite(rem) else 1e7
    if windows is not None and probe_only:
        limit = min(limit, st.problem.opts.node_mip_time)
    # (pool columns above delta are left out: they cannot improve the proof and slow HiGHS;
    # the incumbent's columns are added by restricted_mip as its warm start)
    sol = restricted_mip(st, sets, limit, f"enumeration MIP (delta {delta:.3g})", windows)
    return sol.bound, sol.optimal


def face_probe(st: State, cg: CGResult) -> None:
    """Look for a schedule on the optimal face of the root LP: an exact cover by the columns
    whose reduced cost at the scaled duals is at most ``face_delta`` times Farley's bound D.

    Such a cover costs at most D (1 + face_delta), so where the LP bound is attained (the
    integer round-up property of cutting stock, and Theorem 2's yes-instances, whose
    perfect 3-partitions are all at reduced cost 0) it proves the optimum before any dive
    or cut.  The enumeration stops past ``face_columns`` columns and the whole probe within
    ``face_share`` of the time left (``face_max`` seconds at most): on a degenerate LP
    whose optimal face is too large to enumerate it costs that and nothing more.
    """
    opts = st.problem.opts
    dl = st.problem.deadline.share(opts.face_share, opts.face_max)
    scaled = _ScaledDuals(st, cg, dl, None)
    delta = opts.face_delta * max(scaled.d, 0.0)
    if st.incumbent.ub - scaled.d <= delta:
        return
    try:
        cols = scaled.enumerate(delta, opts.face_columns)
    except (TooManyColumns, TimeoutError):
        st.incumbent.log(f"face probe: more than {opts.face_columns} columns or out of time at delta {delta:.3g}")
        return
    st.incumbent.log(f"face probe: {len(cols)} columns of reduced cost <= {delta:.3g}")
    st.incumbent.stats["face_columns"] = len(cols)
    _cover_below(st, scaled, cols, delta, dl, f"face probe ({len(cols)} columns)")


def enumerate_and_solve(
    st: State,
    cg: CGResult,
    budget: int,
    probe_only: bool = False,
    windows: Windows | None = None,
    time_box: Deadline | None = None,
) -> float:
    """Close the gap: MIP over every column whose reduced cost is at most delta.

    A partition x costs at least D + sum_{c in x} rc_c (each row's slack times its dual
    is >= 0), so a partition using a column with rc > delta costs more than D + delta:
    opt >= min(MIP bound, D + delta), and the MIP optimum is the optimum as soon as
    delta >= incumbent - D.  In a tree node (``windows``) everything holds for the
    node's schedules, with each set at its cheapest allowed level.  Returns the lower
    bound proven (-inf: none); ``probe_only``: one attempt over the whole gap, given up
    past ``probe_columns``.  Otherwise the stages start from the gap divided by
    ``enum_first_fraction`` and grow by ``enum_growth`` while the MIPs are solved to
    optimality, shrinking by ``enum_shrink`` past ``budget`` columns.
    """
    opts = st.problem.opts
    dl = time_box or st.problem.deadline
    scaled = _ScaledDuals(st, cg, dl, windows)
    probe_columns = st.problem.opts.probe_columns
    proven = -math.inf
    stage = 0
    delta, delta_ok, delta_bad = None, 0.0, math.inf
    while not dl.expired():
        needed = st.incumbent.ub * (1 - st.incumbent.gap) - scaled.d
        if needed <= 0:
            return max(proven, st.incumbent.ub * (1 - st.incumbent.gap))
        probe = None
        if delta is None:
            # small gaps first: the whole gap at once when its columns are few (one MIP proves it)
            try:
                probe = scaled.enumerate(needed, min(budget, probe_columns)) if probe_columns > 0 else None
            except TooManyColumns:
                probe = None
            except TimeoutError:
                return proven
            if probe is None and probe_only:
                return proven
            delta = needed if probe is not None else needed / opts.enum_first_fraction
        delta = min(needed, delta)
        if delta <= delta_ok:
            break
        stage += 1
        try:
            cols = probe if probe is not None else scaled.enumerate(delta, budget)
        except TooManyColumns:
            delta_bad = delta
            st.incumbent.log(f"enumeration stage {stage}: more than {budget} columns below delta {delta:.4g}")
            st.incumbent.stats["enumeration"] = (
                f"column budget {budget} exceeded at delta {delta:.4g} (gap needs {needed:.4g})"
            )
            shrunk = delta / opts.enum_shrink
            delta = max(shrunk, (delta_ok + delta) / 2) if delta_ok > 0 else shrunk
            if delta < opts.enum_min_step * delta_ok or delta < 1e-12:
                break
            continue
        except TimeoutError:
            return proven
        if st.incumbent.ub - scaled.d > 1e-9 * max(1.0, st.incumbent.ub):
            # the time box: cover_share of the time left, at most cover_max seconds (in a
            # tree node, where it is only a primal heuristic, cover_node_max)
            cap = opts.cover_max if windows is None else opts.cover_node_max
            _cover_below(st, scaled, cols, delta, dl.share(opts.cover_share, cap), f"cover search (delta {delta:.3g})")
            if st.incumbent.closed():
                return proven
        st.incumbent.stats["enumerated_columns"] = len(cols)
        st.incumbent.stats["enumeration_delta"] = delta
        if windows is None:
            st.incumbent.log(
                f"enumeration stage {stage}: delta {delta:.4g} of {needed:.4g} needed, {len(cols)} columns; MIP"
            )
        sets = [c[1] for c in cols]
        mip_bound, optimal = _stage_mip(st, sets, delta, dl, windows, probe_only)
        st.incumbent.stats["mip_columns"] = len(sets)
        outside = scaled.d + delta  # every cover using a column outside the set costs more than this
        proven = max(proven, st.incumbent.safe(min(mip_bound, outside)))
        if windows is None:
            st.incumbent.raise_lb(proven, "enumeration")
        if not optimal or delta >= needed or probe_only:
            break
        delta_ok = delta
        grown = delta * opts.enum_growth
        delta = grown if grown < delta_bad else (delta + delta_bad) / 2
        if delta < opts.enum_min_step * delta_ok:
            break
    return proven


def set_count(n: int, k: int) -> int:
    """Number of task sets of size 1..k: sum_s C(n, s)."""
    return sum(math.comb(n, s) for s in range(1, min(n, k) + 1))


def complete_sets(inst: PackInstance, table: LevelTable) -> list[tuple[int, ...]]:
    """Every set of at most k tasks that fits on p processors at some level."""
    n, k, top = inst.n, inst.max_pack_size, table.L - 1
    return [c for s in range(1, min(n, k) + 1) for c in itertools.combinations(range(n), s) if table.fits(list(c), top)]


def solve_complete(st: State, master: CoveringMaster) -> None:
    """Solve an instance whose master holds every column (each set at its cheapest level,
    the pack's optimal cost, Algorithm 1): the master LP is the full LP, so its duals give
    Farley's bound without pricing, and the exact cover of least total reduced cost at its
    duals is the optimum (a partition costs sum_i pi_i + the sum of its columns'
    reduced costs, for any pi), searched by :func:`cover_search` below the gap."""
    st.incumbent.stats["complete_master"] = len(master.sets)
    lp = master.solve(st.problem.deadline)
    if lp is None:
        return
    scale = st.problem.table.scale
    st.incumbent.stats["lp_bound"] = st.incumbent.stats["lp_bound_plain"] = float(lp.objective * scale)
    pi = np.maximum(lp.duals, 0.0)
    costs = np.asarray(master.costs)
    covered = np.array([pi[list(s)].sum() for s in master.sets])
    d = float(pi.sum())
    # Farley's bound over all columns, in our own arithmetic (not the LP solver's tolerances)
    st.incumbent.raise_lb(st.incumbent.safe(d / max(1.0, float((covered / costs).max()))), "complete LP")
    rcs = costs - covered
    # the LP's reduced costs are >= 0 up to the simplex tolerance: the search runs on their
    # positive parts, and a partition's cost is within n * neg of what the search sees
    slack = st.problem.inst.n * max(0.0, -float(rcs.min()))
    budget = st.incumbent.ub - d + slack
    rcs_plus = np.maximum(rcs, 0.0).tolist()
    found, exhausted = cover_search(
        st.problem.inst.n,
        master.sets,
        rcs_plus,
        budget,
        st.problem.deadline,
        node_limit=st.problem.opts.cover_nodes,
        best=True,
    )
    if found is not None:
        st.incumbent.offer([master.sets[c] for c in found], "least-cost exact cover", improve=False)
    if exhausted:  # no partition costs less than the incumbent, up to twice the slack
        st.incumbent.raise_lb(st.incumbent.ub - 2 * slack, "exhausted cover search")
    st.incumbent.log(
        f"complete master: {len(master.sets)} columns, LP {lp.objective * scale:.6g}, cover search "
        f"{'exhausted' if exhausted else 'stopped'}, cost {st.incumbent.ub * scale:.6g}"
    )
