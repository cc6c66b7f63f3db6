"""The independent validator on broken schedules, and the schedule's JSON form."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core import InputError
from coschedopt.online import OnlineInstance, OnlineSchedule, validate_schedule
from coschedopt.online.metrics import objective_values, online_metrics
from coschedopt.online.schedule import COMPLETED as C
from coschedopt.online.schedule import KILLED as K
from coschedopt.online.schedule import PREEMPTED as P

INST = OnlineInstance([0, 1, 1], [10, 1, 2], 2, objective="sum-flow", task_names=("T0", "T1", "T2"))


def sched(*runs, dedicated=0):
    return OnlineSchedule.from_runs(list(runs), dedicated=dedicated, task_names=INST.task_names)


GOOD = sched((0, 0, 0, 3, K), (1, 0, 3, 4, C), (2, 0, 4, 6, C), (0, 1, 3, 13, C), dedicated=1)


def test_a_valid_schedule_with_a_kill_passes_and_its_metrics():
    validate_schedule(INST, GOOD)
    values = objective_values(INST, GOOD.completion_times(INST))
    assert values["sum-flow"] == 13 + 3 + 5
    assert values["max-flow"] == 13
    metrics = online_metrics(INST, GOOD)
    assert metrics["redirections"] == 1 and metrics["wasted_work"] == 3 and metrics["sum_flow"] == 21
    assert metrics["sum_stretch"] == pytest.approx(13 / 10 + 3 / 10 + 5 / 10)


def test_preempted_pieces_add_up():
    validate_schedule(INST, sched((0, 0, 0, 4, P), (1, 0, 4, 5, C), (2, 1, 1, 3, C), (0, 0, 5, 11, C)))


@pytest.mark.parametrize(
    ("runs", "message"),
    [
        (((0, 0, 0, 10, C), (1, 0, 5, 6, C), (2, 1, 1, 3, C)), "runs overlap on processor 0"),
        (((0, 0, 0, 10, C), (1, 1, 0.5, 1.5, C), (2, 1, 1.5, 3.5, C)), "starts at 0.5 before its release 1"),
        (((0, 0, 0, 9, C), (1, 1, 1, 2, C), (2, 1, 2, 4, C)), "do 9 units of work, its processing time is 10"),
        (((0, 0, 0, 10, C), (1, 1, 1, 2, C)), "'T2' is completed 0 times"),
        (((0, 0, 0, 10, C), (1, 1, 1, 2, C), (2, 1, 2, 4, C), (2, 1, 4, 6, C)), "'T2' is completed 2 times"),
        (((0, 0, 0, 10, C), (1, 1, 1, 2, C), (2, 1, 2, 4, C), (1, 1, 5, 6, K)), "runs again after its completed run"),
        (((0, 0, 0, 10, C), (1, 1, 1, 2, C), (2, 3, 2, 4, C)), "runs on processor 3 of 0..1"),
        (((0, 0, 0, 10, K), (0, 1, 10, 20, C), (1, 0, 10, 11, C), (2, 0, 11, 13, C)), "a killed run is as long"),
        (((0, 0, 0, 5, P), (0, 1, 2, 7, C), (1, 0, 5, 6, C), (2, 0, 6, 8, C)), "runs overlap on task 'T0'"),
        (((0, 0, 0, 10, C), (1, 1, 1, 1, C), (2, 1, 1, 3, C)), "has no positive length"),
        (((0, 0, 0, 10, C), (1, 1, 1, 2, C), (2, 1, 2, 4, C), (0, 1, 11, 11.5, K)), "runs again after its completed"),
    ],
)
def test_each_broken_constraint_is_named(runs, message):
    with pytest.raises(ValueError, match=message):
        validate_schedule(INST, sched(*runs))


def test_the_work_after_the_last_kill_counts():
    # killed after 3, then only 9 units of work: the lost 3 do not count
    with pytest.raises(ValueError, match="do 9 units of work"):
        validate_schedule(INST, sched((0, 0, 0, 3, K), (0, 1, 3, 12, C), (1, 0, 3, 4, C), (2, 0, 4, 6, C)))


def test_dedicated_pool_must_fit():
    with pytest.raises(ValueError, match="dedicated pool of 2 processors"):
        validate_schedule(INST, sched((0, 0, 0, 10, C), (1, 1, 1, 2, C), (2, 1, 2, 4, C), dedicated=2))


def test_json_round_trip_and_solution_file(tmp_path):
    data = GOOD.to_dict()
    assert data["dedicated"] == 1
    assert data["tasks"][0] == {
        "task": "T0",
        "runs": [
            {"processor": 0, "start": 0, "end": 3, "outcome": "killed"},
            {"processor": 1, "start": 3, "end": 13, "outcome": "completed"},
        ],
    }
    back = OnlineSchedule.from_dict(INST, data)
    assert back.to_dict() == data
    cs.save_instance(INST, tmp_path / "inst.json")
    validate_schedule(cs.load_instance(tmp_path / "inst.json"), back)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"tasks": [{"task": "T9", "runs": []}]}, "schedule.tasks[0].task"),
        ({"tasks": [{"task": "T0", "runs": [{"processor": 0, "start": 0, "end": 1}]}]}, "schedule.tasks[0].runs[0]"),
        (
            {"tasks": [{"task": "T0", "runs": [{"processor": 0, "start": 0, "end": 1, "outcome": "lost"}]}]},
            "schedule.tasks[0].runs[0].outcome",
        ),
        (
            {"tasks": [{"task": "T0", "runs": [{"processor": "a", "start": 0, "end": 1, "outcome": "killed"}]}]},
            "schedule.tasks[0].runs[0].processor",
        ),
        ({"tasks": [], "pools": 2}, "schedule.pools"),
        ({"runs": []}, "schedule.tasks"),
    ],
)
def test_bad_schedule_json(data, where):
    with pytest.raises(InputError) as err:
        OnlineSchedule.from_dict(INST, data)
    assert err.value.where == where
