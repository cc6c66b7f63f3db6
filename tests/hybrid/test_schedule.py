"""The schedule's JSON form and the independent validator: every broken constraint is named."""

from __future__ import annotations

import json

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.hybrid import HybridInstance, HybridSchedule, makespan, validate_schedule
from coschedopt.hybrid.schedule import stack_on_units

INST = HybridInstance(np.array([10.0, 3.0, 4.0]), np.array([2.5, 4.0, 1.0]), 2, 1, name="three")


def _sched(entries):
    return HybridSchedule.from_dict(INST, {"tasks": entries})


GOOD = [
    {"task": "T1", "resource": "gpu", "unit": 0, "start": 0.0},
    {"task": "T3", "resource": "gpu", "unit": 0, "start": 2.5},
    {"task": "T2", "resource": "cpu", "unit": 1, "start": 0.0},
]


def test_a_valid_schedule_and_its_makespan():
    s = _sched(GOOD)
    validate_schedule(INST, s)
    assert makespan(INST, s) == 3.5
    again = HybridSchedule.from_dict(INST, s.to_dict())
    assert again.to_dict() == s.to_dict() == {"tasks": GOOD}


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (GOOD + [{"task": "T2", "resource": "cpu", "unit": 0, "start": 5.0}], "'T2' placed 2 times"),
        (GOOD[:2], "1 task(s) not placed: T2"),
        ([GOOD[0], GOOD[1], {**GOOD[2], "unit": 2}], "cpu unit 2, but the instance has 2 CPUs"),
        ([GOOD[0], {**GOOD[1], "unit": 1}, GOOD[2]], "gpu unit 1, but the instance has 1 GPUs"),
        ([GOOD[0], {**GOOD[1], "unit": -1}, GOOD[2]], "gpu unit -1"),
        ([GOOD[0], {**GOOD[1], "start": 2.0}, GOOD[2]], "overlap on gpu unit 0"),
        ([GOOD[0], GOOD[1], {**GOOD[2], "start": -1.0}], "start must be >= 0"),
    ],
)
def test_the_validator_names_the_broken_constraint(entries, message):
    with pytest.raises(ValueError) as info:
        validate_schedule(INST, _sched(entries))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ({"task": "T9", "resource": "cpu", "unit": 0, "start": 0.0}, "schedule.tasks[0].task"),
        ({"task": "T1", "resource": "fpga", "unit": 0, "start": 0.0}, "schedule.tasks[0].resource"),
        ({"task": "T1", "resource": "cpu", "unit": 0.5, "start": 0.0}, "schedule.tasks[0].unit"),
        ({"task": "T1", "resource": "cpu", "unit": 0, "start": float("nan")}, "schedule.tasks[0].start"),
        ({"task": "T1", "resource": "cpu", "unit": 0}, "schedule.tasks[0].start"),
        ({"task": "T1", "resource": "cpu", "unit": 0, "start": 0.0, "end": 3}, "schedule.tasks[0]"),
    ],
)
def test_bad_schedule_fields_are_located(entry, where):
    with pytest.raises(cs.InputError) as info:
        _sched([entry])
    assert info.value.where == where


def test_cli_validate_names_the_file_and_the_task_placed_twice(tmp_path, capsys):
    inst, sol = tmp_path / "i.json", tmp_path / "s.json"
    cs.save_instance(INST, inst)
    sol.write_text(json.dumps({"tasks": GOOD + [{"task": "T2", "resource": "cpu", "unit": 0, "start": 5.0}]}))
    assert main(["validate", str(inst), str(sol)]) == 1
    err = capsys.readouterr().err
    assert str(sol) in err and "'T2' placed 2 times" in err
    sol.write_text(json.dumps({"tasks": [{**GOOD[0], "unit": 7}, GOOD[1], GOOD[2]]}))
    assert main(["validate", str(inst), str(sol)]) == 1
    assert "gpu unit 7" in capsys.readouterr().err


def test_stacking_runs_each_unit_back_to_back_in_order():
    d = np.array([3.0, 1.0, 2.0, 5.0])
    unit = np.array([1, 0, 1, 1])
    start = stack_on_units(d, unit, np.array([2, 0, 1, 3]))
    assert start.tolist() == [2.0, 0.0, 0.0, 5.0]
