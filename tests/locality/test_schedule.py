"""The validator refuses every broken rule with the job and the ids, and the makespan is recomputed."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core import InputError
from coschedopt.locality import LocalitySchedule, make_instance, makespan, validate_schedule
from coschedopt.locality.metrics import locality_metrics
from coschedopt.workloads.idsets import runs


def _inst(constraint="none", topology="line"):
    # m = 6 in 2 clusters of 3; J1 (2 units, size 2), J2 (1 unit, size 2), J3 (1 unit, size 1)
    return make_instance([(2.0, 2), (1.0, 2), (1.0, 1)], 6, 2, constraint=constraint, topology=topology)


def _sched(*entries):
    return LocalitySchedule.from_dict(None, {"jobs": [{"job": j, "start": s, "processors": p} for j, s, p in entries]})


GOOD = (("J1", 0.0, [0, 1]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0]))


@pytest.mark.parametrize("constraint", ["none", "contiguous", "local", "contiguous+local"])
def test_a_contiguous_local_schedule_is_valid_under_every_constraint(constraint):
    inst, sched = _inst(constraint), _sched(*GOOD)
    validate_schedule(inst, sched)
    assert makespan(inst, sched) == 3.0
    m = locality_metrics(inst, sched)
    assert m["contiguous_jobs"] == m["local_jobs"] == 1.0 and m["utilisation"] == pytest.approx(7 / 18)


@pytest.mark.parametrize(
    ("constraint", "entries", "words"),
    [
        ("contiguous", (("J1", 0.0, [0, 2]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0])), ["J1", "[0, 2]", "not one range"]),
        ("local", (("J1", 0.0, [2, 3]), ("J2", 0.0, [0, 1]), ("J3", 2.0, [0])), ["J1", "[2, 3]", "2 clusters", "= 1"]),
        ("contiguous+local", (("J1", 0.0, [2, 3]), ("J2", 0.0, [0, 1]), ("J3", 2.0, [0])), ["touch 2 clusters"]),
        ("none", (("J1", 0.0, [0, 1]), ("J2", 1.5, [1, 4]), ("J3", 2.0, [0])), ["processor 1", "'J1'", "'J2'"]),
        ("none", (("J1", 0.0, [0, 1]), ("J2", 0.0, [3, 3]), ("J3", 2.0, [0])), ["J2", "repeated"]),
        (
            "none",
            (("J1", 0.0, [0, 1, 2]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0])),
            ["'J1' needs 2 processors", "given 3"],
        ),
        ("none", (("J1", 0.0, [0, 6]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0])), ["id 6 outside 0..5"]),
        ("none", (("J1", -1.0, [0, 1]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0])), ["start", ">= 0", "-1.0"]),
        ("none", (("J1", 0.0, [0, 1]), ("J2", 0.0, [3, 4])), ["1 job(s) not scheduled: J3"]),
        ("none", (*GOOD, ("J3", 3.0, [5])), ["'J3' scheduled twice"]),
        ("none", (*GOOD, ("J9", 3.0, [5])), ["unknown job 'J9'"]),
    ],
)
def test_broken_schedules_are_refused_naming_the_job(constraint, entries, words):
    with pytest.raises(InputError) as err:
        validate_schedule(_inst(constraint), _sched(*entries))
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_jobs_touching_end_to_start_share_a_processor():
    validate_schedule(_inst(), _sched(("J1", 0.0, [0, 1]), ("J2", 2.0, [0, 1]), ("J3", 0.0, [2])))


def test_a_range_wrapping_past_the_last_id_is_contiguous_on_a_ring_only():
    sched = _sched(("J1", 0.0, [5, 0]), ("J2", 0.0, [2, 3]), ("J3", 0.0, [1]))
    validate_schedule(_inst("contiguous", "ring"), sched)
    with pytest.raises(InputError, match="not one range of consecutive ids on a line"):
        validate_schedule(_inst("contiguous", "line"), sched)
    # wrapping crosses clusters 1 and 0, so it is not local
    with pytest.raises(InputError, match="touch 2 clusters"):
        validate_schedule(_inst("contiguous+local", "ring"), sched)


def test_id_runs_merge_and_wrap_on_a_ring():
    assert runs([0, 1, 3, 5]) == [(0, 1), (3, 3), (5, 5)]
    assert runs([0, 1, 3, 5], ring_size=6) == [(5, 1), (3, 3)]
    assert [(b - a) % 6 + 1 for a, b in runs([0, 1, 3, 5], ring_size=6)] == [3, 1]  # ids per run, through 5-0
    assert runs(list(range(6)), ring_size=6) == [(0, 5)]


def test_local_means_the_least_number_of_clusters_for_jobs_larger_than_a_cluster():
    inst = make_instance([(1.0, 4)], 6, 2, constraint="local")  # ceil(4/3) = 2 clusters
    validate_schedule(inst, _sched(("J1", 0.0, [0, 2, 4, 5])))
    inst3 = make_instance([(1.0, 4)], 9, 3, constraint="local")
    with pytest.raises(InputError, match="touch 3 clusters"):
        validate_schedule(inst3, _sched(("J1", 0.0, [0, 3, 6, 7])))


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"jobs": {}}, "schedule.jobs"),
        ({"jobs": [{"job": "J1", "start": 0}]}, "schedule.jobs[0]"),
        ({"jobs": [{"job": "J1", "start": "0", "processors": [0]}]}, "schedule.jobs[0].start"),
        ({"jobs": [{"job": "J1", "start": 0, "processors": [0.5]}]}, "schedule.jobs[0].processors"),
        ({"jobs": [{"job": "J1", "start": 0, "processors": [0], "end": 1}]}, "schedule.jobs[0].end"),
    ],
)
def test_malformed_schedule_json_is_located(data, where):
    with pytest.raises(InputError) as err:
        LocalitySchedule.from_dict(None, data)
    assert err.value.where == where


def test_validate_command_names_the_solution_file_and_the_broken_rule(tmp_path, capsys):
    from coschedopt.cli import main

    inst_path, sol_path = tmp_path / "i.json", tmp_path / "s.json"
    cs.save_instance(_inst("contiguous"), inst_path)
    bad = _sched(("J1", 0.0, [0, 2]), ("J2", 0.0, [3, 4]), ("J3", 2.0, [0]))
    sol_path.write_text(__import__("json").dumps(bad.to_dict()))
    assert main(["validate", str(inst_path), str(sol_path)]) == 1
    err = capsys.readouterr().err
    assert str(sol_path) in err and "jobs[0].processors" in err and "not one range" in err
