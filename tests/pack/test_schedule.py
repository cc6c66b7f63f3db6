"""The independent validator, cost recomputation and the section 6 metrics on hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.core import InputError, schedule_from_dict
from coschedopt.pack import PackInstance, PackSchedule, pack_cost, validate_schedule
from coschedopt.pack.metrics import (
    mean_response_time,
    mean_response_time_one_pack,
    packing_ratio,
    relative_cost,
    relative_response_time,
)

# t(i, j) for j = 1..4; all satisfy Eq. (1)-(2)
TIMES = np.array(
    [
        [10.0, 6.0, 4.5, 4.0],  # T1
        [8.0, 4.0, 3.0, 2.5],  # T2
        [3.0, 2.0, 2.0, 2.0],  # T3
    ]
)


@pytest.fixture
def inst():
    return PackInstance(TIMES, 2, name="hand")


def sched(*packs):
    return PackSchedule(tuple(tuple(pack) for pack in packs))


def test_cost_is_the_sum_of_pack_maxima(inst):
    s = sched([("T1", 2), ("T2", 2)], [("T3", 4)])
    validate_schedule(inst, s)
    assert pack_cost(inst, s) == 6.0 + 2.0


def test_metrics_by_hand(inst):
    s = sched([("T1", 2), ("T2", 2)], [("T3", 4)])
    # 1-pack schedule: t(i, 4) = 4, 2.5, 2 -> cost 8.5
    assert relative_cost(inst, s) == pytest.approx(8.0 / 8.5)
    # work = 2*6 + 2*4 + 4*2 = 28 over p * cost = 4 * 8
    assert packing_ratio(inst, s) == pytest.approx(28 / 32)
    # R: shortest first 2, 2.5, 4 -> finish 2, 4.5, 8.5 -> mean 5
    assert mean_response_time_one_pack(inst) == pytest.approx(5.0)
    # R-hat: packs by increasing cost: {T3} (cost 2) then {T1, T2}: T3 -> 2, T1 -> 2 + 6, T2 -> 2 + 4
    assert mean_response_time(inst, s) == pytest.approx((2 + 8 + 6) / 3)
    assert relative_response_time(inst, s) == pytest.approx(16 / 15)


@pytest.mark.parametrize(
    ("packs", "message"),
    [
        ([[("T1", 2), ("T2", 2)]], r"1 task\(s\) not scheduled: T3"),
        ([[("T1", 2), ("T2", 2)], [("T3", 1), ("T1", 1)]], "task 'T1' scheduled twice"),
        ([[("T1", 2), ("T2", 3)], [("T3", 1)]], "pack uses 5 processors, more than p = 4"),
        ([[("T1", 1), ("T2", 1), ("T3", 1)]], "3 tasks in a pack, more than max_pack_size k = 2"),
        ([[("T1", 0), ("T2", 2)], [("T3", 1)]], "given 0 processors, outside 1..p = 4"),
        ([[("T1", 2), ("T9", 2)], [("T3", 1)]], "unknown task 'T9'"),
        ([[("T1", 2), ("T2", 2)], [], [("T3", 1)]], "empty pack"),
    ],
)
def test_validator_names_the_broken_constraint(inst, packs, message):
    with pytest.raises(InputError, match=message):
        validate_schedule(inst, sched(*packs))
    with pytest.raises(ValueError, match=message):
        cs.validate(inst, sched(*packs))


def test_schedule_json_round_trip(inst):
    s = sched([("T1", 2), ("T2", 2)], [("T3", 4)])
    assert PackSchedule.from_dict(inst, s.to_dict()) == s
    assert schedule_from_dict(inst, {"schedule": s.to_dict(), "status": "OPTIMAL"}) == s


def test_from_indices_and_back(inst):
    s = PackSchedule.from_indices(inst, [[(0, 2), (1, 2)], [(2, 4)]])
    assert s.indices(inst) == [[(0, 2), (1, 2)], [(2, 4)]]
