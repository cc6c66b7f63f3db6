"""The independent validator: C1, capacity, and with node IDs C2-C4; each broken schedule gets one located refusal."""

from __future__ import annotations

import copy

import pytest

import coschedopt as cs
from coschedopt.core import schedule_from_dict
from coschedopt.workloads.idsets import format_ids, parse_ids

INSTANCE = cs.instance_from_dict(
    {
        "kind": "evolving",
        "nodes": 9,
        "applications": [
            {
                "name": "A",
                "stages": [{"duration": 2, "nodes": 3}, {"duration": 2, "nodes": 6}, {"duration": 1, "nodes": 2}],
            },
            {"name": "B", "stages": [{"duration": 3, "nodes": 4}]},
        ],
    }
)
#: A stretched in its middle stage (2 -> 3), B after A's peak; node IDs by hand
VALID = {
    "applications": [
        {
            "application": "A",
            "start": 0,
            "stages": [{"duration": 2, "nodes": 3}, {"duration": 3, "nodes": 6}, {"duration": 1, "nodes": 2}],
        },
        {"application": "B", "start": 5, "stages": [{"duration": 3, "nodes": 4}]},
    ],
    "node_ids": [
        {"application": "A", "from": 0, "to": 2, "nodes": "0-2"},
        {"application": "A", "from": 2, "to": 5, "nodes": "0-5"},
        {"application": "A", "from": 5, "to": 6, "nodes": "0 5"},
        {"application": "B", "from": 5, "to": 8, "nodes": "1-4"},
    ],
}


def schedule(change=None):
    data = copy.deepcopy(VALID)
    if change:
        change(data)
    return schedule_from_dict(INSTANCE, data)


def refusal(change) -> cs.InputError:
    with pytest.raises(cs.InputError) as info:
        cs.validate(INSTANCE, schedule(change))
    return info.value


def test_a_valid_schedule_passes_and_round_trips():
    s = schedule()
    cs.validate(INSTANCE, s)
    assert cs.objective(INSTANCE, s) == 8
    assert s.to_dict() == VALID


def set_(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (
            set_(["applications", 0, "stages", 1, "nodes"], 7),
            "applications[0].stages[1].nodes",
            "requests 6 nodes in stage 1, got 7",
        ),
        (set_(["applications", 0, "stages", 2, "duration"], 2), "applications[0].stages[2].duration", "last stage"),
        (set_(["applications", 0, "stages", 0, "duration"], 3), "applications[0].stages[0].duration", "first stage"),
        (set_(["applications", 0, "stages", 1, "duration"], 1), "applications[0].stages[1].duration", "got 1"),
        (set_(["applications", 0, "start"], -1), "applications[0].start", "got -1"),
        (set_(["applications", 1, "stages"], []), "applications[1].stages", "requests 1 stages"),
        (set_(["applications", 1, "application"], "C"), "applications[1].application", "'C'"),
        (set_(["applications", 1, "application"], "A"), "applications[1].application", "twice"),
        (set_(["applications", 1, "start"], 4), "applications", "capacity: 10 nodes in use at t = 4 on a cluster of 9"),
        (lambda d: d["applications"].pop(), "applications", "'B' is not scheduled"),
    ],
)
def test_a_broken_c1_or_capacity_is_refused_with_field_and_value(change, where, words):
    err = refusal(change)
    assert err.where == where and words in err.message


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (set_(["node_ids", 1, "nodes"], "0-4"), "node_ids[1].nodes", "C2: 'A' holds 5 nodes over [2, 5)"),
        (set_(["node_ids", 1, "to"], 4), "node_ids[2].from", "C2: 'A' holds no node IDs over [4, 5)"),
        (set_(["node_ids", 3, "nodes"], "0-3"), "node_ids", "C3: node 0 is held by 'A' and 'B' at t = 5"),
        (set_(["node_ids", 2, "nodes"], "0,8"), "node_ids[2].nodes", "C4: 'A' may only release or add nodes"),
        (set_(["node_ids", 3, "nodes"], "1-3,9"), "node_ids[3].nodes", "node 9 does not exist (nodes 0-8)"),
        (lambda d: d["node_ids"].pop(), "node_ids", "C2: 'B' gets no node IDs"),
        (lambda d: d["node_ids"].pop(2), "node_ids", "C2: 'A' holds no node IDs over [5, 6)"),
    ],
)
def test_broken_node_ids_are_refused_with_the_condition(change, where, words):
    err = refusal(change)
    assert err.where == where and words in err.message


def test_a_rigid_schedule_is_checked_on_its_reservations():
    def unstretched(start_b, rigid):
        def change(data):
            data["rigid"] = rigid
            del data["node_ids"]
            data["applications"][0]["stages"][1]["duration"] = 2
            data["applications"][1]["start"] = start_b

        return change

    # A uses 3, 6, 2 nodes over [0, 2), [2, 4), [4, 5) but reserves its peak 6 over [0, 5) when rigid
    cs.validate(INSTANCE, schedule(unstretched(4, rigid=False)))  # 2 + 4 nodes over [4, 5)
    err = refusal(unstretched(4, rigid=True))  # 6 + 4 > 9
    assert "capacity: 10 nodes in use at t = 4" in err.message
    cs.validate(INSTANCE, schedule(unstretched(5, rigid=True)))
    # node IDs of a rigid schedule hold the peak over the whole run
    ids = [
        {"application": "A", "from": 0, "to": 5, "nodes": "0-5"},
        {"application": "B", "from": 5, "to": 8, "nodes": "5-8"},
    ]
    cs.validate(INSTANCE, schedule(lambda d: (unstretched(5, True)(d), d.update(node_ids=ids))))
    ids[0]["nodes"] = "0-2"
    err = refusal(lambda d: (unstretched(5, True)(d), d.update(node_ids=ids)))
    assert err.where == "node_ids[0].nodes" and "needs [6] nodes there" in err.message


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"applications": [], "makespan": 3}, "makespan"),
        (
            {"applications": [{"application": "A", "start": 0, "stages": [{"duration": 2, "nodes": 2.5}]}]},
            "applications[0].stages[0].nodes",
        ),
        ({"applications": [{"application": "A", "start": "0", "stages": []}]}, "applications[0].start"),
        ({"applications": [], "rigid": "yes"}, "rigid"),
        (
            {"applications": [], "node_ids": [{"application": "A", "from": 0, "to": 1, "nodes": "3-1"}]},
            "node_ids[0].nodes",
        ),
        (
            {"applications": [], "node_ids": [{"application": "A", "from": 0, "to": 1, "nodes": "1,1"}]},
            "node_ids[0].nodes",
        ),
    ],
)
def test_malformed_schedules_are_refused_when_read(data, where):
    with pytest.raises(cs.InputError) as info:
        schedule(lambda d: (d.clear(), d.update(data)))
    assert info.value.where == where


def test_interval_sets_round_trip_and_the_former_comma_form_is_read():
    assert format_ids([5, 0, 1, 2, 7, 8]) == "0-2 5 7-8"
    assert parse_ids("0-2, 5,7-8").tolist() == parse_ids("0-2 5 7-8").tolist() == [0, 1, 2, 5, 7, 8]
    assert parse_ids("").tolist() == [] and format_ids([]) == ""
