"""Branching decisions (:mod:`coschedopt.pack.exact.bnp.branching`): strong branching on pack counts."""

from __future__ import annotations

import math

import pytest

from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp import BnpOptions
from coschedopt.pack.exact.bnp.branching import count_branch

from .helpers import node_with_fractional_counts


@pytest.mark.parametrize("limit", [None, 3])
def test_strong_count_branching_picks_a_fractional_count_and_restores_the_rows(limit) -> None:
    # the chosen (level, N) is a fractional pack count of the LP point, the node's rows
    # (bounds of every pack-count row) and LP are as before, also when the children's
    # re-solves stop after ``limit`` iterations; with re-solves run to optimality, the
    # children's bases returned are optimal for their LPs
    branched = with_bases = 0
    for seed in range(8):
        st, master, cg, need, fractional = node_with_fractional_counts(seed, BnpOptions(strong_iterations=limit))
        before = (list(master.level_cuts), list(master.level_upper))
        choice = count_branch(st, master, cg.x, cg.lp, need, {})
        # the rows added for the candidates' levels are left free (0 <= N <= inf)
        nb = len(before[0])
        assert (master.level_cuts[:nb], master.level_upper[:nb]) == before
        assert all(rhs == 0 for _, rhs in master.level_cuts[nb:]) and all(
            math.isinf(u) for u in master.level_upper[nb:]
        )
        if choice is None:
            assert not fractional
            continue
        branched += 1
        level, value, _, bases = choice
        assert fractional.get(level) == pytest.approx(value)
        lp = master.solve(Deadline(None))  # the master is back to the node's LP
        assert lp.objective == pytest.approx(cg.lp, rel=1e-9)
        if bases is None or limit is not None:
            continue
        # each child's basis is optimal for that child's LP: a solve from it takes no iteration
        with_bases += 1
        for basis, (need_c, upper_c) in zip(
            bases, (({**need}, {level: math.floor(value)}), ({**need, level: math.ceil(value)}, {})), strict=True
        ):
            master.set_level_rhs(need_c, upper_c)
            master.start_from(basis)
            child = master.solve(Deadline(None))
            assert child is not None and child.objective > cg.lp - 1e-9
            assert master.h.getInfo().simplex_iteration_count == 0
        master.set_level_rhs(need, {})
    assert branched >= 3 and (with_bases >= 1 or limit is not None)
