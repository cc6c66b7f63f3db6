"""What the tests of :mod:`coschedopt.pack.exact.bnp` share: brute-force references, the
method's result check, and solver states built as the solver builds them."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import strategies as hst

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.pack import PackInstance, min_processors_single_pack, validate_schedule
from coschedopt.pack.exact.bnp import BnpOptions
from coschedopt.pack.exact.bnp.colgen import column_generation, level_cut_rounds
from coschedopt.pack.exact.bnp.levels import LevelTable, Windows
from coschedopt.pack.exact.bnp.master import CoveringMaster
from coschedopt.pack.exact.bnp.primal import seed_incumbent
from coschedopt.pack.exact.bnp.state import State
from coschedopt.pack.generate import random_pack_instance

METHOD = "branch-and-price"


def solve(inst: PackInstance, **options):
    """``cs.solve`` with branch-and-price.  These tests exercise column generation, the cuts
    and the tree, which instances with few task sets would skip (they start from the
    complete master): unless a test asks for it (``complete_master``), none does, nor
    do the windows of the neighbourhood search (``complete_master_max=0``)."""
    return cs.solve(inst, METHOD, **{"complete_master_max": 0, **options})


def knapsack_items(max_n: int):
    """Hypothesis strategy: (weights 1..12, profits >= 0, some repeated) of 1..max_n items."""
    return hst.integers(1, max_n).flatmap(
        lambda n: hst.tuples(
            hst.lists(hst.integers(1, 12), min_size=n, max_size=n),
            hst.lists(hst.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.25]) | hst.floats(0, 5), min_size=n, max_size=n),
        )
    )


def brute_force_optimum(inst: PackInstance) -> float:
    """Minimum over all set partitions into packs of at most k tasks (Algorithm 1 cost per pack)."""
    n, p, k = inst.n, inst.processors, inst.max_pack_size
    cache: dict[tuple[int, ...], float] = {}

    def cost(block: tuple[int, ...]) -> float:
        if block not in cache:
            r = min_processors_single_pack(inst.times[list(block)], p)
            cache[block] = math.inf if r is None else r[0]
        return cache[block]

    best = math.inf

    def rec(rest: tuple[int, ...], acc: float) -> None:
        nonlocal best
        if acc >= best:
            return
        if not rest:
            best = acc
            return
        first, others = rest[0], rest[1:]
        for size in range(0, min(k, len(rest))):
            for comb in itertools.combinations(others, size):
                block = (first, *comb)
                c = cost(block)
                if math.isfinite(c):
                    rec(tuple(i for i in others if i not in comb), acc + c)

    rec(tuple(range(n)), 0.0)
    return best


def registered(name: str) -> bool:
    return name in cs.methods("pack")


def check_result(inst: PackInstance, res, optimum: float) -> None:
    validate_schedule(inst, res.schedule)
    assert res.status is cs.Status.OPTIMAL
    assert res.objective == pytest.approx(optimum, rel=1e-9, abs=1e-9)
    assert res.lower_bound <= optimum * (1 + 1e-12) + 1e-12
    assert res.lower_bound >= optimum * (1 - 1e-7)


def all_columns(table: LevelTable, k: int):
    """(optimal level, set) for every set of at most k tasks that fits in one pack."""
    out = []
    for r in range(1, min(k, table.n) + 1):
        for comb in itertools.combinations(range(table.n), r):
            lv = table.min_level(comb)
            if lv >= 0:
                out.append((lv, comb))
    return out


def extended_columns(table: LevelTable, k: int, windows, bonus) -> dict[tuple[tuple[int, ...], int], float]:
    """Every (set, level) a tree node allows (the set fits at the level, each task's window
    holds it), with reduced cost tau_l - B(l) before subtracting the duals."""
    out = {}
    for r in range(1, min(k, table.n) + 1):
        for comb in itertools.combinations(range(table.n), r):
            lv0 = table.min_level(comb)
            if lv0 < 0:
                continue
            for lv in range(lv0, table.L):
                if windows is None or windows.allows(comb, lv):
                    out[(comb, lv)] = float(table.tau[lv] - (bonus[lv] if bonus is not None else 0.0))
    return out


def random_windows(table: LevelTable, rng: np.random.Generator) -> Windows:
    """Level windows of a tree node: half of the tasks get a random [lo, hi] inside their levels."""
    lo = table.first_level.astype(np.int64).copy()
    hi = np.full(table.n, table.L - 1, dtype=np.int64)
    for i in range(table.n):
        if rng.random() < 0.5:
            lo[i] = rng.integers(lo[i], table.L)
            hi[i] = rng.integers(lo[i], table.L)
    return Windows(lo, hi)


def seeded_master(
    inst: PackInstance, table: LevelTable, seed: int, heuristics: bool = True, opts: BnpOptions | None = None
):
    """(solver state, master holding the singletons and, with ``heuristics``, the heuristics'
    columns) as the solver starts them."""
    st = State.start(inst, table, Deadline(None), opts or BnpOptions(), seed=seed)
    master = CoveringMaster(inst.n)
    master.artificial_cost = 10.0 * float(table.tau[table.first_level].sum()) + 1.0
    seed_incumbent(st, master, heuristics)
    return st, master


def node_with_fractional_counts(seed: int, opts: BnpOptions | None = None):
    """(solver state, master, converged root LP with its pack-count cuts, the cuts' least
    counts by level, the LP point's fractional pack counts N(>= level) by level) of a
    random instance (24 tasks, 10 processors, k = 4), solved with ``opts``."""
    inst = random_pack_instance(24, 10, 4, seed=1700 + seed)
    table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
    st, master = seeded_master(inst, table, seed, opts=opts)
    cg = level_cut_rounds(st, master, column_generation(st, master))
    levels, counts = master.level_counts(cg.x)
    frac = counts - np.floor(counts)
    fractional = {int(lv): float(c) for lv, c, f in zip(levels, counts, frac, strict=True) if 0.02 < f < 0.98}
    return st, master, cg, {lv: rhs for lv, rhs in master.level_cuts}, fractional


def is_schedule(table: LevelTable, k: int, sets: list[tuple[int, ...]]) -> bool:
    """A partition of the tasks into packs of at most k tasks that fit on p processors."""
    tasks = sorted(i for s in sets for i in s)
    return tasks == list(range(table.n)) and all(0 < len(s) <= k and table.min_level(s) >= 0 for s in sets)
