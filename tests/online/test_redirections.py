"""``redirections`` counts every task sent to the dedicated pool; ``killed_runs`` only the killed runs.

Counted by hand on Figure 3.2's instance (T0 of size 10 at time 0, then ten unit tasks at 1..10) on one
main and one dedicated processor: RR with b = 0.5 and c = 1 sends T0 (10 >= 0.5 x 10) to the dedicated
processor on arrival and every unit task (1 < 5) to the main one, killing nothing; RD with τ = 3 kills
T0 once, at time 3, and restarts it on the dedicated processor.
"""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.online import OnlineInstance, OnlineSchedule
from coschedopt.online.generate import figure_3_2
from coschedopt.online.metrics import online_metrics
from coschedopt.online.schedule import COMPLETED, KILLED


@pytest.mark.parametrize("policy", ["gspt-rr", "spt-rr"])
def test_rr_sends_tasks_to_the_dedicated_pool_without_killing_them(policy):
    res = cs.solve(figure_3_2(10, 2), policy, dedicated=1, b=0.5, c=1.0)
    on_pool = res.schedule.processor == 1
    assert res.schedule.task[on_pool].tolist() == [0]  # the hand count: T0 alone
    assert res.stats["redirections"] == 1 and res.stats["killed_runs"] == 0 and res.stats["wasted_work"] == 0
    everything = cs.solve(figure_3_2(10, 2), policy, dedicated=1, b=0.01, c=1.0)  # every task is heavy
    assert everything.stats["redirections"] == 11 and everything.stats["killed_runs"] == 0


@pytest.mark.parametrize("policy", ["gspt-rd", "spt-rd"])
def test_rd_kills_and_redirects_the_same_task_once(policy):
    res = cs.solve(figure_3_2(10, 2), policy, dedicated=1, tau=3)
    assert res.stats["redirections"] == 1 and res.stats["killed_runs"] == 1 and res.stats["wasted_work"] == 3


def test_counts_of_hand_written_schedules():
    inst = OnlineInstance([0, 1, 1], [10, 1, 2], 2, objective="sum-flow", task_names=("T0", "T1", "T2"))

    def metrics(*runs, dedicated=1):
        return online_metrics(inst, OnlineSchedule.from_runs(list(runs), dedicated=dedicated))

    killed = metrics((0, 0, 0, 3, KILLED), (1, 0, 3, 4, COMPLETED), (2, 0, 4, 6, COMPLETED), (0, 1, 3, 13, COMPLETED))
    assert (killed["redirections"], killed["killed_runs"]) == (1, 1)
    sent = metrics((0, 1, 0, 10, COMPLETED), (1, 0, 1, 2, COMPLETED), (2, 1, 10, 12, COMPLETED))
    assert (sent["redirections"], sent["killed_runs"]) == (2, 0)  # T0 and T2 ran on processor 1, none killed
    no_pool = metrics((0, 1, 0, 10, COMPLETED), (1, 0, 1, 2, COMPLETED), (2, 0, 2, 4, COMPLETED), dedicated=0)
    assert (no_pool["redirections"], no_pool["killed_runs"]) == (0, 0)  # no dedicated pool: nothing redirected
