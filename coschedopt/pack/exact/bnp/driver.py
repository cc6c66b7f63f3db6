"""The method ``branch-and-price``: its phases in order, and the window re-solve of the search.

:func:`run` (the ``pack`` method ``branch-and-price``, registered in :mod:`.method`) builds the
level table, the master and the state, seeds the incumbent, then runs the root
(column generation and pack-count cuts), the root's primal heuristics, the
enumeration probe, the subset-row cut rounds and the tree or the staged
enumeration, until the gap is closed or time is up.
"""

from __future__ import annotations

import time

import numpy as np

from ....core import Deadline, Result, Status, available_cores
from ...instance import PackInstance
from ...schedule import PackSchedule, validate_schedule
from .closing import complete_sets, enumerate_and_solve, face_probe, restricted_mip, set_count, solve_complete
from .colgen import CGResult, column_generation, cut_rounds, level_cut_rounds
from .levels import LevelTable
from .lns import Neighbourhoods
from .master import CoveringMaster
from .options import BnpOptions
from .primal import add_schedule, dive, iterated_local_search, seed_incumbent
from .state import State, integral
from .tree import branch


def run(
    instance: PackInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: BnpOptions
) -> Result:
    """The phases of branch-and-price on ``instance`` with checked ``options``: the best
    schedule, a certified lower bound, and ``TIME_LIMIT`` when ``time_limit`` stops it."""
    deadline = Deadline(time_limit)
    st, master = _start(instance, deadline, options, verbose, 0 if seed is None else int(seed))
    search = None  # the neighbourhood search: the driver's, handed to the phases that exchange with it
    if options.lns:
        workers = options.lns_workers
        if workers is None:
            workers = 1 if available_cores() >= 2 else 0
        search = Neighbourhoods(st, solve_window, workers)
    try:
        cg = _root(st, master, search)
        _root_heuristics(st, master, search)
        _close(st, master, cg, search)
    finally:
        if search is not None:
            search.close()
    return _result(st)


def _start(
    instance: PackInstance, deadline: Deadline, opts: BnpOptions, verbose: bool, seed: int
) -> tuple[State, CoveringMaster]:
    """The state (trivial bounds, cut rounds, the complete master of small instances) and
    the master (dual-optimal inequalities, the start schedule, the first incumbents)."""
    t0 = time.perf_counter()
    t = instance.times
    scale = float(np.mean(t[:, -1]))
    table = LevelTable(t, scale, opts.full_table_limit)
    k = instance.max_pack_size
    rounds = opts.cut_rounds
    if rounds is None:  # subset-row cuts on triples pay off for small packs only
        rounds = opts.auto_cut_rounds if k <= opts.auto_cut_max_k else 0
    complete_master = opts.complete_master_max if opts.complete_master is None else opts.complete_master
    complete = complete_sets(instance, table) if set_count(instance.n, k) <= complete_master else None
    st = State.start(instance, table, deadline, opts, verbose, seed, integral(t), rounds, complete, t0)
    st.incumbent.live = True  # this solve's incumbent and bound are the method's (not a sub-problem's)
    st.incumbent.stats.update(levels=table.L)
    # trivial bounds: the longest task alone on p processors; the total least work over p
    st.incumbent.raise_lb(
        st.incumbent.safe(max(float(t[:, -1].max()), float(t[:, 0].sum()) / instance.processors) / scale), "trivial"
    )
    master = CoveringMaster(instance.n)
    # the artificial columns of the pack-count rows cost more than any schedule (all singletons)
    master.artificial_cost = opts.artificial_cost_factor * float(table.tau[table.first_level].sum()) + 1.0
    if opts.dominance and st.problem.cut_rounds == 0 and st.problem.complete is None:
        master.add_dominance(table.dominance())
    if opts.start is not None:
        validate_schedule(instance, opts.start)
        add_schedule(st, master, opts.start, "start", improve=False)
    seed_incumbent(st, master, opts.heuristics)
    return st, master


def _root(st: State, master: CoveringMaster, search: Neighbourhoods | None) -> CGResult:
    """The complete master's cover search, or the root LP by column generation with its
    pack-count cuts."""
    cg = CGResult()
    if st.problem.complete is not None and not st.incumbent.closed():
        solve_complete(st, master)
    if not st.incumbent.closed():
        cg = column_generation(st, master, search=search)
        if cg.converged:
            st.incumbent.stats["lp_bound_plain"] = st.incumbent.stats["lp_bound"]
            if st.problem.opts.pack_count_cuts:
                cg = level_cut_rounds(st, master, cg, search)
            if st.problem.opts.face_delta > 0 and not st.incumbent.closed():
                face_probe(st, cg)
    st.incumbent.stats["columns"] = len(master.sets)
    return cg


def _root_heuristics(st: State, master: CoveringMaster, search: Neighbourhoods | None) -> None:
    """The root's dives (a second, demanding-task one when the first found nothing below
    the incumbent, in a solve with the paper's heuristics), the iterated local search and
    the restricted-master MIP."""
    opts = st.problem.opts
    if not st.incumbent.closed() and not st.problem.deadline.expired():
        before, ncol = st.incumbent.ub, len(master.sets)
        cost = dive(st, master, st.problem.deadline.share(opts.dive_share), search=search)
        if opts.heuristics and cost >= before and not st.incumbent.closed() and not st.problem.deadline.expired():
            # the second dive starts from the columns the first one started from (the
            # first one's go to the retired pool): the dives' choices depend on them
            master.delete(np.arange(ncol, len(master.sets)))
            dive(st, master, st.problem.deadline.share(opts.dive_share), demanding=True, search=search)
    if not st.incumbent.closed() and not st.problem.deadline.expired():
        st.incumbent.stats["ils_kicks"] = iterated_local_search(
            st, st.problem.deadline.share(opts.ils_share, opts.ils_max)
        )
    if opts.rmp_time > 0 and not st.incumbent.closed() and not st.problem.deadline.expired():
        rem = st.problem.deadline.remaining()
        restricted_mip(st, master.sets, min(opts.rmp_time, rem), "restricted master MIP")
    if search is not None:
        search.catch_up()


def _close(st: State, master: CoveringMaster, cg: CGResult, search: Neighbourhoods | None) -> None:
    """Close the gap: a probe over the plain LP's columns, the subset-row cut rounds, then
    the staged enumeration (with cuts, or without the tree) and the tree."""
    opts = st.problem.opts
    if cg.converged and not st.incumbent.closed() and not st.problem.deadline.expired():
        # a small gap is closed right away by the plain LP's columns (no cuts needed)
        enumerate_and_solve(st, cg, opts.max_columns, probe_only=True)
    if cg.converged and st.problem.cut_rounds > 0 and not st.incumbent.closed():
        # no dive on the cut LP: its pricing branches on the cuts (bnp-notes.md)

        def probe(c: CGResult) -> float:
            return enumerate_and_solve(st, c, opts.probe_columns, probe_only=True)

        cg = cut_rounds(st, master, cg, probe, search)
        st.incumbent.stats["columns"] = len(master.sets)
    if cg.converged and not st.incumbent.closed() and not st.problem.deadline.expired():
        # with subset-row cuts the staged enumeration closes small packs' gaps best;
        # the tree (whose pricing would have to branch on the cuts) comes after it
        if master.cuts or not opts.tree:
            enumerate_and_solve(st, cg, opts.max_columns)
        if opts.tree and not st.incumbent.closed() and not st.problem.deadline.expired():
            branch(st, master, cg, opts.max_columns, opts.rmp_time, search)


def _result(st: State) -> Result:
    scale = st.problem.table.scale
    lb = min(st.incumbent.lb, st.incumbent.ub) * scale
    ub = st.incumbent.ub * scale
    if st.incumbent.closed():
        status = Status.OPTIMAL
    elif st.problem.deadline.expired():
        status = Status.TIME_LIMIT
    else:
        status = Status.FEASIBLE
    st.incumbent.stats["runtime_phases"] = round(time.perf_counter() - st.incumbent.t0, 3)
    st.incumbent.log(f"done: {status} cost {ub:.6g} bound {lb:.6g}")
    return Result(
        status=status,
        schedule=st.incumbent.schedule(),
        lower_bound=lb,
        stats=st.incumbent.stats,
        message=str(st.incumbent.stats.get("enumeration", "")),
    )


def solve_window(
    times: np.ndarray, k: int, start: list[list[tuple[int, int]]], time_limit: float, seed: int, options: BnpOptions
) -> tuple[list[list[tuple[int, int]]], str, float]:
    """Re-solve one window of the neighbourhood search: the sub-instance of its tasks (rows
    of ``times``) with ``options`` (:meth:`.options.BnpOptions.for_window`), started from
    its packs ``start`` (task row, processors); returns the packs found, the status and the
    seconds spent.  Module-level so that a worker process can run it."""
    sub = PackInstance(times, k, name="window")
    t0 = time.perf_counter()
    res = run(
        sub,
        time_limit=time_limit,
        seed=seed,
        verbose=False,
        options=options.replace(start=PackSchedule.from_indices(sub, start)),
    )
    return res.schedule.indices(sub), str(res.status), time.perf_counter() - t0
