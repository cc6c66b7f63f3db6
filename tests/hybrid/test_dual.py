"""The dual approximations: proven ratios as properties, every NO a certificate, the knapsacks cross-checked."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.hybrid import HybridInstance, makespan, validate_schedule
from coschedopt.hybrid.generate import random_hybrid_instance
from coschedopt.hybrid.heuristics.dual import dual2_step
from coschedopt.hybrid.heuristics.dual32 import Dual32Options, dual32_step
from coschedopt.hybrid.knapsack import ratio_order
from coschedopt.hybrid.listsched import _heapq_loop, list_schedule

from .strategies import hybrid_instances

DUAL2_OPTIONS = st.fixed_dictionaries(
    {
        "start": st.sampled_from(["lambda", "simple"]),
        "list_order": st.sampled_from(["paper", "lpt"]),
        "ties": st.sampled_from(["gpu-time", "index"]),
    }
)


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=9), DUAL2_OPTIONS)
def test_dual2_is_within_twice_the_optimum(inst, options):
    opt = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, "dual2", **options)
    assert opt - 1e-9 <= res.objective <= 2 * opt + 1e-9
    assert res.lower_bound <= opt + 1e-9


@settings(max_examples=60, deadline=None)
@given(hybrid_instances(max_n=8), st.floats(0.01, 0.5))
def test_dual2_relative_stop_is_within_two_one_plus_eps(inst, eps):
    opt = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, "dual2", stop="relative", eps=eps)
    assert res.objective <= 2 * (1 + eps) * opt + 1e-9 and res.lower_bound <= opt + 1e-9


@settings(max_examples=120, deadline=None)
@given(hybrid_instances(max_n=8), st.sampled_from(["paper", "lpt"]))
def test_every_dual2_no_is_a_certificate_and_every_yes_within_two_lambda(inst, order):
    opt = cs.solve(inst, "enumerate").objective
    ro = ratio_order(inst)
    for lam in np.linspace(0.5, 1.6 * opt, 25):
        sched = dual2_step(inst, ro, float(lam), order)
        if sched is None:
            assert opt > lam
        else:
            validate_schedule(inst, sched)
            assert makespan(inst, sched) <= 2 * lam + 1e-9
    assert dual2_step(inst, ro, opt, order) is not None  # the test passes at OPT


@settings(max_examples=120, deadline=None)
@given(hybrid_instances(max_n=8))
def test_dual32_is_within_three_halves_of_the_optimum(inst):
    opt = cs.solve(inst, "enumerate").objective
    res = cs.solve(inst, "dual32")
    assert opt - 1e-9 <= res.objective <= 1.5 * opt + 1e-9
    assert res.lower_bound <= opt + 1e-9


@settings(max_examples=80, deadline=None)
@given(hybrid_instances(max_n=7))
def test_dual32_steps_agree_between_dp_and_milp_and_certify_their_no(inst):
    opt = cs.solve(inst, "enumerate").objective
    dp, milp = Dual32Options(knapsack="dp"), Dual32Options(knapsack="milp")
    for lam in range(1, int(1.6 * opt) + 2):
        a = dual32_step(inst, float(lam), dp, Deadline(None))
        b = dual32_step(inst, float(lam), milp, Deadline(None))
        assert (a is None) == (b is None)
        if a is None:
            assert opt > lam
        else:
            validate_schedule(inst, a)
            assert makespan(inst, a) <= 1.5 * lam + 1e-9 and makespan(inst, b) <= 1.5 * lam + 1e-9


def test_dual32_on_data_without_a_grid_uses_the_milp():
    inst = random_hybrid_instance(12, 3, 2, seed=4, decimals=9)
    assert inst.time_scale is None
    res = cs.solve(inst, "dual32", stop="relative", eps=0.01)
    assert res.objective <= 1.5 * 1.01 * cs.solve(inst, "enumerate").objective + 1e-9
    with pytest.raises(cs.InputError, match="grid"):
        cs.solve(inst, "dual32", knapsack="dp")


def test_dual2_certifies_its_no_answers_in_the_lower_bound():
    # area bound 8/3 (3 on the grid), but at λ = 3 both tasks are forced onto the one GPU: NO, so OPT >= 4
    inst = HybridInstance(np.array([4.0, 4.0]), np.array([2.0, 2.0]), 1, 1)
    res = cs.solve(inst, "dual2", start="simple")
    assert res.stats["start_bound"] == 3.0 and res.stats["no_answers"] == 1
    assert res.lower_bound == 4.0 == res.objective and res.status is cs.Status.OPTIMAL


def test_compiled_and_heapq_list_scheduling_agree():
    rng = np.random.default_rng(0)
    d = rng.integers(1, 50, 3000).astype(float)  # integer times: many ties between loads
    order = rng.permutation(3000)
    a = list_schedule(d, order, 37)
    unit, start = np.zeros(3000, dtype=np.int64), np.zeros(3000)
    _heapq_loop(d, order, 37, unit, start)
    assert np.array_equal(a[0], unit) and np.array_equal(a[1], start)


def test_dual2_on_a_large_instance_is_valid_and_bounded():
    inst = random_hybrid_instance(5000, 64, 8, seed=2)
    res = cs.solve(inst, "dual2")
    assert res.lower_bound <= res.objective <= 2 * res.lower_bound
    assert res.stats["no_answers"] == 0  # started at LB_λ, every probe passes
