"""The solver state (:mod:`coschedopt.pack.exact.bnp.state`): what may become the incumbent."""

from __future__ import annotations

import dataclasses
import math

import pytest

from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.state import State, cover_cost
from coschedopt.pack.generate import random_pack_instance


def test_offer_refuses_covers_that_are_not_schedules() -> None:
    """A cover missing a task, with a pack above k tasks or a pack that fits no level
    never becomes the incumbent (it would be cheaper than any schedule)."""
    inst = random_pack_instance(9, 4, 3, seed=2400)
    table = LevelTable(inst.times, 1.0)
    st = State.start(inst, table, Deadline(None))
    threes = [tuple(range(r, r + 3)) for r in range(0, 9, 3)]
    assert st.incumbent.offer(threes, "threes", improve=False)
    ub = st.incumbent.ub
    missing = [(0, 1), (3, 4, 5), (6, 7, 8)]  # task 2 nowhere
    too_big = [(0, 1, 2, 3), (4, 5), (6, 7, 8)]  # 4 tasks, k = 3
    out_of_range = [(0, 1, 2), (3, 4, 5), (6, 7, 9)]  # task 9 does not exist, 8 is missing
    for cover in (missing, too_big, out_of_range):
        assert not st.incumbent.offer(cover, "bad", improve=False)
    assert st.incumbent.ub == ub and st.incumbent.best_sets == threes
    assert st.incumbent.stats["refused_covers"] == 3
    # a task covered twice is still a cover: it stays in its first pack only
    overlap = [(0, 1, 2), (2, 3, 4), (5, 6, 7), (8,)]
    cost = cover_cost(table, [(0, 1, 2), (3, 4), (5, 6, 7), (8,)])
    assert st.incumbent.offer(overlap, "overlap", improve=False) == (cost < ub)
    assert sorted(i for s in st.incumbent.best_sets for i in s) == list(range(9))
    assert st.incumbent.stats["refused_covers"] == 3


def test_the_state_has_a_read_only_problem_an_incumbent_and_a_node_context() -> None:
    inst = random_pack_instance(6, 4, 2, seed=2401)
    table = LevelTable(inst.times, 1.0)
    st = State.start(inst, table, Deadline(None), complete=[(0,), (1, 2)])
    with pytest.raises(dataclasses.FrozenInstanceError):
        st.problem.seed = 1  # type: ignore[misc]
    assert st.problem.complete == ((0,), (1, 2))
    assert st.incumbent.problem is st.problem and st.incumbent.ub == math.inf and st.incumbent.lb == 0.0
    assert not hasattr(st, "neighbourhoods") and not hasattr(st.problem, "neighbourhoods")
    # the covering MIPs take the root's pack-count rows, or the tree node's with their upper bounds
    st.node.level_cuts = [(3, 2)]
    st.node.node_level_cuts, st.node.node_level_upper = [(3, 2), (5, 1)], [math.inf, 1.0]
    assert st.node.mip_rows(False) == ([(3, 2)], None)
    assert st.node.mip_rows(True) == ([(3, 2), (5, 1)], [math.inf, 1.0])
