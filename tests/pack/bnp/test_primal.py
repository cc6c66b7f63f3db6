"""The root's primal heuristics (:mod:`coschedopt.pack.exact.bnp.primal`): the top-down dives."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp import primal
from coschedopt.pack.exact.bnp.colgen import CGResult, column_generation, level_cut_rounds
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.generate import random_pack_instance

from .helpers import is_schedule, seeded_master


def dive_instance(seed: int):
    return random_pack_instance(14 + seed % 5, 10 + seed % 7, 4 + seed % 3, seed=2100 + seed)


@functools.lru_cache
def optimum(seed: int) -> float:
    """The ``enumerate`` optimum of :func:`dive_instance` (computed once for the four dive tests)."""
    return cs.solve(dive_instance(seed), "enumerate").objective


@pytest.mark.parametrize("demanding", [False, True])
@pytest.mark.parametrize("completed", [True, False])
def test_dive_offers_a_schedule_and_gives_the_root_lp_back(monkeypatch, completed: bool, demanding: bool) -> None:
    # the top-down dive (either candidate rule) offers a partition of the tasks (never
    # cheaper than the optimum) and returns its cost; afterwards the master holds the
    # root LP again (task rows, column bounds, pack-count rows) plus the columns the dive
    # priced.  Not completed: its column generation is stopped after the first fix (as
    # by its time box) and the residual is covered greedily

    steps = 0
    for seed in range(10):
        inst = dive_instance(seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = seeded_master(inst, table, seed)
        root = level_cut_rounds(st, master, column_generation(st, master))
        rows, ncols = (list(master.level_cuts), list(master.level_upper)), len(master.sets)
        st.incumbent.ub, st.incumbent.best_sets = math.inf, []  # the dive's cover is the only candidate
        if not completed:
            monkeypatch.setattr(primal, "column_generation", lambda *a, **k: CGResult())  # out of time
        cost = primal.dive(st, master, demanding=demanding)
        monkeypatch.undo()
        steps += st.incumbent.stats["dive_steps"]
        assert is_schedule(table, inst.max_pack_size, st.incumbent.best_sets)
        assert st.incumbent.ub <= cost * (1 + 1e-12)  # its cover, after the local search
        assert st.incumbent.ub * table.scale >= optimum(seed) * (1 - 1e-9)
        assert (list(master.level_cuts), list(master.level_upper)) == rows and len(master.sets) >= ncols
        assert master.solve(Deadline(None)).objective == pytest.approx(root.lp, rel=1e-9)
    assert steps >= (10 if completed else 5)  # the root LPs were fractional: the dives fixed columns


def test_demanding_dive_fixes_first_a_column_of_the_task_whose_cheapest_lp_column_is_highest(monkeypatch) -> None:
    # the first fix of the demanding dive holds the task whose least level over the
    # fractional columns of the root LP is the highest of all tasks

    checked = 0
    real = column_generation
    for seed in range(10):
        inst = dive_instance(seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = seeded_master(inst, table, seed)
        real(st, master)
        master.set_level_rhs({})
        lp = master.solve(Deadline(None))
        lv = np.asarray(master.levels)[: lp.x.size]
        frac = [c for c in range(lp.x.size) if 1e-6 < lp.x[c] < 1 - 1e-6 and lv[c] >= 0]
        if any(lp.x[c] >= 1 - 1e-6 and lv[c] >= 0 for c in range(lp.x.size)) or not frac:
            continue  # (columns at 1 are fixed first, for free)
        low = {}
        for c in frac:
            for i in master.sets[c]:
                low[i] = min(low.get(i, lv[c]), lv[c])
        top = max(low.values())
        demanding = {i for i, v in low.items() if v == top}
        first: list[set[int]] = []

        def record(st_, master_, dl=None, windows=None, cutoff=math.inf, search=None, first=first, n=inst.n):
            if not first:  # the residual after the first fix: the fixed tasks' windows are empty
                first.append({i for i in range(n) if windows.hi[i] < windows.lo[i]})
            return real(st_, master_, dl, windows, cutoff, search)

        monkeypatch.setattr(primal, "column_generation", record)  # records the residuals
        st.incumbent.ub, st.incumbent.best_sets = math.inf, []
        primal.dive(st, master, demanding=True)
        monkeypatch.undo()
        assert first and first[0] & demanding
        checked += 1
    assert checked >= 3
