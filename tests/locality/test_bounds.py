"""The clusters' dual feasible bound: never above an optimum the time-indexed MILP proves, and above the area where
big jobs cannot share a cluster."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.locality import make_instance
from coschedopt.locality.bounds import best_lower_bound_ticks, cluster_dff_bound_ticks
from coschedopt.locality.instance import integer_times, lower_bound_ticks

from .strategies import locality_instances


@settings(max_examples=80, deadline=None)
@given(locality_instances(max_jobs=6, within_clusters=True, constraint="local"))
def test_the_bound_never_exceeds_the_optimum_the_milp_proves(inst):
    res = cs.solve(inst, "milp")  # the MILP's model does not contain the bound: its optimum is independent
    assert res.status is cs.Status.OPTIMAL
    _, unit = integer_times(inst)
    assert cluster_dff_bound_ticks(inst) * unit <= res.objective + 1e-9


@pytest.mark.parametrize("constraint", ["local", "contiguous+local"])
def test_jobs_above_half_a_cluster_run_one_after_another_in_each_cluster(constraint):
    inst = make_instance([(10.0, 5)] * 8, 16, 2, constraint=constraint)  # ell = 8: no two jobs of size 5 side by side
    assert lower_bound_ticks(inst) == 25 and cluster_dff_bound_ticks(inst) == 40
    res = cs.solve(inst, "cpsat", workers=1)
    assert res.status is cs.Status.OPTIMAL and res.objective == 40.0 and res.lower_bound == 40.0


def test_the_bound_stays_out_where_it_does_not_hold():
    jobs = [(10.0, 5)] * 8
    assert cluster_dff_bound_ticks(make_instance(jobs, 16, 2, constraint="none")) == 0  # no clusters to respect
    assert cluster_dff_bound_ticks(make_instance(jobs, 16, 2, constraint="contiguous")) == 0
    larger = make_instance([*jobs, (1.0, 12)], 16, 2, constraint="local")  # a job spans two clusters
    assert cluster_dff_bound_ticks(larger) == 0
    assert best_lower_bound_ticks(larger) == lower_bound_ticks(larger)
