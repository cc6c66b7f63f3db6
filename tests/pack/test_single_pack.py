"""Section 4.2: Algorithm 1, the O(kp^2) dynamic program and the level search agree."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.core import make_rng
from coschedopt.pack import min_processors_single_pack, optimal_single_pack, single_pack_dp
from coschedopt.pack.generate import random_profiles


def brute_force(rows: np.ndarray, p: int) -> float:
    k = rows.shape[0]
    best = np.inf
    for sigma in itertools.product(range(1, p + 1), repeat=k):
        if sum(sigma) <= p:
            best = min(best, max(rows[i, q - 1] for i, q in enumerate(sigma)))
    return best


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8), st.integers(0, 2**32 - 1), st.data())
def test_algorithm1_equals_dp_equals_level_search(p, seed, data):
    k = data.draw(st.integers(1, p))
    rows = random_profiles(make_rng(seed), k, p)
    if data.draw(st.booleans()):
        rows = np.round(rows)  # ties
        rows = np.maximum(rows, 1.0)
    c1, s1 = optimal_single_pack(rows, p)
    c2, s2 = single_pack_dp(rows, p)
    c3, s3 = min_processors_single_pack(rows, p)
    assert c1 == c2 == c3
    for c, s in ((c1, s1), (c2, s2), (c3, s3)):
        assert len(s) == k and min(s) >= 1 and sum(s) <= p
        assert max(rows[i, q - 1] for i, q in enumerate(s)) == c
    assert sum(s1) == p  # Algorithm 1 hands out every processor
    assert sum(s3) <= sum(s1)  # the level search uses the fewest
    if k <= 3 and p <= 6:
        assert c1 == brute_force(rows, p)


def test_algorithm1_refuses_more_tasks_than_processors():
    with pytest.raises(ValueError, match="3 tasks cannot share a pack of 2 processors"):
        optimal_single_pack(np.ones((3, 2)), 2)


def test_algorithm1_gives_processors_to_the_longest_task():
    rows = np.array([[10.0, 5.0, 10 / 3, 2.5], [2.0, 2.0, 2.0, 2.0]])
    cost, sigma = optimal_single_pack(rows, 4)
    assert sigma == [3, 1] and cost == pytest.approx(10 / 3)


def test_large_p_is_fast_enough_to_call():
    rows = random_profiles(make_rng(1), 3, 2000)
    c1, _ = optimal_single_pack(rows, 2000)
    c3, _ = min_processors_single_pack(rows, 2000)
    assert c1 == c3
