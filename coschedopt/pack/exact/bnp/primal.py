"""Primal heuristics of the root: first incumbents, iterated local search, top-down diving.

The tree's own primal heuristics (plunges, integral node LPs, pack profiles) are in
:mod:`.tree`, the neighbourhood search in :mod:`.lns`; every schedule found goes
through :meth:`.state.Incumbent.offer` (local search when it is close to the incumbent).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ....core import Deadline, get_method, methods
from ...schedule import PackSchedule
from .colgen import add_columns, column_generation
from .levels import Windows
from .local_search import local_search
from .master import CoveringMaster
from .state import State, cover_cost, partition

if TYPE_CHECKING:
    from .lns import Neighbourhoods


def add_schedule(st: State, master: CoveringMaster, schedule: PackSchedule, source: str, improve: bool) -> None:
    """A schedule's packs enter the master as columns and are offered as incumbent."""
    sets = [tuple(sorted(i for i, _ in pack)) for pack in schedule.indices(st.problem.inst)]
    add_columns(st, master, [st.problem.column(s) for s in sets])
    st.incumbent.offer(sets, source, improve=improve)


def seed_incumbent(st: State, master: CoveringMaster, use_heuristics: bool) -> None:
    """Singletons (each task alone on p processors), then the paper's heuristics if
    registered (``seed_heuristics``); or, when ``st.problem.complete`` holds every feasible set,
    those sets instead of the heuristics (:func:`.closing.solve_complete` finishes the job)."""
    n = st.problem.inst.n
    singles = [(i,) for i in range(n)]
    lv = [int(st.problem.table.first_level[i]) for i in range(n)]
    master.add(singles, [float(st.problem.table.tau[v]) for v in lv], lv)
    st.incumbent.offer(singles, "singletons", improve=False)
    if st.problem.complete is not None:
        add_columns(st, master, [st.problem.column(s) for s in st.problem.complete])
        return
    if not use_heuristics:
        return
    known = set(methods("pack"))
    for name in st.problem.opts.seed_heuristics:
        if name not in known or st.problem.deadline.expired():
            continue
        rem = st.problem.deadline.remaining()
        opts = st.problem.opts
        limit = min(opts.heuristic_max, max(opts.heuristic_min, opts.heuristic_share * rem))
        try:
            res = get_method("pack", name).func(
                st.problem.inst, time_limit=limit if math.isfinite(rem) else opts.heuristic_max, seed=st.problem.seed
            )
        except Exception as exc:  # a heuristic failing must not stop the exact method
            st.incumbent.log(f"heuristic {name} failed: {exc!r}")
            continue
        if res.schedule is None:
            continue
        add_schedule(st, master, res.schedule, name, improve=True)


def iterated_local_search(st: State, until: Deadline) -> int:
    """Kick the incumbent (``ils_swaps`` random swaps of tasks between packs), re-run the
    local search, keep the result when it is better; repeat until ``until`` or until
    max(``ils_idle_kicks``, n) kicks in a row bring nothing.  Returns the number of kicks."""
    rng = np.random.default_rng(st.problem.seed)
    kicks = idle = 0
    patience = max(st.problem.opts.ils_idle_kicks, st.problem.inst.n)
    while not until.expired() and len(st.incumbent.best_sets) >= 2 and not st.incumbent.closed() and idle < patience:
        packs = [list(s) for s in st.incumbent.best_sets]
        for _ in range(st.problem.opts.ils_swaps):
            a, b = rng.choice(len(packs), 2, replace=False)
            ia, ib = rng.integers(len(packs[a])), rng.integers(len(packs[b]))
            packs[a][ia], packs[b][ib] = packs[b][ib], packs[a][ia]
        sets, cost = local_search(
            st.problem.table,
            st.problem.inst.max_pack_size,
            [tuple(p) for p in packs],
            until,
            st.problem.opts.local_search_passes,
        )
        found = math.isfinite(cost) and st.incumbent.offer(sets, f"iterated local search (kick {kicks + 1})")
        idle = 0 if found else idle + 1
        kicks += 1
    return kicks


def _residual(master: CoveringMaster, cov: np.ndarray, all_lo: np.ndarray, all_hi: np.ndarray) -> Windows:
    """The master restricted to the tasks outside ``cov`` (empty windows for the others)."""
    lo = np.where(cov, all_hi, all_lo)
    hi = np.where(cov, 0, all_hi)
    master.relax_rows(cov)
    master.restrict(lo, hi, np.arange(cov.size))
    return Windows(lo, hi)


def dive_candidates(
    st: State, master: CoveringMaster, x: np.ndarray, frac: list[int], covered: np.ndarray, demanding: bool
) -> list[int]:
    """The columns a dive step scores: the ``dive_candidates`` fractional columns of highest
    level (x >= ``dive_min_x`` if any), or with ``demanding`` those holding the uncovered
    task whose cheapest fractional column is the highest (largest x first)."""
    lv = np.asarray(master.levels)[: x.size]
    cands = [c for c in frac if x[c] >= st.problem.opts.dive_min_x] or frac
    cands = sorted(cands, key=lambda c: (-lv[c], -x[c]))[: st.problem.opts.dive_candidates]
    if demanding:
        low = np.full(st.problem.inst.n, -1, dtype=np.int64)  # least level of an LP column holding task i
        for c in frac:
            idx = [i for i in master.sets[c] if not covered[i]]
            low[idx] = np.where(low[idx] < 0, lv[c], np.minimum(low[idx], lv[c]))
        t = int(np.argmax(low))
        held = sorted((c for c in frac if t in master.sets[c]), key=lambda c: -x[c])
        cands = held[: st.problem.opts.dive_candidates] or cands
    return cands


def _strongest(master: CoveringMaster, cands: list[int], covered: np.ndarray, bounds, dl: Deadline) -> int:
    """The candidate whose fix gives the least restricted-master LP (no pricing: an estimate)."""
    best, best_val = cands[0], math.inf
    if len(cands) > 1:
        base = master.basis()
        for c in cands:
            trial = covered.copy()
            trial[list(master.sets[c])] = True
            _residual(master, trial, *bounds)
            master.start_from(base)
            sol = master.solve(dl)
            if sol is None:
                break
            if sol.objective + master.costs[c] < best_val:
                best, best_val = c, sol.objective + master.costs[c]
        master.start_from(base)
    return best


def _fix_next(st, master, x, covered, fixed, demanding, bounds, dl) -> int | None:
    """One dive step on the LP point ``x``: fix its columns at 1, then the best candidate;
    the column fixed last, or None when ``x`` holds no fractional pack."""
    lv = np.asarray(master.levels)[: x.size]
    supp = np.flatnonzero((x > 1e-6) & (lv >= 0))  # packs only
    frac = [c for c in supp.tolist() if x[c] < 1 - 1e-6]
    if not frac:
        return None
    for c in supp.tolist():
        if x[c] >= 1 - 1e-6:
            fixed.append(master.sets[c])
            covered[list(master.sets[c])] = True
    best = _strongest(master, dive_candidates(st, master, x, frac, covered, demanding), covered, bounds, dl)
    fixed.append(master.sets[best])
    covered[list(master.sets[best])] = True
    return best


def dive(
    st: State,
    master: CoveringMaster,
    until: Deadline | None = None,
    demanding: bool = False,
    search: Neighbourhoods | None = None,
) -> float:
    """Top-down strong diving: fix a column of the highest fractional level, re-solve the
    residual LP by column generation, repeat until the LP is integral; returns the cost of
    the cover it offers (table units, before the local search).

    Column-fixing diving is the primal heuristic of branch-and-price that Sadykov,
    Vanderbeck, Pessoa, Tahiri and Uchoa ("Primal heuristics for branch and price: the
    assets of diving methods", INFORMS J. Computing 31(2), 2019) found best, with the
    candidates of each step scored by a trial fix ("strong diving").  Here the packs'
    costs fall fast with their rank and a pack fixed high decides what the packs below
    must hold, so the candidates are the fractional columns of highest level
    (:func:`dive_candidates`), each scored by the restricted master LP with its tasks
    removed (no pricing: an estimate), and the least wins.  Columns at 1 are fixed for
    free.  After a fix the residual problem (the fixed tasks' rows relaxed, every column
    holding one of them at upper bound 0, the pricing blind to them, the pack-count rows
    dropped) is re-solved by column generation as a tree node, so its bounds stay local.
    Once ``until`` expires the residual is covered greedily (LP support by x, then
    singletons).  The cover goes to :meth:`.state.Incumbent.offer` (local search); every
    bound, row and basis is restored afterwards and the columns priced stay in the master.

    With ``demanding`` the packs are fixed in the order of the levels that some pack must
    reach (the most demanding task left first), where the default order follows the
    columns' levels, which can leave a large task spread over columns of small x until
    the end; the driver dives this way second, when the first dive's cover is not below
    the incumbent (measurements: ``benchmarks/results/bnp-notes.md``).  ``search``: the
    neighbourhood search, exchanging with its worker between column-generation rounds.
    """
    n, table = st.problem.inst.n, st.problem.table
    dl = until or st.problem.deadline
    start = master.basis()
    need = dict(master.level_cuts)
    covered = np.zeros(n, dtype=bool)
    fixed: list[tuple[int, ...]] = []
    bounds = (table.first_level.astype(np.int64), np.full(n, table.L - 1, dtype=np.int64))
    steps = 0
    master.set_level_rhs({})
    try:
        lp = master.solve(dl)
        x = None if lp is None else lp.x
        while x is not None and not dl.expired():
            best = _fix_next(st, master, x, covered, fixed, demanding, bounds, dl)
            if best is None:
                break
            steps += 1
            cg = column_generation(st, master, dl, _residual(master, covered, *bounds), search=search)
            if not cg.converged:  # out of time: complete from the last LP point
                break
            x = cg.x
            st.incumbent.log(
                f"dive step {steps}: a pack at {table.tau[master.levels[best]] * table.scale:.6g} fixed, "
                f"{int(covered.sum())} tasks, LP {(cg.lp + cover_cost(table, fixed)) * table.scale:.6g}"
            )
        # the residual's LP support, largest x first (all of it when integral; a greedy
        # completion when time ran out), tasks still uncovered alone; offer() makes it a partition
        rest = [] if x is None else [master.sets[c] for c in np.argsort(-x).tolist() if x[c] > 1e-6]
        rest = [r for r in rest if r]
        for r in rest:
            covered[list(r)] = True
        cover = partition(fixed + rest + [(i,) for i in np.flatnonzero(~covered).tolist()])
        cost = cover_cost(table, cover)
        label = "demanding-task diving" if demanding else "diving"
        st.incumbent.log(f"{label}: {steps} steps, cover {cost * table.scale:.6g}")
        st.incumbent.offer(cover, f"{label} ({steps} steps)")
        return cost
    finally:
        master.relax_rows(np.zeros(n, dtype=bool))
        master.restrict(*bounds, np.arange(n))
        master.set_level_rhs(need)
        master.start_from(start)
        st.incumbent.count("dive_steps", steps)
