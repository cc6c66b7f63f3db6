"""The exact online methods' Results carry the six objectives in ``stats``, as the policies' do."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.online.instance import OBJECTIVES, OnlineInstance
from coschedopt.online.metrics import objective_values


@pytest.mark.parametrize("method", ["milp", "cpsat", "fcfs"])
def test_stats_carry_the_six_objectives_of_the_returned_schedule(method):
    inst = OnlineInstance([0, 1, 1, 2], [3, 2, 5, 1], 2, objective="max-flow")
    res = cs.solve(inst, method=method, time_limit=30, seed=0)
    expected = objective_values(inst, res.schedule.completion_times(inst))
    for name in OBJECTIVES:
        assert res.stats[name.replace("-", "_")] == pytest.approx(expected[name])
    assert res.stats["max_flow"] == pytest.approx(res.objective)
    assert res.stats["redirections"] == 0.0
