"""The measures of chapters 4-5 on a hand-computed schedule."""

from __future__ import annotations

import numpy as np
import pytest

from coschedopt import solve, validate
from coschedopt.batch import BatchInstance, BatchSchedule, batch_metrics
from coschedopt.batch.metrics import bounded_stretch


def test_metrics_on_a_hand_computed_schedule():
    # 8 processors, clusters of 2, halves of 4
    inst = BatchInstance.from_dict(
        {
            "kind": "batch",
            "platform": {"processors": 8, "levels": [1, 2, 4, 8]},
            "jobs": [
                {"id": "a", "submit": 0, "run_time": 4, "requested_time": 4, "size": 2},
                {"id": "b", "submit": 0, "run_time": 20, "requested_time": 30, "size": 3},
                {"id": "c", "submit": 2, "run_time": 5, "requested_time": 5, "size": 4},
            ],
        }
    )
    sched = BatchSchedule.from_dict(
        inst,
        {
            "jobs": [
                {"id": "a", "start": 0, "end": 4, "processors": "1-2", "failed": False},  # 1 range, 2 clusters, L 2
                {"id": "b", "start": 0, "end": 20, "processors": "3 5-6", "failed": False},  # 2 ranges, 3 clusters, L 3
                {"id": "c", "start": 4, "end": 9, "processors": "0-2 7", "failed": True},  # 2 ranges, 3 clusters, L 3
            ]
        },
    )
    m = batch_metrics(inst, sched)
    assert m["makespan"] == 20
    assert m["sum_flow"] == 4 + 20 + 7 and m["mean_flow"] == pytest.approx(31 / 3)
    assert m["sum_wait"] == 0 + 0 + 2
    # bounded stretch: a 4/max(4,10) -> 1 (clamped), b 20/20 = 1, c 7/10 -> 1
    assert m["sum_stretch"] == 3.0
    assert m["utilisation"] == pytest.approx((2 * 4 + 3 * 20 + 4 * 5) / (8 * 20))
    assert m["contiguity_factor"] == pytest.approx(5 / 3)
    # clusters / ceil(size / 2): a 2/1, b 3/2, c 3/2
    assert m["locality_factor"] == pytest.approx((2 + 1.5 + 1.5) / 3)
    # L / L_min: a 2/1, b 3/2, c 3/2
    assert m["platform_level_factor"] == pytest.approx((2 + 1.5 + 1.5) / 3)
    assert m["success"] == 2
    assert m["contiguous_share"] == pytest.approx(1 / 3) and m["local_share"] == 0
    assert m["locality_ratio"] == pytest.approx((8 / 3) / (5 / 3))
    ring = BatchSchedule.from_dict(inst, {**sched.to_dict(), "model": {"topology": "ring"}})
    assert batch_metrics(inst, ring)["contiguity_factor"] == pytest.approx(4 / 3)  # 0-2 7 is one ring range
    assert np.allclose(bounded_stretch(inst, sched, clamp=False), [0.4, 1.0, 0.7])


def test_the_metric_topology_overrides_the_allocation_topology():
    inst = BatchInstance.from_dict(
        {
            "kind": "batch",
            "platform": {"processors": 4, "levels": []},
            "jobs": [{"id": "a", "submit": 0, "run_time": 1, "requested_time": 1, "size": 3}],
        }
    )
    sched = BatchSchedule.from_dict(inst, {"jobs": [{"id": "a", "start": 0, "end": 1, "processors": "0 2-3"}]})

    def ranges(**model):
        return batch_metrics(inst, BatchSchedule.from_dict(inst, {**sched.to_dict(), "model": model}))[
            "contiguity_factor"
        ]

    assert ranges() == 2 and ranges(topology="ring") == 1  # no metric_topology: the allocation's
    assert ranges(topology="line", metric_topology="ring") == 1
    assert ranges(topology="ring", metric_topology="line") == 2


@pytest.mark.parametrize("method", ["fcfs", "easy", "conservative"])
def test_a_ring_metric_with_line_allocation(method):
    """a takes 0-1, b takes 2; when a ends, c (3 processors) gets 0-1 and 3 on a line: two ranges on
    a line, one on a ring (3 0 1).  The allocation is the line's whatever the metric."""
    inst = BatchInstance.from_dict(
        {
            "kind": "batch",
            "platform": {"processors": 4, "levels": []},
            "jobs": [
                {"id": j, "submit": r, "run_time": p, "requested_time": p, "size": q}
                for j, r, p, q in (("a", 0, 2, 2), ("b", 0, 9, 1), ("c", 1, 3, 3))
            ],
        }
    )
    line = solve(inst, method).schedule
    author = solve(inst, method, metric_topology="ring").schedule
    assert line.processors == author.processors == ("0-1", "2", "0-1 3")
    assert (line.start == author.start).all() and (line.end == author.end).all()
    assert line.model["metric_topology"] == "line"
    assert author.model["topology"] == "line" and author.model["metric_topology"] == "ring"
    validate(inst, author)
    assert batch_metrics(inst, line)["contiguity_factor"] == pytest.approx(4 / 3)
    assert batch_metrics(inst, author)["contiguity_factor"] == 1
    assert solve(inst, method, topology="ring").schedule.model["metric_topology"] == "ring"
