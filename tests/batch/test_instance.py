"""Batch instances and platforms: the JSON contract and every refusal naming its field and value."""

from __future__ import annotations

import copy

import pytest

from coschedopt.batch import BatchInstance
from coschedopt.batch.platform import Platform
from coschedopt.core import InputError

GOOD = {
    "kind": "batch",
    "name": "KTH-week-3",
    "platform": {"processors": 100, "levels": [1, 2, 10, 100]},
    "jobs": [
        {"id": "1", "submit": 0, "run_time": 7200, "requested_time": 10800, "size": 16},
        {"id": "2", "submit": 60, "run_time": 10, "requested_time": 5, "size": 100},
    ],
}


def test_round_trip():
    inst = BatchInstance.from_dict(GOOD)
    assert inst.to_dict() == GOOD
    assert inst.n == 2 and inst.platform.cluster_size == 10 and inst.platform.depth == 3


def _bad(path, value):
    data = copy.deepcopy(GOOD)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    with pytest.raises(InputError) as e:
        BatchInstance.from_dict(data)
    return e.value


@pytest.mark.parametrize(
    "path, value, where, says",
    [
        (("jobs", 0, "submit"), -5, "jobs[0].submit", "-5"),
        (("jobs", 1, "run_time"), -1, "jobs[1].run_time", "-1"),
        (("jobs", 0, "requested_time"), 1.5, "jobs[0].requested_time", "1.5"),
        (("jobs", 1, "size"), 101, "jobs[1].size", "101"),
        (("jobs", 1, "size"), 0, "jobs[1].size", "0"),
        (("jobs", 1, "id"), "1", "jobs[1].id", "'1'"),
        (("jobs", 0, "size"), KeyError, "jobs[0].size", "missing"),
        (("jobs", 0, "priority"), 3, "jobs[0].priority", "unknown field"),
        (("colour",), "red", "colour", "unknown field"),
        (("platform", "levels"), [1, 3, 10, 100], "platform.levels[2]", "do not divide"),
        (("platform", "levels"), [1, 2, 10, 99], "platform.levels", "end with the 100"),
        (("platform", "levels"), [2, 10, 100], "platform.levels", "start with 1"),
        (("platform", "processors"), 0, "platform.processors", "0"),
        (("platform", "switches"), 4, "platform.switches", "unknown field"),
        (("jobs",), [], "jobs", "at least one job"),
    ],
)
def test_bad_input_names_the_field_and_value(path, value, where, says):
    err = _bad(path, value)
    assert err.where == where and says in err.message


def test_platform_levels_and_penalty_levels():
    p = Platform(8, (1, 2, 4, 8))  # Fig. 5.1
    assert (p.depth, p.clusters, p.cluster_size) == (3, 4, 2)
    assert [p.min_level(s) for s in (1, 2, 3, 4, 5, 8)] == [1, 1, 2, 2, 3, 3]
    assert p.level_of(0, 1) == 1 and p.level_of(1, 2) == 2 and p.level_of(0, 3) == 2 and p.level_of(2, 5) == 3
    one = Platform(6)
    assert one.levels == (1, 6) and one.min_level(6) == 1 and one.level_of(0, 5) == 1
