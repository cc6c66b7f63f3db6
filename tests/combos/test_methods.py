"""Every combos method: valid schedules, sparse combination sets, time limits, Result round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.combos import CombosSchedule, makespan, trivial_lower_bound, validate_schedule
from coschedopt.combos.generate import random_combos_instance
from coschedopt.core import Status

from .strategies import combos_instances

HEURISTICS = ["fcs", "search-pi", "search-ei", "search-ucb"]


@pytest.mark.parametrize("max_size", [1, 2, 3])
def test_sparse_combination_sets_work_with_every_method(max_size):
    inst = random_combos_instance(6, 0.65, 0.75, seed=9, max_size=max_size)
    opt = cs.solve(inst, "lp").objective
    if max_size == 1:
        assert opt == pytest.approx(inst.b.sum())  # only singletons: run one task after another
    for name in HEURISTICS:
        res = cs.solve(inst, name, seed=0)
        assert res.objective >= opt * (1 - 1e-9)
    full = cs.solve(random_combos_instance(6, 0.65, 0.75, seed=9), "lp").objective
    assert full <= opt * (1 + 1e-9)  # allowing fewer combinations never helps


@settings(max_examples=25, deadline=None)
@given(combos_instances(max_n=6))
def test_every_method_schedule_validates(inst):
    for name in ["lp", *HEURISTICS]:
        res = cs.solve(inst, name, seed=0)
        validate_schedule(inst, res.schedule)
        assert res.objective == pytest.approx(makespan(inst, res.schedule))
        assert res.objective >= trivial_lower_bound(inst) * (1 - 1e-9)


def test_time_limit_is_honoured_with_a_valid_schedule():
    inst = random_combos_instance(12, seed=2)
    res = cs.solve(inst, "lp", backend="highspy", time_limit=1e-6)
    assert res.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    validate_schedule(inst, res.schedule)
    assert res.lower_bound <= cs.solve(inst, "lp").objective * (1 + 1e-9)
    s = cs.solve(inst, "search-ei", time_limit=1e-6)
    assert s.status is Status.TIME_LIMIT
    validate_schedule(inst, s.schedule)


def test_result_to_dict_round_trips_the_schedule():
    inst = random_combos_instance(4, seed=1)
    res = cs.solve(inst, "search-pi", seed=2)
    d = res.to_dict()
    back = CombosSchedule.from_dict(inst, d["schedule"])
    assert back == res.schedule
    assert cs.core.schedule_from_dict(inst, d) == res.schedule
