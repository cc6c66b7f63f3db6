"""The independent validator and the recomputed makespan."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.combos import CombosSchedule, makespan, validate_schedule, work_done
from coschedopt.core import InputError

from .test_instance import small_dict


@pytest.fixture
def inst():
    return cs.instance_from_dict(small_dict())


def seq(inst):
    # every task alone for its whole work: always feasible
    return CombosSchedule(tuple(((nm,), float(w)) for nm, w in zip(inst.task_names, inst.work, strict=True)))


def test_sequential_schedule_is_valid_and_makespan_is_the_sum(inst):
    s = seq(inst)
    validate_schedule(inst, s)
    assert makespan(inst, s) == pytest.approx(360.0)


def test_hand_built_mixed_schedule(inst):
    # {T1,T2} for 100: T1 +80, T2 +70; then T1 alone 70, T2 alone 50, T3 alone 90
    s = CombosSchedule(((("T2", "T1"), 100.0), (("T1",), 70.0), (("T2",), 50.0), (("T3",), 90.0)))
    validate_schedule(inst, s)
    assert work_done(inst, s).tolist() == pytest.approx([150.0, 120.0, 90.0])
    assert cs.objective(inst, s) == pytest.approx(310.0)


@pytest.mark.parametrize(
    "segments, words",
    [
        (((("T1", "T4"), 1.0),), ["unknown task 'T4'"]),
        (((("T2", "T3"), 1.0),), ["['T2', 'T3']", "not an allowed combination"]),
        ((((), 1.0),), ["empty combination"]),
        (((("T1", "T1"), 1.0),), ["'T1' listed twice"]),
        (((("T1",), -1.0),), ["duration", "-1.0"]),
        (((("T1",), float("inf")),), ["duration", "inf"]),
    ],
)
def test_validator_names_the_broken_constraint(inst, segments, words):
    with pytest.raises(InputError) as err:
        validate_schedule(inst, CombosSchedule(segments))
    for w in words:
        assert w in str(err.value)


def test_too_little_and_too_much_work_are_refused(inst):
    s = seq(inst)
    short = CombosSchedule(s.segments[:2] + ((("T3",), 89.0),))
    with pytest.raises(InputError, match="task 'T3' receives 89 .* less than its work"):
        validate_schedule(inst, short)
    long = CombosSchedule(s.segments + ((("T1",), 1.0),))
    with pytest.raises(InputError, match="task 'T1' receives 151 .* more than its work"):
        validate_schedule(inst, long)


def test_schedule_json_and_bad_schedule_json(inst):
    s = seq(inst)
    assert CombosSchedule.from_dict(inst, s.to_dict()) == s
    with pytest.raises(InputError, match="segments"):
        CombosSchedule.from_dict(inst, {"packs": []})
    with pytest.raises(InputError, match="duration must be a number"):
        CombosSchedule.from_dict(inst, {"segments": [{"tasks": ["T1"], "duration": "x"}]})


def test_from_masks_merges_consecutive_segments(inst):
    s = CombosSchedule.from_masks(inst, [(1, 50.0), (1, 100.0), (2, 0.0), (2, 120.0), (4, 90.0)])
    assert s.segments == ((("T1",), 150.0), (("T2",), 120.0), (("T3",), 90.0))
    validate_schedule(inst, s)
