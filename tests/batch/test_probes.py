"""The batch probes: EASY's two reservation rules compared, and AccaSim's input written from an instance."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.batch.generate import accasim_trace, random_workload
from coschedopt.batch.simulators.queue import RESERVATIONS
from coschedopt.core import MethodRefused


@pytest.mark.parametrize("allocation", ["basic", "beplat", "cont"])
def test_easy_reservations_counts_the_jobs_the_rules_start_apart(probes, allocation):
    probes("coschedopt.batch.probes")
    for seed in range(5):
        inst = random_workload(40, 16, (1, 4, 16), horizon=30, max_run=12, seed=seed)
        res = cs.solve(inst, "easy-reservations", allocation=allocation, repeat=1)
        first, other = (cs.solve(inst, "easy", allocation=allocation, reservation=r) for r in RESERVATIONS)
        moved = int(np.count_nonzero(first.schedule.start != other.schedule.start))
        assert res.stats["jobs_moved"] == moved
        assert res.objective == first.objective  # the schedule returned is the default rule's
        for rule in RESERVATIONS:
            assert 0 <= res.stats[f"{rule}_min_ms"] <= res.stats[f"{rule}_median_ms"]


def test_accasims_input_reads_back_as_the_same_jobs(probes, tmp_path):
    mod = probes("coschedopt.batch.probes")
    inst = random_workload(30, 16, seed=3)
    path = tmp_path / "jobs.swf"
    path.write_text("".join(mod.swf_lines(inst)))
    back = accasim_trace(str(path), processors=16)
    assert back.ids == inst.ids
    for field in ("submit", "run_time", "requested_time", "size"):
        assert np.array_equal(
            getattr(back, field), getattr(inst, field) - (inst.submit.min() if field == "submit" else 0)
        )


def test_accasim_failure_names_its_cause(probes):
    mod = probes("coschedopt.batch.probes")
    inst = random_workload(5, 4, seed=0)
    # this interpreter has no accasim: the runner's import fails, and the message says so
    with pytest.raises(RuntimeError, match="AccaSim failed.*accasim"):
        mod.run_accasim(sys.executable, inst, "fifo")


def test_accasim_asks_for_its_interpreter(probes):
    probes("coschedopt.batch.probes")
    inst = random_workload(5, 4, seed=0)
    with pytest.raises(MethodRefused, match="ACCASIM_PYTHON"):
        cs.solve(inst, "accasim", python="")
