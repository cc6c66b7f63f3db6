"""The two readings of the batch simulator (coschedopt.batch.readings): what ``reading="author"`` sets, that an
explicit option wins over it, the first-slice test on a case made for it, and both profiles agreeing under it."""

from __future__ import annotations

import pytest

from coschedopt import solve, validate
from coschedopt.batch.generate import random_workload
from coschedopt.batch.instance import BatchInstance
from coschedopt.batch.readings import READINGS, configuration
from coschedopt.batch.simulators.conservative import ConservativeOptions, simulate_conservative
from coschedopt.core import InputError

from . import reference

AUTHOR = READINGS["author"]


def test_the_authors_reading_is_its_four_options():
    for seed in range(12):
        inst = random_workload(20, 16, (1, 2, 4, 16), horizon=40, max_run=12, seed=500 + seed)
        variant = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")[seed % 7]
        common = {"allocation": variant, "penalty": "exponential"}
        by_reading = solve(inst, "conservative", reading="author", **common).schedule
        explicit = solve(inst, "conservative", **common, **AUTHOR).schedule
        validate(inst, by_reading)
        assert by_reading.model == explicit.model | {"reading": "author"}
        assert (by_reading.start == explicit.start).all() and by_reading.processors == explicit.processors


def test_an_option_given_wins_over_the_reading():
    opts = ConservativeOptions.from_mapping({"reading": "author", "event_order": "completions-first"})
    assert opts.event_order == "completions-first"
    assert (opts.reassign_test, opts.reassign_penalty, opts.metric_topology) == ("first-slice", "keep", "ring")
    ours = ConservativeOptions()
    assert (ours.event_order, ours.reassign_test, ours.reassign_penalty) == (
        "completions-first",
        "whole-window",
        "recompute",
    )
    assert ours.model()["metric_topology"] == "line"
    with pytest.raises(InputError, match="reading"):
        ConservativeOptions.from_mapping({"reading": "thesis"})


def test_configuration_names_the_reading_and_what_departs_from_it():
    assert configuration({"allocation": "loc"}) == "ours"
    assert configuration({"reading": "author", "allocation": "loc"}) == "author"
    assert configuration({"event_order": "submissions-first"}) == "ours + event_order=submissions-first"
    assert configuration({"event_order": "completions-first"}) == "ours"
    assert configuration({"reassign": False}) == "ours + reassign=False"
    assert (
        configuration({"reading": "author", "reassign_penalty": "recompute"}) == "author + reassign_penalty=recompute"
    )


def test_first_slice_withholds_a_move_that_the_whole_window_allows():
    """Job 0 holds both processors for 10 s and ends at 2; job 1 (1 processor, 9 s) is reserved at 10 and job 2
    (1 processor, 1 s) at 10 too.  At 2 the profile's slice at now ends at 10 (job 1's and 2's reservations):
    it lasts 8 s, short of job 1's 9, so the first-slice test leaves job 1 at 10, while the whole window
    [2, 11) on processor 0 is free and ours moves it to 2.  Job 2 (1 s) moves in both."""
    jobs = [
        {"id": "0", "submit": 0, "run_time": 2, "requested_time": 10, "size": 2},
        {"id": "1", "submit": 0, "run_time": 9, "requested_time": 9, "size": 1},
        {"id": "2", "submit": 0, "run_time": 1, "requested_time": 1, "size": 1},
    ]
    inst = BatchInstance.from_dict({"platform": {"processors": 2}, "jobs": jobs, "name": "first-slice"})
    starts = {}
    for test in ("whole-window", "first-slice"):
        s = solve(inst, "conservative", reassign_test=test).schedule
        validate(inst, s)
        starts[test] = s.start.tolist()
        ref = reference.simulate(inst, "conservative", {"reassign_test": test})
        assert starts[test] == [ref[j][0] for j in range(3)]
    assert starts == {"whole-window": [0, 2, 2], "first-slice": [0, 10, 2]}


@pytest.mark.parametrize("reading", ["ours", "author"])
def test_both_profiles_give_the_same_schedule_under_each_reading(reading):
    for seed in range(8):
        inst = random_workload(40, 96, (1, 2, 8, 96), horizon=60, max_run=15, seed=600 + seed)
        variant = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")[seed % 7]
        opts = ConservativeOptions.from_mapping({"allocation": variant, "reading": reading, "penalty": "exponential"})
        words = simulate_conservative(inst, opts, compiled=True)
        bigint = simulate_conservative(inst, opts, compiled=False)
        assert (words.start == bigint.start).all() and words.processors == bigint.processors
