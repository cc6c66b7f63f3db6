"""The large neighbourhood search (:mod:`coschedopt.pack.exact.bnp.lns`): windows left optimal, in
this process and in a worker, retries with longer boxes, wider stages, profile moves."""

from __future__ import annotations

import itertools
import multiprocessing
import time

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack import PackInstance
from coschedopt.pack.exact.bnp import BnpOptions
from coschedopt.pack.exact.bnp.driver import solve_window
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.lns import Neighbourhoods
from coschedopt.pack.exact.bnp.state import State
from coschedopt.pack.generate import random_pack_instance

from .helpers import check_result, solve


@pytest.mark.slow
def test_neighbourhood_search_leaves_every_window_optimal() -> None:
    # exhaust the search from the worst start (all singletons): every window of the final
    # incumbent (consecutive packs by level) is then optimal for its tasks, which the
    # independent `enumerate` method confirms; the search never loses a task
    opts = BnpOptions(lns_tasks=7, complete_master_max=0)
    for seed in range(12):
        inst = random_pack_instance(13 + seed % 4, 6 + seed % 5, 2 + seed % 3, seed=900 + seed)
        table = LevelTable(inst.times, 1.0)
        st = State.start(inst, table, Deadline(None), opts, seed=seed)
        st.incumbent.offer([(i,) for i in range(inst.n)], "singletons", improve=False)
        nb = Neighbourhoods(st, solve_window)
        first = st.incumbent.ub
        while nb.step(Deadline(None)):
            assert sorted(i for s in st.incumbent.best_sets for i in s) == list(range(inst.n))
        assert nb.improved > 0 and st.incumbent.ub < first
        assert all(key in nb.tried for _, key in nb.all_windows())  # exhausted
        windows = nb.all_windows()
        for packs, key in windows:
            sub = PackInstance(inst.times[sorted(key)], inst.max_pack_size)
            cost = sum(float(table.tau[table.min_level(s)]) for s in packs)
            assert cost == pytest.approx(cs.solve(sub, "enumerate").objective, rel=1e-9)
        assert windows


@pytest.mark.slow
def test_optimum_with_neighbourhood_search_from_the_start() -> None:
    # the search runs from the first second (lns_after = 0): same optima as `enumerate`
    searched = 0
    for seed in range(15):
        inst = random_pack_instance(12 + seed % 4, 7 + seed % 6, 3 + seed % 3, seed=1300 + seed)
        res = solve(inst, probe_columns=0, lns_workers=0, lns_after=0.0, lns_tasks=8)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        searched += res.stats.get("lns", {}).get("steps", 0) > 0
    assert searched >= 5


def _poll_worker(nb, done, patience: float = 120.0) -> None:
    """Exchange incumbents with the worker until ``done(nb)``; the incumbent stays a partition."""
    until = Deadline(patience)
    while not done(nb) and not until.expired():
        time.sleep(0.02)
        nb.catch_up()
        assert sorted(i for s in nb.st.incumbent.best_sets for i in s) == list(range(nb.st.problem.inst.n))


@pytest.mark.slow
def test_neighbourhood_search_in_a_worker_process() -> None:
    # the worker process searches from the solver's incumbent and the solver takes its
    # cheaper covers: the incumbent stays a partition of the tasks, and once the worker
    # has tried every window, each window of the final incumbent is optimal for its
    # tasks (the independent `enumerate` method).  A cheaper cover found by the solver
    # afterwards (here the optimum) is sent to the worker, which continues from it.
    # close() stops the worker.
    # handed to the worker (another process) with the options; one stage of windows:
    # with wider windows it finds every optimum
    opts = BnpOptions(lns_worker_after=0.0, lns_tasks=7, lns_stages=((1, 1),))
    sent = 0
    for seed in range(6):
        inst = random_pack_instance(14 + seed % 3, 6 + seed % 3, 2 + seed % 3, seed=950 + seed)
        table = LevelTable(inst.times, 1.0)
        st = State.start(inst, table, Deadline(None), opts, seed=seed)
        st.incumbent.offer([(i,) for i in range(inst.n)], "singletons", improve=False)
        first = st.incumbent.ub
        nb = Neighbourhoods(st, solve_window, workers=1)
        try:
            nb.catch_up()  # starts the worker from the singletons
            _poll_worker(nb, lambda nb: nb.exhausted)
            assert nb.exhausted and nb.steps > 0 and nb.improved > 0 and st.incumbent.ub < first
            assert nb.worker_cost == pytest.approx(st.incumbent.ub, rel=1e-12)
            for packs, key in nb.all_windows():
                sub = PackInstance(inst.times[sorted(key)], inst.max_pack_size)
                cost = sum(float(table.tau[table.min_level(s)]) for s in packs)
                assert cost == pytest.approx(cs.solve(sub, "enumerate").objective, rel=1e-9)
            best = cs.solve(inst, "enumerate").schedule
            if st.incumbent.offer([tuple(sorted(i for i, _ in pack)) for pack in best.indices(inst)], "optimum", False):
                sent += 1
                _poll_worker(nb, lambda nb: nb.worker_cost <= nb.st.incumbent.ub * (1 + 1e-12))
                assert nb.worker_cost == pytest.approx(st.incumbent.ub, rel=1e-12)
        finally:
            nb.close()
        assert not multiprocessing.active_children()
        assert st.incumbent.stats["lns"]["workers"] == 1
    assert sent >= 1  # the windows did not always reach the optimum: the transfer was tested
    with pytest.raises(cs.InputError, match="lns_workers"):
        solve(inst, lns_workers=2)
    # a daemonic process (a bench worker) may not start a worker: it searches in-process
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()

    def report() -> None:
        queue.put(Neighbourhoods(st, solve_window, workers=1).workers)

    child = ctx.Process(target=report, daemon=True)
    child.start()
    assert queue.get(timeout=60) == 0
    child.join()


def test_neighbourhood_search_gives_unproven_windows_more_time() -> None:
    # a window stopped by its time box is re-solved, once every window was tried, with
    # twice that box (10, 20, 40, 80 s here), and never beyond lns_max_sub_time; a
    # proven window is not re-solved.  The re-solve is faked (the packs come back as they
    # went, with the status asked for) to record the time boxes.
    opts = BnpOptions(lns_tasks=7, lns_stages=((1, 1),))  # no wider windows afterwards (tested below)
    boxes: list[tuple[frozenset, float]] = []
    proven: set[frozenset] = set()

    def fake(times, k, start, time_limit, seed, options):
        key = frozenset(map(tuple, times.tolist()))
        boxes.append((key, time_limit))
        return start, "OPTIMAL" if key in proven else "TIME_LIMIT", 0.0

    inst = random_pack_instance(16, 6, 3, seed=1800)
    table = LevelTable(inst.times, 1.0)
    st = State.start(inst, table, Deadline(None), opts)
    st.incumbent.offer([tuple(range(r, min(r + 3, inst.n))) for r in range(0, inst.n, 3)], "threes", improve=False)
    nb = Neighbourhoods(st, fake)
    windows = nb.all_windows()
    assert len(windows) >= 3
    proven.add(frozenset(map(tuple, inst.times[sorted(windows[0][1])].tolist())))
    while nb.step(Deadline(None)):
        pass
    per_window: dict[frozenset, list[float]] = {}
    for key, box in boxes:
        per_window.setdefault(key, []).append(box)
    assert len(per_window) == len(windows)
    for key, seq in per_window.items():
        assert seq == ([opts.lns_sub_time] if key in proven else [10.0, 20.0, 40.0, 80.0])
    # first every window once, then the retries, shortest box first
    firsts = [box for _, box in boxes[: len(windows)]]
    assert firsts == [opts.lns_sub_time] * len(windows)
    assert [box for _, box in boxes[len(windows) :]] == sorted(box for _, box in boxes[len(windows) :])


def test_neighbourhood_search_widens_its_windows_once_exhausted() -> None:
    # with nothing improving (a faked re-solve returning the packs unchanged and proven),
    # every window of each stage in lns_stages is tried exactly once, in stage order:
    # the windows of one stage all come before any of the next
    opts = BnpOptions(lns_tasks=4)
    tried: list[frozenset] = []

    def fake(times, k, start, time_limit, seed, options):
        tried.append(frozenset(map(tuple, times.tolist())))
        return start, "OPTIMAL", 0.0

    inst = random_pack_instance(24, 6, 2, seed=1810)
    table = LevelTable(inst.times, 1.0)
    st = State.start(inst, table, Deadline(None), opts)
    st.incumbent.offer([(r, r + 1) for r in range(0, inst.n, 2)], "pairs", improve=False)
    nb = Neighbourhoods(st, fake)
    while nb.step(Deadline(None)):
        pass
    expected: list[frozenset] = []
    for m, reach in opts.lns_stages:
        keys = [frozenset(map(tuple, inst.times[sorted(key)].tolist())) for _, key in nb.all_windows(4 * m, reach)]
        new = {key for key in keys if key not in expected}
        assert new, f"stage {m, reach} adds windows"
        assert set(tried[len(expected) : len(expected) + len(new)]) == new
        expected += list(new)
    assert len(tried) == len(expected) == len(set(tried))


def test_skipping_windows_are_every_pack_with_up_to_three_of_the_packs_after_it() -> None:
    # all_windows(reach=r): the packs sorted by level; pack a with m = 1..3 of packs
    # a+1..a+r (any of them, not only adjacent ones), within the task limit when m > 1
    for seed in range(6):
        inst = random_pack_instance(30, 8, 3, seed=2500 + seed)
        table = LevelTable(inst.times, 1.0)
        st = State.start(inst, table, Deadline(None))
        rng = np.random.default_rng(seed)
        order = rng.permutation(inst.n).tolist()
        sizes = rng.integers(1, 4, size=inst.n).tolist()
        packs, r = [], 0
        for size in sizes:
            if r < inst.n:
                packs.append(tuple(sorted(order[r : r + size])))
                r += size
        assert st.incumbent.offer(packs, "random", improve=False)
        nb = Neighbourhoods(st, solve_window)
        ranked = sorted(st.incumbent.best_sets, key=lambda s: (table.min_level(s), s))
        for limit, reach in ((4, 4), (6, 2), (9, 3)):
            got = sorted(sorted(map(tuple, w)) for w, _ in nb.all_windows(limit, reach))
            want = []
            for a in range(len(ranked)):
                after = range(a + 1, min(len(ranked), a + 1 + reach))
                for m in (1, 2, 3):
                    for rest in itertools.combinations(after, m):
                        sel = [ranked[a], *(ranked[b] for b in rest)]
                        size = sum(map(len, sel))
                        if (m == 1 or size <= limit) and size <= 2 * limit:
                            want.append(sorted(sel))
            assert got == sorted(want)
            runs = [sorted(ranked[a:b]) for a in range(len(ranked)) for b in range(a + 2, len(ranked) + 1)]
            assert any(w not in runs for w in got), "some window skips a pack"


def test_neighbourhood_search_makes_a_profile_move_once_the_first_windows_are_tried() -> None:
    # with window re-solves that never improve (faked), a profile move comes only once every
    # window of the first stage of the current incumbent was tried, and only once per
    # incumbent; it never loses a task nor makes the incumbent dearer; without the node LP's
    # levels (set_levels) there is none
    opts = BnpOptions(lns_tasks=4, lns_profile_share=1e9)

    def unchanged(times, k, start, time_limit, seed, options):
        return start, "OPTIMAL", 0.0

    inst = random_pack_instance(16, 6, 3, seed=1811)
    table = LevelTable(inst.times, 1.0)
    for levels in (None, np.arange(table.L)):
        st = State.start(inst, table, Deadline(None), opts)
        st.incumbent.offer([(r, r + 1) for r in range(0, inst.n, 2)], "pairs", improve=False)
        nb = Neighbourhoods(st, unchanged)
        if levels is not None:
            nb.set_levels(levels)
        first, costs = st.incumbent.ub, []
        while True:
            ready, before = all(key in nb.tried for _, key in nb.all_windows()), st.incumbent.ub
            if not nb.step(Deadline(None)):
                break
            assert (
                sorted(i for s in st.incumbent.best_sets for i in s) == list(range(inst.n))
                and st.incumbent.ub <= before
            )
            if nb.last.startswith("pack profile"):
                assert ready and before not in costs
                costs.append(before)
        assert (costs == []) == (levels is None)
        if levels is not None:
            assert st.incumbent.ub < first  # from pairs, re-partitioning every task at once gains
