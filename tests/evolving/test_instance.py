"""The instance contract: round trip, and one clear refusal per bad input naming the field and the value."""

from __future__ import annotations

import json

import pytest

import coschedopt as cs
from coschedopt.evolving import EvolvingInstance

EXAMPLE = {
    "kind": "evolving",
    "name": "test-0",
    "nodes": 100,
    "applications": [{"name": "A1", "stages": [{"duration": 600, "nodes": 12}, {"duration": 1800, "nodes": 40}]}],
}


def with_stage(**stage):
    data = json.loads(json.dumps(EXAMPLE))
    data["applications"][0]["stages"][1].update(stage)
    return data


def test_the_issue_example_round_trips():
    inst = cs.instance_from_dict(EXAMPLE)
    assert isinstance(inst, EvolvingInstance) and inst.nodes == 100 and inst.n == 1
    app = inst.applications[0]
    assert app.durations == (600, 1800) and app.nodes == (12, 40) and app.peak == 40 and app.area == 79200
    assert inst.to_dict() == EXAMPLE
    assert cs.instance_from_dict(inst.to_dict()) == inst


@pytest.mark.parametrize(
    ("data", "where", "value"),
    [
        (with_stage(nodes=120), "applications[0].stages[1].nodes", "120"),
        (with_stage(duration=0), "applications[0].stages[1].duration", "0"),
        (with_stage(duration=-5), "applications[0].stages[1].duration", "-5"),
        (with_stage(duration="10"), "applications[0].stages[1].duration", "'10'"),
        (with_stage(nodes=2.5), "applications[0].stages[1].nodes", "2.5"),
        (with_stage(nodes="4"), "applications[0].stages[1].nodes", "'4'"),
        (with_stage(nodes=0), "applications[0].stages[1].nodes", "0"),
        (with_stage(colour="red"), "applications[0].stages[1].colour", "colour"),
        ({**EXAMPLE, "nodes": 0}, "nodes", "0"),
        ({**EXAMPLE, "nodes": 10.5}, "nodes", "10.5"),
        ({**EXAMPLE, "applications": []}, "applications", "[]"),
        ({**EXAMPLE, "applications": [{"name": "A", "stages": []}]}, "applications[0].stages", "[]"),
        (
            {**EXAMPLE, "applications": [{"name": "A", "stages": [{"nodes": 1}]}]},
            "applications[0].stages[0].duration",
            "duration",
        ),
        (
            {**EXAMPLE, "applications": [{"stages": [{"duration": 1, "nodes": 1}], "deadline": 5}]},
            "applications[0].deadline",
            "deadline",
        ),
        ({**EXAMPLE, "applications": EXAMPLE["applications"] * 2}, "applications[1].name", "'A1'"),
        ({**EXAMPLE, "cores": 8}, "cores", "cores"),
        ({k: v for k, v in EXAMPLE.items() if k != "nodes"}, "nodes", "nodes"),
    ],
)
def test_bad_instances_name_the_field_and_the_value(data, where, value):
    with pytest.raises(cs.InputError) as info:
        cs.instance_from_dict(data)
    assert info.value.where == where
    assert value in info.value.message


def test_a_stage_larger_than_the_cluster_says_both_sizes():
    with pytest.raises(cs.InputError, match=r"needs 120 nodes, more than the cluster's 100"):
        cs.instance_from_dict(with_stage(nodes=120))


def test_a_bad_file_names_the_file_and_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_stage(duration=-5)))
    with pytest.raises(cs.InputError) as info:
        cs.load_instance(path)
    assert str(path) in str(info.value) and "applications[0].stages[1].duration" in str(info.value)
    assert "-5" in str(info.value)


def test_a_missing_application_name_defaults_to_its_position():
    inst = cs.instance_from_dict(
        {"kind": "evolving", "nodes": 4, "applications": [{"stages": [{"duration": 1, "nodes": 2}]}]}
    )
    assert inst.applications[0].name == "A1"
