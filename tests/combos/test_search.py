"""combos/heuristics/search.py: the online searches PI / EI / UCB (section 4)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.combos import validate_schedule
from coschedopt.combos.generate import random_combos_instance
from coschedopt.combos.heuristics.search import (
    A_PLUS_READINGS,
    acquisition_values,
    best_candidates,
    normal_cdf,
    normal_pdf,
)
from coschedopt.core import InputError, Status

from .strategies import combos_instances


@settings(max_examples=40, deadline=None)
@given(
    combos_instances(max_n=5),
    st.sampled_from(["search-pi", "search-ei", "search-ucb"]),
    st.sampled_from([0.6, 0.9, 0.99]),
    st.sampled_from([1.0, 10.0]),
    st.sampled_from(A_PLUS_READINGS),
)
def test_search_strategies_finish_all_work_and_cost_at_least_the_optimum(inst, name, k, measure_time, a_plus):
    opt = cs.solve(inst, "lp", backend="highspy").objective
    res = cs.solve(inst, name, seed=1, k=k, measure_time=measure_time, a_plus=a_plus)
    assert res.status is Status.FEASIBLE
    validate_schedule(inst, res.schedule)  # every task receives exactly its work
    assert res.objective >= opt * (1 - 1e-9)
    assert res.lower_bound <= opt * (1 + 1e-9)
    assert res.stats["measurements"] <= inst.m - inst.n
    # every iteration measures a new combination or completes a task
    assert res.stats["iterations"] <= res.stats["measurements"] + inst.n


@pytest.mark.parametrize("a_plus", A_PLUS_READINGS)
@pytest.mark.parametrize("name", ["search-pi", "search-ei", "search-ucb"])
def test_search_is_seeded_reproducible(name, a_plus):
    inst = random_combos_instance(7, 0.45, 0.55, seed=5)
    a = cs.solve(inst, name, seed=3, a_plus=a_plus)
    b = cs.solve(inst, name, seed=3, a_plus=a_plus)
    assert a.schedule == b.schedule and a.objective == b.objective
    if (name, a_plus) != ("search-pi", "best-known"):  # that reading never explores: no ties to break
        others = {cs.solve(inst, name, seed=s, a_plus=a_plus).schedule for s in range(4, 12)}
        assert len(others) > 1  # ties at the start are broken by the seed


def test_search_measures_each_combination_at_most_once_for_the_measure_time():
    inst = random_combos_instance(6, 0.45, 0.55, seed=2)
    res = cs.solve(inst, "search-ucb", seed=0, measure_time=5.0, k=0.6)
    st_ = res.stats
    assert st_["measurements"] > 0
    assert st_["measuring_time"] <= 5.0 * (st_["measurements"] + st_["cut_short"]) + 1e-9
    assert st_["measuring_time"] >= 5.0 * st_["measurements"] - 1e-9
    assert st_["measuring_time"] + st_["exploiting_time"] == pytest.approx(res.objective)


def test_a_run_shorter_than_the_measure_time_teaches_nothing():
    # "each combination required at least 10 time unit of run time to measure tasks speed values":
    # with a measurement time longer than any task, every exploring run is cut short by a completion
    inst = random_combos_instance(6, 0.45, 0.55, seed=4)
    for name in ["search-pi", "search-ei", "search-ucb"]:
        res = cs.solve(inst, name, seed=0, measure_time=1e6)
        validate_schedule(inst, res.schedule)
        assert res.stats["measurements"] == 0
        assert res.stats["cut_short"] >= 1
        assert len(res.schedule) <= inst.n  # each run ends with a completion


def test_a_plus_readings_agree_on_the_first_decision_and_ucb_ignores_them():
    inst = random_combos_instance(7, 0.25, 0.35, seed=8)
    for name in ["search-pi", "search-ei"]:
        prev = cs.solve(inst, name, seed=2, a_plus="previous-max")
        cur = cs.solve(inst, name, seed=2, a_plus="current-max")
        # no previous iteration yet: both use the largest initial mean (same rng draw for ties)
        assert prev.schedule.segments[0] == cur.schedule.segments[0]
        assert prev.stats["a_plus"] == "previous-max" and cur.stats["a_plus"] == "current-max"
    ucb = {cs.solve(inst, "search-ucb", seed=2, a_plus=r).schedule for r in A_PLUS_READINGS}
    assert len(ucb) == 1


@pytest.mark.parametrize("lo", [0.05, 0.45, 0.85])
def test_pi_with_the_incumbent_as_a_plus_never_explores(lo):
    # a^+ = best known speed: the incumbent has PI = 1, more than any unknown combination's
    # Phi(z) < 1, so PI runs the known singletons one after another
    inst = random_combos_instance(6, lo, lo + 0.1, seed=3)
    res = cs.solve(inst, "search-pi", seed=0, a_plus="best-known")
    assert res.stats["measurements"] == 0 and res.stats["cut_short"] == 0
    assert all(len(tasks) == 1 for tasks, _ in res.schedule.segments)
    assert res.objective == pytest.approx(inst.b.sum())


def test_selection_ranks_pi_by_z_and_keeps_tiny_ei_above_zero():
    # PI: a known combination at a^+ (PI = 1) beats an unknown one at z = 10, although Phi(10) rounds to 1.0
    mean, sigma = np.array([1.0, 1.1]), np.array([0.0, 0.01])
    assert acquisition_values("pi", mean, sigma, 1.0).tolist() == [1.0, 1.0]
    assert best_candidates("pi", mean, sigma, 1.0).tolist() == [0]
    assert best_candidates("pi", mean, sigma, 1.2).tolist() == [1]  # known below a^+: PI = 0
    # EI: an unknown combination 20 deviations below a^+ still has EI > 0 = EI of the known one at a^+
    mean, sigma = np.array([1.0, 0.5]), np.array([0.0, 0.025])
    ei = acquisition_values("ei", mean, sigma, 1.0)
    assert ei[0] == 0.0 and 0 < ei[1] < 1e-80
    assert best_candidates("ei", mean, sigma, 1.0).tolist() == [1]
    # UCB: ties within round-off are all returned
    assert best_candidates("ucb", np.array([1.0, 0.5, 1.0]), np.array([0.2, 0.7, 0.2]), 0.0).tolist() == [0, 1, 2]


def test_search_options_are_checked():
    inst = random_combos_instance(3, seed=0)
    with pytest.raises(InputError, match="'k' must be a number > 0.5, < 1.0"):
        cs.solve(inst, "search-pi", k=0.4)
    with pytest.raises(InputError, match="measure_time"):
        cs.solve(inst, "search-ei", measure_time=0)
    with pytest.raises(InputError, match="'a_plus' must be one of 'previous-max'"):
        cs.solve(inst, "search-pi", a_plus="best")
    with pytest.raises(InputError, match="backend"):
        cs.solve(inst, "lp", backend="cplex")


def test_normal_cdf_pdf_and_acquisitions_match_the_standard_library():
    from statistics import NormalDist

    z = np.array([-40.0, -8.0, -1.0, 0.0, 0.5, 3.0, 9.0])
    nd = NormalDist()
    assert normal_cdf(z) == pytest.approx([nd.cdf(v) for v in z], rel=1e-12, abs=1e-15)  # NormalDist: erf, 1e-16 abs
    assert normal_cdf(np.array([-8.0]))[0] == pytest.approx(6.220960574271785e-16, rel=1e-9)  # tail via erfc
    assert normal_pdf(z) == pytest.approx([nd.pdf(v) for v in z], rel=1e-12, abs=1e-300)
    mean, sigma, best = np.array([0.7, 1.3, 1.0]), np.array([0.2, 0.1, 0.0]), 1.1
    zs = (mean[:2] - best) / sigma[:2]
    assert acquisition_values("pi", mean, sigma, best).tolist() == pytest.approx(
        [nd.cdf(zs[0]), nd.cdf(zs[1]), 0.0], rel=1e-12
    )
    ei = acquisition_values("ei", mean, sigma, best)
    for j in range(2):
        assert ei[j] == pytest.approx((mean[j] - best) * nd.cdf(zs[j]) + sigma[j] * nd.pdf(zs[j]), rel=1e-12)
        assert ei[j] > 0  # EI of an unknown combination is always positive
    assert ei[2] == pytest.approx(-0.1)
