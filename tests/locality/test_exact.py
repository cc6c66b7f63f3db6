"""cpsat against milp (two models, two solvers) on hundreds of small instances; time limits; refusals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.core import MethodRefused
from coschedopt.locality import CONSTRAINTS, make_instance
from coschedopt.locality.generate import random_locality_instance, tight_instance

from .strategies import locality_instances


def _both(inst):
    a = cs.solve(inst, "cpsat", workers=1)
    b = cs.solve(inst, "milp")
    assert a.status is b.status is cs.Status.OPTIMAL
    return a.objective, b.objective


@settings(max_examples=60, deadline=None)
@given(locality_instances(max_jobs=5))
def test_cpsat_equals_milp(inst):
    a, b = _both(inst)
    assert a == pytest.approx(b)


@pytest.mark.slow
@pytest.mark.parametrize("constraint", CONSTRAINTS)
@settings(max_examples=80, deadline=None)
@given(data=locality_instances(max_jobs=6))
def test_cpsat_equals_milp_for_every_constraint(constraint, data):
    a, b = _both(data.with_constraint(constraint))
    assert a == pytest.approx(b)


@pytest.mark.parametrize("topology", ["line", "ring"])
def test_the_notes_ring_instance_has_optimum_5(topology):
    # the reading note saw a two-piece ring model claim 6 here; the optimum is 5 (on a line too)
    inst = make_instance(
        [(1.0, 4), (1.0, 2), (1.0, 1), (3.0, 3), (1.0, 2), (2.0, 1)], 4, 1, constraint="contiguous", topology=topology
    )
    assert _both(inst) == (5.0, 5.0)


def test_non_integer_times_are_scaled_to_ticks():
    inst = make_instance([(0.5, 2), (1.25, 2), (0.75, 1)], 4, 2, constraint="contiguous+local")
    a, b = _both(inst)
    assert a == b == pytest.approx(1.25)


def test_cpsat_proves_the_optimum_of_the_benchmark_size_under_every_constraint():
    base = random_locality_instance(12, 32, 4, seed=3)
    values = {c: cs.solve(base.with_constraint(c), "cpsat", workers=1, time_limit=60) for c in CONSTRAINTS}
    assert all(r.status is cs.Status.OPTIMAL for r in values.values())
    v = {c: r.objective for c, r in values.items()}
    assert v["none"] <= min(v["contiguous"], v["local"]) <= max(v["contiguous"], v["local"]) <= v["contiguous+local"]


def test_a_time_limit_returns_the_best_schedule_and_a_certified_bound():
    inst = random_locality_instance(30, 32, 4, seed=1, constraint="contiguous+local")
    res = cs.solve(inst, "cpsat", workers=1, time_limit=0.05)
    assert res.status in (cs.Status.TIME_LIMIT, cs.Status.OPTIMAL)
    assert res.schedule is not None and res.lower_bound is not None
    assert inst.lower_bound - 1e-9 <= res.lower_bound <= res.objective + 1e-9
    exact = cs.solve(inst.with_constraint("none"), "cpsat", workers=1, time_limit=5)
    assert res.objective >= exact.lower_bound - 1e-9


def test_milp_time_limit_and_refusal():
    inst = random_locality_instance(10, 8, 2, seed=2, max_time=6, constraint="contiguous")
    res = cs.solve(inst, "milp", time_limit=0.01)
    assert res.schedule is not None and res.lower_bound <= res.objective + 1e-9
    with pytest.raises(MethodRefused, match=r"binaries .* above max_binaries = 10") as err:
        cs.solve(inst, "milp", max_binaries=10)
    assert err.value.where == "jobs"


def test_a_lower_bound_option_is_used_and_checked():
    inst = tight_instance("I1", constraint="local")
    assert cs.solve(inst, "cpsat", workers=1, lower_bound=2.0).objective == 2.0
    with pytest.raises(cs.InputError, match="lower_bound"):
        cs.solve(inst, "cpsat", lower_bound=-1.0)


@pytest.mark.parametrize("constraint", CONSTRAINTS)
def test_jobs_larger_than_a_cluster_are_solved_by_both_models(constraint):
    inst = make_instance([(2.0, 5), (1.0, 4), (2.0, 2), (1.0, 3), (1.0, 1)], 9, 3, constraint=constraint)
    a, b = _both(inst)
    assert a == b


@settings(max_examples=60, deadline=None)
@given(locality_instances(max_jobs=6, constraint="contiguous+local"))
def test_chained_bounds_change_no_optimum(inst):
    chained = cs.solve(inst, "cpsat", workers=1)
    plain = cs.solve(inst, "cpsat", workers=1, chain=False)
    assert chained.objective == plain.objective and chained.status is plain.status is cs.Status.OPTIMAL


def test_the_relaxations_bound_a_constrained_problem():
    # I1 with both constraints: no constraint gives 1, locality gives 2, so the optimum 2 is proven by the bound
    inst = tight_instance("I1", 4, constraint="contiguous+local")
    res = cs.solve(inst, "cpsat", workers=1)
    assert res.status is cs.Status.OPTIMAL and res.objective == 2.0
    # the clusters' bound (2) is above the area (1): the relaxations without clusters are skipped
    assert res.stats["relaxation_bounds"] == {"local": 2.0}
    # under contiguity alone there are no clusters to respect: the chain solves the relaxation without constraint
    flat = inst.with_constraint("contiguous")
    assert cs.solve(flat, "cpsat", workers=1).stats["relaxation_bounds"] == {"none": 1.0}


#: a job set where contiguity costs 10/9 on a line (found by a random draw), but nothing on a ring
GAP_JOBS = [(4.0, 3), (2.0, 2), (3.0, 1), (2.0, 1), (3.0, 3), (3.0, 2), (4.0, 1), (4.0, 3)]


@pytest.mark.parametrize(("topology", "contiguous"), [("line", 10.0), ("ring", 9.0)])
def test_both_models_see_the_same_contiguity_gap(topology, contiguous):
    free = make_instance(GAP_JOBS, 6, 1, topology=topology)
    assert _both(free) == (9.0, 9.0)
    assert _both(free.with_constraint("contiguous")) == (contiguous, contiguous)
