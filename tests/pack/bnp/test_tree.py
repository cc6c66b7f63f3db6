"""The tree (:mod:`coschedopt.pack.exact.bnp.tree`): exact alone, with count and window branches,
column purges and plunges; lazy node rows; the covers it reads off node LPs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack import PackInstance
from coschedopt.pack.exact.bnp import driver
from coschedopt.pack.exact.bnp.branching import Node
from coschedopt.pack.exact.bnp.colgen import column_generation, pack_count_bounds
from coschedopt.pack.exact.bnp.levels import LevelTable, Windows
from coschedopt.pack.exact.bnp.master import CoveringMaster
from coschedopt.pack.exact.bnp.state import State
from coschedopt.pack.exact.bnp.tree import add_singletons, integral_cover, node_lp, profile_cover, select
from coschedopt.pack.generate import random_pack_instance

from ..strategies import pack_instances
from .helpers import brute_force_optimum, check_result, seeded_master, solve


@pytest.mark.slow
def test_tree_alone_reaches_the_optimum() -> None:
    # no heuristics, no enumeration probes: the optimum and its proof come from the tree
    branched = 0
    for seed in range(40):
        inst = random_pack_instance(9 + seed % 3, 6 + seed % 7, 3 + seed % 3, seed=100 + seed)
        res = solve(inst, heuristics=False, probe_columns=0, rmp_time=0.0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        branched += res.stats.get("tree_nodes", 0) > 1
    assert branched >= 5  # the tree did branch on some


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=8, max_p=7, min_n=3))
def test_tree_optimum_equals_brute_force(inst: PackInstance) -> None:
    res = solve(inst, heuristics=False, probe_columns=0, rmp_time=0.0)
    check_result(inst, res, brute_force_optimum(inst))


@pytest.mark.slow
@pytest.mark.parametrize("count_branching", [True, False])
def test_tree_with_count_and_window_branches_matches_enumerate(count_branching: bool) -> None:
    # bigger packs and more tasks: the tree branches on pack counts, or (counts disabled)
    # on level windows only, and still proves the optimum
    counts = {} if count_branching else {"count_fraction": 0.5}
    kinds = {"count_branches": 0, "window_branches": 0}
    for seed in range(30):
        inst = random_pack_instance(11 + seed % 4, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = solve(inst, heuristics=False, probe_columns=0, rmp_time=0.0, **counts)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        for key in kinds:
            kinds[key] += res.stats.get(key, 0)
    if count_branching:
        assert kinds["count_branches"] > 0
    else:
        assert kinds["count_branches"] == 0 and kinds["window_branches"] > 0


def test_node_pack_count_rows_enter_only_when_violated() -> None:
    # a tree node adds its valid pack-count bounds as master rows lazily (each row is
    # dense); its converged LP must equal the LP with every one of them as a row, and
    # satisfy them all

    fewer = 0
    for seed in range(10):
        inst = random_pack_instance(20, 8, 3 + seed % 3, seed=1900 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        rng = np.random.default_rng(seed)
        lo = table.first_level.astype(np.int64).copy()
        hi = np.full(inst.n, table.L - 1, dtype=np.int64)
        raised = rng.choice(inst.n, 5, replace=False)
        lo[raised] = np.maximum(lo[raised], rng.integers(0, table.L, 5))
        valid = pack_count_bounds(table, inst.max_pack_size, lo, hi)
        lps, rows = [], []
        for lazy in (True, False):
            st, master = seeded_master(inst, table, seed)
            st.incumbent.ub = math.inf  # no pruning by the incumbent: both LPs run to the end
            add_singletons(st, master, lo, hi)
            master.restrict(lo, hi, np.arange(inst.n))
            windows = Windows(lo, hi)
            if lazy:
                cg = node_lp(st, master, windows, {}, dict(valid), {})
            else:
                master.set_level_rhs(dict(valid))
                cg = column_generation(st, master, windows=windows)
            assert cg.converged
            lv = np.asarray(master.levels)[: cg.x.size]
            for level, rhs in valid.items():
                assert cg.x[lv >= level].sum() >= rhs - 1e-6
            lps.append(cg.lp)
            rows.append(len(master.level_cuts))
        assert lps[0] == pytest.approx(lps[1], rel=1e-7, abs=1e-9)
        assert rows[0] <= rows[1]
        fewer += rows[0] < rows[1]
    assert fewer >= 3


def test_tree_with_column_purges_matches_enumerate() -> None:
    # the tree deletes columns as soon as the master holds a few: still exact
    purges = {"purge_above": 40, "purge_to": 25, "purge_age": 2}
    purged = 0
    for seed in range(20):
        inst = random_pack_instance(11 + seed % 4, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = solve(inst, heuristics=False, probe_columns=0, rmp_time=0.0, **purges)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        purged += res.stats.get("purged_columns", 0)
    assert purged > 0


def test_plunge_goes_on_with_the_child_or_returns_to_the_best_open_node() -> None:
    def node(bound: float, tick: int) -> Node:
        return Node(bound, tick, np.zeros(2, dtype=np.int64), np.ones(2, dtype=np.int64))

    heap = [node(5.0, 1), node(7.0, 2)]
    child = node(9.0, 3)
    assert select(heap, child, True) == (child, True)  # the plunge goes on, whatever its bound
    assert [h.bound for h in heap] == [5.0, 7.0]
    picked, plunging = select(heap, child, False)  # the plunge stops: best open node next
    assert (picked.bound, plunging) == (5.0, False)
    assert sorted(h.bound for h in heap) == [7.0, 9.0]
    picked, plunging = select(heap, None, True)  # no child: the best open node
    assert (picked.bound, plunging) == (7.0, False)
    assert [h.bound for h in heap] == [9.0]


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.0, 1.0])
def test_tree_with_plunges_matches_enumerate(monkeypatch, share: float) -> None:
    # share 1: a plunge starts after every best-first node (and goes on while its bound
    # stays within plunge_quot of the gap); share 0: one plunge from the root, then best
    # first only.  Both exact
    monkeypatch.setattr(driver, "dive", lambda *a, **k: math.inf)  # the tree is the only primal source
    monkeypatch.setattr(driver, "iterated_local_search", lambda *a, **k: 0)
    branched = found = 0
    for seed in range(20):
        inst = random_pack_instance(12 + seed % 5, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = solve(inst, heuristics=False, probe_columns=0, rmp_time=0.0, lns=False, plunge_share=share)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        branched += res.stats.get("tree_nodes", 0) > 2
        found += bool(res.stats.get("tree_incumbents"))
        if res.stats.get("tree_nodes", 0) > 1:  # the root's child was processed next, as a plunge
            assert res.stats["plunges"] >= 1
            assert 0 <= res.stats["failed_plunges"] <= res.stats["plunges"]
            if share == 0.0:  # no share left after the first plunge
                assert res.stats["plunges"] == 1
    assert branched >= 5 and found >= 3


def test_integral_cover_puts_a_task_covered_through_a_dominance_column_in_place() -> None:

    times = np.array([[4.0, 2.5, 2.0, 1.5], [6.0, 3.5, 2.5, 2.0], [5.0, 3.0, 2.2, 2.0], [3.0, 2.0, 1.5, 1.25]])
    inst = PackInstance(times, max_pack_size=2)
    table = LevelTable(inst.times)
    assert table.above(0)[1] and not table.above(1)[0]  # task 0 may replace task 1
    st = State.start(inst, table, Deadline(None))
    master = CoveringMaster(inst.n)
    master.add_dominance(np.array([[0, 1]]))
    sets = [(1, 2), (1, 3)]
    levels = [table.min_level(s) for s in sets]
    master.add(sets, [float(table.tau[lv]) for lv in levels], levels)
    cover = integral_cover(st, master, np.array([1.0, 1.0, 1.0]))  # y_01 = 1: task 0 through task 1
    assert cover is not None and sorted(i for s in cover for i in s) == [0, 1, 2, 3]
    for s, lv in zip(cover, levels, strict=True):
        assert table.fits(list(s), lv)  # at the level of the pack it came from
    assert integral_cover(st, master, np.array([1.0, 0.5, 1.0])) is None  # a fractional pack
    # task 1 in one pack only: no place for task 0
    assert integral_cover(st, master, np.array([1.0, 1.0, 0.0])) is None


def test_profile_cover_rebuilds_a_schedule_from_its_pack_counts() -> None:
    """An LP point with integral pack counts (here a schedule's own columns, plus a column at
    x = 0) gives a schedule of at most its cost; a fractional count gives none."""

    inst = random_pack_instance(12, 8, 3, seed=31)
    table = LevelTable(inst.times, 1.0)
    st = State.start(inst, table, Deadline(None))
    res = cs.solve(inst, "pack-by-pack-1")
    sets = [tuple(sorted(inst.index[name] for name, _ in pack)) for pack in res.schedule.packs]
    levels = [table.min_level(s) for s in sets]
    master = CoveringMaster(inst.n)
    master.add([*sets, (0, 1)], [float(table.tau[lv]) for lv in levels] + [1.0], [*levels, table.min_level((0, 1))])
    cost = sum(float(table.tau[lv]) for lv in levels)
    cover, what = profile_cover(st, master, np.r_[np.ones(len(sets)), 0.0], 10.0)
    assert cover is not None, what
    assert sorted(i for s in cover for i in s) == list(range(inst.n))
    assert all(len(s) <= inst.max_pack_size and table.min_level(s) >= 0 for s in cover)
    assert sum(float(table.tau[table.min_level(s)]) for s in cover) <= cost + 1e-9
    x = np.r_[np.ones(len(sets)), 0.0]
    x[int(np.argmax(levels))] = 0.5  # half a pack at the top level
    assert profile_cover(st, master, x, 10.0) == (None, "fractional")
