"""The three simulators against the per-time-unit reference (tests/batch/reference.py) on small random workloads."""

from __future__ import annotations

import itertools

import pytest

from coschedopt import solve, validate
from coschedopt.batch.generate import random_workload
from coschedopt.batch.simulators.queue import RESERVATIONS
from coschedopt.workloads.idsets import parse_ids

from . import reference

PLATFORMS = [(8, (1, 2, 8)), (12, (1, 3, 12)), (16, (1, 2, 4, 16)), (6, ())]
VARIANTS = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")


def _compare(inst, method, opts):
    res = solve(inst, method, **opts)
    validate(inst, res.schedule)
    ref = reference.simulate(inst, method, opts)
    s = res.schedule
    for j in range(inst.n):
        got = (int(s.start[j]), int(s.end[j]), parse_ids(s.processors[j]).tolist(), bool(s.failed[j]))
        assert got == ref[j], f"{method} {opts} job {inst.ids[j]}: {got} != reference {ref[j]}"


CASES = list(itertools.product(("fcfs", "easy", "conservative"), VARIANTS))


@pytest.mark.parametrize("method, variant", CASES)
def test_simulators_match_the_per_time_unit_reference(method, variant):
    for seed in range(12):
        m, levels = PLATFORMS[seed % len(PLATFORMS)]
        inst = random_workload(14, m, levels, horizon=30, max_run=9, seed=seed)
        opts = {"allocation": variant}
        if seed % 3 == 1:
            opts |= {"penalty": "exponential", "factor": 2.0}
        if seed % 3 == 2:
            opts |= {"penalty": "linear", "factor": 1.5}
        if seed % 4 == 3:
            opts |= {"topology": "ring"}
        _compare(inst, method, opts)


@pytest.mark.parametrize("variant", VARIANTS)
def test_easy_with_the_lowest_ids_reservation_matches_the_reference(variant):
    for seed in range(12):
        m, levels = PLATFORMS[seed % len(PLATFORMS)]
        inst = random_workload(14, m, levels, horizon=30, max_run=9, seed=500 + seed)
        opts = {"allocation": variant, "reservation": "lowest-ids"}
        if seed % 4 == 3:
            opts |= {"topology": "ring", "penalty": "linear", "factor": 1.5}
        _compare(inst, "easy", opts)


@pytest.mark.parametrize("variant", ("cont", "loc", "plat"))
def test_easy_reservations_of_forced_variants_match_the_reference(variant):
    """Seeds (found by a search) where the two reservations of a forced variant give different schedules."""
    for seed in (31, 60, 87, 143, 155):
        m, levels = PLATFORMS[seed % len(PLATFORMS)]
        inst = random_workload(14, m, levels, horizon=30, max_run=9, seed=seed)
        for rule in ("busy-first", "lowest-ids"):
            _compare(inst, "easy", {"allocation": variant, "reservation": rule})
        schedules = [solve(inst, "easy", allocation=variant, reservation=r).schedule for r in RESERVATIONS]
        assert schedules[0].to_dict() != schedules[1].to_dict(), f"seed {seed}"


@pytest.mark.parametrize(
    "opts",
    [
        {"allocation": "becont", "becont_rule": "first-fit"},
        {"allocation": "cont", "cont_rule": "largest"},
        {"allocation": "becont", "becont_rule": "first-fit", "topology": "ring"},
        {"allocation": "beplat", "beplat_rule": "clusters"},
        {"allocation": "plat", "beplat_rule": "clusters", "penalty": "exponential"},
    ],
)
def test_the_other_readings_match_the_reference(opts):
    for seed in range(10):
        m, levels = PLATFORMS[seed % len(PLATFORMS)]
        inst = random_workload(14, m, levels, horizon=30, max_run=9, seed=100 + seed)
        for method in ("easy", "conservative"):
            _compare(inst, method, opts)


@pytest.mark.parametrize(
    "opts",
    [
        {"reassign": False},
        {"reassign_penalty": "keep", "penalty": "exponential"},
        {"event_order": "submissions-first"},
        {"event_order": "submissions-first", "reassign": False, "penalty": "exponential"},
        {"reassign_test": "first-slice"},
        {"reassign_test": "first-slice", "event_order": "submissions-first", "penalty": "exponential"},
        {"reassign_test": "first-slice", "reassign_penalty": "keep", "penalty": "exponential"},
    ],
)
def test_conservative_reassignment_options_match_the_reference(opts):
    for seed in range(20):
        m, levels = PLATFORMS[seed % len(PLATFORMS)]
        inst = random_workload(14, m, levels, horizon=30, max_run=9, seed=200 + seed)
        _compare(inst, "conservative", opts | {"allocation": VARIANTS[seed % 7]})


def test_conservative_never_starts_after_its_first_reservation():
    for seed in range(30):
        inst = random_workload(25, 16, (1, 2, 4, 16), horizon=40, max_run=12, seed=300 + seed)
        for reassign in (True, False):
            s = solve(inst, "conservative", allocation=VARIANTS[seed % 7], reassign=reassign).schedule
            assert (s.start <= s.reserved).all()
            if not reassign:
                assert (s.start == s.reserved).all()


def test_reassignment_moves_jobs_earlier_on_early_completions():
    moved = 0
    for seed in range(30):
        inst = random_workload(25, 16, (1, 2, 4, 16), horizon=40, max_run=12, seed=400 + seed)
        s = solve(inst, "conservative").schedule
        moved += int((s.start < s.reserved).sum())
    assert moved > 0


def test_the_authors_event_order_reserves_submissions_before_completions_free_processors():
    """Job 0 holds all 4 processors for 10 s and ends at 5; job 1 (4 processors) is submitted at 5.  Completions
    first: job 1 starts at 5.  Submissions first: job 1 is reserved at 10, then moved to 5 by the reassignment
    that follows the completion, or left at 10 without reassignment."""
    from coschedopt.batch.instance import BatchInstance

    jobs = [
        {"id": "0", "submit": 0, "run_time": 5, "requested_time": 10, "size": 4},
        {"id": "1", "submit": 5, "run_time": 3, "requested_time": 3, "size": 4},
    ]
    inst = BatchInstance.from_dict({"platform": {"processors": 4}, "jobs": jobs, "name": "event-order"})
    starts = {}
    for order in ("completions-first", "submissions-first"):
        for reassign in (True, False):
            s = solve(inst, "conservative", event_order=order, reassign=reassign).schedule
            validate(inst, s)
            starts[order, reassign] = int(s.start[1])
            assert (
                starts[order, reassign]
                == reference.simulate(inst, "conservative", {"event_order": order, "reassign": reassign})[1][0]
            )
    assert starts == {
        ("completions-first", True): 5,
        ("completions-first", False): 5,
        ("submissions-first", True): 5,
        ("submissions-first", False): 10,
    }
