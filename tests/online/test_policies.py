"""The nine policies: the event-driven simulators against the naive reference, the schedules
valid, Figure 3.2's example, the oracles of the offline optimum, and refused settings."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import InputError
from coschedopt.online import OnlineInstance, validate_schedule
from coschedopt.online.generate import figure_3_2
from coschedopt.online.metrics import objective_value
from coschedopt.online.simulators.policies import simulate
from coschedopt.online.simulators.reference import brute_force_optimum, reference_schedule
from coschedopt.online.simulators.rules import NON_PREEMPTIVE, POLICIES, PolicyRun

from .strategies import online_instances, policy_runs


def runs_of(schedule):
    return sorted(
        zip(
            schedule.task.tolist(),
            schedule.processor.tolist(),
            schedule.start.tolist(),
            schedule.end.tolist(),
            schedule.outcome.tolist(),
            strict=True,
        )
    )


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_simulators_match_the_reference_run_for_run(data):
    inst = data.draw(online_instances(max_n=14, max_m=5, integer=False))
    run = data.draw(policy_runs(inst.processors))
    fast = simulate(inst, run)
    ref = reference_schedule(inst, run)
    validate_schedule(inst, fast)
    validate_schedule(inst, ref)
    assert runs_of(fast) == runs_of(ref)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_every_policy_on_a_loaded_random_instance_is_valid_and_matches(policy):
    rng = np.random.default_rng(7)
    n = 60
    sizes = np.floor(rng.pareto(1.1, n) * 4 + 1)
    inst = OnlineInstance(np.sort(rng.integers(0, 60, n)), sizes, 4)
    run = PolicyRun(policy, dedicated=1 if POLICIES[policy][2] != "none" else 0, tau=2, c=0.5, seed=3)
    fast = simulate(inst, run)
    validate_schedule(inst, fast)
    assert runs_of(fast) == runs_of(reference_schedule(inst, run))


def test_figure_3_2():
    """ΣF = 110 for non-preemptive SPT (one processor), 43 for SPT-RD with τ = 3 (one main, one
    dedicated processor: T0 killed at 3, done at 13 on the dedicated one), 31 for the offline optimum."""
    one, two = figure_3_2(10, 1), figure_3_2(10, 2)
    assert cs.solve(one, "spt").objective == 110
    assert cs.solve(one, "gspt").objective == 110
    res = cs.solve(two, "spt-rd", dedicated=1, tau=3)
    assert res.objective == 43
    assert res.stats["redirections"] == 1 and res.stats["wasted_work"] == 3
    t0 = res.schedule.task == 0
    assert sorted(zip(res.schedule.start[t0].tolist(), res.schedule.end[t0].tolist(), strict=True)) == [(0, 3), (3, 13)]
    assert cs.solve(two, "gspt-rd", dedicated=1, tau=3).objective == 43
    assert cs.solve(one, "milp").objective == 31
    assert cs.solve(one, "cpsat", workers=1).objective == 31
    assert brute_force_optimum(figure_3_2(6, 1)) == 3 * 6 + 1


def test_stats_carry_the_six_objectives_and_the_instance_objective_is_the_result():
    inst = figure_3_2(10, 2, objective="max-stretch")
    res = cs.solve(inst, "spt-rd", tau=3)
    assert res.objective == res.stats["max_stretch"] == pytest.approx(1.3)
    for key in ("sum_stretch", "max_stretch", "l2_stretch", "sum_flow", "max_flow", "l2_flow"):
        assert key in res.stats
    assert res.lower_bound is not None and res.lower_bound <= res.objective


@settings(max_examples=150, deadline=None)
@given(online_instances(max_n=6, max_m=3), st.data())
def test_the_offline_optimum_bounds_every_non_preemptive_policy(inst, data):
    opt = brute_force_optimum(inst)
    run = data.draw(policy_runs(inst.processors, NON_PREEMPTIVE))
    value = objective_value(inst, simulate(inst, run).completion_times(inst))
    assert opt <= value + 1e-9 * max(1.0, value)


@settings(max_examples=150, deadline=None)
@given(online_instances(max_n=6, max_m=3))
def test_gspt_is_optimal_for_sum_flow_with_all_releases_at_zero(inst):
    inst = OnlineInstance(np.zeros(inst.n), inst.time, inst.processors, objective="sum-flow")
    gspt = objective_value(inst, simulate(inst, PolicyRun("gspt")).completion_times(inst))
    assert gspt == pytest.approx(brute_force_optimum(inst), rel=1e-12)


@settings(max_examples=150, deadline=None)
@given(online_instances(max_n=6, max_m=1))
def test_on_one_processor_fcfs_is_optimal_for_max_flow_and_srpt_beats_the_optimum_on_sum_flow(inst):
    inst = inst.with_objective("max-flow")
    fcfs = objective_value(inst, simulate(inst, PolicyRun("fcfs")).completion_times(inst))
    assert fcfs == pytest.approx(brute_force_optimum(inst), rel=1e-12)
    inst = inst.with_objective("sum-flow")
    opt = brute_force_optimum(inst)
    for policy in ("srpt", "gsrpt"):
        for strict in (False, True):
            schedule = simulate(inst, PolicyRun(policy, strict_preemption=strict))
            assert objective_value(inst, schedule.completion_times(inst)) <= opt + 1e-9


@pytest.mark.parametrize(
    ("policy", "options", "where", "message"),
    [
        ("spt-rd", {"dedicated": 2}, "dedicated", "1 <= m_d < m = 2, got 2"),
        ("gspt-rr", {"dedicated": 5}, "dedicated", "1 <= m_d < m = 2, got 5"),
        ("spt-rd", {"dedicated": 0}, "dedicated", "must be a number >= 1, got 0"),
        ("gspt-rd", {"tau": 0}, "tau", "must be a number >= 1, got 0"),
        ("spt-rr", {"c": 1.5}, "c", "<= 1.0, got 1.5"),
        ("gspt-rr", {"c": -0.1}, "c", ">= 0.0, <= 1.0, got -0.1"),
        ("spt", {"tau": 2}, "tau", "unknown option 'tau'"),
    ],
)
def test_bad_settings_are_refused_naming_the_option(policy, options, where, message):
    with pytest.raises(InputError, match=message) as err:
        cs.solve(figure_3_2(4, 2), policy, **options)
    assert err.value.where == where


def test_redirection_on_one_processor_is_refused():
    with pytest.raises(InputError, match="1 <= m_d < m = 1"):
        cs.solve(figure_3_2(4, 1), "spt-rd")


def test_random_redirection_follows_the_seed():
    rng = np.random.default_rng(0)
    inst = OnlineInstance(np.sort(rng.integers(0, 200, 80)), np.floor(rng.pareto(1.0, 80) * 5 + 1), 4)
    a = cs.solve(inst, "spt-rr", seed=1, c=0.5, b=0.0)
    b = cs.solve(inst, "spt-rr", seed=1, c=0.5, b=0.0)
    c = cs.solve(inst, "spt-rr", seed=2, c=0.5, b=0.0)
    assert np.array_equal(a.schedule.processor, b.schedule.processor)
    assert not np.array_equal(a.schedule.processor, c.schedule.processor)
    # c = 0 never redirects: SPT-RR is SPT on the main pool
    none = cs.solve(inst, "spt-rr", c=0.0, dedicated=1)
    assert (none.schedule.processor < 3).all()
