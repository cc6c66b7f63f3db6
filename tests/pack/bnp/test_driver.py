"""The method end to end (:mod:`coschedopt.pack.exact.bnp.driver`): cross-checked against brute
force, ``enumerate`` and ``ilp``; time limits, options, a start schedule; Theorem 2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.pack import PackInstance, validate_schedule
from coschedopt.pack.exact import bnp
from coschedopt.pack.generate import random_pack_instance

from ..strategies import pack_instances
from .helpers import brute_force_optimum, check_result, registered, solve


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=6), st.booleans())
def test_optimum_equals_brute_force(inst: PackInstance, heuristics: bool) -> None:
    res = solve(inst, heuristics=heuristics)
    check_result(inst, res, brute_force_optimum(inst))


@pytest.mark.slow
@pytest.mark.skipif(not registered("enumerate"), reason="the enumerate method is not registered yet")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=8, max_p=8))
def test_optimum_equals_enumerate(inst: PackInstance) -> None:
    ref = cs.solve(inst, "enumerate")
    res = solve(inst, seed=1)
    check_result(inst, res, ref.objective)


@pytest.mark.slow
@pytest.mark.skipif(not registered("ilp"), reason="the ilp method is not registered yet")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=6, max_p=5))
def test_optimum_equals_ilp(inst: PackInstance) -> None:
    ref = cs.solve(inst, "ilp")
    assert ref.status is cs.Status.OPTIMAL
    res = solve(inst)
    check_result(inst, res, ref.objective)


@pytest.mark.parametrize("seed", range(4))
def test_medium_random_instances_match_enumerate(seed: int) -> None:
    inst = random_pack_instance(10, 8, 3 + seed % 3, seed=seed, integer=seed % 2 == 1)
    res = solve(inst, heuristics=False)
    check_result(inst, res, brute_force_optimum(inst))


def test_time_limit_returns_valid_schedule_and_bound() -> None:
    inst = random_pack_instance(40, 16, 6, seed=3)
    res = solve(inst, time_limit=0.3)
    validate_schedule(inst, res.schedule)
    assert res.status in (cs.Status.TIME_LIMIT, cs.Status.OPTIMAL)
    assert res.lower_bound is not None and 0 < res.lower_bound <= res.objective
    if res.status is cs.Status.TIME_LIMIT:
        assert res.gap > 0


def test_time_limit_bound_is_below_the_optimum() -> None:
    inst = random_pack_instance(12, 6, 3, seed=5)
    opt = solve(inst).objective
    for tl in (0.001, 0.05):
        res = solve(inst, time_limit=tl)
        validate_schedule(inst, res.schedule)
        assert res.lower_bound <= opt * (1 + 1e-12)
        assert res.objective >= opt * (1 - 1e-12)


def test_gap_option_stops_early_with_a_certified_gap() -> None:
    inst = random_pack_instance(20, 8, 4, seed=2)
    res = solve(inst, gap=0.05)
    assert res.status is cs.Status.OPTIMAL
    assert res.gap <= 0.05 + 1e-9
    exact = solve(inst)
    assert res.lower_bound <= exact.objective * (1 + 1e-12) <= res.objective * (1 + 1e-12)


def test_bad_gap_is_refused() -> None:
    inst = random_pack_instance(3, 2, 2, seed=0)
    with pytest.raises(cs.InputError, match="gap"):
        solve(inst, gap=-0.1)


def test_same_seed_same_schedule() -> None:
    inst = random_pack_instance(14, 8, 4, seed=9)
    a = solve(inst, seed=3)
    b = solve(inst, seed=3)
    assert a.schedule == b.schedule and a.objective == b.objective


def test_verbose_logs_to_stderr_only(capsys) -> None:
    inst = random_pack_instance(6, 4, 3, seed=1)
    solve(inst, verbose=True)
    out, err = capsys.readouterr()
    assert out == "" and "branch-and-price" in err


def test_start_schedule_is_the_first_incumbent_and_is_validated() -> None:
    inst = random_pack_instance(14, 9, 4, seed=7)
    start = cs.solve(inst, "pack-by-pack-1").schedule
    res = solve(inst, heuristics=False, start=start, time_limit=1e-6)
    validate_schedule(inst, res.schedule)
    assert res.objective <= cs.pack.pack_cost(inst, start) + 1e-9
    broken = cs.pack.PackSchedule(start.packs[1:])  # the first pack's tasks are missing
    with pytest.raises(cs.InputError, match="not scheduled"):
        solve(inst, start=broken)


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
    res = solve(inst, seed=0, complete_master=complete)
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


def test_public_entry_takes_options_as_keywords_or_as_one_object() -> None:
    inst = random_pack_instance(12, 8, 3, seed=4)
    ref = cs.solve(inst, "branch-and-price", seed=2, heuristics=False, lns=False)
    by_keywords = bnp.solve(inst, seed=2, heuristics=False, lns=False)
    by_object = bnp.solve(inst, seed=2, options=bnp.BnpOptions(heuristics=False, lns=False))
    for res in (by_keywords, by_object):
        assert res.schedule == ref.schedule and res.lower_bound == ref.lower_bound
    with pytest.raises(cs.InputError, match="count_fractions"):
        bnp.solve(inst, count_fractions=0.1)
