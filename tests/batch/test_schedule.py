"""Schedules: JSON round trip, the validator on broken schedules, penalties and failures, zero-length jobs, export."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from coschedopt import solve, validate
from coschedopt.batch import BatchInstance, BatchSchedule
from coschedopt.batch.export import write_jobs_csv
from coschedopt.batch.generate import random_workload
from coschedopt.batch.penalty import penalised_duration
from coschedopt.core import InputError


def _inst(jobs, processors=4, levels=()):
    return BatchInstance.from_dict(
        {
            "kind": "batch",
            "platform": {"processors": processors, "levels": list(levels)},
            "jobs": [dict(zip(("id", "submit", "run_time", "requested_time", "size"), j, strict=True)) for j in jobs],
        }
    )


def test_round_trip_and_objective():
    inst = random_workload(12, 8, (1, 2, 8), seed=1)
    res = solve(inst, "conservative", allocation="beloc", penalty="linear", factor=0.5)
    again = BatchSchedule.from_dict(inst, res.schedule.to_dict())
    validate(inst, again)
    assert again.to_dict() == res.schedule.to_dict()
    assert res.objective == float((res.schedule.end - inst.submit).sum())


def _broken(inst, res, **change):
    data = res.schedule.to_dict()
    for key, (k, value) in change.items():
        data["jobs"][k][key] = value
    return BatchSchedule.from_dict(inst, data)


def test_the_validator_catches_each_broken_rule():
    inst = _inst([("a", 0, 5, 5, 2), ("b", 0, 5, 5, 2), ("c", 3, 2, 4, 4)])
    res = solve(inst, "conservative")
    validate(inst, res.schedule)
    cases = {
        "share a processor": {"processors": (1, res.schedule.processors[0])},
        "before its submission": {"start": (2, 1), "end": (2, 3)},
        "needs 2 of processors": {"processors": (0, "0-2")},
        "runs 4 s": {"end": (0, 4)},
        "after its first reservation": {"start": (2, 6), "end": (2, 8)},
    }
    for says, change in cases.items():
        with pytest.raises(ValueError, match=says):
            validate(inst, _broken(inst, res, **change))


def test_schedule_json_refusals():
    inst = _inst([("a", 0, 5, 5, 2)])
    good = solve(inst, "fcfs").schedule.to_dict()
    for data, where in [
        ({"jobs": []}, "schedule.jobs"),
        ({"jobs": good["jobs"] * 2}, "schedule.jobs[1].id"),
        ({"jobs": [{**good["jobs"][0], "processors": "0-"}]}, "schedule.jobs[0].processors"),
        ({"jobs": [{**good["jobs"][0], "colour": 1}]}, "schedule.jobs[0]"),
        ({**good, "extra": 1}, "schedule.extra"),
    ]:
        with pytest.raises(InputError) as e:
            BatchSchedule.from_dict(inst, data)
        assert e.value.where == where


def test_penalties_of_section_5_3_4():
    assert penalised_duration(100, 0, 500, "exponential", 2.0) == (100, False)
    assert penalised_duration(100, 2, 500, "exponential", 2.0) == (400, False)
    assert penalised_duration(100, 3, 500, "exponential", 2.0) == (500, True)  # 800 > 500: killed
    assert penalised_duration(100, 2, 500, "linear", 0.5) == (200, False)
    assert penalised_duration(7, 1, 100, "linear", 0.25) == (9, False)  # 8.75 s rounded up
    assert penalised_duration(600, 0, 500, "none", 2.0) == (500, True)  # ran past its wall time


def test_a_job_placed_across_the_tree_is_slowed_and_may_fail():
    # 8 processors, clusters of 2, halves of 4 (Fig. 5.1); a job of 3 needs a half: L_min = 2
    inst = _inst([("x", 0, 10, 10, 3), ("y", 0, 10, 30, 3), ("z", 0, 10, 40, 2)], processors=8, levels=(1, 2, 4, 8))
    s = solve(inst, "fcfs", penalty="exponential", factor=2.0).schedule
    assert s.processors == ("0-2", "3-5", "6-7")  # y crosses the halves: L = 3, R = 1
    assert s.end.tolist() == [10, 20, 10] and not s.failed.any()
    short = _inst([("x", 0, 10, 10, 3), ("y", 0, 10, 15, 3)], processors=8, levels=(1, 2, 4, 8))
    s = solve(short, "fcfs", penalty="exponential").schedule
    assert s.failed.tolist() == [False, True] and s.end.tolist() == [10, 15]  # killed at its wall time


def test_zero_length_jobs_free_their_processors_at_the_next_instant():
    """AccaSim's convention: no second pass at the instant a zero-length job starts."""
    inst = _inst([("z", 0, 0, 5, 4), ("a", 0, 3, 3, 4), ("b", 2, 1, 1, 1)])
    s = solve(inst, "fcfs").schedule
    assert s.start.tolist() == [0, 2, 5]  # a waits for the next instant (b's submission at 2)
    lone = _inst([("z", 0, 0, 5, 4), ("a", 0, 3, 3, 4)])
    assert solve(lone, "fcfs").schedule.start.tolist() == [0, 1]  # no event left: one second later


def test_export_writes_the_batsim_jobs_csv(tmp_path):
    inst = _inst([("a", 0, 5, 6, 2), ("b", 1, 7, 5, 4)])
    res = solve(inst, "easy")
    path = write_jobs_csv(inst, res.schedule, tmp_path / "jobs.csv")
    rows = list(csv.DictReader(path.open()))
    assert [r["job_id"] for r in rows] == ["a", "b"]
    assert rows[0]["allocated_resources"] == "0-1" and rows[1]["allocated_resources"] == "0-3"
    assert rows[1]["final_state"] == "COMPLETED_WALLTIME_REACHED" and rows[1]["success"] == "0"
    assert int(rows[1]["finish_time"]) - int(rows[1]["starting_time"]) == int(rows[1]["execution_time"]) == 5
    assert np.isclose(float(rows[0]["stretch"]), 1.0)
