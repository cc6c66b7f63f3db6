"""Locality instances: JSON round trip, and one clear located error for each kind of bad input."""

from __future__ import annotations

import json
import math

import pytest

import coschedopt as cs
from coschedopt.core import InputError, MethodRefused
from coschedopt.locality import LocalityInstance, make_instance
from coschedopt.locality.instance import integer_times

GOOD = {
    "kind": "locality",
    "name": "I1",
    "processors": 6,
    "clusters": 2,
    "constraint": "contiguous+local",
    "topology": "line",
    "jobs": [{"name": "J1", "time": 1.0, "size": 2}, {"name": "J2", "time": 1.0, "size": 2}],
}


def test_the_issues_example_round_trips():
    inst = LocalityInstance.from_dict(GOOD)
    assert (inst.processors, inst.clusters, inst.cluster_size, inst.n) == (6, 2, 3, 2)
    assert inst.constraint == "contiguous+local" and inst.topology == "line"
    assert LocalityInstance.from_dict(inst.to_dict()) == inst
    assert inst.area == 4.0 and inst.lower_bound == 1.0


def test_defaults_are_no_constraint_on_a_line_and_jobs_are_named_in_order():
    inst = LocalityInstance.from_dict(
        {"kind": "locality", "processors": 4, "clusters": 1, "jobs": [{"time": 2, "size": 1}]}
    )
    assert (inst.constraint, inst.topology, inst.jobs[0].name) == ("none", "line", "J1")


def _with(**changes):
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("job_"):
            data["jobs"][1][key[4:]] = value
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        (_with(processors=7), "clusters", ["7", "not divisible", "clusters = 2"]),
        (_with(clusters=0), "clusters", ["positive integer", "0"]),
        (_with(processors=2.5), "processors", ["positive integer", "2.5"]),
        (_with(job_size=0), "jobs[1].size", ["J2", "1..processors = 6", "got 0"]),
        (_with(job_size=7), "jobs[1].size", ["J2", "got 7"]),
        (_with(job_size=2.0), "jobs[1].size", ["integer", "2.0"]),
        (_with(constraint="compact"), "constraint", ["unknown constraint 'compact'", "contiguous+local"]),
        (_with(topology="torus"), "topology", ["unknown topology 'torus'", "ring"]),
        (_with(job_time=-1.0), "jobs[1].time", ["positive finite", "-1.0"]),
        (_with(job_time=float("nan")), "jobs[1].time", ["positive finite", "nan"]),
        (_with(job_time=0), "jobs[1].time", ["positive finite", "got 0"]),
        (_with(job_time="1"), "jobs[1].time", ["positive finite", "'1'"]),
        (_with(colour="red"), "colour", ["unknown field 'colour'", "'red'"]),
        (_with(job_colour="red"), "jobs[1].colour", ["unknown field 'colour'"]),
        (_with(job_name="J1"), "jobs[1].name", ["duplicate job name 'J1'"]),
        (_with(jobs=[]), "jobs", ["at least one job"]),
        (_with(jobs={"J1": 1}), "jobs", ["must be a list"]),
        ({k: v for k, v in GOOD.items() if k != "clusters"}, "clusters", ["missing field 'clusters'"]),
    ],
)
def test_bad_input_is_one_error_naming_field_and_value(data, where, words):
    with pytest.raises(InputError) as err:
        LocalityInstance.from_dict(data)
    assert err.value.where == where
    for w in words:
        assert w in err.value.message, (w, err.value.message)


def test_a_bad_file_is_named_with_its_field(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_with(processors=7)))
    with pytest.raises(InputError) as err:
        cs.load_instance(path)
    assert str(err.value).startswith(f"{path}: clusters: processors = 7 is not divisible")
    path.write_text('{"kind": "locality",\n "processors": 6,\n "clusters": }')
    with pytest.raises(InputError, match=r"bad.json:3:\d+: malformed JSON"):
        cs.load_instance(path)


def test_integer_times_find_the_coarsest_decimal_unit():
    ticks, unit = integer_times(make_instance([(1.5, 1), (0.25, 1), (3.0, 2)], 4, 2))
    assert unit == 0.01 and ticks.tolist() == [150, 25, 300]
    ticks, unit = integer_times(make_instance([(2.0, 1), (3.0, 1)], 4, 2))
    assert unit == 1.0 and ticks.tolist() == [2, 3]
    with pytest.raises(MethodRefused, match=r"jobs\[0\].time: job 'J1': time 3\.14159.* more than 6 decimals"):
        integer_times(make_instance([(math.pi, 1)], 4, 2))


def test_exact_methods_refuse_times_off_any_decimal_grid():
    inst = make_instance([(math.pi, 1), (1.0, 2)], 4, 2)
    for name in ("cpsat", "milp"):
        with pytest.raises(MethodRefused, match="more than 6 decimals"):
            cs.solve(inst, name)
    assert cs.solve(inst, "list").objective == pytest.approx(math.pi)
