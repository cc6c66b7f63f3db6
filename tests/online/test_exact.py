"""The exact offline optimum: ``milp`` (HiGHS) = ``cpsat`` (CP-SAT) = brute force on small
random instances, refusals, time limits and the lower bounds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.core import InputError, MethodRefused, Status
from coschedopt.online import OnlineInstance, validate_schedule
from coschedopt.online.bounds import fast_machine_fcfs_max_flow, fast_machine_srpt_flow, lower_bound, work_bound
from coschedopt.online.exact.cpsat import integer_costs
from coschedopt.online.exact.offline import start_windows
from coschedopt.online.generate import random_instance
from coschedopt.online.metrics import objective_value
from coschedopt.online.simulators.policies import simulate
from coschedopt.online.simulators.reference import brute_force_optimum
from coschedopt.online.simulators.rules import POLICIES, PolicyRun

from .strategies import close, online_instances


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(online_instances(max_n=6, max_m=3, max_time=12))
def test_milp_equals_cpsat_equals_brute_force(inst):
    a = cs.solve(inst, "milp")
    b = cs.solve(inst, "cpsat", workers=1)
    assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
    validate_schedule(inst, a.schedule)
    validate_schedule(inst, b.schedule)
    best = brute_force_optimum(inst)
    assert close(a.objective, best) and close(b.objective, best), (a.objective, b.objective, best)
    assert b.lower_bound <= b.objective + 1e-9


@pytest.mark.parametrize("objective", ["sum-stretch", "l2-stretch", "max-stretch", "l2-flow"])
def test_both_exact_methods_agree_on_a_loaded_instance(objective):
    inst = random_instance(10, 2, max_time=30, load=1.2, objective=objective, seed=4)
    a, b = cs.solve(inst, "milp"), cs.solve(inst, "cpsat", workers=1)
    assert a.status is b.status is Status.OPTIMAL
    assert close(a.objective, b.objective)
    for policy in POLICIES:  # every policy, preemptive or not, stays above the certified bounds
        run = PolicyRun(policy, dedicated=1, tau=2)
        assert lower_bound(inst) <= objective_value(inst, simulate(inst, run).completion_times(inst)) + 1e-9


def test_stretch_weights_scale_exactly_when_they_can_and_round_with_a_bound_otherwise():
    small = random_instance(6, 2, max_time=12, objective="sum-stretch", seed=1)
    assert integer_costs(start_windows(small, "cpsat", max_tasks=50, max_starts=10**6)).exact
    primes = OnlineInstance(np.arange(6), [11, 13, 17, 19, 23, 29], 2, objective="l2-stretch")
    costs = integer_costs(start_windows(primes, "cpsat", max_tasks=50, max_starts=10**6))
    assert not costs.exact
    res = cs.solve(primes, "cpsat", workers=1)
    assert res.status is Status.OPTIMAL and res.stats["weights"].startswith("rounded")
    assert close(res.objective, cs.solve(primes, "milp").objective)


@pytest.mark.parametrize("method", ["milp", "cpsat", "lpfix"])
def test_non_integer_data_is_refused_naming_the_task(method):
    inst = OnlineInstance([0, 1.5], [2, 3], 1)
    with pytest.raises(MethodRefused, match="integer releases and times, got 1.5") as err:
        cs.solve(inst, method)
    assert err.value.where == "tasks[1].release"


@pytest.mark.parametrize(("method", "limit"), [("milp", 60), ("cpsat", 100)])
def test_too_many_tasks_are_refused(method, limit):
    inst = random_instance(limit + 1, 4, seed=0)
    with pytest.raises(MethodRefused, match=f"at most {limit} tasks, got {limit + 1}"):
        cs.solve(inst, method)


def test_too_many_start_times_are_refused():
    inst = OnlineInstance(np.zeros(40), np.full(40, 5000), 2, objective="max-flow")
    with pytest.raises(InputError, match=r"at most 60000 \(task, start time\) pairs"):
        cs.solve(inst, "milp")


@pytest.mark.parametrize("method", ["milp", "cpsat"])
def test_time_limit_returns_a_valid_schedule_and_a_certified_bound(method):
    inst = random_instance(40, 3, max_time=50, load=1.0, objective="sum-stretch", seed=11)
    res = cs.solve(inst, method, time_limit=0.3, **({"workers": 1} if method == "cpsat" else {}))
    assert res.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    validate_schedule(inst, res.schedule)
    assert res.lower_bound is not None and res.lower_bound <= res.objective + 1e-9
    assert res.lower_bound >= work_bound(inst)


def test_fast_machine_bounds_on_hand_made_cases():
    inst = OnlineInstance([0, 0, 0], [2, 4, 6], 1, objective="sum-flow")
    assert fast_machine_srpt_flow(inst) == 2 + 6 + 12
    assert fast_machine_fcfs_max_flow(inst) == 12
    two = OnlineInstance([0, 0], [4, 4], 2)
    assert fast_machine_srpt_flow(two) == 2 + 4  # speed 2: the bound is weaker than Σp = 8 here
    assert lower_bound(two.with_objective("sum-flow")) == 8


@settings(max_examples=100, deadline=None)
@given(online_instances(max_n=6, max_m=3))
def test_lower_bounds_never_exceed_the_optimum(inst):
    assert lower_bound(inst) <= brute_force_optimum(inst) + 1e-9


def test_milp_survives_a_presolve_that_calls_a_feasible_model_infeasible():
    """HiGHS 1.16's presolve declares this model infeasible (found by the property test above); the incumbent
    policy schedule lies in the windows, so the backend solves again without presolve and proves the optimum."""
    inst = OnlineInstance(np.array([15.0, 15, 15, 3, 12]), np.array([1.0, 5, 11, 12, 12]), 1, objective="l2-flow")
    a, b = cs.solve(inst, "milp"), cs.solve(inst, "cpsat", workers=1)
    assert a.status is Status.OPTIMAL and b.status is Status.OPTIMAL
    validate_schedule(inst, a.schedule)
    assert close(a.objective, b.objective) and close(a.objective, brute_force_optimum(inst))
