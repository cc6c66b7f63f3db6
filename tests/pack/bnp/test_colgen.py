"""Column generation and its cuts (:mod:`coschedopt.pack.exact.bnp.colgen`): the pack-count
bounds, subset-row cuts, count rows no column meets yet, dual-optimal inequalities."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import coschedopt as cs
from coschedopt.pack import PackInstance
from coschedopt.pack.exact.bnp.colgen import column_generation, pack_count_bounds
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.generate import random_pack_instance

from ..strategies import pack_instances
from .helpers import brute_force_optimum, check_result, seeded_master, solve


def test_pack_count_bounds_hold_for_every_schedule_found() -> None:

    checked = 0
    for seed in range(30):
        inst = random_pack_instance(8 + seed % 4, 5 + seed % 5, 2 + seed % 4, seed=seed)
        table = LevelTable(inst.times)
        need = pack_count_bounds(table, inst.max_pack_size)
        for name in ("enumerate", "pack-approx", "pack-by-pack-1", "random-pack-9"):
            sched = cs.solve(inst, name, seed=seed).schedule
            levels = [table.min_level([i for i, _ in pack]) for pack in sched.indices(inst)]
            for lv, rhs in need.items():
                assert sum(v >= lv for v in levels) >= rhs
                checked += 1
    assert checked > 50


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6, min_n=3))
def test_optimum_with_subset_row_cuts_equals_brute_force(inst: PackInstance) -> None:
    res = solve(inst, cut_rounds=3, heuristics=False)
    check_result(inst, res, brute_force_optimum(inst))


def test_subset_row_cuts_raise_the_bound_and_keep_it_valid() -> None:
    # max_columns=1 and no tree stop the closing: the bounds are the (cut) LP bounds
    inst = random_pack_instance(14, 6, 3, seed=12)
    opt = solve(inst).objective
    common = dict(heuristics=False, rmp_time=0.01, max_columns=1, tree=False, pack_count_cuts=False)
    plain = solve(inst, cut_rounds=0, **common)
    cut = solve(inst, cut_rounds=5, **common)
    assert cut.stats["cuts"] > 0
    assert plain.lower_bound < cut.lower_bound * (1 - 1e-3)
    assert cut.lower_bound <= opt * (1 + 1e-9)


def test_node_lp_with_a_count_row_no_column_meets_yet_is_solved_by_pricing() -> None:
    # a node's lower count row N(>= l) >= 1 at a level above every column of the master
    # (as when a window branch excludes the only tasks of the columns there): the
    # restricted master stays feasible (an artificial column), pricing supplies a set
    # raised to level >= l, and the LP ends without the artificial

    for seed in range(5):
        inst = random_pack_instance(10, 8, 3, seed=2400 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = seeded_master(inst, table, seed, heuristics=False)  # singletons only
        level = int(table.first_level.max()) + 1
        assert level < table.L
        master.set_level_rhs({level: 1})
        cg = column_generation(st, master)
        assert cg.converged
        lv = np.asarray(master.levels)[: cg.x.size]
        assert cg.x[lv < 0].sum() < 1e-9 and cg.x[lv >= level].sum() >= 1 - 1e-9
        assert cg.lp < master.artificial_cost


@pytest.mark.parametrize("seed", range(8))
def test_dominance_columns_keep_the_lp_value(seed: int) -> None:
    inst = random_pack_instance(20, 8 + seed, 5, seed=2700 + seed)
    table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
    lps = []
    for dual_inequalities in (False, True):
        st, master = seeded_master(inst, table, seed)
        if dual_inequalities:
            master.add_dominance(table.dominance())
            assert master.dominance.shape[0] > 0
        lps.append(column_generation(st, master).lp)
    assert lps[1] == pytest.approx(lps[0], rel=1e-7)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6))
def test_optimum_with_dominance_columns_equals_brute_force(inst: PackInstance) -> None:
    res = solve(inst, cut_rounds=0, heuristics=False, probe_columns=0, rmp_time=0.0)
    check_result(inst, res, brute_force_optimum(inst))
