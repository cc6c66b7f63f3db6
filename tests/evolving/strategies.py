"""Hypothesis strategies and small helpers for the evolving family's tests."""

from __future__ import annotations

from hypothesis import strategies as st

from coschedopt.evolving import Application, EvolvingInstance, Profile

#: the paper's stretch limits: nos (1), mic (2), inf
LIMITS = (1.0, 2.0, float("inf"))


@st.composite
def profiles(draw, max_stages: int = 6, max_duration: int = 6, max_nodes: int = 9, zeros: bool = True) -> Profile:
    """A profile with integer durations (>= 1) and node counts (0 allowed when ``zeros``)."""
    n = draw(st.integers(0, max_stages))
    low = 0 if zeros else 1
    return Profile((draw(st.integers(1, max_duration)), draw(st.integers(low, max_nodes))) for _ in range(n))


@st.composite
def instances(
    draw, max_apps: int = 4, max_stages: int = 4, max_duration: int = 5, nodes: tuple[int, int] = (3, 10)
) -> EvolvingInstance:
    """A small instance with integer durations (time units) and node counts in [1, nodes]."""
    cluster = draw(st.integers(*nodes))
    apps = []
    for i in range(draw(st.integers(1, max_apps))):
        k = draw(st.integers(1, max_stages))
        durations = tuple(draw(st.integers(1, max_duration)) for _ in range(k))
        counts = tuple(draw(st.integers(1, cluster)) for _ in range(k))
        apps.append(Application(f"A{i + 1}", durations, counts))
    return EvolvingInstance(cluster, tuple(apps), name="hypothesis")


def value_by_brute_force(stages: list[tuple[int, int]], t: float) -> int:
    """ep(t) straight from the definition (stages from 0)."""
    start = 0
    for d, n in stages:
        if start <= t < start + d:
            return n
        start += d
    return 0
