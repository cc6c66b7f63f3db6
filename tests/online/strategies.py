"""Hypothesis strategies for small online instances and policy settings, and the tests' tolerance on objectives."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from coschedopt.online import OBJECTIVES, OnlineInstance
from coschedopt.online.simulators.rules import POLICIES, PolicyRun


@st.composite
def online_instances(draw, max_n: int = 8, max_m: int = 3, max_time: int = 20, min_m: int = 1, integer: bool = True):
    """Integer releases in [0, 15] (often equal: same-instant arrivals), heavy-ish integer sizes."""
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(min_m, max_m))
    releases = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    sizes = draw(st.lists(st.one_of(st.integers(1, 4), st.integers(1, max_time)), min_size=n, max_size=n))
    if not integer and draw(st.booleans()):
        sizes = [s * 0.75 for s in sizes]
    objective = draw(st.sampled_from(OBJECTIVES))
    bound = draw(st.sampled_from([10.0, 1.0, 3.0]))
    return OnlineInstance(releases, sizes, m, objective=objective, stretch_bound=bound)


@st.composite
def policy_runs(draw, m: int, policies: tuple[str, ...] = tuple(POLICIES)):
    """A policy with random settings valid on m processors (redirection policies need m >= 2)."""
    policy = draw(st.sampled_from([p for p in policies if m >= 2 or POLICIES[p][2] == "none"]))
    return PolicyRun(
        policy,
        dedicated=draw(st.integers(1, m - 1)) if m >= 2 else 0,
        tau=draw(st.integers(1, 4)),
        b=draw(st.sampled_from([0.0, 0.02, 0.3, 0.8])),
        c=draw(st.sampled_from([0.0, 0.3, 0.8, 1.0])),
        seed=draw(st.integers(0, 1000)),
        strict_preemption=draw(st.booleans()),
        count_when_idle=draw(st.booleans()),
    )


def close(a: float, b: float) -> bool:
    """Equal objectives up to the solvers' tolerance (relative and absolute 1e-6)."""
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)
