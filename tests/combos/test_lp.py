"""combos/exact/lp.py: LP (2) by Pyomo and by highspy, its dual bound, against vertex enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.combos.exact.lp import dual_bound, solve_lp_highspy, solve_lp_pyomo
from coschedopt.combos.generate import random_combos_instance
from coschedopt.core import Status

from .strategies import combos_instances


def lp_by_vertex_enumeration(inst) -> float:
    """Independent exact path: the LP optimum is attained at a basic solution (n columns)."""
    a, b = inst.a, inst.b
    best = np.inf
    for cols in itertools.combinations(range(inst.m), inst.n):
        sub = a[:, cols]
        if abs(np.linalg.det(sub)) < 1e-12:
            continue
        x = np.linalg.solve(sub, b)
        if np.all(x >= -1e-9):
            best = min(best, float(x.sum()))
    return best


@settings(max_examples=200, deadline=None)
@given(combos_instances(max_n=5))
def test_lp_pyomo_equals_lp_highspy(inst):
    p = cs.solve(inst, "lp", backend="pyomo")
    h = cs.solve(inst, "lp", backend="highspy")
    assert p.status is Status.OPTIMAL and h.status is Status.OPTIMAL
    assert p.objective == pytest.approx(h.objective, rel=1e-7)
    # the certified dual bound closes the gap on both paths
    assert p.lower_bound == pytest.approx(p.objective, rel=1e-7)
    assert h.lower_bound == pytest.approx(h.objective, rel=1e-7)
    assert h.lower_bound <= h.objective * (1 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(combos_instances(max_n=3))
def test_lp_equals_vertex_enumeration(inst):
    assert cs.solve(inst, "lp").objective == pytest.approx(lp_by_vertex_enumeration(inst), rel=1e-7)


def test_lp_on_a_hand_checked_instance():
    # two tasks, b = (100, 100), pair speeds (0.75, 0.75): pair for 133.3 time units beats 200 alone
    masks = np.array([1, 2, 3])
    sp = np.array([[1.0, 0.0, 0.75], [0.0, 1.0, 0.75]])
    inst = cs.combos.CombosInstance(np.array([100.0, 100.0]), masks, sp)
    res = cs.solve(inst, "lp")
    assert res.objective == pytest.approx(400 / 3)
    assert res.schedule.segments == ((("T1", "T2"), pytest.approx(400 / 3)),)
    # pair speeds (0.4, 0.4): running together is slower, the optimum runs them alone
    inst2 = cs.combos.CombosInstance(np.array([100.0, 100.0]), masks, np.array([[1.0, 0, 0.4], [0, 1.0, 0.4]]))
    assert cs.solve(inst2, "lp").objective == pytest.approx(200.0)
    assert cs.solve(inst2, "fcs").objective == pytest.approx(200.0)


def test_dual_bound_is_a_valid_bound_for_any_vector():
    inst = random_combos_instance(5, seed=4)
    opt = cs.solve(inst, "lp").objective
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert dual_bound(inst, rng.normal(size=inst.n)) <= opt * (1 + 1e-12)
    out = solve_lp_highspy(inst)
    assert dual_bound(inst, out["y"]) == pytest.approx(opt, rel=1e-9)
    assert solve_lp_pyomo(inst)["objective"] == pytest.approx(opt, rel=1e-9)


def test_lp_at_larger_n_uses_highspy_and_agrees_with_pyomo():
    inst = random_combos_instance(11, 0.75, 0.85, seed=1)
    auto = cs.solve(inst, "lp")
    assert auto.stats["backend"] == "highspy" and auto.stats["combinations_used"] <= inst.n
    assert cs.solve(inst, "lp", backend="pyomo").objective == pytest.approx(auto.objective, rel=1e-8)
