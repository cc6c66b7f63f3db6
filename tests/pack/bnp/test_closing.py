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


def partition_costs(n: int, sets: list[tuple[int, ...]], rcs: list[float]) -> list[float]:
    """The total reduced cost of every exact cover of 0..n-1 by ``sets`` (brute force)."""
    return [
        sum(rcs[c] for c in chosen)
        for r in range(1, n + 1)
        for chosen in itertools.combinations(range(len(sets)), r)
        if sorted(i for c in chosen for i in sets[c]) == list(range(n))
    ]


@pytest.mark.parametrize("seed", range(30))
def test_least_cover_search_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    sets = sorted({tuple(sorted(rng.choice(n, int(rng.integers(1, 4)), replace=False).tolist())) for _ in range(12)})
    sets += [(i,) for i in range(n) if (i,) not in sets]
    rcs = rng.uniform(0, 1, len(sets)).round(2).tolist()
    exact = partition_costs(n, sets, rcs)
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


def test_luby_sequence() -> None:
    assert [closing.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("seed", range(30))
def test_cover_search_with_restarts_finds_a_cover_exactly_when_one_is_within_budget(seed: int) -> None:
    """The randomised restarts change the order of the search, never what it accepts: a
    cover within budget whenever brute force has one (the node limit lets the last runs
    exhaust these small searches), ``None`` otherwise."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 8))
    sets = sorted({tuple(sorted(rng.choice(n, int(rng.integers(1, 4)), replace=False).tolist())) for _ in range(14)})
    rcs = rng.uniform(0, 1, len(sets)).round(2).tolist()
    exact = partition_costs(n, sets, rcs)
    budget = float(rng.uniform(0, 2))
    found = cover_search(
        n, sets, rcs, budget, Deadline(None), node_limit=10**5, restarts=np.random.default_rng(seed), restart_nodes=2
    )
    if not exact or min(exact) > budget + 1e-9:
        assert found is None
    else:
        assert found is not None
        assert sorted(i for c in found for i in sets[c]) == list(range(n))
        assert sum(rcs[c] for c in found) <= budget + 1e-9


@pytest.mark.parametrize("seed", [2, 6, 10, 11])
def test_randomised_restarts_find_a_planted_3_partition_where_one_search_stalls(seed: int) -> None:
    """Theorem 2's perfect 3-partitions among every exact triple of an 80-triplet
    yes-instance (8-9 thousand of them): on these seeds the deterministic search stalls
    at the node limit, the restarted one finds a partition within the same limit."""
    from coschedopt.pack.generate import random_three_partition_yes

    a = np.array(random_three_partition_yes(80, 1000, seed=seed))
    where: dict[int, list[int]] = {}
    for i, v in enumerate(a.tolist()):
        where.setdefault(v, []).append(i)
    sets = [
        (i, j, k)
        for i in range(a.size)
        for j in range(i + 1, a.size)
        for k in where.get(1000 - int(a[i]) - int(a[j]), ())
        if k > j
    ]
    rcs = [0.0] * len(sets)
    one = cover_search(a.size, sets, rcs, 0.0, Deadline(None), node_limit=20_000)
    found = cover_search(a.size, sets, rcs, 0.0, Deadline(None), node_limit=20_000, restarts=np.random.default_rng(0))
    assert one is None
    assert found is not None and sorted(i for c in found for i in sets[c]) == list(range(a.size))
    assert all(a[list(sets[c])].sum() == 1000 for c in found)


def test_the_face_probe_proves_a_3_partition_yes_instance_at_the_root() -> None:
    """The perfect 3-partition lies on the root LP's optimal face: the face probe finds it
    before any dive or cut, and the solve ends there, proven; without the probe the same
    solve (same limit) goes on to the later phases."""
    from coschedopt.pack.generate import random_three_partition_yes, three_partition_instance

    inst = three_partition_instance(random_three_partition_yes(40, 1000, seed=3), 1000)
    res = solve(inst, lns=False)
    assert res.status == cs.Status.OPTIMAL and res.objective == pytest.approx(40)
    assert res.stats["face_columns"] > 0 and "dive_steps" not in res.stats
    off = solve(inst, lns=False, face_delta=0.0)
    assert "face_columns" not in off.stats and "dive_steps" in off.stats


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
