"""The pack-profile MIPs (:mod:`coschedopt.pack.exact.bnp.mips`) against brute force and ``enumerate``."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.mips import solve_profile_assignment, solve_profile_neighbourhood
from coschedopt.pack.generate import random_pack_instance


@pytest.mark.parametrize("seed", range(60))
def test_profile_assignment_equals_brute_force(seed: int) -> None:
    """Tasks into packs of given levels: the MIP finds an assignment exactly when one exists
    (all bins^n assignments tried), and what it returns fits (<= k tasks, <= p processors)."""

    rng = np.random.default_rng(seed)
    n, p, k = int(rng.integers(3, 7)), int(rng.integers(3, 7)), int(rng.integers(2, 4))
    inst = random_pack_instance(n, p, k, seed=seed)
    table = LevelTable(inst.times)
    bins = sorted(rng.integers(0, table.L, size=int(rng.integers(1, 4))).tolist())
    m = [table.m(lv) for lv in bins]
    exists = any(
        all(
            sum(1 for i in range(n) if a[i] == b) <= k and sum(int(m[b][i]) for i in range(n) if a[i] == b) <= p
            for b in range(len(bins))
        )
        for a in itertools.product(range(len(bins)), repeat=n)
    )
    out = solve_profile_assignment(m, p, k, time_limit=30.0)
    assert (out is not None) == exists
    if out is not None:
        assert sorted(i for b in out for i in b) == list(range(n))
        for b, tasks in enumerate(out):
            assert len(tasks) <= k and (not tasks or table.fits(tasks, bins[b]))


@pytest.mark.parametrize("seed", range(40))
def test_profile_neighbourhood_with_every_level_is_the_optimum(seed: int) -> None:
    """From the cover by singletons, with every level a candidate and no limit on the reach,
    the profile-move MIP ranges over every partition into at most n packs (empty packs
    cost 0): its cover costs the ``enumerate`` optimum, fits and partitions the tasks."""

    rng = np.random.default_rng(seed)
    n, p, k = int(rng.integers(3, 7)), int(rng.integers(3, 7)), int(rng.integers(2, 4))
    inst = random_pack_instance(n, p, k, seed=seed)
    table = LevelTable(inst.times)
    out = solve_profile_neighbourhood(
        table, [(i,) for i in range(n)], k, np.arange(table.L), reach=math.inf, time_limit=60.0
    )
    assert out is not None
    assert sorted(i for s in out for i in s) == list(range(n))
    assert all(len(s) <= k and table.min_level(s) >= 0 for s in out)
    cost = sum(float(table.levels[table.min_level(s)]) for s in out)
    assert cost == pytest.approx(cs.solve(inst, "enumerate").objective, rel=1e-9)


@pytest.mark.parametrize("seed", range(20))
def test_profile_neighbourhood_keeps_each_pack_near_its_level(seed: int) -> None:
    """With a reach of 0 each pack keeps its own level or empties: the MIP never returns a
    pack above the start's highest level nor a cover dearer than the start."""

    inst = random_pack_instance(12, 8, 3, seed=seed)
    table = LevelTable(inst.times)
    res = cs.solve(inst, "random-pack-1", seed=seed)
    sets = [tuple(sorted(inst.index[name] for name, _ in pack)) for pack in res.schedule.packs]
    levels = [table.min_level(s) for s in sets]
    out = solve_profile_neighbourhood(table, sets, inst.max_pack_size, np.arange(table.L), reach=0.0, time_limit=60.0)
    assert out is not None and sorted(i for s in out for i in s) == list(range(inst.n))
    assert all(len(s) <= inst.max_pack_size and table.min_level(s) >= 0 for s in out)
    got = sorted((table.min_level(s) for s in out), reverse=True)
    # each pack at most at its own level (or empty): the i-th dearest pack is no dearer than the start's
    assert len(got) <= len(levels)
    assert all(g <= lv for g, lv in zip(got, sorted(levels, reverse=True), strict=False))
