"""The knapsack DP of the pricing (:mod:`coschedopt.pack.exact.bnp.knapsack`) against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.pack.exact.bnp.knapsack import knapsack, useful_items

from .helpers import knapsack_items


def brute_knapsack(m: np.ndarray, pi: np.ndarray, p: int, k: int) -> float:
    best = 0.0
    for r in range(1, min(k, m.size) + 1):
        for comb in itertools.combinations(range(m.size), r):
            if m[list(comb)].sum() <= p:
                best = max(best, float(pi[list(comb)].sum()))
    return best


@settings(max_examples=200, deadline=None)
@given(
    knapsack_items(9),
    st.integers(1, 10),
    st.integers(1, 6),
)
def test_knapsack_and_item_filter_match_brute_force(items, p: int, k: int) -> None:
    m, pi = np.array(items[0]), np.array(items[1])
    want = brute_knapsack(m, pi, p, k)
    keep = useful_items(m, pi, p, k)
    val, pos = knapsack(m[keep], pi[keep], p, k, want_set=True)
    assert val == pytest.approx(want, abs=1e-9)
    chosen = keep[pos]
    assert m[chosen].sum() <= p and chosen.size <= k
    assert pi[chosen].sum() == pytest.approx(want, abs=1e-9)
    assert knapsack(m[keep], pi[keep], p, k, want_set=False)[0] == pytest.approx(want, abs=1e-9)
