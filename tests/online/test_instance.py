"""Online instances: the JSON contract, and one clear error per bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.core import InputError
from coschedopt.online import OnlineInstance

GOOD = {
    "kind": "online",
    "name": "fig-3-2",
    "processors": 2,
    "objective": "sum-stretch",
    "stretch_bound": 10,
    "tasks": [{"name": "T0", "release": 0, "time": 10}, {"name": "T1", "release": 1, "time": 1}],
}


def with_task(field: str, value) -> dict:
    data = json.loads(json.dumps(GOOD))
    data["tasks"][1][field] = value
    return data


def test_round_trip_keeps_every_field():
    inst = cs.instance_from_dict(GOOD)
    assert isinstance(inst, OnlineInstance)
    assert inst.to_dict() == GOOD
    assert OnlineInstance.from_dict(inst.to_dict()).to_dict() == GOOD


def test_defaults_objective_bound_and_names():
    inst = OnlineInstance.from_dict({"kind": "online", "processors": 1, "tasks": [{"release": 0, "time": 2.5}]})
    assert inst.objective == "sum-stretch" and inst.stretch_bound == 10.0 and inst.task_names == ("T0",)
    assert not inst.clamp_stretch


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("time", -1, "tasks[1].time"),
        ("time", 0, "tasks[1].time"),
        ("time", math.nan, "tasks[1].time"),
        ("time", math.inf, "tasks[1].time"),
        ("release", -0.5, "tasks[1].release"),
        ("release", math.nan, "tasks[1].release"),
        ("release", "3", "tasks[1].release"),
        ("time", True, "tasks[1].time"),
        ("colour", "red", "tasks[1].colour"),
    ],
)
def test_bad_task_values_name_the_field_and_value(field, value, where):
    with pytest.raises(InputError) as err:
        cs.instance_from_dict(with_task(field, value))
    assert err.value.where == where
    assert repr(value) in str(err.value) or str(value) in str(err.value)


@pytest.mark.parametrize("missing", ["release", "time"])
def test_missing_task_field(missing):
    data = json.loads(json.dumps(GOOD))
    del data["tasks"][1][missing]
    with pytest.raises(InputError, match=f"missing field '{missing}'") as err:
        cs.instance_from_dict(data)
    assert err.value.where == f"tasks[1].{missing}"


@pytest.mark.parametrize("missing", ["processors", "tasks"])
def test_missing_top_field(missing):
    data = dict(GOOD)
    del data[missing]
    with pytest.raises(InputError, match=f"missing field '{missing}'"):
        cs.instance_from_dict(data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("objective", "mean-stretch", "unknown objective 'mean-stretch'"),
        ("processors", 0, "positive integer <= 1,000,000 .*, got 0"),
        ("processors", 2.5, "positive integer <= 1,000,000 .*, got 2.5"),
        ("processors", 10**30, "positive integer <= 1,000,000 .*, got 10{30}"),
        ("stretch_bound", -10, "positive finite number <= 1e\\+15, got -10"),
        ("stretch_bound", "10", "positive finite number <= 1e\\+15, got '10'"),
        ("clamp_stretch", 1, "must be a bool, got 1"),
        ("tasks", [], "at least one task"),
        ("deadline", 3, "unknown field 'deadline'"),
    ],
)
def test_bad_top_level_values(field, value, message):
    data = dict(GOOD)
    data[field] = value
    with pytest.raises(InputError, match=message) as err:
        cs.instance_from_dict(data)
    assert err.value.where == field


def test_duplicate_task_names_are_refused():
    with pytest.raises(InputError, match="duplicate task name 'T0'") as err:
        cs.instance_from_dict(with_task("name", "T0"))
    assert err.value.where == "tasks[1].name"


def test_bad_file_names_the_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_task("time", -3)))
    with pytest.raises(InputError) as err:
        cs.load_instance(path)
    assert "bad.json" in str(err.value) and "tasks[1].time" in str(err.value)


def test_arrival_order_is_by_release_then_file_order():
    inst = OnlineInstance([5, 1, 1, 0], [1, 1, 1, 1], 1)
    assert inst.arrival_order.tolist() == [3, 1, 2, 0]


def test_arrays_are_read_only_and_offered_load():
    inst = OnlineInstance([0, 10], [5, 15], 2)
    with pytest.raises(ValueError):
        inst.time[0] = 1
    assert inst.offered_load() == pytest.approx(20 / (2 * 10))
    assert np.array_equal(inst.stretch_denominator, [10, 15])
