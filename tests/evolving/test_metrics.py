"""The measures of Tables 1 and 2 on a schedule computed by hand, and the tables' summaries."""

from __future__ import annotations

import math

import pytest

import coschedopt as cs
from coschedopt.evolving import EvolvingSchedule, ScheduledApplication, evolving_metrics
from coschedopt.evolving.tables import PAPER, TABLE1, TABLE2, Column, compare, markdown, summarise

INSTANCE = cs.instance_from_dict(
    {
        "kind": "evolving",
        "nodes": 10,
        "applications": [
            {
                "name": "A",
                "stages": [{"duration": 2, "nodes": 3}, {"duration": 2, "nodes": 6}, {"duration": 1, "nodes": 2}],
            },
            {"name": "B", "stages": [{"duration": 3, "nodes": 4}]},
        ],
    }
)
# A's middle stage stretched 2 -> 3, B after A's peak
SCHEDULE = EvolvingSchedule(
    (ScheduledApplication("A", 0, (2, 3, 1), (3, 6, 2)), ScheduledApplication("B", 5, (3,), (4,)))
)


def test_the_measures_of_a_schedule_computed_by_hand():
    # used: A 6 + 12 + 2 = 20, B 12; reserved: A 6 + 18 + 2 = 26, B 12.  CBF: A reserves 6 x 5 over [0, 5),
    # B 4 x 3 beside it from 0 (6 + 4 = 10): reserved 42, makespan 5, mean completion 4, mean start 0
    m = evolving_metrics(INSTANCE, SCHEDULE)
    assert m["waste_pct"] == pytest.approx(100 * 6 / 32)
    assert m["reservation_rel"] == pytest.approx(38 / 42)
    assert m["utilisation_pct"] == pytest.approx(100 * 32 / 80)
    assert m["makespan_rel"] == pytest.approx(8 / 5)
    assert m["avg_jct_rel"] == pytest.approx(7 / 4)
    assert math.isnan(m["avg_jwt_rel"])  # CBF starts everything at 0, this schedule does not
    assert m["stretches_pct"] == 50
    assert (m["job_stretch_pct_min"], m["job_stretch_pct_mean"], m["job_stretch_pct_max"]) == (0, 10, 20)
    assert (m["job_waste_pct_min"], m["job_waste_pct_mean"], m["job_waste_pct_max"]) == (0, 15, 30)


def test_cbf_is_its_own_baseline_and_counts_its_reservation():
    m = evolving_metrics(INSTANCE, cs.solve(INSTANCE, "cbf").schedule)
    assert m["makespan_rel"] == m["reservation_rel"] == m["avg_jct_rel"] == m["avg_jwt_rel"] == 1
    assert m["waste_pct"] == pytest.approx(100 * 10 / 32)  # (42 - 32) / 32
    assert m["job_waste_pct_max"] == pytest.approx(50)  # A: 30 reserved for 20 used
    assert m["stretches_pct"] == m["job_stretch_pct_max"] == 0


def test_per_job_columns_are_pooled_over_the_tests_weighted_by_their_applications():
    records = [
        {"job_waste_pct_min": 1, "job_waste_pct_mean": 2, "job_waste_pct_max": 3, "n": 1},
        {"job_waste_pct_min": 0, "job_waste_pct_mean": 5, "job_waste_pct_max": 9, "n": 3},
    ]
    assert summarise(records, Column("job_waste_pct", "x", "pct", pooled=True)) == (0, (2 + 15) / 4, 9)
    assert summarise([{"waste_pct": 1.0}, {"waste_pct": 3.0}], TABLE1[0]) == (1.0, 2.0, 3.0)


def test_a_table_marks_averages_outside_the_tolerance():
    near = {c.key: PAPER["nos"][c.key][1] for c in TABLE1}
    far = {**near, "makespan_rel": near["makespan_rel"] + 0.05}
    table = compare({"nos": [near]}, TABLE1, "t")
    assert table.differences == [] and " *" not in markdown(table)
    table = compare({"nos": [far]}, TABLE1, "t")
    assert len(table.differences) == 1 and "Makespan" in table.differences[0] and " *" in markdown(table)
    assert len(compare({"nos": [near]}, TABLE2, "t").headers) == 11
