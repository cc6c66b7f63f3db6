"""Lower bounds: each <= OPT, LB_λ dominates the others, the area bound is the LP's optimum."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.hybrid import HybridInstance, area_bound, best_lower_bound, lambda_bound, longest_task_bound
from coschedopt.hybrid.bounds import fractional_test, round_up_to_grid
from coschedopt.hybrid.generate import random_hybrid_instance

from .oracle import brute_force_optimum
from .strategies import hybrid_instances


def area_lp(instance: HybridInstance) -> float:
    """The area LP solved by HiGHS: min C s.t. sum p x <= mC, sum q (1 - x) <= kC, 0 <= x <= 1."""
    from coschedopt.core import quiet_highs

    n, m, k = instance.n, instance.cpus, instance.gpus
    h = quiet_highs()
    h.addVars(n, np.zeros(n), np.ones(n))  # x_j: share on the CPUs
    h.addVar(0.0, 1e30)  # C
    h.changeColCost(n, 1.0)
    idx = np.arange(n + 1, dtype=np.int32)
    # sum p x - m C <= 0 ; -sum q x - k C <= -sum q
    h.addRow(-1e30, 0.0, n + 1, idx, np.r_[instance.cpu_time, -m])
    h.addRow(-1e30, -instance.gpu_time.sum(), n + 1, idx, np.r_[-instance.gpu_time, -k])
    if m == 0:
        h.changeColsBounds(n, np.arange(n, dtype=np.int32), np.zeros(n), np.zeros(n))
    if k == 0:
        h.changeColsBounds(n, np.arange(n, dtype=np.int32), np.ones(n), np.ones(n))
    h.run()
    return h.getInfo().objective_function_value


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=6, max_m=2, max_k=2))
def test_every_bound_is_below_the_brute_force_optimum(inst):
    opt = brute_force_optimum(inst)
    lb0, area, lam = longest_task_bound(inst), area_bound(inst), lambda_bound(inst)
    assert max(lb0, area) <= lam + 1e-9
    assert best_lower_bound(inst) <= opt + 1e-9
    assert fractional_test(inst, opt)  # the test passes at OPT (so at every λ >= OPT)
    assert not fractional_test(inst, lam - 1)  # on integer data LB_λ is the least passing integer


@settings(max_examples=100, deadline=None)
@given(hybrid_instances(max_n=8, max_m=4, max_k=4))
def test_the_closed_form_area_bound_is_the_lp_optimum(inst):
    assert area_bound(inst) == pytest.approx(area_lp(inst), rel=1e-7, abs=1e-7)


def test_lambda_bound_without_a_grid_is_certified():
    inst = random_hybrid_instance(30, 4, 2, seed=3, decimals=9)
    assert inst.time_scale is None
    lam = lambda_bound(inst)
    assert lam >= max(longest_task_bound(inst), area_bound(inst))
    assert not fractional_test(inst, lam * (1 - 1e-8)) and fractional_test(inst, lam * (1 + 1e-8))
    assert lam <= brute_force_free_upper_bound(inst)


def brute_force_free_upper_bound(inst: HybridInstance) -> float:
    """A schedule's makespan (HEFT's), so an upper bound on OPT, hence on any lower bound."""
    return cs.solve(inst, "heft").objective


def test_rounding_to_the_grid():
    inst = cs.instance_from_dict(
        {"kind": "hybrid", "cpus": 1, "gpus": 1, "tasks": [{"cpu_time": 2.5, "gpu_time": 3.0}]}
    )
    assert round_up_to_grid(inst, 2.2) == 2.5 and round_up_to_grid(inst, 2.5) == 2.5
    assert round_up_to_grid(inst, 2.5, strict=True) == 3.0


def test_lambda_bound_beats_the_area_bound_through_forced_assignments():
    # two tasks of CPU time 4 and GPU time 2 on one CPU and one GPU: the area LP splits to 8/3, but
    # below 4 both tasks are forced onto the GPU (CPU time > λ), whose area 4 exceeds λ: LB_λ = 4 = OPT
    inst = HybridInstance(np.array([4.0, 4.0]), np.array([2.0, 2.0]), 1, 1)
    assert area_bound(inst) == pytest.approx(8 / 3)
    assert lambda_bound(inst) == 4.0 == brute_force_optimum(inst)
