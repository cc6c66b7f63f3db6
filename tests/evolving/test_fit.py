"""Algorithm 3 (base fit) and compacting against brute force over every placement on the time grid.

The paper claims, without proof, that base fit gives the earliest completion for its
stretch limit and that compacting then gives the latest start at that completion; both
are checked here against an exhaustive search over integer starts and stretches (on
integer data with an integer limit an optimal placement lies on the grid).
"""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.evolving import Profile, fits
from coschedopt.evolving.fit import Placement, base_fit, compact_fit, fit, trivial_fit

from .strategies import LIMITS, profiles


def placements(durations, nodes, dst, nmax, limit, horizon):
    """Every (start, durations) on the grid with the stretch limit that fits over dst, ending by ``horizon``."""
    count = len(durations)
    ranges = [
        range(d, (horizon if math.isinf(limit) else int(limit * d)) + 1) if 0 < k < count - 1 else [d]
        for k, d in enumerate(durations)
    ]
    for stretched in itertools.product(*ranges):
        for start in range(horizon - sum(stretched) + 1):
            if fits(Profile.from_stages(stretched, nodes), dst, nmax, start):
                yield start, stretched


@st.composite
def fit_cases(draw, max_stages=4):
    nmax = draw(st.integers(3, 8))
    dst = draw(profiles(max_stages=6, max_duration=4, max_nodes=nmax))
    count = draw(st.integers(1, max_stages))
    durations = [draw(st.integers(1, 3)) for _ in range(count)]
    nodes = [draw(st.integers(1, nmax)) for _ in range(count)]
    return durations, nodes, dst, nmax


def check_placement(durations, nodes, dst, nmax, limit, placed):
    assert placed.start >= 0 and len(placed.durations) == len(durations)
    assert placed.durations[0] == durations[0] and placed.durations[-1] == durations[-1]
    for d2, d in zip(placed.durations, durations, strict=True):
        assert d <= d2 <= limit * d
    assert fits(Profile.from_stages(placed.durations, nodes), dst, nmax, placed.start)


@settings(max_examples=120, deadline=None)
@given(fit_cases(max_stages=3), st.sampled_from(LIMITS))
def test_base_fit_is_valid_and_completes_at_the_earliest_possible_time(case, limit):
    durations, nodes, dst, nmax = case
    placed = base_fit(durations, nodes, dst, nmax, limit)
    check_placement(durations, nodes, dst, nmax, limit, placed)
    horizon = int(dst.end) + sum(durations)
    assert placed.end == min(start + sum(d) for start, d in placements(durations, nodes, dst, nmax, limit, horizon))


@settings(max_examples=120, deadline=None)
@given(fit_cases(), st.sampled_from(LIMITS))
def test_fit_never_completes_later_than_the_trivial_fit(case, limit):
    durations, nodes, dst, nmax = case
    trivial = trivial_fit(durations, nodes, dst, nmax)
    assert fits(Profile.from_stages(trivial.durations, nodes), dst, nmax, trivial.start)
    for compact in (False, True):
        assert fit(durations, nodes, dst, nmax, limit, compact).end <= trivial.end


@settings(max_examples=120, deadline=None)
@given(fit_cases(max_stages=3))
def test_without_stretching_base_fit_is_the_earliest_start_of_the_rigid_profile(case):
    durations, nodes, dst, nmax = case
    placed = base_fit(durations, nodes, dst, nmax, 1.0)
    assert placed.durations == tuple(durations)
    src = Profile.from_stages(durations, nodes)
    assert placed.start == next(t for t in range(int(dst.end) + 1) if fits(src, dst, nmax, t))


@settings(max_examples=120, deadline=None)
@given(fit_cases(), st.sampled_from(LIMITS[1:]))
def test_compacting_keeps_the_completion_and_gives_the_latest_start(case, limit):
    durations, nodes, dst, nmax = case
    base = base_fit(durations, nodes, dst, nmax, limit)
    compacted, mapped_back = compact_fit(durations, nodes, dst, nmax, limit, base)
    check_placement(durations, nodes, dst, nmax, limit, compacted)
    assert compacted.end == base.end and compacted.start >= base.start and mapped_back
    latest = max(
        (s for s, d in placements(durations, nodes, dst, nmax, limit, int(base.end)) if s + sum(d) == base.end)
    )
    assert compacted.start == latest


def test_a_stretch_lets_the_application_start_earlier():
    # 10 nodes, 6 of them busy over [2, 4): the last stage (8 nodes) cannot run before t = 4
    dst = Profile([(2, 0), (2, 6)])
    durations, nodes = (1, 1, 1), (3, 3, 8)
    assert base_fit(durations, nodes, dst, 10, 1.0) == Placement(2, (1, 1, 1))  # rigid: all after t = 2
    assert base_fit(durations, nodes, dst, 10, 2.0) == Placement(1, (1, 2, 1))  # the middle stage doubled
    assert base_fit(durations, nodes, dst, 10, 1.5) == Placement(1.5, (1, 1.5, 1))
    assert base_fit(durations, nodes, dst, 10, math.inf) == Placement(0, (1, 3, 1))
    # compacting keeps the completion (5) and starts as late as it can: no stretch left
    assert fit(durations, nodes, dst, 10, math.inf, compact=True) == Placement(2, (1, 1, 1))
