"""The covering master on HiGHS (:mod:`coschedopt.pack.exact.bnp.master`): restarts from an earlier
basis, column purges and deletes, dominance columns under windows, iteration limits."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp.colgen import column_generation
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.master import BASIC, CoveringMaster
from coschedopt.pack.exact.bnp.tree import add_singletons
from coschedopt.pack.generate import random_pack_instance

from .helpers import node_with_fractional_counts, seeded_master


def test_master_restarts_from_an_earlier_basis_after_columns_and_rows_were_added() -> None:
    # a tree node re-solves from its parent's basis (CoveringMaster.start_from), padded
    # with the columns and rows added since: same LP optimum as re-solving from the last
    # basis, and fewer simplex iterations when the last basis is another node's

    fewer = 0
    for seed in range(8):
        inst = random_pack_instance(22, 9, 4, seed=2100 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        rng = np.random.default_rng(seed)
        lo0 = table.first_level.astype(np.int64).copy()
        hi0 = np.full(inst.n, table.L - 1, dtype=np.int64)
        far = rng.choice(inst.n, 6, replace=False)
        lo_far = lo0.copy()
        lo_far[far] = np.maximum(lo0[far], table.L - 1 - rng.integers(0, 3, far.size))
        results = []
        for restart in (True, False):
            st, master = seeded_master(inst, table, seed)
            cg = column_generation(st, master)
            parent = master.basis()
            # another node: some tasks forced to the top levels, re-solved
            add_singletons(st, master, lo_far, hi0)
            master.restrict(lo_far, hi0, far)
            master.set_level_rhs({int(table.L) // 2: 1})  # a new row
            assert master.solve(Deadline(None)) is not None
            # back to the parent's child: all windows open, the new row free again
            master.restrict(lo0, hi0, far)
            master.set_level_rhs({})
            if restart:
                master.start_from(parent)
            lp = master.solve(Deadline(None))
            results.append((lp.objective, lp.iterations, cg.lp))
        (obj_r, it_r, parent_lp), (obj_c, it_c, _) = results
        assert obj_r == pytest.approx(obj_c, rel=1e-9)
        assert obj_r <= parent_lp + 1e-9 * max(1.0, parent_lp)  # more columns, same rows: no worse
        assert it_r <= it_c
        fewer += it_r < it_c
    assert fewer >= 4


def test_master_purge_keeps_the_lp_and_its_bookkeeping() -> None:
    # deleting idle nonbasic columns leaves the LP optimum (same basis), the column
    # bookkeeping consistent with HiGHS, and column generation converging to the same LP

    purged = 0
    for seed in range(6):
        inst = random_pack_instance(24, 10, 5, seed=2300 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = seeded_master(inst, table, seed)
        st.incumbent.ub = math.inf
        master.set_level_rhs({int(table.L) // 3: 1})  # an artificial column too
        cg = column_generation(st, master)
        before = len(master.sets)
        protect = np.zeros(before, dtype=bool)
        protect[::7] = True
        sets_before = list(master.sets)
        basis = master.basis()
        keep = master.purge(before // 2, 0, protect)
        assert keep is not None and keep[protect].all()
        assert all(keep[c] for c in range(before) if not sets_before[c])  # artificial columns stay
        assert len(master.sets) == int(keep.sum()) == master.h.getNumCol() >= before // 2
        purged += before - len(master.sets)
        lp = master.h.getLp()
        assert np.allclose(np.asarray(lp.col_cost_), master.costs)
        for c, (s, lv) in enumerate(zip(master.sets, master.levels, strict=True)):
            assert s == sets_before[np.flatnonzero(keep)[c]]
            if s:
                assert master.known[(s, lv)] == c
        for i in range(inst.n):
            assert master._cols_of_task[i] == [c for c, s in enumerate(master.sets) if i in s]
        # the stored basis loses the deleted (nonbasic) columns and stays square
        cols, rows = master.remap_basis(basis, keep)
        assert cols.size == len(master.sets) and int((cols == BASIC).sum() + (rows == BASIC).sum()) == len(rows)
        master.start_from((cols, rows))
        again = master.solve(Deadline(None))
        assert again.objective == pytest.approx(cg.lp, rel=1e-9) and again.iterations == 0
        assert column_generation(st, master).lp == pytest.approx(cg.lp, rel=1e-7)
    assert purged > 0


def test_master_delete_of_the_columns_added_since_gives_the_lp_back() -> None:
    # deleting the columns added after a point restores that point's LP (they retire),
    # also those added since the last solve (a dive stopped by the deadline leaves such)

    for seed in range(4):
        inst = random_pack_instance(20, 10, 4, seed=2600 + seed)
        table = LevelTable(inst.times, float(np.mean(inst.times[:, -1])))
        st, master = seeded_master(inst, table, seed)
        ncol = len(master.sets)
        lp0 = master.solve(Deadline(None)).objective
        column_generation(st, master)
        pair = next(
            s
            for s in itertools.combinations(range(inst.n), 2)
            if table.min_level(s) >= 0 and (s, table.min_level(s)) not in master.known
        )
        master.add([pair], [float(table.tau[table.min_level(pair)])], [table.min_level(pair)])  # no solve since
        added = master.sets[ncol:]
        assert added
        keep = master.delete(np.arange(ncol, len(master.sets)))
        assert keep.sum() == ncol == len(master.sets) == master.h.getNumCol()
        assert master.retired[-len(added) :] == added
        assert master.solve(Deadline(None)).objective == pytest.approx(lp0, rel=1e-9)


def test_dominance_column_follows_the_windows() -> None:
    # e_i - e_j is allowed exactly while j's non-empty window lies inside i's
    inst = random_pack_instance(6, 4, 3, seed=7)
    table = LevelTable(inst.times)

    master = CoveringMaster(inst.n)
    master.add_dominance(np.array([[0, 1], [2, 3]]))
    lo = np.zeros(inst.n, dtype=np.int64)
    hi = np.full(inst.n, table.L - 1, dtype=np.int64)
    cases = [((5, 5), (5, 5), True), ((0, 9), (3, 4), True), ((3, 9), (2, 4), False), ((0, 4), (3, 5), False)]
    for (lo_i, hi_i), (lo_j, hi_j), allowed in cases:
        lo[[0, 1]], hi[[0, 1]] = (lo_i, lo_j), (hi_i, hi_j)
        master.restrict(lo, hi, np.arange(inst.n))
        upper = np.asarray(master.h.getLp().col_upper_)
        assert (upper[0] > 0) == allowed and upper[1] > 0
    lo[1], hi[1] = 3, 2  # an empty window (a task fixed elsewhere): no column of j, so nothing to lend
    master.restrict(lo, hi, np.arange(inst.n))
    assert np.asarray(master.h.getLp().col_upper_)[0] == 0


def test_iteration_limited_child_lp_is_a_rising_lower_estimate() -> None:
    # strong branching's re-solves stop after strong_iterations dual simplex iterations:
    # from the node's optimal basis, with a pack count's right-hand side moved, the
    # objective where the solve stops lies between the node's LP and the child's LP
    # and does not fall as the limit grows; the full solve afterwards is unaffected
    stopped = 0
    for seed in range(8):
        _, master, cg, need, fractional = node_with_fractional_counts(seed)
        node = master.basis()
        for lv, c in fractional.items():
            for need_c, upper_c in (({**need}, {lv: math.floor(c)}), ({**need, lv: math.ceil(c)}, {})):
                master.set_level_rhs(need_c, upper_c)
                master.start_from(node)
                full = master.solve(Deadline(None))
                assert full is not None and full.objective >= cg.lp - 1e-9 * max(1.0, cg.lp)
                last = cg.lp
                for limit in (1, 2, 4, 8, 10**6):
                    master.start_from(node)
                    part = master.solve(Deadline(None), iteration_limit=limit)
                    assert part is not None and part.iterations <= limit
                    tol = 1e-7 * max(1.0, full.objective)
                    assert last - tol <= part.objective <= full.objective + tol
                    last = part.objective
                    stopped += part.iterations == limit and part.objective < full.objective - tol
                assert part.objective == pytest.approx(full.objective, rel=1e-9)
            master.set_level_rhs(need, {})
            master.start_from(node)
            assert master.solve(Deadline(None)).objective == pytest.approx(cg.lp, rel=1e-9)
    assert stopped >= 3
