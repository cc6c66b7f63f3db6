"""The bar decomposition (``benders``) against cpsat and milp: optima, the bars' bound, valid schedules, limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.locality import CONSTRAINTS, make_instance, validate_schedule
from coschedopt.locality.bounds import best_lower_bound_ticks
from coschedopt.locality.exact.benders import BendersOptions, bar_search
from coschedopt.locality.generate import random_locality_instance, tight_instance

from .strategies import locality_instances
from .test_exact import GAP_JOBS


@settings(max_examples=80, deadline=None)
@given(locality_instances(max_jobs=6))
def test_benders_equals_cpsat(inst):
    a = cs.solve(inst, "benders", workers=1)
    b = cs.solve(inst, "cpsat", workers=1)
    assert a.status is b.status is cs.Status.OPTIMAL
    assert a.objective == pytest.approx(b.objective)


@settings(max_examples=40, deadline=None)
@given(locality_instances(max_jobs=6, max_clusters=2, max_cluster_size=3, max_time=3))
def test_benders_equals_milp(inst):
    a = cs.solve(inst, "benders", workers=1)
    b = cs.solve(inst, "milp")
    assert a.status is b.status is cs.Status.OPTIMAL
    assert a.objective == pytest.approx(b.objective)


@pytest.mark.parametrize("constraint", CONSTRAINTS)
def test_a_bar_schedule_is_valid_under_every_constraint(constraint):
    inst = random_locality_instance(30, 32, 4, seed=3, constraint=constraint)
    opts = BendersOptions(workers=1)
    lower = best_lower_bound_ticks(inst)  # the area, or the clusters' bound above it
    for target in range(lower, lower + 6):
        found, infeasible, rounds = bar_search(inst, target, Deadline(10), 0, opts)
        assert 1 <= rounds <= opts.rounds
        if found is not None:
            validate_schedule(inst, found)
            assert cs.objective(inst, found) <= target
            return
    pytest.fail("no bar schedule within 5 ticks of the lower bound")


def test_the_bar_master_proves_the_contiguity_gap_on_a_line():
    # GAP_JOBS: 9 without contiguity, 10 with it on a line; at 9 no ranges fit under the processors' loads
    flat = make_instance(GAP_JOBS, 6, 1, constraint="contiguous")
    found, infeasible, _ = bar_search(flat, 9, Deadline(10), 0, BendersOptions(workers=1))
    assert found is None and infeasible
    res = cs.solve(flat, "benders", workers=1)
    assert res.status is cs.Status.OPTIMAL and res.objective == 10.0 and res.stats["bars_lower"] == 10.0
    # on a ring the same master proves nothing (its ranges do not wrap), and the optimum is 9
    ring = make_instance(GAP_JOBS, 6, 1, constraint="contiguous", topology="ring")
    assert cs.solve(ring, "benders", workers=1).objective == 9.0


def test_the_bars_prove_the_locality_optimum_the_clusters_bound_gives():
    inst = tight_instance("I1", 4, constraint="contiguous+local")
    res = cs.solve(inst, "benders", workers=1)
    assert res.status is cs.Status.OPTIMAL and res.objective == 2.0


def test_a_time_limit_returns_the_best_schedule_and_a_certified_bound():
    inst = random_locality_instance(60, 32, 4, seed=4, constraint="contiguous")
    res = cs.solve(inst, "benders", workers=1, time_limit=0.5)
    assert res.status in (cs.Status.TIME_LIMIT, cs.Status.OPTIMAL)
    validate_schedule(inst, res.schedule)
    assert inst.lower_bound - 1e-9 <= res.lower_bound <= res.objective + 1e-9


def test_bad_options_are_refused():
    with pytest.raises(cs.InputError, match="slave_seconds"):
        cs.solve(tight_instance("I1"), "benders", slave_seconds=0.0)
