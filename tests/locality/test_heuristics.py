"""list, rcs-list and nfdh-ls: valid schedules, never below the optimum of their constraint, within
their proven factors; the event loop against a unit-step reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.core import MethodRefused
from coschedopt.locality import make_instance
from coschedopt.locality.heuristics.listsched import (
    ORDERS,
    constraint_allocator,
    graham_bound,
    list_order,
    list_schedule,
    rcs_list_bound,
)
from coschedopt.locality.heuristics.nfdh import nfdh_batches, nfdh_bound, nfdh_lemma_bound
from coschedopt.locality.schedule import makespan

from .strategies import locality_instances

EPS = 1e-9


def _optimum(inst, constraint=None):
    res = cs.solve(inst if constraint is None else inst.with_constraint(constraint), "cpsat", workers=1)
    assert res.status is cs.Status.OPTIMAL
    return res.objective


@settings(max_examples=150, deadline=None)
@given(locality_instances())
def test_list_is_valid_under_every_constraint_and_never_below_the_optimum(inst):
    opt = _optimum(inst)
    for order in ORDERS:
        res = cs.solve(inst, "list", order=order)  # solve re-validates under the instance's constraint
        assert res.objective >= opt - EPS


@settings(max_examples=150, deadline=None)
@given(locality_instances(constraint="none", max_jobs=7))
def test_list_without_constraint_is_within_2A_over_m_plus_pmax_for_any_order(inst):
    for order in ORDERS:
        assert cs.solve(inst, "list", order=order).objective <= graham_bound(inst) + EPS


@settings(max_examples=150, deadline=None)
@given(locality_instances(within_clusters=True, max_jobs=7))
def test_rcs_list_is_local_never_below_the_local_optimum_and_within_its_bound(inst):
    if inst.constraint in ("contiguous", "contiguous+local"):
        with pytest.raises(MethodRefused, match="not contiguous"):
            cs.solve(inst, "rcs-list")
        return
    res = cs.solve(inst.with_constraint("local"), "rcs-list")  # valid as a local schedule
    assert res.objective >= _optimum(inst, "local") - EPS
    assert res.objective <= rcs_list_bound(inst) + EPS <= 2 * inst.area / inst.processors + inst.times.max() + 2 * EPS


@settings(max_examples=150, deadline=None)
@given(locality_instances(within_clusters=True, max_jobs=7))
def test_nfdh_ls_is_contiguous_and_local_and_within_theorem_4(inst):
    res = cs.solve(inst.with_constraint("contiguous+local"), "nfdh-ls")  # valid as contiguous and local
    assert res.objective >= _optimum(inst, "contiguous+local") - EPS
    assert res.objective <= nfdh_lemma_bound(inst) + EPS  # Lemma 2 on the batches
    assert nfdh_lemma_bound(inst) <= nfdh_bound(inst) + EPS  # Lemma 1
    assert res.objective <= 3 * inst.lower_bound + EPS  # Theorem 4


def test_nfdh_batches_are_next_fit_in_non_increasing_time():
    inst = make_instance([(1.0, 2), (3.0, 2), (2.0, 2), (2.0, 1), (1.0, 3)], 6, 2)
    # order by time: J2 (3, 2), J3 (2, 2), J4 (2, 1), J1 (1, 2), J5 (1, 3); ell = 3
    assert nfdh_batches(inst) == [[1], [2, 3], [0], [4]]


def test_heuristics_refuse_jobs_larger_than_a_cluster():
    inst = make_instance([(1.0, 4), (1.0, 1)], 6, 2)
    for name in ("nfdh-ls", "rcs-list"):
        with pytest.raises(MethodRefused, match=r"size <= ell = 3.*'J1' has size 4") as err:
            cs.solve(inst, name)
        assert err.value.where == "jobs[0].size"
    assert cs.solve(inst.with_constraint("local"), "list").objective == 1.0  # J1 on 3 + 1 ids, J2 beside


def _unit_step_list(inst, order, constraint):
    """Reference: list scheduling advanced one time unit at a time (integer times only)."""
    free = np.ones(inst.processors, dtype=bool)
    allocate = constraint_allocator(inst, constraint)
    start, ids, waiting, t = {}, {}, list(order), 0
    while waiting:
        for j in list(start):
            if start[j] + inst.times[j] == t and j in ids:
                free[ids.pop(j)] = True
        for j in list(waiting):
            got = allocate(free, int(inst.sizes[j]))
            if got is not None:
                free[got] = False
                start[j], ids[j] = t, got
                waiting.remove(j)
        t += 1
    return [start[j] for j in range(inst.n)]


@settings(max_examples=150, deadline=None)
@given(locality_instances(max_jobs=7))
def test_the_event_loop_matches_a_unit_step_simulation(inst):
    for order in ("given", "size"):
        sched = list_schedule(inst, list_order(inst, order), constraint_allocator(inst))
        assert [a.start for a in sched.by_job(inst)] == _unit_step_list(inst, list_order(inst, order), None)


def test_rcs_list_meets_the_rcs_note_instance_where_the_notes_bound_fails():
    from coschedopt.locality.generate import tight_instance

    inst = tight_instance("rcs-note", constraint="local")
    res = cs.solve(inst, "rcs-list")
    assert res.objective == 3.0 == _optimum(inst)
    assert res.objective > 2 * inst.lower_bound  # the note's corrected form, C <= 2 max(A/m, p_max), fails
    assert res.objective <= rcs_list_bound(inst)
    assert makespan(inst, res.schedule) == 3.0
