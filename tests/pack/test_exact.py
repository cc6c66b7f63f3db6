"""Exact pack methods (Theorem 1, section 4.3, Theorem 4) cross-checked against each other.

``enumerate`` is checked against a plain enumeration of set partitions written here
(with the paper's single-pack dynamic program, an allocation routine it does not
use); ``ilp`` (HiGHS) and ``ilp-cbc`` (CBC) against ``enumerate``; ``matching``
against ``enumerate`` for k = 1 and 2.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import InputError, MethodRefused, Status
from coschedopt.pack import PackInstance, pack_cost, single_pack_dp, validate_schedule
from coschedopt.pack.exact import enumerate_max_n, simple_lower_bound
from coschedopt.pack.generate import random_pack_instance

from .strategies import pack_instances

REL = 1e-6


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL, abs_tol=REL)


def set_partitions(items: list[int], k: int):
    """Every partition of ``items`` into blocks of at most k (the first item's block chosen first)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in range(min(k, len(items))):
        for mates in _combinations(rest, size):
            others = [x for x in rest if x not in mates]
            for tail in set_partitions(others, k):
                yield [[first, *mates], *tail]


def _combinations(items: list[int], r: int):
    if r == 0:
        yield []
        return
    for idx, x in enumerate(items):
        for tail in _combinations(items[idx + 1 :], r - 1):
            yield [x, *tail]


def brute_force_optimum(inst: PackInstance) -> float:
    """min over all partitions into packs of <= k tasks of the sum of the packs' optimal costs."""
    p = inst.processors

    @cache
    def block_cost(block: tuple[int, ...]) -> float:
        return single_pack_dp(inst.times[list(block)], p)[0]

    return min(sum(block_cost(tuple(b)) for b in part) for part in set_partitions(list(range(inst.n)), inst.k))


def check_optimal(inst: PackInstance, res: cs.Result) -> None:
    """OPTIMAL, a valid schedule, and the method's certified value equal to the schedule's cost."""
    assert res.status is Status.OPTIMAL, res.message
    validate_schedule(inst, res.schedule)
    assert close(res.objective, pack_cost(inst, res.schedule))
    assert res.lower_bound is not None and close(res.lower_bound, res.objective)


# --------------------------------------------------------------------------- cheap cross-checks


@settings(max_examples=150, deadline=None)
@given(pack_instances(max_n=7, max_p=6))
def test_enumerate_equals_brute_force_over_partitions(inst: PackInstance) -> None:
    res = cs.solve(inst, "enumerate")
    check_optimal(inst, res)
    assert close(res.objective, brute_force_optimum(inst))
    assert simple_lower_bound(inst) <= res.objective * (1 + REL)


@settings(max_examples=150, deadline=None)
@given(pack_instances(max_n=9, min_p=2, max_p=8, k=2))
def test_matching_equals_enumerate_for_k2(inst: PackInstance) -> None:
    res = cs.solve(inst, "matching")
    check_optimal(inst, res)
    assert close(res.objective, cs.solve(inst, "enumerate").objective)


@settings(max_examples=50, deadline=None)
@given(pack_instances(max_n=8, max_p=6, k=1))
def test_matching_equals_enumerate_for_k1(inst: PackInstance) -> None:
    res = cs.solve(inst, "matching")
    check_optimal(inst, res)
    assert close(res.objective, cs.solve(inst, "enumerate").objective)
    assert close(res.objective, float(inst.times[:, -1].sum()))


# --------------------------------------------------------------------------- ILP cross-checks (slower)


@pytest.mark.slow
@settings(max_examples=70, deadline=None)
@given(pack_instances(max_n=4, max_p=4))
def test_ilp_highs_and_cbc_equal_enumerate(inst: PackInstance) -> None:
    optimum = cs.solve(inst, "enumerate").objective
    for name in ("ilp", "ilp-cbc"):
        res = cs.solve(inst, name, time_limit=60)
        check_optimal(inst, res)
        assert close(res.objective, optimum), name
    assert not res.stats["symmetry_breaking"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(pack_instances(max_n=6, max_p=5))
def test_symmetry_breaking_keeps_the_optimum(inst: PackInstance) -> None:
    optimum = cs.solve(inst, "enumerate").objective
    for name in ("ilp", "ilp-cbc"):
        res = cs.solve(inst, name, time_limit=60, symmetry_breaking=True)
        check_optimal(inst, res)
        assert res.stats["symmetry_breaking"]
        assert close(res.objective, optimum), name


def test_cbc_is_right_where_its_default_preprocessing_was_wrong() -> None:
    # with CBC's default (SOS) preprocessing this instance came back "optimal" at 73.54
    inst = random_pack_instance(6, 6, 3, seed=3)
    res = cs.solve(inst, "ilp-cbc", time_limit=120, symmetry_breaking=True)
    check_optimal(inst, res)
    assert close(res.objective, cs.solve(inst, "enumerate").objective)


@pytest.mark.parametrize("name", ["ilp", "ilp-cbc"])
def test_mip_gap_bounds_the_returned_cost(name: str) -> None:
    inst = random_pack_instance(5, 4, 3, seed=11)
    optimum = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, name, time_limit=60, mip_gap=0.3)
    assert res.status is Status.OPTIMAL
    validate_schedule(inst, res.schedule)
    assert res.lower_bound <= optimum * (1 + REL)
    assert optimum * (1 - REL) <= res.objective <= optimum / (1 - 0.3) * (1 + REL)


# --------------------------------------------------------------------------- time limits


@pytest.mark.parametrize("name", ["ilp", "ilp-cbc"])
def test_ilp_time_limit_returns_valid_schedule_and_certified_bound(name: str) -> None:
    inst = random_pack_instance(12, 16, 4, seed=0)  # the paper's ILP is far from solved in 1 s
    optimum = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, name, time_limit=1.0)
    assert res.status is Status.TIME_LIMIT
    validate_schedule(inst, res.schedule)
    assert res.objective >= optimum * (1 - REL)
    assert res.lower_bound is not None and 0 < res.lower_bound <= optimum * (1 + REL)
    assert res.lower_bound <= res.objective
    assert res.stats["dual_bound"] is None or res.stats["dual_bound"] <= optimum * (1 + REL)


def test_enumerate_time_limit_returns_valid_schedule_and_bound() -> None:
    n = enumerate_max_n(16)
    inst = random_pack_instance(n, 16, 16, seed=0)
    res = cs.solve(inst, "enumerate", time_limit=0.05)
    assert res.status is Status.TIME_LIMIT
    validate_schedule(inst, res.schedule)
    assert res.lower_bound is not None and res.lower_bound <= res.objective


# --------------------------------------------------------------------------- refusals and bad options


def test_matching_refuses_k3() -> None:
    inst = random_pack_instance(5, 4, 3, seed=0)
    with pytest.raises(MethodRefused, match=r"k = 1 or 2.*k = 3"):
        cs.solve(inst, "matching")


def test_enumerate_refuses_beyond_its_size() -> None:
    k = 4
    n = enumerate_max_n(k) + 1
    inst = random_pack_instance(n, 16, k, seed=0)
    with pytest.raises(MethodRefused, match=rf"up to {n - 1} tasks.*n={n}, k={k}"):
        cs.solve(inst, "enumerate")


@pytest.mark.parametrize("name", ["ilp", "ilp-cbc"])
@pytest.mark.parametrize("gap", [-0.1, 1.0, "0.1"])
def test_ilp_rejects_bad_mip_gap(name: str, gap: object) -> None:
    inst = random_pack_instance(3, 3, 2, seed=0)
    with pytest.raises(InputError, match="mip_gap"):
        cs.solve(inst, name, mip_gap=gap)


# --------------------------------------------------------------------------- small fixed cases


def test_matching_pairs_two_tasks_that_gain_from_sharing() -> None:
    # perfectly parallel tasks: t(j) = w / j; sharing 4 processors 2 + 2 costs max(w1, w2) / 2
    t = np.array([[8 / j for j in range(1, 5)], [8 / j for j in range(1, 5)], [4 / j for j in range(1, 5)]])
    inst = PackInstance(t, 2)
    res = cs.solve(inst, "matching")
    check_optimal(inst, res)
    assert close(res.objective, cs.solve(inst, "enumerate").objective)
    assert close(res.objective, brute_force_optimum(inst))


@pytest.mark.parametrize("name", ["ilp", "ilp-cbc", "enumerate", "matching"])
def test_single_task(name: str) -> None:
    inst = PackInstance(np.array([[6.0, 3.0, 2.5]]), 2)
    res = cs.solve(inst, name, time_limit=30)
    check_optimal(inst, res)
    assert close(res.objective, 2.5)


@pytest.mark.parametrize("name", ["ilp", "ilp-cbc", "enumerate", "matching"])
def test_verbose_logs_go_to_stderr_only(name: str, capfd: pytest.CaptureFixture[str]) -> None:
    inst = random_pack_instance(4, 3, 2, seed=5)
    res = cs.solve(inst, name, time_limit=30, verbose=True)
    assert res.status is Status.OPTIMAL
    out, err = capfd.readouterr()
    assert out == ""
    assert err != ""


@settings(max_examples=30, deadline=None)
@given(pack_instances(max_n=6, max_p=5), st.integers(0, 3))
def test_enumerate_is_deterministic(inst: PackInstance, seed: int) -> None:
    a = cs.solve(inst, "enumerate", seed=seed)
    b = cs.solve(inst, "enumerate", seed=seed + 1)
    assert a.schedule == b.schedule


def test_ilp_optimum_without_highs_symmetry_detection() -> None:
    # found by test_optimum_equals_ilp: with HiGHS 1.15.1's symmetry detection on, `ilp`
    # returned 186.75 as proven optimal; enumerate, branch-and-price and CBC give 180.156
    times = np.array(
        [
            [88.11349374042314, 79.33222461605303, 66.37045804752638],
            [80.67143968530337, 63.79096315725696, 43.05901770557184],
            [62.49994505507915, 34.84743185610264, 27.606288612621086],
            [58.72684502968413, 54.79361529307303, 44.83547454909128],
            [81.51768711574186, 70.29166157600294, 60.024674176305616],
            [26.709117069501442, 20.240294927340212, 15.127299022529137],
        ]
    )
    inst = PackInstance(times, 2)
    ref = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, "ilp")
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(ref, rel=1e-9)
    assert ref == pytest.approx(180.15608212910146, rel=1e-12)
