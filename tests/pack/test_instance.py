"""Pack instances: validation at construction, JSON round trip, repair of Eq. (1)-(2)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import InputError
from coschedopt.pack import PackInstance, repair
from coschedopt.pack.instance import PROFILE_RTOL

GOOD = {
    "kind": "pack",
    "name": "example",
    "processors": 4,
    "max_pack_size": 4,
    "tasks": [{"name": "T1", "times": [10.0, 6.0, 4.5, 4.0]}, {"name": "T2", "times": [8.0, 4.0, 3.0, 2.5]}],
}


def _with(**changes):
    d = json.loads(json.dumps(GOOD))
    d.update(changes)
    return d


def _task_times(times, i=0):
    d = json.loads(json.dumps(GOOD))
    d["tasks"][i]["times"] = times
    return d


def test_design_example_round_trips():
    inst = cs.instance_from_dict(GOOD)
    assert (inst.n, inst.processors, inst.max_pack_size) == (2, 4, 4)
    assert inst.task_names == ("T1", "T2")
    again = cs.instance_from_dict(json.loads(json.dumps(inst.to_dict())))
    np.testing.assert_array_equal(again.times, inst.times)
    assert again.to_dict() == inst.to_dict()


def test_times_are_read_only():
    inst = cs.instance_from_dict(GOOD)
    with pytest.raises(ValueError):
        inst.times[0, 0] = 1.0


def test_unknown_kind():
    with pytest.raises(InputError, match="unknown kind 'packs'"):
        cs.instance_from_dict(_with(kind="packs"))


def test_missing_kind():
    with pytest.raises(InputError, match="missing field 'kind'"):
        cs.instance_from_dict({"processors": 2})


def test_wrong_number_of_times_names_task():
    with pytest.raises(InputError, match=r"task 'T1' has 3 times, expected one per processor count 1\.\.4") as e:
        cs.instance_from_dict(_task_times([10.0, 6.0, 4.5]))
    assert e.value.where == "tasks[0].times"


@pytest.mark.parametrize("bad", [-1.0, 0.0, float("nan"), float("inf"), "3", None, True])
def test_non_positive_or_non_finite_time(bad):
    with pytest.raises(InputError, match=r"task 'T1': execution time on 2 processors must be a positive finite number"):
        cs.instance_from_dict(_task_times([10.0, bad, 4.5, 4.0]))


def test_nan_in_array_constructor():
    with pytest.raises(InputError, match="positive, finite and <= 1e\\+15, got nan"):
        PackInstance(np.array([[2.0, math.nan]]), 1)


@pytest.mark.parametrize("k", [0, -1, 5, 2.5, True])
def test_k_out_of_range(k):
    with pytest.raises(InputError, match=r"max_pack_size must be an integer with 1 <= k <= p = 4"):
        cs.instance_from_dict(_with(max_pack_size=k))


def test_eq1_violation_names_task_j_and_values():
    with pytest.raises(InputError, match=r"task 'T1' breaks Eq\. \(1\).*t\(j=3\) = 7\.0 > t\(j=2\) = 6\.0") as e:
        cs.instance_from_dict(_task_times([10.0, 6.0, 7.0, 4.0]))
    assert e.value.where == "tasks[0].times[2]"
    assert "--repair" in str(e.value)


def test_eq2_violation_names_task_j_and_values():
    # work(2) = 2 x 4 = 8 < work(1) = 10: super-linear speedup
    with pytest.raises(
        InputError, match=r"task 'T2' breaks Eq\. \(2\).*work\(j=2\) = 2 x 4\.0 = 8\.0 < work\(j=1\) = 1 x 10\.0"
    ):
        cs.instance_from_dict({**GOOD, "tasks": [GOOD["tasks"][0], {"name": "T2", "times": [10.0, 4.0, 3.0, 2.5]}]})


def test_repair_on_load_fixes_both_equations():
    d = _task_times([10.0, 4.0, 7.0, 1.0])
    inst = cs.instance_from_dict(d, repair=True)
    t = inst.times[0]
    assert t.tolist() == pytest.approx([10.0, 5.0, 5.0, 15.0 / 4])


def test_duplicate_task_names():
    d = json.loads(json.dumps(GOOD))
    d["tasks"][1]["name"] = "T1"
    with pytest.raises(InputError, match="duplicate task name 'T1'"):
        cs.instance_from_dict(d)


def test_missing_processors_field():
    d = _with()
    del d["processors"]
    with pytest.raises(InputError, match="missing field 'processors'"):
        cs.instance_from_dict(d)


def test_load_instance_malformed_json_names_file_line_column(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{"kind": "pack",\n "processors": 4\n "tasks": []}')
    with pytest.raises(InputError, match=r"bad\.json:3:2: malformed JSON"):
        cs.load_instance(f)


def test_load_instance_field_error_names_file(tmp_path):
    f = tmp_path / "inst.json"
    f.write_text(json.dumps(_task_times([10.0, 6.0, 4.5])))
    with pytest.raises(InputError, match=r"inst\.json: tasks\[0\]\.times: task 'T1' has 3 times"):
        cs.load_instance(f)


def test_missing_file():
    with pytest.raises(InputError, match="no such file"):
        cs.load_instance("/nonexistent/inst.json")


profiles = st.lists(
    st.lists(st.floats(0.01, 1e6, allow_nan=False), min_size=1, max_size=12).filter(lambda r: len(r) > 0),
    min_size=1,
    max_size=5,
).filter(lambda rows: len({len(r) for r in rows}) == 1)


@settings(max_examples=200, deadline=None)
@given(profiles)
def test_repair_always_gives_a_valid_profile_and_keeps_valid_ones(rows):
    t = repair(rows)
    inst = PackInstance(t, 1)  # would raise if Eq. (1) or (2) failed
    assert inst.times[:, 0].tolist() == [r[0] for r in rows]
    again = repair(t)
    np.testing.assert_allclose(again, t, rtol=PROFILE_RTOL)
