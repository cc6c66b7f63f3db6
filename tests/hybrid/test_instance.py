"""The hybrid instance: JSON round trip and every refusal naming its field (and file) and value."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.hybrid import HybridInstance
from coschedopt.hybrid.generate import random_hybrid_instance

GOOD = {
    "kind": "hybrid",
    "name": "example",
    "cpus": 4,
    "gpus": 2,
    "tasks": [{"name": "T1", "cpu_time": 10.0, "gpu_time": 2.5}, {"name": "T2", "cpu_time": 3.0, "gpu_time": 4.0}],
}


def _with(**changes):
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if "." in key:
            j, field = key.split(".")
            if value is None:
                del data["tasks"][int(j)][field]
            else:
                data["tasks"][int(j)][field] = value
        elif value is None:
            del data[key]
        else:
            data[key] = value
    return data


def test_round_trip_keeps_everything():
    inst = cs.instance_from_dict(GOOD)
    assert inst.n == 2 and inst.cpus == 4 and inst.gpus == 2 and inst.names == ("T1", "T2")
    assert HybridInstance.from_dict(inst.to_dict()).to_dict() == inst.to_dict() == GOOD


def test_names_default_and_the_grid():
    data = _with(**{"0.name": None, "1.name": None})
    inst = cs.instance_from_dict(data)
    assert inst.names == ("T1", "T2")
    assert inst.time_scale == 2  # 2.5 needs halves
    assert random_hybrid_instance(5, 2, 1, seed=0).integral
    odd = HybridInstance(np.array([1 / 3, 1.0]), np.array([1.0, 1.0]), 1, 1)
    assert odd.time_scale is None


@pytest.mark.parametrize(
    ("changes", "where", "value"),
    [
        ({"0.cpu_time": None}, "tasks[0].cpu_time", "missing"),
        ({"1.gpu_time": -4.0}, "tasks[1].gpu_time", "-4.0"),
        ({"1.gpu_time": 0}, "tasks[1].gpu_time", "0"),
        ({"0.cpu_time": math.nan}, "tasks[0].cpu_time", "nan"),
        ({"0.cpu_time": math.inf}, "tasks[0].cpu_time", "inf"),
        ({"0.cpu_time": "10"}, "tasks[0].cpu_time", "'10'"),
        ({"0.gpu_time": True}, "tasks[0].gpu_time", "True"),
        ({"cpus": 0, "gpus": 0}, "cpus", "cpus = 0 and gpus = 0"),
        ({"cpus": 2.5}, "cpus", "2.5"),
        ({"gpus": -1}, "gpus", "-1"),
        ({"gpus": "2"}, "gpus", "'2'"),
        ({"cpus": None}, "cpus", "missing"),
        ({"tasks": []}, "tasks", "[]"),
        ({"tasks": "T1"}, "tasks", "'T1'"),
        ({"colour": "red"}, "colour", "unknown field 'colour'"),
        ({"0.weight": 3}, "tasks[0].weight", "unknown field 'weight'"),
        ({"1.name": "T1"}, "tasks[1].name", "duplicate task name 'T1'"),
    ],
)
def test_bad_instances_name_the_field_and_value(changes, where, value):
    with pytest.raises(cs.InputError) as info:
        cs.instance_from_dict(_with(**changes))
    assert info.value.where == where
    assert value in str(info.value)


def test_a_bad_file_is_named_with_the_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(**{"1.gpu_time": -4.0})))
    with pytest.raises(cs.InputError) as info:
        cs.load_instance(path)
    assert str(path) in str(info.value) and "tasks[1].gpu_time" in str(info.value) and "-4.0" in str(info.value)


def test_constructor_refuses_bad_arrays():
    with pytest.raises(cs.InputError, match=r"tasks\[1\].cpu_time"):
        HybridInstance(np.array([1.0, np.nan]), np.array([1.0, 1.0]), 1, 1)
    with pytest.raises(cs.InputError, match="equal length"):
        HybridInstance(np.array([1.0, 2.0]), np.array([1.0]), 1, 1)


def test_single_type_instances_are_accepted():
    only_gpus = cs.instance_from_dict(_with(cpus=0))
    assert only_gpus.min_time.tolist() == [2.5, 4.0]
    only_cpus = cs.instance_from_dict(_with(gpus=0))
    assert only_cpus.min_time.tolist() == [10.0, 3.0]
