"""The solver state (:mod:`coschedopt.pack.exact.bnp.state`): what may become the incumbent."""

from __future__ import annotations

from coschedopt.core import Deadline
from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.exact.bnp.state import State, cover_cost
from coschedopt.pack.generate import random_pack_instance


def test_offer_refuses_covers_that_are_not_schedules() -> None:
    """A cover missing a task, with a pack above k tasks or a pack that fits no level
    never becomes the incumbent (it would be cheaper than any schedule)."""
    inst = random_pack_instance(9, 4, 3, seed=2400)
    table = LevelTable(inst.times, 1.0)
    st = State(inst, table, Deadline(None))
    threes = [tuple(range(r, r + 3)) for r in range(0, 9, 3)]
    assert st.offer(threes, "threes", improve=False)
    ub = st.ub
    missing = [(0, 1), (3, 4, 5), (6, 7, 8)]  # task 2 nowhere
    too_big = [(0, 1, 2, 3), (4, 5), (6, 7, 8)]  # 4 tasks, k = 3
    out_of_range = [(0, 1, 2), (3, 4, 5), (6, 7, 9)]  # task 9 does not exist, 8 is missing
    for cover in (missing, too_big, out_of_range):
        assert not st.offer(cover, "bad", improve=False)
    assert st.ub == ub and st.best_sets == threes
    assert st.stats["refused_covers"] == 3
    # a task covered twice is still a cover: it stays in its first pack only
    overlap = [(0, 1, 2), (2, 3, 4), (5, 6, 7), (8,)]
    cost = cover_cost(table, [(0, 1, 2), (3, 4), (5, 6, 7), (8,)])
    assert st.offer(overlap, "overlap", improve=False) == (cost < ub)
    assert sorted(i for s in st.best_sets for i in s) == list(range(9))
    assert st.stats["refused_covers"] == 3
