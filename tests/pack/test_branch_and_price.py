"""Method ``branch-and-price``: cross-checked against brute force, ``enumerate`` and ``ilp``;
its pricing and enumeration against brute force over task subsets; Theorem 2 instances."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack import PackInstance, min_processors_single_pack, validate_schedule
from coschedopt.pack.bnp import solver
from coschedopt.pack.bnp.levels import LevelTable
from coschedopt.pack.bnp.pricing import (
    Cuts,
    TooManyColumns,
    Windows,
    best_set_at_level,
    best_set_with_cuts,
    enumerate_columns,
    enumerate_level,
    knapsack,
    knapsack_values,
    price,
    useful_items,
)
from coschedopt.pack.generate import random_pack_instance

from .strategies import pack_instances

METHOD = "branch-and-price"


def brute_force_optimum(inst: PackInstance) -> float:
    """Minimum over all set partitions into packs of at most k tasks (Algorithm 1 cost per pack)."""
    n, p, k = inst.n, inst.processors, inst.max_pack_size
    cache: dict[tuple[int, ...], float] = {}

    def cost(block: tuple[int, ...]) -> float:
        if block not in cache:
            r = min_processors_single_pack(inst.times[list(block)], p)
            cache[block] = math.inf if r is None else r[0]
        return cache[block]

    best = math.inf

    def rec(rest: tuple[int, ...], acc: float) -> None:
        nonlocal best
        if acc >= best:
            return
        if not rest:
            best = acc
            return
        first, others = rest[0], rest[1:]
        for size in range(0, min(k, len(rest))):
            for comb in itertools.combinations(others, size):
                block = (first, *comb)
                c = cost(block)
                if math.isfinite(c):
                    rec(tuple(i for i in others if i not in comb), acc + c)

    rec(tuple(range(n)), 0.0)
    return best


def registered(name: str) -> bool:
    return name in cs.methods("pack")


def check_result(inst: PackInstance, res, optimum: float) -> None:
    validate_schedule(inst, res.schedule)
    assert res.status is cs.Status.OPTIMAL
    assert res.objective == pytest.approx(optimum, rel=1e-9, abs=1e-9)
    assert res.lower_bound <= optimum * (1 + 1e-12) + 1e-12
    assert res.lower_bound >= optimum * (1 - 1e-7)


@pytest.fixture(autouse=True)
def _column_generation_path(monkeypatch) -> None:
    """These tests exercise column generation, the cuts and the tree, which instances
    with few task sets would skip (they start from the complete master): the tests of
    that path ask for it with ``complete_master``."""
    monkeypatch.setattr(solver, "COMPLETE_MASTER_MAX", 0)


# --------------------------------------------------------------------------- exactness


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6), st.booleans())
def test_optimum_equals_brute_force(inst: PackInstance, heuristics: bool) -> None:
    res = cs.solve(inst, METHOD, heuristics=heuristics)
    check_result(inst, res, brute_force_optimum(inst))


@pytest.mark.skipif(not registered("enumerate"), reason="the enumerate method is not registered yet")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=8, max_p=8))
def test_optimum_equals_enumerate(inst: PackInstance) -> None:
    ref = cs.solve(inst, "enumerate")
    res = cs.solve(inst, METHOD, seed=1)
    check_result(inst, res, ref.objective)


@pytest.mark.skipif(not registered("ilp"), reason="the ilp method is not registered yet")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=6, max_p=5))
def test_optimum_equals_ilp(inst: PackInstance) -> None:
    ref = cs.solve(inst, "ilp")
    assert ref.status is cs.Status.OPTIMAL
    res = cs.solve(inst, METHOD)
    check_result(inst, res, ref.objective)


@pytest.mark.parametrize("seed", range(4))
def test_medium_random_instances_match_enumerate(seed: int) -> None:
    inst = random_pack_instance(10, 8, 3 + seed % 3, seed=seed, integer=seed % 2 == 1)
    res = cs.solve(inst, METHOD, heuristics=False)
    check_result(inst, res, brute_force_optimum(inst))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6))
def test_complete_master_optimum_equals_brute_force(inst: PackInstance) -> None:
    res = cs.solve(inst, METHOD, complete_master=10**6)
    check_result(inst, res, brute_force_optimum(inst))
    assert "cg_rounds" not in res.stats  # no column generation (nor heuristics: the singletons may close it)


@pytest.mark.parametrize("seed", range(6))
def test_complete_master_on_medium_instances_matches_enumerate(seed: int) -> None:
    # 10-12 tasks, k = 3: 175-298 task sets, fractional LPs among them
    inst = random_pack_instance(10 + seed % 3, 16, 3, seed=seed, integer=seed % 2 == 1)
    res = cs.solve(inst, METHOD, complete_master=500)
    assert "complete_master" in res.stats
    check_result(inst, res, cs.solve(inst, "enumerate").objective)


def test_complete_master_falls_back_to_column_generation_when_the_search_stops(monkeypatch) -> None:
    real = solver._cover_search
    monkeypatch.setattr(solver, "_cover_search", lambda *a, **kw: real(*a, **{**kw, "node_limit": 1}))
    for seed in range(4):
        inst = random_pack_instance(8, 8, 3, seed=seed)
        res = cs.solve(inst, METHOD, complete_master=10**6, lns=False)
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
    least, exhausted = solver._cover_search(n, sets, rcs, budget, Deadline(None), best=True)
    assert exhausted
    if min(exact) > budget + 1e-9:
        assert least is None
    else:
        assert sorted(i for c in least for i in sets[c]) == list(range(n))
        assert sum(rcs[c] for c in least) == pytest.approx(min(exact))


# --------------------------------------------------------------------------- time limit, options


def test_time_limit_returns_valid_schedule_and_bound() -> None:
    inst = random_pack_instance(40, 16, 6, seed=3)
    res = cs.solve(inst, METHOD, time_limit=0.3)
    validate_schedule(inst, res.schedule)
    assert res.status in (cs.Status.TIME_LIMIT, cs.Status.OPTIMAL)
    assert res.lower_bound is not None and 0 < res.lower_bound <= res.objective
    if res.status is cs.Status.TIME_LIMIT:
        assert res.gap > 0


def test_time_limit_bound_is_below_the_optimum() -> None:
    inst = random_pack_instance(12, 6, 3, seed=5)
    opt = cs.solve(inst, METHOD).objective
    for tl in (0.001, 0.05):
        res = cs.solve(inst, METHOD, time_limit=tl)
        validate_schedule(inst, res.schedule)
        assert res.lower_bound <= opt * (1 + 1e-12)
        assert res.objective >= opt * (1 - 1e-12)


def test_gap_option_stops_early_with_a_certified_gap() -> None:
    inst = random_pack_instance(20, 8, 4, seed=2)
    res = cs.solve(inst, METHOD, gap=0.05)
    assert res.status is cs.Status.OPTIMAL
    assert res.gap <= 0.05 + 1e-9
    exact = cs.solve(inst, METHOD)
    assert res.lower_bound <= exact.objective * (1 + 1e-12) <= res.objective * (1 + 1e-12)


def test_bad_gap_is_refused() -> None:
    inst = random_pack_instance(3, 2, 2, seed=0)
    with pytest.raises(cs.InputError, match="gap"):
        cs.solve(inst, METHOD, gap=-0.1)


def test_same_seed_same_schedule() -> None:
    inst = random_pack_instance(14, 8, 4, seed=9)
    a = cs.solve(inst, METHOD, seed=3)
    b = cs.solve(inst, METHOD, seed=3)
    assert a.schedule == b.schedule and a.objective == b.objective


def test_verbose_logs_to_stderr_only(capsys) -> None:
    inst = random_pack_instance(6, 4, 3, seed=1)
    cs.solve(inst, METHOD, verbose=True)
    out, err = capsys.readouterr()
    assert out == "" and "branch-and-price" in err


# --------------------------------------------------------------------------- Theorem 2


def three_partition_yes(triplets: int, bound: int, seed: int) -> PackInstance:
    """Theorem 2's reduction (k = 3, p = B) of a random yes-instance of 3-PARTITION."""
    gen = cs.pack.generate
    if hasattr(gen, "three_partition_instance") and hasattr(gen, "random_three_partition_yes"):
        return gen.three_partition_instance(gen.random_three_partition_yes(triplets, bound, seed=seed), bound)
    rng = np.random.default_rng(seed)
    lo, hi = bound // 4 + 1, (bound - 1) // 2
    a: list[int] = []
    while len(a) < 3 * triplets:
        a1, a2 = (int(x) for x in rng.integers(lo, hi + 1, 2))
        if lo <= bound - a1 - a2 <= hi:
            a += [a1, a2, bound - a1 - a2]
    a_arr = np.array(rng.permutation(a))
    j = np.arange(1, bound + 1)
    times = np.where(j[None, :] < a_arr[:, None], 1.0 + 1.0 / a_arr[:, None], 1.0)
    return PackInstance(times, 3, meta={"values": a_arr.tolist()})


@pytest.mark.parametrize(
    ("triplets", "bound", "seed", "complete"), [(8, 1000, 0, 0), (12, 997, 1, 0), (4, 1000, 2, 500), (4, 991, 3, 500)]
)
def test_three_partition_yes_instances_reach_cost_m(triplets: int, bound: int, seed: int, complete: int) -> None:
    # 4 triplets: 12 tasks, 298 sets of size <= 3, solved by the complete master
    inst = three_partition_yes(triplets, bound, seed)
    res = cs.solve(inst, METHOD, seed=0, complete_master=complete)
    assert ("complete_master" in res.stats) == (complete > 0)
    validate_schedule(inst, res.schedule)
    assert res.status is cs.Status.OPTIMAL
    assert res.objective == pytest.approx(triplets)
    assert res.lower_bound == pytest.approx(triplets, rel=1e-7)
    # the packs are a 3-partition: three tasks whose a_i (processors at time 1) sum to B
    a = inst.meta["values"]
    for pack in res.schedule.indices(inst):
        assert len(pack) == 3
        assert sum(a[i] for i, _ in pack) == bound


# --------------------------------------------------------------------------- pricing and enumeration


def brute_knapsack(m: np.ndarray, pi: np.ndarray, p: int, k: int) -> float:
    best = 0.0
    for r in range(1, min(k, m.size) + 1):
        for comb in itertools.combinations(range(m.size), r):
            if m[list(comb)].sum() <= p:
                best = max(best, float(pi[list(comb)].sum()))
    return best


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 9).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(1, 12), min_size=n, max_size=n),
            st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.25]) | st.floats(0, 5), min_size=n, max_size=n),
        )
    ),
    st.integers(1, 10),
    st.integers(1, 6),
)
def test_knapsack_and_item_filter_match_brute_force(items, p: int, k: int) -> None:
    m, pi = np.array(items[0]), np.array(items[1])
    want = brute_knapsack(m, pi, p, k)
    keep = useful_items(m, pi, p, k)
    val, pos = knapsack(m[keep], pi[keep], p, k, want_set=True)
    assert val == pytest.approx(want, abs=1e-9)
    chosen = keep[pos]
    assert m[chosen].sum() <= p and chosen.size <= k
    assert pi[chosen].sum() == pytest.approx(want, abs=1e-9)
    assert knapsack(m[keep], pi[keep], p, k, want_set=False)[0] == pytest.approx(want, abs=1e-9)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(1, 12), min_size=n, max_size=n),
            st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.25]) | st.floats(0, 5), min_size=n, max_size=n),
        )
    ),
    st.integers(1, 10),
    st.integers(1, 6),
)
def test_compiled_knapsack_equals_the_numpy_dp(items, p: int, k: int) -> None:
    # the numba kernels run the same recurrence in the same order: identical values and choices
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    m, pi = np.array(items[0]), np.array(items[1])
    keep = useful_items(m, pi, p, k)
    got = [knapsack(m[keep], pi[keep], p, k, want_set=w) for w in (True, False)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        ref = [knapsack(m[keep], pi[keep], p, k, want_set=w) for w in (True, False)]
    assert got[0][0] == ref[0][0] and got[1][0] == ref[1][0]
    assert got[0][1].tolist() == ref[0][1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_compiled_batched_values_equal_the_numpy_dp(monkeypatch, seed: int) -> None:
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(30, 6 + 5 * seed, 2 + 3 * seed, seed=seed)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    levels = np.sort(rng.choice(table.L, min(40, table.L), replace=False))
    pi = np.where(rng.random(inst.n) < 0.2, 0.0, rng.random(inst.n))
    lo = rng.integers(0, table.L, inst.n)
    windows = Windows(np.minimum(lo, table.L - 1), np.maximum(lo, rng.integers(0, table.L, inst.n)))
    got = [knapsack_values(table, levels, pi, inst.max_pack_size, w) for w in (None, windows)]
    monkeypatch.setattr(kernels, "COMPILED", False)
    ref = [knapsack_values(table, levels, pi, inst.max_pack_size, w) for w in (None, windows)]
    assert got[0].tolist() == ref[0].tolist() and got[1].tolist() == ref[1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_compiled_best_set_at_level_is_a_best_set(seed: int) -> None:
    """The compiled level pricing (its own skip of dominated tasks) reaches the value of the
    numpy DP over :func:`useful_items`, with a set that fits at the level and sums to it."""
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(30, 6 + 5 * seed, 2 + 3 * seed, seed=seed)
    table = LevelTable(inst.times, 1.0)
    for level in rng.choice(table.L, min(60, table.L), replace=False).tolist():
        pi = np.where(rng.random(inst.n) < 0.2, 0.0, rng.random(inst.n))
        val, tasks = best_set_at_level(table, level, pi, inst.max_pack_size, want_set=True)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(kernels, "COMPILED", False)
            ref, _ = best_set_at_level(table, level, pi, inst.max_pack_size, want_set=True)
        assert val == pytest.approx(ref, abs=1e-12)
        assert pi[tasks].sum() == pytest.approx(val, abs=1e-12)
        assert len(tasks) <= inst.max_pack_size and len(set(tasks.tolist())) == len(tasks)
        assert len(tasks) == 0 or table.fits(list(tasks), level)


@pytest.mark.parametrize("seed", range(4))
def test_compiled_min_level_equals_the_numpy_search(seed: int) -> None:
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy search runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(40, 8 + 4 * seed, 8, seed=seed)
    table = LevelTable(inst.times, 1.0)
    sets = [rng.choice(inst.n, rng.integers(1, min(inst.n, 2 * inst.processors)), replace=False) for _ in range(300)]
    got = [table.min_level(s) for s in sets]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        ref = [table.min_level(s) for s in sets]
    assert got == ref
    assert -1 in got and any(v > 0 for v in got)  # both outcomes were exercised


@pytest.mark.parametrize("seed", range(6))
def test_compiled_enumeration_equals_the_python_search(seed: int) -> None:
    """The compiled depth-first search yields the columns of the Python one, in the same
    order, with and without windows, and stops at the same column when the budget is hit."""
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the Python search runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(24, 6 + 4 * seed, 2 + seed % 3, seed=seed)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    lo = rng.integers(0, table.L, inst.n)
    windows = Windows(np.minimum(lo, table.L - 1), np.maximum(lo, rng.integers(0, table.L, inst.n)))
    pi = rng.uniform(0, 2.0, inst.n) * float(table.tau.mean()) / inst.max_pack_size

    def run(win, budget):
        out: list = []
        try:
            for level in range(table.L):
                enumerate_level(table, level, pi, inst.max_pack_size, delta, out, budget, windows=win)
        except TooManyColumns:
            return out, True
        return out, False

    delta = 0.8 * float(table.tau.mean())
    for win in (None, windows):
        got = run(win, 10**6)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(kernels, "COMPILED", False)
            ref = run(win, 10**6)
            ref_cut = run(win, len(ref[0]) // 2)
        assert got == ref and not got[1] and len(got[0]) > 10
        assert run(win, len(ref[0]) // 2) == ref_cut and ref_cut[1] and len(ref_cut[0]) == len(ref[0]) // 2 + 1


def test_compiled_enumeration_stops_at_the_deadline_where_the_python_search_does() -> None:
    from coschedopt.pack.bnp import kernels

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the Python search runs")
    inst = random_pack_instance(60, 32, 5, seed=3)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    pi = np.full(inst.n, float(table.tau.max()) / 5)

    def run():
        out: list = []
        with pytest.raises(TimeoutError):  # the clock is read every 2048 nodes of the search
            enumerate_level(table, int(0.8 * table.L), pi, 5, float(table.tau.max()), out, 10**9, Deadline(1e-9))
        return out

    got = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        assert run() == got and len(got) > 0


def all_columns(table: LevelTable, k: int):
    """(optimal level, set) for every set of at most k tasks that fits in one pack."""
    out = []
    for r in range(1, min(k, table.n) + 1):
        for comb in itertools.combinations(range(table.n), r):
            lv = table.min_level(comb)
            if lv >= 0:
                out.append((lv, comb))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=7, min_n=2), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
def test_pricing_and_enumeration_are_exact(inst: PackInstance, seed: int, delta: float) -> None:
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k = inst.max_pack_size
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n) * (rng.random(inst.n) < 0.8)
    cols = all_columns(table, k)
    rcs = {c: float(table.tau[lv] - pi[list(c)].sum()) for lv, c in cols}
    # per-level values: single and batched DP against brute force
    for lv in range(table.L):
        want = max([pi[list(c)].sum() for lv2, c in cols if table.fits(list(c), lv)] + [0.0])
        assert best_set_at_level(table, lv, pi, k, want_set=False)[0] == pytest.approx(want, abs=1e-9)
    levels = np.arange(table.L)
    exact_v = np.array([best_set_at_level(table, lv, pi, k, want_set=False)[0] for lv in levels])
    assert np.allclose(knapsack_values(table, levels, pi, k), exact_v)
    # pricing: exact min reduced cost and a valid ratio bound
    pr = price(table, pi, k, column_threshold=-1e-9, columns_per_level=2)
    true_min = min(rcs.values())
    assert min(pr.min_rc, -1e-9) <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    assert pr.ratio_ub >= max(pi[list(c)].sum() / table.tau[lv] for lv, c in cols) - 1e-9
    for rc, lv, tasks in pr.columns:
        assert table.fits(list(tasks), lv) and len(tasks) <= k
        assert rc == pytest.approx(table.tau[lv] - pi[tasks].sum(), abs=1e-9)
    # enumeration: exactly the columns with reduced cost <= delta, each at its optimal level
    got = enumerate_columns(table, pi, k, delta, budget=10**6)
    assert len(got) == len(set(got))
    want = {(lv, c) for lv, c in cols if rcs[c] <= delta - 1e-7}
    maybe = {(lv, c) for lv, c in cols if rcs[c] <= delta + 1e-7}
    assert want <= set(got) <= maybe


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=7, min_n=3), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
def test_pricing_and_enumeration_with_subset_row_cuts_are_exact(inst: PackInstance, seed: int, delta: float) -> None:
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k = inst.max_pack_size
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n)
    triples = np.array([rng.choice(inst.n, 3, replace=False) for _ in range(rng.integers(1, 6))])
    cuts = Cuts(triples, rng.uniform(0.01, 1.0, len(triples)), inst.n)
    cols = all_columns(table, k)
    rcs = {c: float(table.tau[lv] - pi[list(c)].sum() + cuts.penalty(c)) for lv, c in cols}
    for lv in range(table.L):
        want = max([pi[list(c)].sum() - cuts.penalty(c) for _, c in cols if table.fits(list(c), lv)] + [0.0])
        lo, hi, tasks = best_set_with_cuts(table, lv, pi, k, cuts, floor=-math.inf, node_limit=10**6)
        assert lo == pytest.approx(want, abs=1e-9) and hi == pytest.approx(want, abs=1e-9)
        if tasks.size:
            assert table.fits(list(tasks), lv)
            assert pi[tasks].sum() - cuts.penalty(tasks.tolist()) == pytest.approx(want, abs=1e-9)
    pr = price(table, pi, k, column_threshold=-1e-9, cuts=cuts)
    true_min = min(rcs.values())
    assert pr.rc_lb <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    ratio = max((pi[list(c)].sum() - cuts.penalty(c)) / table.tau[lv] for lv, c in cols)
    assert pr.ratio_ub >= ratio - 1e-9
    got = enumerate_columns(table, pi, k, delta, budget=10**6, cuts=cuts)
    want_cols = {(lv, c) for lv, c in cols if rcs[c] <= delta - 1e-7}
    maybe = {(lv, c) for lv, c in cols if rcs[c] <= delta + 1e-7}
    assert want_cols <= set(got) <= maybe


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6, min_n=3))
def test_optimum_with_subset_row_cuts_equals_brute_force(inst: PackInstance) -> None:
    res = cs.solve(inst, METHOD, cut_rounds=3, heuristics=False)
    check_result(inst, res, brute_force_optimum(inst))


def test_subset_row_cuts_raise_the_bound_and_keep_it_valid() -> None:
    # max_columns=1 and no tree stop the closing: the bounds are the (cut) LP bounds
    inst = random_pack_instance(14, 6, 3, seed=12)
    opt = cs.solve(inst, METHOD).objective
    common = dict(heuristics=False, rmp_time=0.01, max_columns=1, tree=False, pack_count_cuts=False)
    plain = cs.solve(inst, METHOD, cut_rounds=0, **common)
    cut = cs.solve(inst, METHOD, cut_rounds=5, **common)
    assert cut.stats["cuts"] > 0
    assert plain.lower_bound < cut.lower_bound * (1 - 1e-3)
    assert cut.lower_bound <= opt * (1 + 1e-9)


def test_cover_search_finds_a_partition_within_budget() -> None:
    from coschedopt.core import Deadline
    from coschedopt.pack.bnp.solver import _cover_search

    sets = [(0, 1), (2, 3), (0, 2), (1, 3), (0,), (1,), (2,), (3,), (0, 1, 2)]
    rcs = [0.5, 0.5, 0.0, 0.2, 1.0, 1.0, 1.0, 1.0, 0.0]
    found = _cover_search(4, sets, rcs, 0.25, Deadline(None))
    assert found is not None
    covered = sorted(i for c in found for i in sets[c])
    assert covered == [0, 1, 2, 3]
    assert sum(rcs[c] for c in found) <= 0.25 + 1e-12
    assert _cover_search(4, sets, rcs, 0.1, Deadline(None)) is None


# --------------------------------------------------------------------------- the tree


def extended_columns(table: LevelTable, k: int, windows, bonus) -> dict[tuple[tuple[int, ...], int], float]:
    """Every (set, level) a tree node allows (the set fits at the level, each task's window
    holds it), with reduced cost tau_l - B(l) before subtracting the duals."""
    out = {}
    for r in range(1, min(k, table.n) + 1):
        for comb in itertools.combinations(range(table.n), r):
            lv0 = table.min_level(comb)
            if lv0 < 0:
                continue
            for lv in range(lv0, table.L):
                if windows is None or windows.allows(comb, lv):
                    out[(comb, lv)] = float(table.tau[lv] - (bonus[lv] if bonus is not None else 0.0))
    return out


def random_windows(table: LevelTable, rng: np.random.Generator) -> Windows:
    """Level windows of a tree node: half of the tasks get a random [lo, hi] inside their levels."""
    lo = table.first_level.astype(np.int64).copy()
    hi = np.full(table.n, table.L - 1, dtype=np.int64)
    for i in range(table.n):
        if rng.random() < 0.5:
            lo[i] = rng.integers(lo[i], table.L)
            hi[i] = rng.integers(lo[i], table.L)
    return Windows(lo, hi)


# found by hypothesis: no task allowed at level 0 while B(0) > tau_0 (the empty set is no
# column), and the best column at level 5 a task whose dual is 0 (the DP takes no item)
EMPTY_LEVEL_CASE = PackInstance(
    np.array(
        [
            [11.88210014, 9.81801176, 7.69078126, 7.24590071, 6.11195004, 5.30551434],
            [82.00641335, 58.33554968, 56.5971981, 51.3055117, 41.06844838, 40.71515505],
            [68.11242573, 62.46143372, 52.76495499, 50.46475193, 42.59978634, 39.37467596],
        ]
    ),
    1,
)


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
    st_ = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    cg = solver._CG(duals=pi, cuts=cuts, bonus=bonus, ratio=want + 5.0)
    assert solver._exact_ratio(st_, cg, Deadline(None), windows) == pytest.approx(want, abs=1e-6)
    assert solver._exact_ratio(st_, replace(cg, ratio=1.0), Deadline(None), windows) == 1.0  # never above the pricing's
    saved = solver.RATIO_COLUMNS
    try:
        solver.RATIO_COLUMNS = 0
        got = solver._exact_ratio(st_, cg, Deadline(None), windows)
    finally:
        solver.RATIO_COLUMNS = saved
    assert got == (want + 5.0 if want > 1.0 + 1e-6 else pytest.approx(want, abs=1e-6))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=6, max_p=6, min_n=2), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
@example(EMPTY_LEVEL_CASE, 274, 0.0)
def test_pricing_and_enumeration_with_windows_and_bonus_are_exact(inst: PackInstance, seed: int, delta: float) -> None:

    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k, L = inst.max_pack_size, table.L
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n) * (rng.random(inst.n) < 0.8)
    windows = random_windows(table, rng)
    if rng.random() >= 0.8:
        windows = None
    bonus = None
    if rng.random() < 0.7:
        steps = np.zeros(L)
        steps[rng.integers(0, L, 3)] = rng.uniform(-0.5, 0.5, 3)  # a branch upper bound gives a negative dual
        bonus = np.cumsum(steps)
    cols = extended_columns(table, k, windows, bonus)
    rcs = {key: base - float(pi[list(key[0])].sum()) for key, base in cols.items()}
    # batched values with windows against the per-level brute force
    masked = [pi * (windows.mask(lv) if windows is not None else 1) for lv in range(L)]
    want_v = [
        max(
            [
                masked[lv][list(c)].sum()
                for c in map(
                    tuple,
                    itertools.chain.from_iterable(
                        itertools.combinations(range(inst.n), r) for r in range(1, min(k, inst.n) + 1)
                    ),
                )
                if table.fits(list(c), lv)
            ]
            + [0.0]
        )
        for lv in range(L)
    ]
    assert np.allclose(knapsack_values(table, np.arange(L), pi, k, windows), want_v)
    pr = price(table, pi, k, column_threshold=-1e-9, bonus=bonus, windows=windows)
    true_min = min(rcs.values(), default=math.inf)
    assert pr.rc_lb <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    if cols:
        best_ratio = max(
            (float(pi[list(c)].sum()) + (bonus[lv] if bonus is not None else 0.0)) / table.tau[lv] for c, lv in cols
        )
        assert pr.ratio_ub >= best_ratio - 1e-9
    for rc, lv, tasks in pr.columns:
        key = (tuple(sorted(tasks.tolist())), lv)
        assert key in cols and rc == pytest.approx(rcs[key], abs=1e-9)
    # enumeration: each set once, at its cheapest allowed level, when its reduced cost there is <= delta
    cheapest: dict[tuple[int, ...], int] = {}
    for c, lv in cols:
        cheapest[c] = min(cheapest.get(c, lv), lv)
    got = enumerate_columns(table, pi, k, delta, budget=10**6, bonus=bonus, windows=windows)
    assert len(got) == len(set(got))
    want = {(lv, c) for c, lv in cheapest.items() if rcs[(c, lv)] <= delta - 1e-7}
    maybe = {(lv, c) for c, lv in cheapest.items() if rcs[(c, lv)] <= delta + 1e-7}
    assert want <= set(got) <= maybe


def test_pack_count_bounds_hold_for_every_schedule_found() -> None:
    from coschedopt.pack.bnp.solver import pack_count_bounds

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


def test_tree_alone_reaches_the_optimum() -> None:
    # no heuristics, no enumeration probes: the optimum and its proof come from the tree
    branched = 0
    for seed in range(40):
        inst = random_pack_instance(9 + seed % 3, 6 + seed % 7, 3 + seed % 3, seed=100 + seed)
        res = cs.solve(inst, METHOD, heuristics=False, probe_columns=0, rmp_time=0.0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        branched += res.stats.get("tree_nodes", 0) > 1
    assert branched >= 5  # the tree did branch on some


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=8, max_p=7, min_n=3))
def test_tree_optimum_equals_brute_force(inst: PackInstance) -> None:
    res = cs.solve(inst, METHOD, heuristics=False, probe_columns=0, rmp_time=0.0)
    check_result(inst, res, brute_force_optimum(inst))


@pytest.mark.parametrize("count_branching", [True, False])
def test_tree_with_count_and_window_branches_matches_enumerate(monkeypatch, count_branching: bool) -> None:
    # bigger packs and more tasks: the tree branches on pack counts, or (counts disabled)
    # on level windows only, and still proves the optimum
    from coschedopt.pack.bnp import tree

    if not count_branching:
        monkeypatch.setattr(tree, "COUNT_FRACTION", 0.5)
    kinds = {"count_branches": 0, "window_branches": 0}
    for seed in range(30):
        inst = random_pack_instance(11 + seed % 4, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = cs.solve(inst, METHOD, heuristics=False, probe_columns=0, rmp_time=0.0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        for key in kinds:
            kinds[key] += res.stats.get(key, 0)
    if count_branching:
        assert kinds["count_branches"] > 0
    else:
        assert kinds["count_branches"] == 0 and kinds["window_branches"] > 0


def test_start_schedule_is_the_first_incumbent_and_is_validated() -> None:
    inst = random_pack_instance(14, 9, 4, seed=7)
    start = cs.solve(inst, "pack-by-pack-1").schedule
    res = cs.solve(inst, METHOD, heuristics=False, start=start, time_limit=1e-6)
    validate_schedule(inst, res.schedule)
    assert res.objective <= cs.pack.pack_cost(inst, start) + 1e-9
    broken = cs.pack.PackSchedule(start.packs[1:])  # the first pack's tasks are missing
    with pytest.raises(cs.InputError, match="not scheduled"):
        cs.solve(inst, METHOD, start=broken)


def test_neighbourhood_search_leaves_every_window_optimal(monkeypatch) -> None:
    # exhaust the search from the worst start (all singletons): every window of the final
    # incumbent (consecutive packs by level) is then optimal for its tasks, which the
    # independent `enumerate` method confirms; the search never loses a task
    from coschedopt.pack.bnp import lns, solver

    monkeypatch.setattr(lns, "LNS_TASKS", 7)
    for seed in range(12):
        inst = random_pack_instance(13 + seed % 4, 6 + seed % 5, 2 + seed % 3, seed=900 + seed)
        table = LevelTable(inst.times, 1.0)
        st = solver._State(inst, table, Deadline(None), False, 0.0, seed)
        st.offer([(i,) for i in range(inst.n)], "singletons", improve=False)
        nb = lns.Neighbourhoods(st)
        first = st.ub
        while nb.step(Deadline(None)):
            assert sorted(i for s in st.best_sets for i in s) == list(range(inst.n))
        assert nb.improved > 0 and st.ub < first
        assert all(key in nb.tried for _, key in nb.all_windows())  # exhausted
        windows = nb.all_windows()
        for packs, key in windows:
            sub = PackInstance(inst.times[sorted(key)], inst.max_pack_size)
            cost = sum(float(table.tau[table.min_level(s)]) for s in packs)
            assert cost == pytest.approx(cs.solve(sub, "enumerate").objective, rel=1e-9)
        assert windows


def test_optimum_with_neighbourhood_search_from_the_start(monkeypatch) -> None:
    # the search runs from the first second (LNS_AFTER = 0): same optima as `enumerate`
    from coschedopt.pack.bnp import lns

    monkeypatch.setattr(lns, "LNS_AFTER", 0.0)
    monkeypatch.setattr(lns, "LNS_TASKS", 8)
    searched = 0
    for seed in range(15):
        inst = random_pack_instance(12 + seed % 4, 7 + seed % 6, 3 + seed % 3, seed=1300 + seed)
        res = cs.solve(inst, METHOD, probe_columns=0, lns_workers=0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        searched += res.stats.get("lns", {}).get("steps", 0) > 0
    assert searched >= 5


def _poll_worker(nb, done, patience: float = 120.0) -> None:
    """Exchange incumbents with the worker until ``done(nb)``; the incumbent stays a partition."""
    import time

    until = Deadline(patience)
    while not done(nb) and not until.expired():
        time.sleep(0.02)
        nb.catch_up()
        assert sorted(i for s in nb.st.best_sets for i in s) == list(range(nb.st.inst.n))


def test_neighbourhood_search_in_a_worker_process(monkeypatch) -> None:
    # the worker process searches from the solver's incumbent and the solver takes its
    # cheaper covers: the incumbent stays a partition of the tasks, and once the worker
    # has tried every window, each window of the final incumbent is optimal for its
    # tasks (the independent `enumerate` method).  A cheaper cover found by the solver
    # afterwards (here the optimum) is sent to the worker, which continues from it.
    # close() stops the worker.
    import multiprocessing

    from coschedopt.pack.bnp import lns, solver

    monkeypatch.setattr(lns, "LNS_WORKER_AFTER", 0.0)
    monkeypatch.setattr(lns, "LNS_TASKS", 7)  # handed to the worker (another process)
    monkeypatch.setattr(lns, "LNS_STAGES", ((1, 1),))  # so are these: with wider windows it finds every optimum
    sent = 0
    for seed in range(6):
        inst = random_pack_instance(14 + seed % 3, 6 + seed % 3, 2 + seed % 3, seed=950 + seed)
        table = LevelTable(inst.times, 1.0)
        st = solver._State(inst, table, Deadline(None), False, 0.0, seed)
        st.offer([(i,) for i in range(inst.n)], "singletons", improve=False)
        first = st.ub
        nb = lns.Neighbourhoods(st, workers=1)
        try:
            nb.catch_up()  # starts the worker from the singletons
            _poll_worker(nb, lambda nb: nb.exhausted)
            assert nb.exhausted and nb.steps > 0 and nb.improved > 0 and st.ub < first
            assert nb.worker_cost == pytest.approx(st.ub, rel=1e-12)
            for packs, key in nb.all_windows():
                sub = PackInstance(inst.times[sorted(key)], inst.max_pack_size)
                cost = sum(float(table.tau[table.min_level(s)]) for s in packs)
                assert cost == pytest.approx(cs.solve(sub, "enumerate").objective, rel=1e-9)
            best = cs.solve(inst, "enumerate").schedule
            if st.offer([tuple(sorted(i for i, _ in pack)) for pack in best.indices(inst)], "optimum", False):
                sent += 1
                _poll_worker(nb, lambda nb: nb.worker_cost <= nb.st.ub * (1 + 1e-12))
                assert nb.worker_cost == pytest.approx(st.ub, rel=1e-12)
        finally:
            nb.close()
        assert not multiprocessing.active_children()
        assert st.stats["lns"]["workers"] == 1
    assert sent >= 1  # the windows did not always reach the optimum: the transfer was tested
    with pytest.raises(cs.InputError, match="lns_workers"):
        cs.solve(inst, METHOD, lns_workers=2)
    # a daemonic process (a bench worker) may not start a worker: it searches in-process
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()

    def report() -> None:
        queue.put(lns.Neighbourhoods(st, workers=1).workers)

    child = ctx.Process(target=report, daemon=True)
    child.start()
    assert queue.get(timeout=60) == 0
    child.join()


def _seeded_master(inst: PackInstance, table: LevelTable, seed: int, heuristics: bool = True):
    """(solver state, master holding the singletons and, with ``heuristics``, the heuristics'
    columns) as the solver starts them."""
    from coschedopt.pack.bnp import solver
    from coschedopt.pack.bnp.master import CoveringMaster

    st = solver._State(inst, table, Deadline(None), False, 0.0, seed)
    master = CoveringMaster(inst.n)
    master.artificial_cost = 10.0 * float(table.tau[table.first_level].sum()) + 1.0
    solver._seed_incumbent(st, master, heuristics)
    return st, master


def _node_with_fractional_counts(seed: int):
    """(solver state, master, converged root LP with its pack-count cuts, the cuts' least
    counts by level, the LP point's fractional pack counts N(>= level) by level) of a
    random instance (24 tasks, 10 processors, k = 4)."""
    from coschedopt.pack.bnp import solver

    inst = random_pack_instance(24, 10, 4, seed=1700 + seed)
    table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
    st, master = _seeded_master(inst, table, seed)
    cg = solver._level_cut_rounds(st, master, solver._column_generation(st, master))
    levels, counts = master.level_counts(cg.x)
    frac = counts - np.floor(counts)
    fractional = {int(lv): float(c) for lv, c, f in zip(levels, counts, frac, strict=True) if 0.02 < f < 0.98}
    return st, master, cg, {lv: rhs for lv, rhs in master.level_cuts}, fractional


@pytest.mark.parametrize("limit", [None, 3])
def test_strong_count_branching_picks_a_fractional_count_and_restores_the_rows(monkeypatch, limit) -> None:
    # the chosen (level, N) is a fractional pack count of the LP point, the node's rows
    # (bounds of every pack-count row) and LP are as before, also when the children's
    # re-solves stop after ``limit`` iterations; with re-solves run to optimality, the
    # children's bases returned are optimal for their LPs
    from coschedopt.pack.bnp import tree

    monkeypatch.setattr(tree, "STRONG_ITERATIONS", limit)
    branched = with_bases = 0
    for seed in range(8):
        st, master, cg, need, fractional = _node_with_fractional_counts(seed)
        before = (list(master.level_cuts), list(master.level_upper))
        choice = tree._count_branch(st, master, cg.x, cg.lp, need, {})
        # the rows added for the candidates' levels are left free (0 <= N <= inf)
        nb = len(before[0])
        assert (master.level_cuts[:nb], master.level_upper[:nb]) == before
        assert all(rhs == 0 for _, rhs in master.level_cuts[nb:]) and all(
            math.isinf(u) for u in master.level_upper[nb:]
        )
        if choice is None:
            assert not fractional
            continue
        branched += 1
        level, value, _, bases = choice
        assert fractional.get(level) == pytest.approx(value)
        lp = master.solve(Deadline(None))  # the master is back to the node's LP
        assert lp.objective == pytest.approx(cg.lp, rel=1e-9)
        if bases is None or limit is not None:
            continue
        # each child's basis is optimal for that child's LP: a solve from it takes no iteration
        with_bases += 1
        for basis, (need_c, upper_c) in zip(
            bases, (({**need}, {level: math.floor(value)}), ({**need, level: math.ceil(value)}, {})), strict=True
        ):
            master.set_level_rhs(need_c, upper_c)
            master.start_from(basis)
            child = master.solve(Deadline(None))
            assert child is not None and child.objective > cg.lp - 1e-9
            assert master.h.getInfo().simplex_iteration_count == 0
        master.set_level_rhs(need, {})
    assert branched >= 3 and (with_bases >= 1 or limit is not None)


def test_iteration_limited_child_lp_is_a_rising_lower_estimate() -> None:
    # strong branching's re-solves stop after STRONG_ITERATIONS dual simplex iterations:
    # from the node's optimal basis, with a pack count's right-hand side moved, the
    # objective where the solve stops lies between the node's LP and the child's LP
    # and does not fall as the limit grows; the full solve afterwards is unaffected
    stopped = 0
    for seed in range(8):
        _, master, cg, need, fractional = _node_with_fractional_counts(seed)
        node = master.basis()
        for lv, c in fractional.items():
            for need_c, upper_c in (({**need}, {lv: math.floor(c)}), ({**need, lv: math.ceil(c)}, {})):
                master.set_level_rhs(need_c, upper_c)
                master.start_from(node)
                full = master.solve(Deadline(None))
                assert full is not None and full.objective >= cg.lp - 1e-9 * max(1.0, cg.lp)
                last = cg.lp
                for limit in (1, 2, 4, 8, 10**6):
                    master.start_from(node)
                    part = master.solve(Deadline(None), iteration_limit=limit)
                    assert part is not None and part.iterations <= limit
                    tol = 1e-7 * max(1.0, full.objective)
                    assert last - tol <= part.objective <= full.objective + tol
                    last = part.objective
                    stopped += part.iterations == limit and part.objective < full.objective - tol
                assert part.objective == pytest.approx(full.objective, rel=1e-9)
            master.set_level_rhs(need, {})
            master.start_from(node)
            assert master.solve(Deadline(None)).objective == pytest.approx(cg.lp, rel=1e-9)
    assert stopped >= 3


def test_neighbourhood_search_gives_unproven_windows_more_time(monkeypatch) -> None:
    # a window stopped by its time box is re-solved, once every window was tried, with
    # twice that box (10, 20, 40, 80 s here), and never beyond LNS_MAX_SUB_TIME; a
    # proven window is not re-solved.  The re-solve is faked (the packs come back as they
    # went, with the status asked for) to record the time boxes.
    from coschedopt.pack.bnp import lns, solver

    monkeypatch.setattr(lns, "LNS_TASKS", 7)
    monkeypatch.setattr(lns, "LNS_STAGES", ((1, 1),))  # no wider windows afterwards (tested below)
    boxes: list[tuple[frozenset, float]] = []
    proven: set[frozenset] = set()

    def fake(times, k, start, time_limit, seed):
        key = frozenset(map(tuple, times.tolist()))
        boxes.append((key, time_limit))
        return start, "OPTIMAL" if key in proven else "TIME_LIMIT", 0.0

    monkeypatch.setattr(lns, "solve_window", fake)
    inst = random_pack_instance(16, 6, 3, seed=1800)
    table = LevelTable(inst.times, 1.0)
    st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    st.offer([tuple(range(r, min(r + 3, inst.n))) for r in range(0, inst.n, 3)], "threes", improve=False)
    nb = lns.Neighbourhoods(st)
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
        assert seq == ([lns.LNS_SUB_TIME] if key in proven else [10.0, 20.0, 40.0, 80.0])
    # first every window once, then the retries, shortest box first
    firsts = [box for _, box in boxes[: len(windows)]]
    assert firsts == [lns.LNS_SUB_TIME] * len(windows)
    assert [box for _, box in boxes[len(windows) :]] == sorted(box for _, box in boxes[len(windows) :])


def test_node_pack_count_rows_enter_only_when_violated() -> None:
    # a tree node adds its valid pack-count bounds as master rows lazily (each row is
    # dense); its converged LP must equal the LP with every one of them as a row, and
    # satisfy them all
    from coschedopt.pack.bnp import solver, tree
    from coschedopt.pack.bnp.pricing import Windows

    fewer = 0
    for seed in range(10):
        inst = random_pack_instance(20, 8, 3 + seed % 3, seed=1900 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        rng = np.random.default_rng(seed)
        lo = table.first_level.astype(np.int64).copy()
        hi = np.full(inst.n, table.L - 1, dtype=np.int64)
        raised = rng.choice(inst.n, 5, replace=False)
        lo[raised] = np.maximum(lo[raised], rng.integers(0, table.L, 5))
        valid = solver.pack_count_bounds(table, inst.max_pack_size, lo, hi)
        lps, rows = [], []
        for lazy in (True, False):
            st, master = _seeded_master(inst, table, seed)
            st.ub = math.inf  # no pruning by the incumbent: both LPs run to the end
            tree._add_singletons(st, master, lo, hi)
            master.restrict(lo, hi, np.arange(inst.n))
            windows = Windows(lo, hi)
            if lazy:
                cg = tree._node_lp(st, master, windows, {}, dict(valid), {})
            else:
                master.set_level_rhs(dict(valid))
                cg = solver._column_generation(st, master, windows=windows)
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


def test_node_probe_mip_is_time_boxed_and_the_tree_stays_exact(monkeypatch) -> None:
    # a tree node's probe MIP gets NODE_MIP_TIME at most (here 0: HiGHS' 10 ms floor), so it
    # may stop with only a bound; the tree still proves the enumerate optimum
    from coschedopt.pack.bnp import solver

    monkeypatch.setattr(solver, "NODE_MIP_TIME", 0.0)
    boxed = []
    real = solver.solve_covering_mip

    def spy(*args, **kw):
        if kw.get("cutoff") is not None:  # a tree node's MIP
            boxed.append(kw["time_limit"])
        return real(*args, **kw)

    monkeypatch.setattr(solver, "solve_covering_mip", spy)
    for seed in range(20):
        inst = random_pack_instance(14 + seed % 5, 10 + seed % 7, 4 + seed % 3, seed=2000 + seed)
        # a small probe budget: the root's probe overflows, the nodes' (smaller gaps) do not
        res = cs.solve(inst, METHOD, heuristics=False, rmp_time=0.0, lns=False, probe_columns=40)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
    assert len(boxed) >= 3 and all(t == 0.0 for t in boxed)


def test_neighbourhood_search_widens_its_windows_once_exhausted(monkeypatch) -> None:
    # with nothing improving (a faked re-solve returning the packs unchanged and proven),
    # every window of each stage in LNS_STAGES is tried exactly once, in stage order:
    # the windows of one stage all come before any of the next
    from coschedopt.pack.bnp import lns, solver

    monkeypatch.setattr(lns, "LNS_TASKS", 4)
    tried: list[frozenset] = []

    def fake(times, k, start, time_limit, seed):
        tried.append(frozenset(map(tuple, times.tolist())))
        return start, "OPTIMAL", 0.0

    monkeypatch.setattr(lns, "solve_window", fake)
    inst = random_pack_instance(24, 6, 2, seed=1810)
    table = LevelTable(inst.times, 1.0)
    st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    st.offer([(r, r + 1) for r in range(0, inst.n, 2)], "pairs", improve=False)
    nb = lns.Neighbourhoods(st)
    while nb.step(Deadline(None)):
        pass
    expected: list[frozenset] = []
    for m, reach in lns.LNS_STAGES:
        keys = [frozenset(map(tuple, inst.times[sorted(key)].tolist())) for _, key in nb.all_windows(4 * m, reach)]
        new = {key for key in keys if key not in expected}
        assert new, f"stage {m, reach} adds windows"
        assert set(tried[len(expected) : len(expected) + len(new)]) == new
        expected += list(new)
    assert len(tried) == len(expected) == len(set(tried))


def test_master_restarts_from_an_earlier_basis_after_columns_and_rows_were_added() -> None:
    # a tree node re-solves from its parent's basis (CoveringMaster.start_from), padded
    # with the columns and rows added since: same LP optimum as re-solving from the last
    # basis, and fewer simplex iterations when the last basis is another node's
    from coschedopt.pack.bnp import solver, tree

    fewer = 0
    for seed in range(8):
        inst = random_pack_instance(22, 9, 4, seed=2100 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        rng = np.random.default_rng(seed)
        lo0 = table.first_level.astype(np.int64).copy()
        hi0 = np.full(inst.n, table.L - 1, dtype=np.int64)
        far = rng.choice(inst.n, 6, replace=False)
        lo_far = lo0.copy()
        lo_far[far] = np.maximum(lo0[far], table.L - 1 - rng.integers(0, 3, far.size))
        results = []
        for restart in (True, False):
            st, master = _seeded_master(inst, table, seed)
            cg = solver._column_generation(st, master)
            parent = master.basis()
            # another node: some tasks forced to the top levels, re-solved
            tree._add_singletons(st, master, lo_far, hi0)
            master.restrict(lo_far, hi0, far)
            master.set_level_rhs({int(table.L) // 2: 1})  # a new row
            assert master.solve(Deadline(None)) is not None
            # back to the parent's child: all windows open, the new row free again
            master.restrict(lo0, hi0, far)
            master.set_level_rhs({})
            if restart:
                master.start_from(parent)
            lp = master.solve(Deadline(None))
            results.append((lp.objective, lp.iterations, cg.lp))
        (obj_r, it_r, parent_lp), (obj_c, it_c, _) = results
        assert obj_r == pytest.approx(obj_c, rel=1e-9)
        assert obj_r <= parent_lp + 1e-9 * max(1.0, parent_lp)  # more columns, same rows: no worse
        assert it_r <= it_c
        fewer += it_r < it_c
    assert fewer >= 4


def test_master_purge_keeps_the_lp_and_its_bookkeeping() -> None:
    # deleting idle nonbasic columns leaves the LP optimum (same basis), the column
    # bookkeeping consistent with HiGHS, and column generation converging to the same LP
    from coschedopt.pack.bnp import solver
    from coschedopt.pack.bnp.master import BASIC

    purged = 0
    for seed in range(6):
        inst = random_pack_instance(24, 10, 5, seed=2300 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = _seeded_master(inst, table, seed)
        st.ub = math.inf
        master.set_level_rhs({int(table.L) // 3: 1})  # an artificial column too
        cg = solver._column_generation(st, master)
        before = len(master.sets)
        protect = np.zeros(before, dtype=bool)
        protect[::7] = True
        sets_before = list(master.sets)
        basis = master.basis()
        keep = master.purge(before // 2, 0, protect)
        assert keep is not None and keep[protect].all()
        assert all(keep[c] for c in range(before) if not sets_before[c])  # artificial columns stay
        assert len(master.sets) == int(keep.sum()) == master.h.getNumCol() >= before // 2
        purged += before - len(master.sets)
        lp = master.h.getLp()
        assert np.allclose(np.asarray(lp.col_cost_), master.costs)
        for c, (s, lv) in enumerate(zip(master.sets, master.levels, strict=True)):
            assert s == sets_before[np.flatnonzero(keep)[c]]
            if s:
                assert master.known[(s, lv)] == c
        for i in range(inst.n):
            assert master._cols_of_task[i] == [c for c, s in enumerate(master.sets) if i in s]
        # the stored basis loses the deleted (nonbasic) columns and stays square
        cols, rows = master.remap_basis(basis, keep)
        assert cols.size == len(master.sets) and int((cols == BASIC).sum() + (rows == BASIC).sum()) == len(rows)
        master.start_from((cols, rows))
        again = master.solve(Deadline(None))
        assert again.objective == pytest.approx(cg.lp, rel=1e-9) and again.iterations == 0
        assert solver._column_generation(st, master).lp == pytest.approx(cg.lp, rel=1e-7)
    assert purged > 0


def test_tree_with_column_purges_matches_enumerate(monkeypatch) -> None:
    # the tree deletes columns as soon as the master holds a few: still exact
    from coschedopt.pack.bnp import tree

    monkeypatch.setattr(tree, "PURGE_ABOVE", 40)
    monkeypatch.setattr(tree, "PURGE_TO", 25)
    monkeypatch.setattr(tree, "PURGE_AGE", 2)
    purged = 0
    for seed in range(20):
        inst = random_pack_instance(11 + seed % 4, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = cs.solve(inst, METHOD, heuristics=False, probe_columns=0, rmp_time=0.0)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        purged += res.stats.get("purged_columns", 0)
    assert purged > 0


def test_plunge_goes_on_with_the_child_or_returns_to_the_best_open_node() -> None:
    from coschedopt.pack.bnp import tree

    def node(bound: float, tick: int) -> tree._Node:
        return tree._Node(bound, tick, np.zeros(2, dtype=np.int64), np.ones(2, dtype=np.int64))

    heap = [node(5.0, 1), node(7.0, 2)]
    child = node(9.0, 3)
    assert tree._select(heap, child, True) == (child, True)  # the plunge goes on, whatever its bound
    assert [h.bound for h in heap] == [5.0, 7.0]
    picked, plunging = tree._select(heap, child, False)  # the plunge stops: best open node next
    assert (picked.bound, plunging) == (5.0, False)
    assert sorted(h.bound for h in heap) == [7.0, 9.0]
    picked, plunging = tree._select(heap, None, True)  # no child: the best open node
    assert (picked.bound, plunging) == (7.0, False)
    assert [h.bound for h in heap] == [9.0]


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_tree_with_plunges_matches_enumerate(monkeypatch, share: float) -> None:
    # share 1: a plunge starts after every best-first node (and goes on while its bound
    # stays within PLUNGE_QUOT of the gap); share 0: one plunge from the root, then best
    # first only.  Both exact
    from coschedopt.pack.bnp import solver, tree

    monkeypatch.setattr(tree, "PLUNGE_SHARE", share)
    monkeypatch.setattr(solver, "_dive", lambda *a, **k: math.inf)  # the tree is the only primal source
    monkeypatch.setattr(solver, "iterated_local_search", lambda *a, **k: 0)
    branched = found = 0
    for seed in range(20):
        inst = random_pack_instance(12 + seed % 5, 8 + seed % 9, 3 + seed % 4, seed=500 + seed)
        res = cs.solve(inst, METHOD, heuristics=False, probe_columns=0, rmp_time=0.0, lns=False)
        check_result(inst, res, cs.solve(inst, "enumerate").objective)
        branched += res.stats.get("tree_nodes", 0) > 2
        found += bool(res.stats.get("tree_incumbents"))
        if res.stats.get("tree_nodes", 0) > 1:  # the root's child was processed next, as a plunge
            assert res.stats["plunge_seconds"] > 0
            assert 0 <= res.stats["failed_plunges"] <= res.stats["plunges"]
            if share == 0.0:  # no share left after the first plunge
                assert res.stats["plunges"] == 1
    assert branched >= 5 and found >= 3


def _is_schedule(table: LevelTable, k: int, sets: list[tuple[int, ...]]) -> bool:
    """A partition of the tasks into packs of at most k tasks that fit on p processors."""
    tasks = sorted(i for s in sets for i in s)
    return tasks == list(range(table.n)) and all(0 < len(s) <= k and table.min_level(s) >= 0 for s in sets)


@pytest.mark.parametrize("demanding", [False, True])
@pytest.mark.parametrize("completed", [True, False])
def test_dive_offers_a_schedule_and_gives_the_root_lp_back(monkeypatch, completed: bool, demanding: bool) -> None:
    # the top-down dive (either candidate rule) offers a partition of the tasks (never
    # cheaper than the optimum) and returns its cost; afterwards the master holds the
    # root LP again (task rows, column bounds, pack-count rows) plus the columns the dive
    # priced.  Not completed: its column generation is stopped after the first fix (as
    # by its time box) and the residual is covered greedily
    from coschedopt.pack.bnp import solver

    steps = 0
    for seed in range(10):
        inst = random_pack_instance(14 + seed % 5, 10 + seed % 7, 4 + seed % 3, seed=2100 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = _seeded_master(inst, table, seed)
        root = solver._level_cut_rounds(st, master, solver._column_generation(st, master))
        rows, ncols = (list(master.level_cuts), list(master.level_upper)), len(master.sets)
        st.ub, st.best_sets = math.inf, []  # the dive's cover is the only candidate
        if not completed:
            monkeypatch.setattr(solver, "_column_generation", lambda *a, **k: solver._CG())
        cost = solver._dive(st, master, demanding=demanding)
        monkeypatch.undo()
        steps += st.stats["dive_steps"]
        assert _is_schedule(table, inst.max_pack_size, st.best_sets)
        assert st.ub <= cost * (1 + 1e-12)  # its cover, after the local search
        assert st.ub * table.scale >= cs.solve(inst, "enumerate").objective * (1 - 1e-9)
        assert (list(master.level_cuts), list(master.level_upper)) == rows and len(master.sets) >= ncols
        assert master.solve(Deadline(None)).objective == pytest.approx(root.lp, rel=1e-9)
    assert steps >= (10 if completed else 5)  # the root LPs were fractional: the dives fixed columns


def test_node_lp_with_a_count_row_no_column_meets_yet_is_solved_by_pricing() -> None:
    # a node's lower count row N(>= l) >= 1 at a level above every column of the master
    # (as when a window branch excludes the only tasks of the columns there): the
    # restricted master stays feasible (an artificial column), pricing supplies a set
    # raised to level >= l, and the LP ends without the artificial
    from coschedopt.pack.bnp import solver

    for seed in range(5):
        inst = random_pack_instance(10, 8, 3, seed=2400 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = _seeded_master(inst, table, seed, heuristics=False)  # singletons only
        level = int(table.first_level.max()) + 1
        assert level < table.L
        master.set_level_rhs({level: 1})
        cg = solver._column_generation(st, master)
        assert cg.converged
        lv = np.asarray(master.levels)[: cg.x.size]
        assert cg.x[lv < 0].sum() < 1e-9 and cg.x[lv >= level].sum() >= 1 - 1e-9
        assert cg.lp < master.artificial_cost


# --------------------------------------------------------------------------- dual-optimal inequalities


@pytest.mark.parametrize("seed", range(12))
def test_dominance_pairs_are_the_covering_pairs_of_the_processor_order(seed: int) -> None:
    # (i, j) listed iff m_i <= m_j at every level (ties by index), with nothing in between
    inst = random_pack_instance(9 + seed, 4 + seed % 5, 3, seed=2600 + seed, integer=seed % 3 == 0)
    table = LevelTable(inst.times)
    m = table.table.astype(np.int64)
    n = inst.n
    le = np.array([[bool((m[:, i] <= m[:, j]).all()) for j in range(n)] for i in range(n)])
    for i in range(n):
        assert (table.above(i) == le[i]).all()
    strict = {(i, j) for i in range(n) for j in range(n) if i != j and le[i, j] and (not le[j, i] or i < j)}
    cover = {(i, j) for i, j in strict if not any((i, h) in strict and (h, j) in strict for h in range(n))}
    assert {tuple(p) for p in table.dominance().tolist()} == cover


@pytest.mark.parametrize("seed", range(8))
def test_dominance_columns_keep_the_lp_value(seed: int) -> None:
    inst = random_pack_instance(20, 8 + seed, 5, seed=2700 + seed)
    table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
    lps = []
    for dual_inequalities in (False, True):
        st, master = _seeded_master(inst, table, seed)
        if dual_inequalities:
            master.add_dominance(table.dominance())
            assert master.dominance.shape[0] > 0
        lps.append(solver._column_generation(st, master).lp)
    assert lps[1] == pytest.approx(lps[0], rel=1e-7)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6))
def test_optimum_with_dominance_columns_equals_brute_force(inst: PackInstance) -> None:
    res = cs.solve(inst, METHOD, cut_rounds=0, heuristics=False, probe_columns=0, rmp_time=0.0)
    check_result(inst, res, brute_force_optimum(inst))


def test_dominance_column_follows_the_windows() -> None:
    # e_i - e_j is allowed exactly while j's non-empty window lies inside i's
    inst = random_pack_instance(6, 4, 3, seed=7)
    table = LevelTable(inst.times)
    from coschedopt.pack.bnp.master import CoveringMaster

    master = CoveringMaster(inst.n)
    master.add_dominance(np.array([[0, 1], [2, 3]]))
    lo = np.zeros(inst.n, dtype=np.int64)
    hi = np.full(inst.n, table.L - 1, dtype=np.int64)
    cases = [((5, 5), (5, 5), True), ((0, 9), (3, 4), True), ((3, 9), (2, 4), False), ((0, 4), (3, 5), False)]
    for (lo_i, hi_i), (lo_j, hi_j), allowed in cases:
        lo[[0, 1]], hi[[0, 1]] = (lo_i, lo_j), (hi_i, hi_j)
        master.restrict(lo, hi, np.arange(inst.n))
        upper = np.asarray(master.h.getLp().col_upper_)
        assert (upper[0] > 0) == allowed and upper[1] > 0
    lo[1], hi[1] = 3, 2  # an empty window (a task fixed elsewhere): no column of j, so nothing to lend
    master.restrict(lo, hi, np.arange(inst.n))
    assert np.asarray(master.h.getLp().col_upper_)[0] == 0


def test_integral_cover_puts_a_task_covered_through_a_dominance_column_in_place() -> None:
    from coschedopt.pack.bnp import tree
    from coschedopt.pack.bnp.master import CoveringMaster

    times = np.array([[4.0, 2.5, 2.0, 1.5], [6.0, 3.5, 2.5, 2.0], [5.0, 3.0, 2.2, 2.0], [3.0, 2.0, 1.5, 1.25]])
    inst = PackInstance(times, max_pack_size=2)
    table = LevelTable(inst.times)
    assert table.above(0)[1] and not table.above(1)[0]  # task 0 may replace task 1
    st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    master = CoveringMaster(inst.n)
    master.add_dominance(np.array([[0, 1]]))
    sets = [(1, 2), (1, 3)]
    levels = [table.min_level(s) for s in sets]
    master.add(sets, [float(table.tau[lv]) for lv in levels], levels)
    cover = tree._integral_cover(st, master, np.array([1.0, 1.0, 1.0]))  # y_01 = 1: task 0 through task 1
    assert cover is not None and sorted(i for s in cover for i in s) == [0, 1, 2, 3]
    for s, lv in zip(cover, levels, strict=True):
        assert table.fits(list(s), lv)  # at the level of the pack it came from
    assert tree._integral_cover(st, master, np.array([1.0, 0.5, 1.0])) is None  # a fractional pack
    # task 1 in one pack only: no place for task 0
    assert tree._integral_cover(st, master, np.array([1.0, 1.0, 0.0])) is None


def test_offer_refuses_covers_that_are_not_schedules() -> None:
    """A cover missing a task, with a pack above k tasks or a pack that fits no level
    never becomes the incumbent (it would be cheaper than any schedule)."""
    inst = random_pack_instance(9, 4, 3, seed=2400)
    table = LevelTable(inst.times, 1.0)
    st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    threes = [tuple(range(r, r + 3)) for r in range(0, 9, 3)]
    assert st.offer(threes, "threes", improve=False)
    ub = st.ub
    missing = [(0, 1), (3, 4, 5), (6, 7, 8)]  # task 2 nowhere
    too_big = [(0, 1, 2, 3), (4, 5), (6, 7, 8)]  # 4 tasks, k = 3
    out_of_range = [(0, 1, 2), (3, 4, 5), (6, 7, 9)]  # task 9 does not exist, 8 is missing
    for cover in (missing, too_big, out_of_range):
        assert not st.offer(cover, "bad", improve=False)
    assert st.ub == ub and st.best_sets == threes
    assert st.stats["refused_covers"] == 3
    # a task covered twice is still a cover: it stays in its first pack only
    overlap = [(0, 1, 2), (2, 3, 4), (5, 6, 7), (8,)]
    cost = solver._cost(table, [(0, 1, 2), (3, 4), (5, 6, 7), (8,)])
    assert st.offer(overlap, "overlap", improve=False) == (cost < ub)
    assert sorted(i for s in st.best_sets for i in s) == list(range(9))
    assert st.stats["refused_covers"] == 3


def test_skipping_windows_are_every_pack_with_up_to_three_of_the_packs_after_it() -> None:
    # all_windows(reach=r): the packs sorted by level; pack a with m = 1..3 of packs
    # a+1..a+r (any of them, not only adjacent ones), within the task limit when m > 1
    from coschedopt.pack.bnp import lns

    for seed in range(6):
        inst = random_pack_instance(30, 8, 3, seed=2500 + seed)
        table = LevelTable(inst.times, 1.0)
        st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
        rng = np.random.default_rng(seed)
        order = rng.permutation(inst.n).tolist()
        sizes = rng.integers(1, 4, size=inst.n).tolist()
        packs, r = [], 0
        for size in sizes:
            if r < inst.n:
                packs.append(tuple(sorted(order[r : r + size])))
                r += size
        assert st.offer(packs, "random", improve=False)
        nb = lns.Neighbourhoods(st)
        ranked = sorted(st.best_sets, key=lambda s: (table.min_level(s), s))
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


def test_demanding_dive_fixes_first_a_column_of_the_task_whose_cheapest_lp_column_is_highest(monkeypatch) -> None:
    # the first fix of the demanding dive holds the task whose least level over the
    # fractional columns of the root LP is the highest of all tasks
    from coschedopt.pack.bnp import solver

    checked = 0
    real = solver._column_generation
    for seed in range(10):
        inst = random_pack_instance(14 + seed % 5, 10 + seed % 7, 4 + seed % 3, seed=2100 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = _seeded_master(inst, table, seed)
        real(st, master)
        master.set_level_rhs({})
        lp = master.solve(Deadline(None))
        lv = np.asarray(master.levels)[: lp.x.size]
        frac = [c for c in range(lp.x.size) if 1e-6 < lp.x[c] < 1 - 1e-6 and lv[c] >= 0]
        if any(lp.x[c] >= 1 - 1e-6 and lv[c] >= 0 for c in range(lp.x.size)) or not frac:
            continue  # (columns at 1 are fixed first, for free)
        low = {}
        for c in frac:
            for i in master.sets[c]:
                low[i] = min(low.get(i, lv[c]), lv[c])
        top = max(low.values())
        demanding = {i for i, v in low.items() if v == top}
        first: list[set[int]] = []

        def record(st_, master_, dl=None, windows=None, cutoff=math.inf, first=first, n=inst.n):
            if not first:  # the residual after the first fix: the fixed tasks' windows are empty
                first.append({i for i in range(n) if windows.hi[i] < windows.lo[i]})
            return real(st_, master_, dl, windows, cutoff)

        monkeypatch.setattr(solver, "_column_generation", record)
        st.ub, st.best_sets = math.inf, []
        solver._dive(st, master, demanding=True)
        monkeypatch.undo()
        assert first and first[0] & demanding
        checked += 1
    assert checked >= 3


def test_master_delete_of_the_columns_added_since_gives_the_lp_back() -> None:
    # deleting the columns added after a point restores that point's LP (they retire),
    # also those added since the last solve (a dive stopped by the deadline leaves such)
    from coschedopt.pack.bnp import solver

    for seed in range(4):
        inst = random_pack_instance(20, 10, 4, seed=2600 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = _seeded_master(inst, table, seed)
        ncol = len(master.sets)
        lp0 = master.solve(Deadline(None)).objective
        solver._column_generation(st, master)
        pair = next(
            s
            for s in itertools.combinations(range(inst.n), 2)
            if table.min_level(s) >= 0 and (s, table.min_level(s)) not in master.known
        )
        master.add([pair], [float(table.tau[table.min_level(pair)])], [table.min_level(pair)])  # no solve since
        added = master.sets[ncol:]
        assert added
        keep = master.delete(np.arange(ncol, len(master.sets)))
        assert keep.sum() == ncol == len(master.sets) == master.h.getNumCol()
        assert master.retired[-len(added) :] == added
        assert master.solve(Deadline(None)).objective == pytest.approx(lp0, rel=1e-9)


@pytest.mark.parametrize("seed", range(60))
def test_profile_assignment_equals_brute_force(seed: int) -> None:
    """Tasks into packs of given levels: the MIP finds an assignment exactly when one exists
    (all bins^n assignments tried), and what it returns fits (<= k tasks, <= p processors)."""
    from coschedopt.pack.bnp.master import solve_profile_assignment

    rng = np.random.default_rng(seed)
    n, p, k = int(rng.integers(3, 7)), int(rng.integers(3, 7)), int(rng.integers(2, 4))
    inst = random_pack_instance(n, p, k, seed=seed)
    table = LevelTable(inst.times)
    bins = sorted(rng.integers(0, table.L, size=int(rng.integers(1, 4))).tolist())
    m = [table.m(lv) for lv in bins]
    exists = any(
        all(
            sum(1 for i in range(n) if a[i] == b) <= k and sum(int(m[b][i]) for i in range(n) if a[i] == b) <= p
            for b in range(len(bins))
        )
        for a in itertools.product(range(len(bins)), repeat=n)
    )
    out = solve_profile_assignment(m, p, k, time_limit=30.0)
    assert (out is not None) == exists
    if out is not None:
        assert sorted(i for b in out for i in b) == list(range(n))
        for b, tasks in enumerate(out):
            assert len(tasks) <= k and (not tasks or table.fits(tasks, bins[b]))


def test_profile_cover_rebuilds_a_schedule_from_its_pack_counts() -> None:
    """An LP point with integral pack counts (here a schedule's own columns, plus a column at
    x = 0) gives a schedule of at most its cost; a fractional count gives none."""
    from coschedopt.pack.bnp import tree
    from coschedopt.pack.bnp.master import CoveringMaster

    inst = random_pack_instance(12, 8, 3, seed=31)
    table = LevelTable(inst.times, 1.0)
    st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
    res = cs.solve(inst, "pack-by-pack-1")
    sets = [tuple(sorted(inst.index[name] for name, _ in pack)) for pack in res.schedule.packs]
    levels = [table.min_level(s) for s in sets]
    master = CoveringMaster(inst.n)
    master.add([*sets, (0, 1)], [float(table.tau[lv]) for lv in levels] + [1.0], [*levels, table.min_level((0, 1))])
    cost = sum(float(table.tau[lv]) for lv in levels)
    cover, what = tree._profile_cover(st, master, np.r_[np.ones(len(sets)), 0.0], 10.0)
    assert cover is not None, what
    assert sorted(i for s in cover for i in s) == list(range(inst.n))
    assert all(len(s) <= inst.max_pack_size and table.min_level(s) >= 0 for s in cover)
    assert sum(float(table.tau[table.min_level(s)]) for s in cover) <= cost + 1e-9
    x = np.r_[np.ones(len(sets)), 0.0]
    x[int(np.argmax(levels))] = 0.5  # half a pack at the top level
    assert tree._profile_cover(st, master, x, 10.0) == (None, "fractional")


@pytest.mark.parametrize("seed", range(40))
def test_profile_neighbourhood_with_every_level_is_the_optimum(seed: int) -> None:
    """From the cover by singletons, with every level a candidate and no limit on the reach,
    the profile-move MIP ranges over every partition into at most n packs (empty packs
    cost 0): its cover costs the ``enumerate`` optimum, fits and partitions the tasks."""
    from coschedopt.pack.bnp.master import solve_profile_neighbourhood

    rng = np.random.default_rng(seed)
    n, p, k = int(rng.integers(3, 7)), int(rng.integers(3, 7)), int(rng.integers(2, 4))
    inst = random_pack_instance(n, p, k, seed=seed)
    table = LevelTable(inst.times)
    out = solve_profile_neighbourhood(
        table, [(i,) for i in range(n)], k, np.arange(table.L), reach=math.inf, time_limit=60.0
    )
    assert out is not None
    assert sorted(i for s in out for i in s) == list(range(n))
    assert all(len(s) <= k and table.min_level(s) >= 0 for s in out)
    cost = sum(float(table.levels[table.min_level(s)]) for s in out)
    assert cost == pytest.approx(cs.solve(inst, "enumerate").objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(20))
def test_profile_neighbourhood_keeps_each_pack_near_its_level(seed: int) -> None:
    """With a reach of 0 each pack keeps its own level or empties: the MIP never returns a
    pack above the start's highest level nor a cover dearer than the start."""
    from coschedopt.pack.bnp.master import solve_profile_neighbourhood

    inst = random_pack_instance(12, 8, 3, seed=seed)
    table = LevelTable(inst.times)
    res = cs.solve(inst, "random-pack-1", seed=seed)
    sets = [tuple(sorted(inst.index[name] for name, _ in pack)) for pack in res.schedule.packs]
    levels = [table.min_level(s) for s in sets]
    out = solve_profile_neighbourhood(table, sets, inst.max_pack_size, np.arange(table.L), reach=0.0, time_limit=60.0)
    assert out is not None and sorted(i for s in out for i in s) == list(range(inst.n))
    assert all(len(s) <= inst.max_pack_size and table.min_level(s) >= 0 for s in out)
    got = sorted((table.min_level(s) for s in out), reverse=True)
    # each pack at most at its own level (or empty): the i-th dearest pack is no dearer than the start's
    assert len(got) <= len(levels)
    assert all(g <= lv for g, lv in zip(got, sorted(levels, reverse=True), strict=False))


def test_neighbourhood_search_makes_a_profile_move_once_the_first_windows_are_tried(monkeypatch) -> None:
    # with window re-solves that never improve (faked), a profile move comes only once every
    # window of the first stage of the current incumbent was tried, and only once per
    # incumbent; it never loses a task nor makes the incumbent dearer; without the node LP's
    # levels (set_levels) there is none
    from coschedopt.pack.bnp import lns, solver

    monkeypatch.setattr(lns, "LNS_TASKS", 4)
    monkeypatch.setattr(lns, "LNS_PROFILE_SHARE", 1e9)
    monkeypatch.setattr(lns, "solve_window", lambda times, k, start, time_limit, seed: (start, "OPTIMAL", 0.0))
    inst = random_pack_instance(16, 6, 3, seed=1811)
    table = LevelTable(inst.times, 1.0)
    for levels in (None, np.arange(table.L)):
        st = solver._State(inst, table, Deadline(None), False, 0.0, 0)
        st.offer([(r, r + 1) for r in range(0, inst.n, 2)], "pairs", improve=False)
        nb = lns.Neighbourhoods(st)
        if levels is not None:
            nb.set_levels(levels)
        first, costs = st.ub, []
        while True:
            ready, before = all(key in nb.tried for _, key in nb.all_windows()), st.ub
            if not nb.step(Deadline(None)):
                break
            assert sorted(i for s in st.best_sets for i in s) == list(range(inst.n)) and st.ub <= before
            if nb.last.startswith("pack profile"):
                assert ready and before not in costs
                costs.append(before)
        assert (costs == []) == (levels is None)
        if levels is not None:
            assert st.ub < first  # from pairs, re-partitioning every task at once gains
