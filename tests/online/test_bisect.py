"""``cpsat``'s bisection for max flow and max stretch (:mod:`coschedopt.online.exact.bisect`) against brute force,
against its single model (``bisect=false``) and the MILP, its time limit, and its lifted size cap."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import MethodRefused, Status
from coschedopt.online import validate_schedule
from coschedopt.online.generate import random_instance
from coschedopt.online.simulators.reference import brute_force_optimum

from .strategies import close, online_instances


@settings(max_examples=120, deadline=None)
@given(
    online_instances(max_n=6, max_m=3, max_time=12),
    st.sampled_from(["max-flow", "max-stretch"]),
    st.booleans(),
)
def test_the_bisection_equals_brute_force(inst, objective, clamp):
    inst = dataclasses.replace(inst, objective=objective, clamp_stretch=clamp)
    res = cs.solve(inst, "cpsat", workers=1)
    assert res.status is Status.OPTIMAL and "probes" in res.stats
    validate_schedule(inst, res.schedule)
    best = brute_force_optimum(inst)
    assert close(res.objective, best) and close(res.lower_bound, best), (res.objective, best)


@pytest.mark.parametrize("objective", ["max-flow", "max-stretch"])
@pytest.mark.parametrize("seed", range(3))
def test_the_bisection_equals_the_single_model_and_the_milp(objective, seed):
    inst = random_instance(40, 3, objective=objective, seed=seed)
    a = cs.solve(inst, "cpsat", workers=1)
    b = cs.solve(inst, "cpsat", workers=1, bisect=False)
    c = cs.solve(inst, "milp")
    assert a.status is b.status is c.status is Status.OPTIMAL
    assert close(a.objective, b.objective) and close(a.objective, c.objective)
    assert close(a.lower_bound, a.objective) and a.stats["probes"] >= 1 and "probes" not in b.stats


def test_the_single_model_keeps_its_task_cap_and_the_bisection_has_none():
    inst = random_instance(150, 3, objective="max-flow", seed=0)
    with pytest.raises(MethodRefused, match="at most 100 tasks"):
        cs.solve(inst, "cpsat", bisect=False)
    res = cs.solve(inst, "cpsat", workers=1, time_limit=60)
    assert res.status is Status.OPTIMAL
    validate_schedule(inst, res.schedule)


def test_a_time_limit_returns_a_valid_schedule_and_a_certified_bound():
    inst = random_instance(200, 3, objective="max-stretch", seed=4)
    res = cs.solve(inst, "cpsat", workers=1, time_limit=0.05)
    assert res.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    validate_schedule(inst, res.schedule)
    assert res.lower_bound <= res.objective + 1e-9
