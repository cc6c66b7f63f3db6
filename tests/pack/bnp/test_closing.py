"""Closing gaps exactly (:mod:`coschedopt.pack.exact.bnp.closing`): the complete master and its
exact-cover search, the enumeration's exact ratio, the tree nodes' time-boxed probe MIPs."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack import PackInstance
from coschedopt.pack.exact.bnp import BnpOptions, closing
from coschedopt.pack.exact.bnp.closing import cover_search, exact_ratio
from coschedopt.pack.exact.bnp.colgen import CGResult
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.pricing import Cuts
from coschedopt.pack.exact.bnp.state import State
from coschedopt.pack.generate import random_pack_instance

from ..strategies import pack_instances
from .helpers import brute_force_optimum, check_result, extended_columns, random_windows, solve


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6))
def test_complete_master_optimum_equals_brute_force(inst: PackInstance) -> None:
    res = solve(inst, complete_master=10**6)
    check_result(inst, res, brute_force_optimum(inst))
    assert "cg_rounds" not in res.stats  # no column generation (nor heuristics: the singletons may close it)


@pytest.mark.parametrize("seed", range(6))
def test_complete_master_on_medium_instances_matches_enumerate(seed: int) -> None:
    # 10-12 tasks, k = 3: 175-298 task sets, fractional LPs among them
    inst = random_pack_instance(10 + seed % 3, 16, 3, seed=seed, integer=seed % 2 == 1)
    res = solve(inst, complete_master=500)
    assert "complete_master" in res.stats
    check_result(inst, res, cs.solve(inst, "enumerate").objective)


def test_complete_master_falls_back_to_column_generation_when_the_search_stops() -> None:
    for seed in range(4):
        inst = random_pack_instance(8, 8, 3, seed=seed)
        res = solve(inst, complete_master=10**6, lns=False, cover_nodes=1)
        assert "complete_master" in res.stats and "cg_rounds" in res.stats
        check_result(inst, res, brute_force_optimum(inst))


@pytest.mark.parametrize("seed", range(30))
def test_least_cover_search_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    sets = sorted({tuple(sorted(rng.choice(n, int(rng.integers(1, 4)), replace=False).tolist())) for _ in range(12)})
    sets += [(i,) for i in range(n) if (i,) not in sets]
    rcs = rng.uniform(0, 1, len(sets)).round(2).tolist()
    exact = [
        sum(rcs[c] for c in chosen)
        for r in range(1, n + 1)
        for chosen in itertools.combinations(range(len(sets)), r)
        if sorted(i for c in chosen for i in sets[c]) == list(range(n))
    ]
    budget = float(rng.uniform(0, 3))
    least, exhausted = cover_search(n, sets, rcs, budget, Deadline(None), best=True)
    assert exhausted
    if min(exact) > budget + 1e-9:
        assert least is None
    else:
        assert sorted(i for c in least for i in sets[c]) == list(range(n))
        assert sum(rcs[c] for c in least) == pytest.approx(min(exact))


def test_cover_search_finds_a_partition_within_budget() -> None:

    sets = [(0, 1), (2, 3), (0, 2), (1, 3), (0,), (1,), (2,), (3,), (0, 1, 2)]
    rcs = [0.5, 0.5, 0.0, 0.2, 1.0, 1.0, 1.0, 1.0, 0.0]
    found = cover_search(4, sets, rcs, 0.25, Deadline(None))
    assert found is not None
    covered = sorted(i for c in found for i in sets[c])
    assert covered == [0, 1, 2, 3]
    assert sum(rcs[c] for c in found) <= 0.25 + 1e-12
    assert cover_search(4, sets, rcs, 0.1, Deadline(None)) is None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=6, max_p=6, min_n=3), st.integers(0, 2**31 - 1))
def test_exact_ratio_is_the_brute_force_maximum_over_the_columns_the_gap_prices(inst: PackInstance, seed: int) -> None:
    """The enumeration's scaling ratio: max (pi(S) - pen(S) + B(l)) / tau_l with each set
    at its cheapest allowed level (the level a schedule prices it at), at least 1, with
    subset-row cuts, pack-count bonuses and level windows; past its column budget the
    pricing's bound is kept."""
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k, L = inst.max_pack_size, table.L
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n) * (rng.random(inst.n) < 0.8)
    cuts = None
    if rng.random() < 0.6:
        triples = np.array([rng.choice(inst.n, 3, replace=False) for _ in range(rng.integers(1, 6))])
        cuts = Cuts(triples, rng.uniform(0.01, 1.0, len(triples)), inst.n)
    bonus = None
    if rng.random() < 0.6:
        steps = np.zeros(L)
        steps[rng.integers(0, L, 3)] = rng.uniform(0.0, 0.5, 3)
        bonus = np.cumsum(steps)
    windows = random_windows(table, rng) if rng.random() < 0.5 else None
    cheapest: dict[tuple[int, ...], int] = {}
    for c, lv in extended_columns(table, k, windows, bonus):
        cheapest[c] = min(cheapest.get(c, lv), lv)
    want = max(
        [1.0]
        + [
            (pi[list(c)].sum() - (cuts.penalty(c) if cuts else 0.0) + (bonus[lv] if bonus is not None else 0.0))
            / table.tau[lv]
            for c, lv in cheapest.items()
        ]
    )
    st_ = State.start(inst, table, Deadline(None))
    cg = CGResult(duals=pi, cuts=cuts, bonus=bonus, ratio=want + 5.0)
    assert exact_ratio(st_, cg, Deadline(None), windows) == pytest.approx(want, abs=1e-6)
    assert exact_ratio(st_, replace(cg, ratio=1.0), Deadline(None), windows) == 1.0  # never above the pricing's
    st_ = State.start(inst, table, Deadline(None), BnpOptions(ratio_columns=0))
    got = exact_ratio(st_, cg, Deadline(None), windows)
    assert got == (want + 5.0 if want > 1.0 + 1e-6 else pytest.approx(want, abs=1e-6))


@pytest.mark.slow
def test_node_probe_mip_is_time_boxed_and_the_tree_stays_exact(monkeypatch) -> None:
    # a tree node's probe MIP gets node_mip_time at most (here 0: HiGHS' 10 ms floor), so it
    # may stop with only a bound; the tree still proves the enumerate optimum
    boxed = []
    real = closing.solve_covering_mip

    def spy(*args, **kw):
        if kw.get("cutoff") is not None:  # a tree node's MIP
            boxed.append(kw["time_limit"])
        return real(*args, **kw)

    monkeypatch.setattr(closing, "solve_covering_mip", spy)  # records the calls
    for seed in range(20):
        inst = random_pack_instance(14 + seed % 5, 10 + seed % 7, 4 + seed % 3, seed=2000 + seed)
        # a small probe budget: the root's probe overflows, the nodes' (smaller gaps) do not
        res = solve(inst, heuristics=False, rmp_time=0.0, lns=False, probe_columns=40, node_mip_time=0.0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
    assert len(boxed) >= 3 and all(t == 0.0 for t in boxed)
