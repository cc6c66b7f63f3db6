"""Pricing and enumeration (:mod:`coschedopt.pack.exact.bnp.pricing`, :mod:`.enumeration`) against
brute force over task subsets: plain, with subset-row cuts, with level windows and bonuses."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from coschedopt.pack import PackInstance
from coschedopt.pack.exact.bnp.enumeration import enumerate_columns
from coschedopt.pack.exact.bnp.knapsack import best_set_at_level, knapsack_values
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.pricing import Cuts, best_set_with_cuts, price

from ..strategies import pack_instances
from .helpers import all_columns, extended_columns, random_windows


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=7, min_n=2), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
def test_pricing_and_enumeration_are_exact(inst: PackInstance, seed: int, delta: float) -> None:
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k = inst.max_pack_size
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n) * (rng.random(inst.n) < 0.8)
    cols = all_columns(table, k)
    rcs = {c: float(table.tau[lv] - pi[list(c)].sum()) for lv, c in cols}
    # per-level values: single and batched DP against brute force
    for lv in range(table.L):
        want = max([pi[list(c)].sum() for lv2, c in cols if table.fits(list(c), lv)] + [0.0])
        assert best_set_at_level(table, lv, pi, k, want_set=False)[0] == pytest.approx(want, abs=1e-9)
    levels = np.arange(table.L)
    exact_v = np.array([best_set_at_level(table, lv, pi, k, want_set=False)[0] for lv in levels])
    assert np.allclose(knapsack_values(table, levels, pi, k), exact_v)
    # pricing: exact min reduced cost and a valid ratio bound
    pr = price(table, pi, k, column_threshold=-1e-9, columns_per_level=2)
    true_min = min(rcs.values())
    assert min(pr.min_rc, -1e-9) <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    assert pr.ratio_ub >= max(pi[list(c)].sum() / table.tau[lv] for lv, c in cols) - 1e-9
    for rc, lv, tasks in pr.columns:
        assert table.fits(list(tasks), lv) and len(tasks) <= k
        assert rc == pytest.approx(table.tau[lv] - pi[tasks].sum(), abs=1e-9)
    # enumeration: exactly the columns with reduced cost <= delta, each at its optimal level
    got = enumerate_columns(table, pi, k, delta, budget=10**6)
    assert len(got) == len(set(got))
    want = {(lv, c) for lv, c in cols if rcs[c] <= delta - 1e-7}
    maybe = {(lv, c) for lv, c in cols if rcs[c] <= delta + 1e-7}
    assert want <= set(got) <= maybe


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=7, max_p=7, min_n=3), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
def test_pricing_and_enumeration_with_subset_row_cuts_are_exact(inst: PackInstance, seed: int, delta: float) -> None:
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k = inst.max_pack_size
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n)
    triples = np.array([rng.choice(inst.n, 3, replace=False) for _ in range(rng.integers(1, 6))])
    cuts = Cuts(triples, rng.uniform(0.01, 1.0, len(triples)), inst.n)
    cols = all_columns(table, k)
    rcs = {c: float(table.tau[lv] - pi[list(c)].sum() + cuts.penalty(c)) for lv, c in cols}
    for lv in range(table.L):
        want = max([pi[list(c)].sum() - cuts.penalty(c) for _, c in cols if table.fits(list(c), lv)] + [0.0])
        lo, hi, tasks = best_set_with_cuts(table, lv, pi, k, cuts, floor=-math.inf, node_limit=10**6)
        assert lo == pytest.approx(want, abs=1e-9) and hi == pytest.approx(want, abs=1e-9)
        if tasks.size:
            assert table.fits(list(tasks), lv)
            assert pi[tasks].sum() - cuts.penalty(tasks.tolist()) == pytest.approx(want, abs=1e-9)
    pr = price(table, pi, k, column_threshold=-1e-9, cuts=cuts)
    true_min = min(rcs.values())
    assert pr.rc_lb <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    ratio = max((pi[list(c)].sum() - cuts.penalty(c)) / table.tau[lv] for lv, c in cols)
    assert pr.ratio_ub >= ratio - 1e-9
    got = enumerate_columns(table, pi, k, delta, budget=10**6, cuts=cuts)
    want_cols = {(lv, c) for lv, c in cols if rcs[c] <= delta - 1e-7}
    maybe = {(lv, c) for lv, c in cols if rcs[c] <= delta + 1e-7}
    assert want_cols <= set(got) <= maybe


# found by hypothesis: no task allowed at level 0 while B(0) > tau_0 (the empty set is no
# column), and the best column at level 5 a task whose dual is 0 (the DP takes no item)
EMPTY_LEVEL_CASE = PackInstance(
    np.array(
        [
            [11.88210014, 9.81801176, 7.69078126, 7.24590071, 6.11195004, 5.30551434],
            [82.00641335, 58.33554968, 56.5971981, 51.3055117, 41.06844838, 40.71515505],
            [68.11242573, 62.46143372, 52.76495499, 50.46475193, 42.59978634, 39.37467596],
        ]
    ),
    1,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack_instances(max_n=6, max_p=6, min_n=2), st.integers(0, 2**31 - 1), st.floats(0.0, 0.6))
@example(EMPTY_LEVEL_CASE, 274, 0.0)
def test_pricing_and_enumeration_with_windows_and_bonus_are_exact(inst: PackInstance, seed: int, delta: float) -> None:

    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    k, L = inst.max_pack_size, table.L
    rng = np.random.default_rng(seed)
    pi = rng.uniform(0, 1.5, inst.n) * (rng.random(inst.n) < 0.8)
    windows = random_windows(table, rng)
    if rng.random() >= 0.8:
        windows = None
    bonus = None
    if rng.random() < 0.7:
        steps = np.zeros(L)
        steps[rng.integers(0, L, 3)] = rng.uniform(-0.5, 0.5, 3)  # a branch upper bound gives a negative dual
        bonus = np.cumsum(steps)
    cols = extended_columns(table, k, windows, bonus)
    rcs = {key: base - float(pi[list(key[0])].sum()) for key, base in cols.items()}
    # batched values with windows against the per-level brute force
    masked = [pi * (windows.mask(lv) if windows is not None else 1) for lv in range(L)]
    want_v = [
        max(
            [
                masked[lv][list(c)].sum()
                for c in map(
                    tuple,
                    itertools.chain.from_iterable(
                        itertools.combinations(range(inst.n), r) for r in range(1, min(k, inst.n) + 1)
                    ),
                )
                if table.fits(list(c), lv)
            ]
            + [0.0]
        )
        for lv in range(L)
    ]
    assert np.allclose(knapsack_values(table, np.arange(L), pi, k, windows), want_v)
    pr = price(table, pi, k, column_threshold=-1e-9, bonus=bonus, windows=windows)
    true_min = min(rcs.values(), default=math.inf)
    assert pr.rc_lb <= true_min + 1e-9
    if true_min < -1e-9:
        assert pr.min_rc == pytest.approx(true_min, abs=1e-9)
    if cols:
        best_ratio = max(
            (float(pi[list(c)].sum()) + (bonus[lv] if bonus is not None else 0.0)) / table.tau[lv] for c, lv in cols
        )
        assert pr.ratio_ub >= best_ratio - 1e-9
    for rc, lv, tasks in pr.columns:
        key = (tuple(sorted(tasks.tolist())), lv)
        assert key in cols and rc == pytest.approx(rcs[key], abs=1e-9)
    # enumeration: each set once, at its cheapest allowed level, when its reduced cost there is <= delta
    cheapest: dict[tuple[int, ...], int] = {}
    for c, lv in cols:
        cheapest[c] = min(cheapest.get(c, lv), lv)
    got = enumerate_columns(table, pi, k, delta, budget=10**6, bonus=bonus, windows=windows)
    assert len(got) == len(set(got))
    want = {(lv, c) for c, lv in cheapest.items() if rcs[(c, lv)] <= delta - 1e-7}
    maybe = {(lv, c) for c, lv in cheapest.items() if rcs[(c, lv)] <= delta + 1e-7}
    assert want <= set(got) <= maybe
