"""The compiled kernels (:mod:`coschedopt.pack.exact.bnp.kernels`) against the numpy and Python
code they replace: the same values, sets and columns, in the same order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp import kernels
from coschedopt.pack.exact.bnp.enumeration import TooManyColumns, enumerate_level
from coschedopt.pack.exact.bnp.knapsack import best_set_at_level, knapsack, knapsack_values, useful_items
from coschedopt.pack.exact.bnp.levels import LevelTable, Windows
from coschedopt.pack.generate import random_pack_instance

from .helpers import knapsack_items


@settings(max_examples=150, deadline=None)
@given(
    knapsack_items(12),
    st.integers(1, 10),
    st.integers(1, 6),
)
def test_compiled_knapsack_equals_the_numpy_dp(items, p: int, k: int) -> None:
    # the numba kernels run the same recurrence in the same order: identical values and choices

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    m, pi = np.array(items[0]), np.array(items[1])
    keep = useful_items(m, pi, p, k)
    got = [knapsack(m[keep], pi[keep], p, k, want_set=w) for w in (True, False)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        ref = [knapsack(m[keep], pi[keep], p, k, want_set=w) for w in (True, False)]
    assert got[0][0] == ref[0][0] and got[1][0] == ref[1][0]
    assert got[0][1].tolist() == ref[0][1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_compiled_batched_values_equal_the_numpy_dp(monkeypatch, seed: int) -> None:

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(30, 6 + 5 * seed, 2 + 3 * seed, seed=seed)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    levels = np.sort(rng.choice(table.L, min(40, table.L), replace=False))
    pi = np.where(rng.random(inst.n) < 0.2, 0.0, rng.random(inst.n))
    lo = rng.integers(0, table.L, inst.n)
    windows = Windows(np.minimum(lo, table.L - 1), np.maximum(lo, rng.integers(0, table.L, inst.n)))
    got = [knapsack_values(table, levels, pi, inst.max_pack_size, w) for w in (None, windows)]
    monkeypatch.setattr(kernels, "COMPILED", False)
    ref = [knapsack_values(table, levels, pi, inst.max_pack_size, w) for w in (None, windows)]
    assert got[0].tolist() == ref[0].tolist() and got[1].tolist() == ref[1].tolist()


@pytest.mark.parametrize("seed", range(6))
def test_compiled_best_set_at_level_is_a_best_set(seed: int) -> None:
    """The compiled level pricing (its own skip of dominated tasks) reaches the value of the
    numpy DP over :func:`useful_items`, with a set that fits at the level and sums to it."""

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy DP runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(30, 6 + 5 * seed, 2 + 3 * seed, seed=seed)
    table = LevelTable(inst.times, 1.0)
    for level in rng.choice(table.L, min(60, table.L), replace=False).tolist():
        pi = np.where(rng.random(inst.n) < 0.2, 0.0, rng.random(inst.n))
        val, tasks = best_set_at_level(table, level, pi, inst.max_pack_size, want_set=True)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(kernels, "COMPILED", False)
            ref, _ = best_set_at_level(table, level, pi, inst.max_pack_size, want_set=True)
        assert val == pytest.approx(ref, abs=1e-12)
        assert pi[tasks].sum() == pytest.approx(val, abs=1e-12)
        assert len(tasks) <= inst.max_pack_size and len(set(tasks.tolist())) == len(tasks)
        assert len(tasks) == 0 or table.fits(list(tasks), level)


@pytest.mark.parametrize("seed", range(4))
def test_compiled_min_level_equals_the_numpy_search(seed: int) -> None:

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the numpy search runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(40, 8 + 4 * seed, 8, seed=seed)
    table = LevelTable(inst.times, 1.0)
    sets = [rng.choice(inst.n, rng.integers(1, min(inst.n, 2 * inst.processors)), replace=False) for _ in range(300)]
    got = [table.min_level(s) for s in sets]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        ref = [table.min_level(s) for s in sets]
    assert got == ref
    assert -1 in got and any(v > 0 for v in got)  # both outcomes were exercised


@pytest.mark.parametrize("seed", range(6))
def test_compiled_enumeration_equals_the_python_search(seed: int) -> None:
    """The compiled depth-first search yields the columns of the Python one, in the same
    order, with and without windows, and stops at the same column when the budget is hit."""

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the Python search runs")
    rng = np.random.default_rng(seed)
    inst = random_pack_instance(24, 6 + 4 * seed, 2 + seed % 3, seed=seed)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    lo = rng.integers(0, table.L, inst.n)
    windows = Windows(np.minimum(lo, table.L - 1), np.maximum(lo, rng.integers(0, table.L, inst.n)))
    pi = rng.uniform(0, 2.0, inst.n) * float(table.tau.mean()) / inst.max_pack_size

    def run(win, budget):
        out: list = []
        try:
            for level in range(table.L):
                enumerate_level(table, level, pi, inst.max_pack_size, delta, out, budget, windows=win)
        except TooManyColumns:
            return out, True
        return out, False

    delta = 0.8 * float(table.tau.mean())
    for win in (None, windows):
        got = run(win, 10**6)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(kernels, "COMPILED", False)
            ref = run(win, 10**6)
            ref_cut = run(win, len(ref[0]) // 2)
        assert got == ref and not got[1] and len(got[0]) > 10
        assert run(win, len(ref[0]) // 2) == ref_cut and ref_cut[1] and len(ref_cut[0]) == len(ref[0]) // 2 + 1


def test_compiled_enumeration_stops_at_the_deadline_where_the_python_search_does() -> None:

    if not kernels.COMPILED:
        pytest.skip("numba not installed: only the Python search runs")
    inst = random_pack_instance(60, 32, 5, seed=3)
    table = LevelTable(inst.times, float(inst.times[:, -1].mean()))
    pi = np.full(inst.n, float(table.tau.max()) / 5)

    def run():
        out: list = []
        with pytest.raises(TimeoutError):  # the clock is read every 2048 nodes of the search
            enumerate_level(table, int(0.8 * table.L), pi, 5, float(table.tau.max()), out, 10**9, Deadline(1e-9))
        return out

    got = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernels, "COMPILED", False)
        assert run() == got and len(got) > 0
