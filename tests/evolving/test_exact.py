"""The exact methods: cpsat against the time-indexed MILP (no stretch) and against exhaustive search
(with stretch), below every heuristic, monotone in the stretch limit, and within their time limits."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.evolving import Profile
from coschedopt.evolving.generate import SMALL, random_evolving_instance

from .strategies import instances

ONE = {"workers": 1}  # one CP-SAT worker in tests (the machine is shared)


def exhaustive(inst, limit: float, horizon: int) -> tuple[int, int]:
    """(minimum makespan, least waste at it) over every schedule on the integer grid ending by ``horizon``."""
    best = [math.inf, math.inf]

    def options(app):
        count = len(app.durations)
        ranges = [
            range(d, min(horizon, math.floor(limit * d) if math.isfinite(limit) else horizon) + 1)
            if 0 < k < count - 1
            else [d]
            for k, d in enumerate(app.durations)
        ]
        return list(itertools.product(*ranges))

    choices = [options(a) for a in inst.applications]

    def place(i: int, used: Profile, end: int, waste: int) -> None:
        if (end, waste) >= tuple(best):
            return
        if i == inst.n:
            best[:] = [end, waste]
            return
        app = inst.applications[i]
        for durations in choices[i]:
            extra = sum(n * (d2 - d) for d2, d, n in zip(durations, app.durations, app.nodes, strict=True))
            for start in range(horizon - sum(durations) + 1):
                if (used.plus_stages(start, durations, app.nodes)).peak <= inst.nodes:
                    place(
                        i + 1,
                        used.plus_stages(start, durations, app.nodes),
                        max(end, start + sum(durations)),
                        waste + extra,
                    )

    place(0, Profile(), 0, 0)
    return int(best[0]), int(best[1])


def waste(inst, schedule) -> int:
    by_name = schedule.by_name()
    return sum(
        n * (d2 - d)
        for a in inst.applications
        for d2, d, n in zip(by_name[a.name].durations, a.durations, a.nodes, strict=True)
    )


@settings(max_examples=40, deadline=None)
@given(instances(max_apps=4, max_stages=3, max_duration=4))
def test_cpsat_without_stretch_equals_the_time_indexed_milp(inst):
    cp = cs.solve(inst, "cpsat", options=ONE)
    mip = cs.solve(inst, "milp")
    assert cp.status is mip.status is cs.Status.OPTIMAL
    assert cp.objective == mip.objective


@settings(max_examples=60, deadline=None)
@given(instances(max_apps=3, max_stages=3, max_duration=3, nodes=(3, 6)), st.sampled_from([1.0, 2.0, 3.0, math.inf]))
def test_cpsat_equals_exhaustive_search_in_makespan_and_least_waste(inst, limit):
    res = cs.solve(inst, "cpsat", stretch_limit=limit, options=ONE)
    horizon = int(cs.solve(inst, "nos").objective)
    assert res.status is cs.Status.OPTIMAL
    assert (res.objective, waste(inst, res.schedule)) == exhaustive(inst, limit, horizon)


@settings(max_examples=30, deadline=None)
@given(instances(max_apps=5, max_stages=4))
def test_cpsat_is_below_every_heuristic_and_monotone_in_the_stretch_limit(inst):
    opt = {limit: cs.solve(inst, "cpsat", stretch_limit=limit, options=ONE).objective for limit in (1, 2, math.inf)}
    rigid = cs.solve(inst, "cpsat", rigid=True, options=ONE)
    assert rigid.schedule.rigid and opt[math.inf] <= opt[2] <= opt[1] <= rigid.objective
    assert rigid.objective <= cs.solve(inst, "cbf").objective
    for name, limit in (("nos", 1), ("mic", 2), ("mic+c", 2), ("inf", math.inf), ("inf+c", math.inf)):
        assert opt[limit] <= cs.solve(inst, name).objective
        assert opt[limit] <= cs.solve(inst, "order-search", stretch_limit=limit, iterations=20).objective


def test_stretching_can_shorten_the_optimum():
    inst = random_evolving_instance(seed=3, **SMALL)  # coschedopt generate evolving small --seed 3
    no_stretch = cs.solve(inst, "cpsat", options=ONE)
    stretch = cs.solve(inst, "cpsat", stretch_limit=2, options=ONE)
    assert stretch.status is no_stretch.status is cs.Status.OPTIMAL
    assert (stretch.objective, no_stretch.objective) == (10700, 11300)
    assert stretch.stats["phase2"] == "OPTIMAL" and stretch.stats["waste_units"] > 0


def test_node_ids_on_exact_schedules():
    inst = random_evolving_instance(seed=1, min_apps=4, max_apps=4, max_stages=3, time_unit=100)
    for name, opts in (("cpsat", {"stretch_limit": 2, **ONE}), ("cpsat", {"rigid": True, **ONE}), ("milp", {})):
        res = cs.solve(inst, name, node_ids=True, options=opts)
        assert res.schedule.node_ids


def test_a_time_limit_returns_the_best_schedule_and_a_certified_bound():
    inst = random_evolving_instance(seed=0)  # 15-20 applications in whole seconds: not proven in 0.5 s
    res = cs.solve(inst, "cpsat", stretch_limit=2, time_limit=0.5, options=ONE)
    assert res.status is cs.Status.TIME_LIMIT and res.schedule is not None
    assert res.lower_bound <= res.objective <= cs.solve(inst, "nos").objective


def test_exact_methods_refuse_fractional_durations_and_long_horizons():
    inst = cs.instance_from_dict(
        {"kind": "evolving", "nodes": 4, "applications": [{"stages": [{"duration": 1.5, "nodes": 2}]}]}
    )
    for name in ("cpsat", "milp"):
        with pytest.raises(cs.InputError) as info:
            cs.solve(inst, name)
        assert info.value.where == "applications[0].stages[0].duration" and "1.5" in info.value.message
    with pytest.raises(cs.InputError, match="above max_horizon = 10"):
        cs.solve(random_evolving_instance(seed=0, time_unit=100), "milp", max_horizon=10)
