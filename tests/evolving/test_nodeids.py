"""Algorithm 1: the node-ID mapping of any schedule whose counts fit is valid (C2-C4), seeded, keeps the driver."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.evolving import EvolvingSchedule, ScheduledApplication
from coschedopt.evolving.generate import random_evolving_instance
from coschedopt.evolving.nodeids import map_node_ids

from .strategies import instances

HEURISTICS = ("cbf", "nos", "mic", "mic+c", "inf", "inf+c")


@settings(max_examples=60, deadline=None)
@given(instances(max_apps=5), st.sampled_from(HEURISTICS), st.integers(0, 5))
def test_every_heuristic_schedule_maps_to_valid_node_ids(inst, name, seed):
    res = cs.solve(inst, name, seed=seed, node_ids=True)  # solve validates C2-C4
    allocations = res.schedule.node_ids
    assert allocations
    for app in inst.applications:  # the first node an application gets (its driver) stays to its end
        mine = sorted((a for a in allocations if a.application == app.name), key=lambda a: a.start)
        assert set.intersection(*(set(a.node_ids) for a in mine))


def test_the_paper_workload_maps_with_every_method():
    inst = random_evolving_instance(seed=3)
    for name in HEURISTICS:
        cs.validate(inst, cs.solve(inst, name, node_ids=True).schedule)


def test_the_mapping_is_seeded():
    inst = random_evolving_instance(seed=1, max_apps=15)
    s = cs.solve(inst, "inf+c").schedule
    assert map_node_ids(inst, s, seed=4) == map_node_ids(inst, s, seed=4)
    assert map_node_ids(inst, s, seed=4) != map_node_ids(inst, s, seed=5)


def test_an_application_chooses_which_nodes_it_releases():
    inst = random_evolving_instance(seed=2, min_apps=6, max_apps=6)
    s = cs.solve(inst, "nos").schedule

    def keep_the_latest(name, held, count):
        return held[:count]  # frees its oldest nodes instead

    allocations = map_node_ids(inst, s, seed=0, release=keep_the_latest)
    cs.validate(inst, s.with_node_ids(allocations))
    with pytest.raises(ValueError, match="must free"):
        map_node_ids(inst, s, release=lambda name, held, count: held[:1] if count > 1 else [])


def test_counts_above_the_cluster_have_no_mapping():
    inst = cs.instance_from_dict(
        {
            "kind": "evolving",
            "nodes": 4,
            "applications": [{"stages": [{"duration": 1, "nodes": 3}]}] * 1
            + [{"name": "B", "stages": [{"duration": 1, "nodes": 2}]}],
        }
    )
    overlapping = EvolvingSchedule(
        (ScheduledApplication("A1", 0, (1,), (3,)), ScheduledApplication("B", 0, (1,), (2,)))
    )
    with pytest.raises(ValueError, match="needs 2 more nodes at t = 0, only 1 are free"):
        map_node_ids(inst, overlapping)
