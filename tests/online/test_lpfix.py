"""``lpfix``: the time-indexed LP, reduced-cost fixing and the MIP over the starts left prove the same optimum
as brute force, ``milp`` and ``cpsat``; its LP value bounds the optimum; the maxima are refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.core import Deadline, MethodRefused, Status
from coschedopt.online import validate_schedule
from coschedopt.online.exact.lpfix import TimeIndexed, improve_order, list_total, lp_orders
from coschedopt.online.exact.offline import schedule_from_starts, start_windows
from coschedopt.online.generate import random_instance
from coschedopt.online.metrics import objective_value
from coschedopt.online.simulators.reference import brute_force_optimum

from .strategies import close, online_instances

SUMS = ("sum-flow", "sum-stretch", "l2-flow", "l2-stretch")


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(online_instances(max_n=6, max_m=3, max_time=12))
def test_lpfix_equals_brute_force(inst):
    if inst.objective.startswith("max"):
        inst = inst.with_objective(inst.objective.replace("max", "sum"))
    res = cs.solve(inst, "lpfix")
    assert res.status is Status.OPTIMAL
    validate_schedule(inst, res.schedule)
    assert close(res.objective, brute_force_optimum(inst)), (res.objective, brute_force_optimum(inst))


@pytest.mark.parametrize("objective", SUMS)
@pytest.mark.parametrize("restrict", [0.0, 0.1, 1.0])
def test_lpfix_agrees_with_milp_and_cpsat_on_loaded_instances(objective, restrict):
    # restrict = 0: straight to the MIP the incumbent leaves; 1: the restricted MIP is the whole fixed one
    for seed in (3, 4):
        inst = random_instance(14, 2, max_time=30, load=1.2, objective=objective, seed=seed)
        res = cs.solve(inst, "lpfix", restrict=restrict)
        assert res.status is Status.OPTIMAL
        validate_schedule(inst, res.schedule)
        assert close(res.objective, objective_value(inst, res.schedule.completion_times(inst)))
        assert close(res.objective, cs.solve(inst, "milp").objective)
        assert close(res.objective, cs.solve(inst, "cpsat", workers=1).objective)


@pytest.mark.parametrize("objective", SUMS)
def test_the_lp_bounds_the_optimum_and_fixing_keeps_it(objective):
    inst = random_instance(40, 3, objective=objective, seed=2)
    res = cs.solve(inst, "lpfix")
    milp = cs.solve(inst, "milp")
    assert res.status is milp.status is Status.OPTIMAL
    assert close(res.objective, milp.objective)
    assert res.stats["lp_value"] <= res.objective + 1e-6
    assert res.stats["columns"] > 0


def test_list_scheduling_and_its_local_search_give_valid_left_shifted_schedules():
    inst = random_instance(30, 3, objective="sum-flow", seed=1)
    model = TimeIndexed.of(start_windows(inst, "lpfix", max_tasks=30, max_starts=10**6))
    x = np.zeros(model.columns)
    x[model.offset[:-1]] = 1.0  # every task at its release: every order is the order of the releases
    orders = lp_orders(model, x)
    assert all(sorted(o) == list(range(inst.n)) for o in orders)
    total, starts = list_total(inst, model, orders[0])
    schedule = schedule_from_starts(inst, np.array(starts))
    validate_schedule(inst, schedule)
    assert close(total, objective_value(inst, schedule.completion_times(inst)))
    shuffled = orders[0][:]
    for a in (0, 5, 11):
        shuffled[a], shuffled[a + 1] = shuffled[a + 1], shuffled[a]
    start_total, _ = list_total(inst, model, shuffled)
    better, order, starts = improve_order(inst, model, shuffled, Deadline(10.0))
    assert start_total < float("inf") and better <= start_total and close(better, list_total(inst, model, order)[0])
    assert starts == list_total(inst, model, order)[1]  # the best list's starts, returned with it
    validate_schedule(inst, schedule_from_starts(inst, np.array(starts)))


def test_the_maxima_are_refused_naming_the_method_to_use():
    with pytest.raises(MethodRefused, match="max-flow is a maximum: use cpsat") as err:
        cs.solve(random_instance(10, 2, objective="max-flow", seed=0), "lpfix")
    assert err.value.where == "objective"


def test_a_time_limit_returns_a_valid_schedule_and_a_certified_bound():
    inst = random_instance(100, 3, objective="sum-flow", seed=1)
    res = cs.solve(inst, "lpfix", time_limit=2.0)
    assert res.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    validate_schedule(inst, res.schedule)
    assert res.lower_bound is not None and res.lower_bound <= res.objective + 1e-9
