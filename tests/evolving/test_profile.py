"""The EP algebra (section 3.1) against its definitions, on hundreds of small random profiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.evolving import Profile, fits

from .strategies import profiles, value_by_brute_force

#: sample points: every half unit covers each stage of integer-duration profiles
POINTS = [x / 2 for x in range(-2, 80)]


def test_the_papers_examples():
    ep = Profile([(500, 5), (3600, 10)])
    assert ep.value(0) == 5 and ep.value(499.9) == 5 and ep.value(500) == 10 and ep.value(4100) == 0
    assert ep.delay(3600).stretch([3600, 1000, 3600]).stages == [(3600, 0), (1000, 5), (3600, 10)]
    occupied = Profile([(1200, 10), (3600, 20)])
    assert occupied.max(0, 1200) == 10 and occupied.max(0, 1201) == 20 and occupied.max(5, 5) == 0
    assert occupied.loc(0, 5000) == 4800 and occupied.loc(0, 1000) == 1000
    assert occupied.change_points() == [0, 1200, 4800]


@settings(max_examples=150, deadline=None)
@given(profiles(), profiles())
def test_value_sum_delay_stretch_follow_their_definitions(a, b):
    total = a + b
    for t in POINTS:
        assert a.value(t) == value_by_brute_force(a.stages, t)
        assert total.value(t) == a.value(t) + b.value(t)
        assert a.delay(3).value(t + 3) == a.value(t)
    assert all(a.delay(3).value(t) == 0 for t in (0, 1, 2.5))
    longer = a.stretch([d + 1 for d, _ in a.stages])
    assert [n for _, n in longer.stages] == [n for _, n in a.stages] and longer.end == a.end + len(a.stages)


@settings(max_examples=150, deadline=None)
@given(profiles(), st.integers(0, 30), st.integers(0, 30))
def test_max_and_loc_follow_their_definitions(ep, x, y):
    t0, t1 = min(x, y) / 2, max(x, y) / 2
    inside = [ep.value(t) for t in POINTS if t0 <= t < t1]
    m = ep.max(t0, t1)
    assert m == max(inside, default=0)
    loc = ep.loc(t0, t1)
    if m > 0:  # max(ep, t0, loc) = max(ep, t0, t1) > max(ep, loc, t1)
        assert t0 < loc <= t1
        assert ep.max(t0, loc) == m and ep.max(loc, t1) < m
        assert loc == t1 or loc in ep.ends
    else:
        assert loc == t1


@settings(max_examples=150, deadline=None)
@given(profiles(), profiles(zeros=False), st.integers(0, 20), st.data())
def test_plus_stages_is_the_sum_with_the_delayed_stretched_profile(dst, src, start, data):
    if not src.stages:
        return
    durations = [d + data.draw(st.integers(0, 2)) for d, _ in src.stages]
    nodes = [n for _, n in src.stages]
    added = dst.plus_stages(start, durations, nodes)
    assert added == dst + Profile.from_stages(durations, nodes).delay(start)
    for t in POINTS:
        assert added.value(t) == dst.value(t) + src.stretch(durations).delay(start).value(t)


@settings(max_examples=100, deadline=None)
@given(profiles())
def test_change_points_bound_the_constant_pieces(ep):
    points = ep.change_points()
    assert points == sorted(points) and (not ep.stages or (points[0] == 0 and points[-1] == ep.end))
    for a, b in zip(points, points[1:], strict=False):
        assert len({ep.value(t) for t in POINTS if a <= t < b}) <= 1


@settings(max_examples=100, deadline=None)
@given(profiles(), profiles(), st.integers(0, 10), st.integers(1, 20))
def test_fits_is_the_post_condition_of_a_fit(src, dst, start, nmax):
    expected = all(dst.value(t) + src.delay(start).value(t) <= nmax for t in POINTS + [x + 40.0 for x in range(60)])
    assert fits(src, dst, nmax, start) is expected


def test_equality_is_on_the_function_not_the_stages():
    assert Profile([(1, 2), (1, 2), (3, 0)]) == Profile([(2, 2)])
    assert Profile([(1, 2)]) != Profile([(1, 3)])
    assert hash(Profile([(1, 2), (1, 2)])) == hash(Profile([(2, 2)]))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Profile([(-1, 2)]), "duration"),
        (lambda: Profile([(1, -2)]), "node count"),
        (lambda: Profile([(1, 2)]).delay(-1), "delay"),
        (lambda: Profile([(2, 2)]).stretch([1]), ">= 2"),
        (lambda: Profile([(2, 2)]).stretch([2, 3]), "needs 1"),
    ],
)
def test_bad_profiles_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
