"""Sections 4.4 and 5: the seven heuristics, MAKE-PACK and the batched Algorithm 1.

Every heuristic's schedule is checked by the independent validator and against
the true optimum of small instances (a brute force over set partitions written
here, independent of the library's exact methods).  The fast implementations
are cross-checked against literal, slow transcriptions of the paper's text
written below (re-sorting at every step, scanning every pack, no pruning).
"""

from __future__ import annotations

import json
import math
from contextlib import contextmanager
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import InputError, Status, get_method, make_rng
from coschedopt.pack import (
    PackInstance,
    PackSchedule,
    heuristics,
    min_processors_single_pack,
    optimal_single_pack,
    pack_cost,
    validate_schedule,
)
from coschedopt.pack.generate import random_pack_instance
from coschedopt.pack.heuristics import (
    HEURISTIC_FUNCTIONS,
    HEURISTICS,
    PACK_BY_PACK_EPS,
    make_pack,
    optimal_allocation_per_pack,
    pack_approx_packs,
    pack_by_pack_packs,
    pack_by_pack_runs,
    random_pack_packs,
    random_proc_packs,
)
from coschedopt.pack.instance import repair

from .strategies import pack_instances

RTOL = 1e-9


# --------------------------------------------------------------------------------------
# independent references
# --------------------------------------------------------------------------------------


def set_partitions(items: list[int]):
    """Every partition of ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        yield [[first], *part]
        for b in range(len(part)):
            yield [*part[:b], [first, *part[b]], *part[b + 1 :]]


def brute_force_optimum(inst: PackInstance) -> float:
    """Section 4.3, first method: every partition into blocks of at most k tasks, best allocation per block."""
    assert inst.n <= 7

    @cache
    def block_cost(block: tuple[int, ...]) -> float:
        found = min_processors_single_pack(inst.times[list(block)], inst.processors)
        assert found is not None
        return found[0]

    best = math.inf
    for part in set_partitions(list(range(inst.n))):
        if all(len(b) <= inst.k for b in part):
            best = min(best, sum(block_cost(tuple(sorted(b))) for b in part))
    return best


def literal_make_pack(tsig, sigma, p, k):
    """Algorithm 2 as printed: sort, then scan every pack from the first."""
    n = len(tsig)
    order = sorted(range(n), key=lambda i: (-tsig[i], i))
    packs, free = [], []
    for i in order:
        for b in range(len(packs)):
            if free[b] >= sigma[i] and len(packs[b]) < k:
                packs[b].append(i)
                free[b] -= sigma[i]
                break
        else:
            packs.append([i])
            free.append(p - sigma[i])
    return packs


def literal_pack_approx(times: np.ndarray, k: int):
    """Algorithm 3 as printed (MAKE-PACK at every step), with the same float updates of Atot."""
    n, p = times.shape
    sigma = [1] * n
    atot = float(times[:, 0].sum())
    best, best_packs = math.inf, None
    while True:
        tsig = [float(times[i, sigma[i] - 1]) for i in range(n)]
        j = min(range(n), key=lambda i: (-tsig[i], i))
        packs = literal_make_pack(tsig, sigma, p, k)
        cost = 0.0
        for pack in packs:
            cost += tsig[pack[0]]
        if cost < best:
            best, best_packs = cost, packs
        if atot / p > tsig[j] or sigma[j] == p:
            return best_packs, best
        s = sigma[j]
        atot += float(times[j, s]) * (s + 1) - tsig[j] * s
        sigma[j] = s + 1


def literal_pack_by_pack(times: np.ndarray, k: int, eps: float):
    """PACK-BY-PACK(eps) as section 5 describes it, re-sorting L at every step."""
    n, p = times.shape
    sigma = [1] * n
    remaining = set(range(n))
    packs = []
    while remaining:
        order = sorted(remaining, key=lambda i: (-times[i, sigma[i] - 1], i))
        head = order[0]
        tmax = times[head, sigma[head] - 1]
        vreq = [i for i in order if times[i, sigma[i] - 1] >= (1 - eps) * tmax]
        if sum(sigma[i] for i in vreq) >= p:
            pack, used = [], 0
            for i in vreq:
                if len(pack) == k or used + sigma[i] > p:
                    break
                pack.append(i)
                used += sigma[i]
            packs.append(pack)
            remaining -= set(pack)
        else:
            sigma[head] += 1
    return packs


def lower_bounds(inst: PackInstance) -> float:
    """Certified lower bounds on the optimum: longest task, total work / p, every k-th longest t(i, p)."""
    t = inst.times
    fastest = np.sort(t[:, -1])[::-1]
    return max(float(t[:, -1].max()), float(t[:, 0].sum()) / inst.processors, float(fastest[:: inst.k].sum()))


def heavy_instance(n: int, p: int, k: int, seed: int) -> PackInstance:
    """Workload-II-like profiles: t(1) over four orders of magnitude, Amdahl fractions, log overheads."""
    rng = make_rng(seed)
    t1 = 10 ** rng.uniform(0, 4, n)
    f = rng.choice([0.0, 0.04, 0.08, 0.16, 0.32], n)
    q = np.arange(1, p + 1)
    t = f[:, None] * t1[:, None] + (1 - f[:, None]) * t1[:, None] / q + rng.choice([0, 1], n)[:, None] * np.log2(q)
    return PackInstance(repair(t), k, name=f"heavy-{seed}")


@contextmanager
def batched_algorithm1():
    """Force the numpy Algorithm 1 even where the heuristics would run one heap per pack (small cases)."""
    saved = heuristics._SMALL_ALGORITHM1
    heuristics._SMALL_ALGORITHM1 = -1
    try:
        yield
    finally:
        heuristics._SMALL_ALGORITHM1 = saved


def assert_packs_partition(packs, n, k):
    flat = sorted(i for pack in packs for i in pack)
    assert flat == list(range(n))
    assert all(1 <= len(pack) <= k for pack in packs)


# --------------------------------------------------------------------------------------
# registration
# --------------------------------------------------------------------------------------


def test_the_seven_heuristics_are_registered_as_non_exact():
    assert set(HEURISTICS) <= set(cs.methods("pack"))
    assert len(HEURISTICS) == 7
    for name in HEURISTICS:
        m = get_method("pack", name)
        assert m.exact is False
        assert m.func is HEURISTIC_FUNCTIONS[name]
        assert m.description


# --------------------------------------------------------------------------------------
# every heuristic on small instances: valid, k respected, >= optimum
# --------------------------------------------------------------------------------------


@settings(max_examples=250, deadline=None)
@given(pack_instances(max_n=6, max_p=6), st.integers(0, 2**31 - 1))
def test_every_heuristic_is_valid_and_never_beats_the_optimum(inst, seed):
    opt = brute_force_optimum(inst)
    for name in HEURISTICS:
        res = cs.solve(inst, name, seed=seed)  # solve() validates and recomputes the cost
        assert res.status is Status.FEASIBLE
        assert res.lower_bound is None
        validate_schedule(inst, res.schedule)
        assert all(len(pack) <= inst.k for pack in res.schedule.packs)
        assert all(sum(q for _, q in pack) <= inst.processors for pack in res.schedule.packs)
        assert res.objective == pytest.approx(pack_cost(inst, res.schedule))
        assert res.objective >= opt * (1 - RTOL), (name, res.objective, opt)
        json.dumps(res.to_dict())


@settings(max_examples=200, deadline=None)
@given(pack_instances(max_n=6, max_p=8))
def test_pack_approx_is_a_3_approximation_when_k_equals_p(inst):
    """Theorem 5, for Algorithm 3's COST and for the schedule after Algorithm 1 in each pack."""
    inst = inst.with_max_pack_size(inst.processors)
    opt = brute_force_optimum(inst)
    res = cs.solve(inst, "pack-approx")
    assert res.stats["algorithm3_cost"] <= 3 * opt * (1 + RTOL)
    assert res.objective <= res.stats["algorithm3_cost"] * (1 + RTOL)
    assert res.objective <= 3 * opt * (1 + RTOL)


@settings(max_examples=150, deadline=None)
@given(pack_instances(max_n=10, max_p=8), st.integers(0, 2**31 - 1))
def test_what_the_definitions_guarantee_between_heuristics(inst, seed):
    run = {name: cs.solve(inst, name, seed=seed) for name in HEURISTICS}
    # Algorithm 1 in each pack never costs more than the allocation the packs were formed with
    assert run["pack-approx"].objective <= run["pack-approx"].stats["algorithm3_cost"] * (1 + RTOL)
    assert run["pack-by-pack-1"].objective <= run["pack-by-pack-1"].stats["cost_before_algorithm1"] * (1 + RTOL)
    # eps = 0.5 is one of the nine values; the first of the 9 random runs is the single run
    assert run["pack-by-pack-9"].objective <= run["pack-by-pack-1"].objective
    assert run["random-pack-9"].objective <= run["random-pack-1"].objective
    assert run["random-proc-9"].objective <= run["random-proc-1"].objective


def assert_best_of_nine_equals_nine_separate_runs(inst: PackInstance, seed: int) -> None:
    def separately(packings):
        costs = []
        for packs in packings:
            sigma, _ = optimal_allocation_per_pack(inst.times, packs)
            costs.append(pack_cost(inst, PackSchedule.from_indices(inst, [[(i, sigma[i]) for i in b] for b in packs])))
        best = costs.index(min(costs))
        return best, costs[best]

    rng = make_rng(seed)
    expected = separately([random_pack_packs(inst.n, inst.k, rng) for _ in range(9)])
    with batched_algorithm1():
        res = cs.solve(inst, "random-pack-9", seed=seed)
    assert (res.stats["best_run"], res.objective) == expected
    rng = make_rng(seed)
    expected = separately([random_proc_packs(inst.times, inst.k, rng)[0] for _ in range(9)])
    with batched_algorithm1():
        res = cs.solve(inst, "random-proc-9", seed=seed)
    assert (res.stats["best_run"], res.objective) == expected
    expected = separately([pack_by_pack_packs(inst.times, inst.k, eps)[0] for eps in PACK_BY_PACK_EPS])
    with batched_algorithm1():
        res = cs.solve(inst, "pack-by-pack-9")
    assert (res.stats["best_run"], res.objective) == expected
    assert res.stats["eps"] == PACK_BY_PACK_EPS[expected[0]]


@settings(max_examples=100, deadline=None)
@given(pack_instances(max_n=16, max_p=8), st.integers(0, 2**31 - 1))
def test_best_of_nine_equals_nine_separate_runs(inst, seed):
    """The -9 variants allocate their runs in batched calls: same choice as run by run."""
    assert_best_of_nine_equals_nine_separate_runs(inst, seed)


@pytest.mark.parametrize("k", [2, 32])
def test_best_of_nine_equals_nine_separate_runs_over_several_batches(k):
    """260 tasks: RANDOM-PROC makes ~150 packs a run, so its nine runs span several batched calls."""
    assert_best_of_nine_equals_nine_separate_runs(random_pack_instance(260, 32, k, seed=8), seed=5)


# --------------------------------------------------------------------------------------
# fast implementations == literal transcriptions
# --------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(pack_instances(max_n=12, max_p=8))
def test_pack_approx_equals_the_literal_algorithm_3(inst):
    packs, info = pack_approx_packs(inst.times, inst.k)
    ref_packs, ref_cost = literal_pack_approx(inst.times, inst.k)
    assert packs == ref_packs
    assert info["cost"] == ref_cost
    assert_packs_partition(packs, inst.n, inst.k)


@settings(max_examples=300, deadline=None)
@given(pack_instances(max_n=12, max_p=8), st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]))
def test_pack_by_pack_equals_the_literal_text(inst, eps):
    packs, sigma = pack_by_pack_packs(inst.times, inst.k, eps)
    assert packs == literal_pack_by_pack(inst.times, inst.k, eps)
    assert_packs_partition(packs, inst.n, inst.k)
    for pack in packs:  # the packs were formed within p processors
        assert sum(sigma[i] for i in pack) <= inst.processors


@settings(max_examples=200, deadline=None)
@given(
    pack_instances(max_n=14, max_p=8),
    st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]), min_size=1, max_size=9),
)
def test_pack_by_pack_runs_share_work_but_equal_separate_literal_runs(inst, eps_values):
    runs = pack_by_pack_runs(inst.times, inst.k, eps_values)
    for eps, run in zip(eps_values, runs, strict=True):
        assert run is not None
        packs, sigma = run
        assert packs == literal_pack_by_pack(inst.times, inst.k, eps)
        assert (packs, sigma) == pack_by_pack_packs(inst.times, inst.k, eps)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10), st.integers(0, 2**31 - 1), st.data())
def test_make_pack_equals_the_literal_algorithm_2(p, seed, data):
    k = data.draw(st.integers(1, p))
    n = data.draw(st.integers(1, 25))
    rng = make_rng(seed)
    sigma = rng.integers(1, p + 1, size=n)
    tsig = rng.integers(1, 6, size=n).astype(float)  # few distinct values: many ties
    packs = make_pack(tsig, sigma, p, k)
    assert packs == literal_make_pack(tsig.tolist(), sigma.tolist(), p, k)
    assert_packs_partition(packs, n, k)
    assert all(sum(sigma[i] for i in pack) <= p for pack in packs)
    for pack in packs:  # a pack's first task is its longest
        assert tsig[pack[0]] == max(tsig[i] for i in pack)


@settings(max_examples=300, deadline=None)
@given(pack_instances(max_n=20, max_p=12), st.integers(0, 2**31 - 1))
def test_batched_algorithm1_equals_optimal_single_pack_pack_by_pack(inst, seed):
    packs = random_pack_packs(inst.n, inst.k, make_rng(seed))
    with batched_algorithm1():
        sigma, costs = optimal_allocation_per_pack(inst.times, packs)
    for b, pack in enumerate(packs):
        cost, alloc = optimal_single_pack(inst.times[pack], inst.processors)
        assert sigma[pack].tolist() == alloc
        assert costs[b] == cost


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.lists(st.integers(1, 12), min_size=1, max_size=12), st.integers(0, 2**31 - 1))
def test_batched_algorithm1_with_linear_speedup_profiles(p, works, seed):
    """t(i, j) = w_i / j: constant work, so the optimal cost often meets the work bound exactly (ties galore)."""
    n = len(works)
    times = np.array(works, dtype=float)[:, None] / np.arange(1, p + 1)[None, :]
    k = min(p, n)
    packs = random_pack_packs(n, k, make_rng(seed))
    with batched_algorithm1():
        sigma, costs = optimal_allocation_per_pack(times, packs)
    for b, pack in enumerate(packs):
        cost, alloc = optimal_single_pack(times[pack], p)
        assert sigma[pack].tolist() == alloc
        assert costs[b] == cost


def test_batched_algorithm1_falls_back_on_profiles_within_the_tolerance_of_eq1():
    """PackInstance accepts t(i, j+1) up to t(i, j) (1 + 1e-9); the merge argument needs Eq. (1) exactly.

    T0 = [2, 2 + 1.5e-9, ...] rises by 7.5e-10; the heap gives both spare processors to T1 (2 + 1e-9
    twice) while a sort of the pairs would pick T0's (2 + 1.5e-9) first.
    """
    times = np.array([[2.0, 2.0 + 1.5e-9, 1.5, 1.2], [2.0 + 1e-9, 2.0 + 1e-9, 1.4, 1.05], [2.0, 1.0, 1.0, 1.0]])
    inst = PackInstance(times, 2)  # accepted
    assert optimal_single_pack(inst.times[[0, 1]], 4)[1] == [1, 3]
    for packs in ([[0, 1], [2]], [[1, 0], [2]], [[0, 2], [1]]):
        with batched_algorithm1():
            sigma, costs = optimal_allocation_per_pack(inst.times, packs)
        for b, pack in enumerate(packs):
            cost, alloc = optimal_single_pack(inst.times[pack], 4)
            assert sigma[pack].tolist() == alloc and costs[b] == cost


def test_batched_algorithm1_on_tied_profiles_and_full_packs():
    times = repair(np.array([[6.0, 3.0, 3.0, 3.0], [6.0, 3.0, 2.0, 2.0], [6.0, 6.0, 6.0, 6.0], [1.0, 1.0, 1.0, 1.0]]))
    packs = [[0, 1], [2], [3]]
    with batched_algorithm1():
        sigma, costs = optimal_allocation_per_pack(times, packs)
    for b, pack in enumerate(packs):
        cost, alloc = optimal_single_pack(times[pack], 4)
        assert sigma[pack].tolist() == alloc and costs[b] == cost
    full = [[0, 1, 2, 3]]  # k = p: nobody gets a second processor
    with batched_algorithm1():
        sigma, costs = optimal_allocation_per_pack(times, full)
    assert sigma.tolist() == [1, 1, 1, 1] and costs.tolist() == [6.0]


def test_pack_approx_trace_on_a_hand_example():
    """p = k = 4; T0 and T1 have linear speedup, T2 none.

    step 0: sigma (1,1,1), times 8,4,1, one pack, COST 8; Atot/p = 13/4 < 8: T0 gets a 2nd processor.
    step 1: times 4,4,1 (T0 first by index), one pack, COST 4; 13/4 < 4: T0 gets a 3rd.
    step 2: times 8/3,4,1: T1 | T0 fill pack 0, T2 opens pack 1, COST 5; 13/4 < 4: T1 gets a 2nd.
    step 3: times 8/3,2,1: T0 + T2 | T1, COST 8/3 + 2; 13/4 > 8/3: stop.  Best: step 1, COST 4.
    """
    times = np.array([[8.0, 4.0, 8 / 3, 2.0], [4.0, 2.0, 4 / 3, 1.0], [1.0, 1.0, 1.0, 1.0]])
    packs, info = pack_approx_packs(times, 4)
    assert packs == [[0, 1, 2]]
    assert (info["cost"], info["steps"], info["best_step"], info["stopped"]) == (4.0, 4, 1, "bound")
    assert info["sigma"] == [2, 1, 1]


def test_pack_approx_stops_only_when_atot_over_p_is_strictly_above_tmax():
    """Two equal tasks [2, 1] on p = 2: Atot/p = tmax = 2 at steps 0 and 1, so the loop goes on to step 2."""
    packs, info = pack_approx_packs(np.array([[2.0, 1.0], [2.0, 1.0]]), 2)
    assert (info["steps"], info["best_step"], info["cost"]) == (3, 0, 2.0)
    assert packs == [[0, 1]]


def test_pack_approx_stops_when_the_longest_task_has_all_processors():
    """With other tasks, Atot/p > t_max once sigma(j*) = p (Eq. 2); alone, a task reaches sigma = p.

    One task [10, 9, 8] on p = 3: Atot/p = 10/3, 18/3, 24/3 is never above t_max = 10, 9, 8.
    """
    packs, info = pack_approx_packs(np.array([[10.0, 9.0, 8.0]]), 3)
    assert info["stopped"] == "sigma_is_p"
    assert (info["steps"], info["best_step"], info["cost"], info["sigma"]) == (3, 2, 8.0, [3])
    assert packs == [[0]]


def test_pack_by_pack_on_a_hand_example():
    """p = 4, k = 2, eps = 0.5, linear speedups 8, 6, 2, 1 (t(i, j) = w_i / j).

    L = 8,6,2,1: Vreq = {T0 (8), T1 (6)}, preq = 2 < 4: T0 gets 2 processors (time 4).
    L = 6,4,2,1: Vreq = {T1, T0}, preq = 3 < 4: T1 gets 2 (time 3).
    L = 4,3,2,1: Vreq = {T0, T1, T2}, preq = 5 >= 4: pack {T0 (2), T1 (2)}.
    L = 2,1: Vreq = {T2, T3}, preq = 2 < 4: T2 gets 2 processors (time 1).
    L = 1,1 (T2 first, lower index): Vreq = {T2, T3}, preq = 3 < 4: T2 gets 3 (time 2/3).
    L = T3 (1), T2 (2/3): Vreq = {T3, T2}, preq = 4 >= 4: pack {T3 (1), T2 (3)}.
    """
    times = np.array([8.0, 6.0, 2.0, 1.0])[:, None] / np.arange(1, 5)[None, :]
    packs, sigma = pack_by_pack_packs(times, 2, 0.5)
    assert packs == [[0, 1], [3, 2]]
    assert sigma == [2, 2, 3, 1]


# --------------------------------------------------------------------------------------
# MAKE-PACK unit tests
# --------------------------------------------------------------------------------------


def test_make_pack_is_first_fit_decreasing():
    # order by time: T0 (sigma 2), T1 (3), T2 (1), T3 (1), T4 (2); p = 4, k = 3
    packs = make_pack([5.0, 4.0, 3.0, 2.0, 1.0], [2, 3, 1, 1, 2], 4, 3)
    # T2 fits both packs and goes to the first; T3 fills pack 0 (3 tasks);
    # T4 needs 2: pack 0 is full, pack 1 has 1 free processor -> new pack
    assert packs == [[0, 2, 3], [1], [4]]


def test_make_pack_caps_packs_at_k_tasks_and_p_processors():
    assert make_pack([1.0] * 5, [1] * 5, 8, 2) == [[0, 1], [2, 3], [4]]
    assert make_pack([3.0, 2.0, 1.0], [3, 3, 3], 8, 8) == [[0, 1], [2]]


def test_make_pack_breaks_ties_by_task_index_and_sorts_by_time():
    assert make_pack([1.0, 2.0, 2.0, 3.0], [2, 2, 2, 2], 4, 4) == [[3, 1], [2, 0]]


@pytest.mark.parametrize(
    ("times", "sigma", "p", "k", "match"),
    [
        ([1.0, 2.0], [1], 4, 2, "same length"),
        ([1.0], [0], 4, 2, "sigma"),
        ([1.0], [5], 4, 2, "sigma"),
        ([1.0], [1], 4, 5, "k must be"),
        ([1.0], [1], 0, 1, "p must be"),
    ],
)
def test_make_pack_rejects_bad_input(times, sigma, p, k, match):
    with pytest.raises(InputError, match=match):
        make_pack(times, sigma, p, k)


# --------------------------------------------------------------------------------------
# random heuristics: seeds
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["random-pack-1", "random-pack-9", "random-proc-1", "random-proc-9"])
def test_same_seed_same_schedule_and_seeds_matter(name):
    inst = random_pack_instance(30, 8, 4, seed=3)
    f = HEURISTIC_FUNCTIONS[name]
    assert f(inst, seed=7).schedule == f(inst, seed=7).schedule
    assert f(inst, seed=None).schedule == f(inst, seed=0).schedule  # None means seed 0
    schedules = {f(inst, seed=s).schedule for s in range(6)}
    assert len(schedules) > 1


def test_random_pack_packs_are_a_partition_with_sizes_in_1_to_k():
    rng = make_rng(1)
    sizes = []
    for _ in range(200):
        packs = random_pack_packs(17, 5, rng)
        assert_packs_partition(packs, 17, 5)
        sizes += [len(pack) for pack in packs[:-1]]  # the last pack may be clipped
    assert set(sizes) == {1, 2, 3, 4, 5}


def test_random_proc_draws_sigma_uniformly_in_1_to_p():
    inst = random_pack_instance(40, 6, 3, seed=2)
    rng = make_rng(4)
    seen = set()
    for _ in range(20):
        packs, sigma = random_proc_packs(inst.times, inst.k, rng)
        assert_packs_partition(packs, inst.n, inst.k)
        assert all(sum(sigma[i] for i in pack) <= inst.processors for pack in packs)
        seen |= set(sigma.tolist())
    assert seen == set(range(1, 7))


# --------------------------------------------------------------------------------------
# options, time limits
# --------------------------------------------------------------------------------------


def test_unknown_options_and_bad_values_are_refused():
    inst = random_pack_instance(5, 4, 2, seed=0)
    with pytest.raises(InputError, match="unknown option"):
        cs.solve(inst, "pack-approx", colour="blue")
    with pytest.raises(InputError, match="eps"):
        cs.solve(inst, "pack-by-pack-1", eps=1.5)
    with pytest.raises(InputError, match="eps_values"):
        cs.solve(inst, "pack-by-pack-9", eps_values=[])
    with pytest.raises(InputError, match="runs"):
        cs.solve(inst, "random-proc-9", runs=0)


def test_options_change_what_they_say():
    inst = heavy_instance(40, 8, 4, seed=5)
    one = cs.solve(inst, "pack-by-pack-1", eps=0.3)
    assert one.stats["eps"] == 0.3
    packs, _ = pack_by_pack_packs(inst.times, inst.k, 0.3)
    assert [sorted(inst.index[t] for t, _ in pack) for pack in one.schedule.packs] == [sorted(p) for p in packs]
    nine = cs.solve(inst, "pack-by-pack-9", eps_values=[0.3])
    assert nine.objective == one.objective and nine.stats["eps"] == 0.3
    assert cs.solve(inst, "random-pack-9", runs=3).stats["runs"] == 3


def test_time_limit_returns_the_best_schedule_so_far():
    q = np.arange(1, 17)
    inst = PackInstance(np.array([100.0 / q, 90.0 / q]), 2)  # perfect speedup: many PACK-APPROX steps
    full = cs.solve(inst, "pack-approx")
    assert full.status is Status.FEASIBLE and full.stats["steps"] > 10
    cut = cs.solve(inst, "pack-approx", time_limit=1e-9)
    assert cut.status is Status.TIME_LIMIT and cut.stats["stopped"] == "time_limit"
    validate_schedule(inst, cut.schedule)
    for name in ("random-pack-9", "random-proc-9"):
        res = cs.solve(inst, name, time_limit=1e-9)
        assert res.status is Status.TIME_LIMIT and res.stats["runs"] == 1
        validate_schedule(inst, res.schedule)
    # the nine PACK-BY-PACK runs share their state until they disagree: the first to end stops them
    inst = heavy_instance(60, 8, 4, seed=3)
    assert cs.solve(inst, "pack-by-pack-9").stats["distinct_packings"] > 1
    res = cs.solve(inst, "pack-by-pack-9", time_limit=1e-9)
    assert res.status is Status.TIME_LIMIT and 1 <= res.stats["runs"] < 9
    validate_schedule(inst, res.schedule)


# --------------------------------------------------------------------------------------
# Workload-III-sized sanity checks (260 tasks, p = 32)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 8, 32])
@pytest.mark.parametrize("make", [random_pack_instance, heavy_instance], ids=["uniform", "heavy"])
def test_workload_iii_sized_instances(make, k):
    inst = make(260, 32, k, seed=11)
    bound = lower_bounds(inst)
    run = {name: HEURISTIC_FUNCTIONS[name](inst, seed=1) for name in HEURISTICS}
    for name, res in run.items():
        validate_schedule(inst, res.schedule)
        cost = pack_cost(inst, res.schedule)
        assert cost >= bound * (1 - RTOL), name
        assert res.stats["packs"] == len(res.schedule.packs) >= math.ceil(inst.n / k)
    costs = {name: pack_cost(inst, res.schedule) for name, res in run.items()}
    assert costs["pack-by-pack-9"] <= costs["pack-by-pack-1"]
    assert costs["random-pack-9"] <= costs["random-pack-1"]
    assert costs["random-proc-9"] <= costs["random-proc-1"]
    assert costs["pack-approx"] <= run["pack-approx"].stats["algorithm3_cost"] * (1 + RTOL)


def test_workload_iii_sized_fast_paths_equal_the_literal_ones():
    inst = heavy_instance(260, 32, 8, seed=12)
    packs, info = pack_approx_packs(inst.times, inst.k)
    assert (packs, info["cost"]) == literal_pack_approx(inst.times, inst.k)
    runs = pack_by_pack_runs(inst.times, inst.k, [0.1, 0.5, 0.9])
    for eps, run in zip([0.1, 0.5, 0.9], runs, strict=True):
        assert run is not None and run[0] == literal_pack_by_pack(inst.times, inst.k, eps)


@pytest.mark.parametrize("name", HEURISTICS)
def test_verbose_logs_to_stderr_only(name, capsys):
    inst = random_pack_instance(12, 6, 3, seed=4)
    cs.solve(inst, name, verbose=True)
    out, err = capsys.readouterr()
    assert out == "" and name.split("-")[0] in err
    cs.solve(inst, name)
    assert capsys.readouterr() == ("", "")
