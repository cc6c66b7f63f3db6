"""The compiled loop of ``fcfs`` and ``easy`` (basic allocation) gives the Python loop's schedule job by job:
start, end, processors and failure, on random workloads with every feature the loop handles (platforms of
any size, word boundaries, zero-length jobs, jobs killed at their request, penalties) and on the KTH excerpt."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from coschedopt.batch import queue_kernels
from coschedopt.batch.generate import random_workload
from coschedopt.batch.instance import BatchInstance
from coschedopt.batch.platform import Platform
from coschedopt.batch.simulation import SimOptions
from coschedopt.batch.simulators.queue import EasyOptions, compiled_loop_applies, simulate_queue
from coschedopt.batch.traces import read_trace, trace_instance
from coschedopt.core import Deadline
from tests.tracefiles import KTH_EXCERPT

#: processors and a fat tree for each (so that the penalties apply): below, at and across word boundaries
PLATFORMS = {
    1: (),
    7: (),
    63: (1, 3, 63),
    64: (1, 4, 16, 64),
    65: (1, 5, 65),
    100: (1, 4, 20, 100),
    128: (1, 2, 8, 128),
    130: (1, 2, 10, 130),
    200: (1, 2, 8, 200),
    300: (1, 3, 30, 300),
}
PENALTIES = (("none", 2.0), ("linear", 2.0), ("exponential", 2.0), ("linear", 0.5), ("exponential", 1.5))
POLICIES = (("fcfs", False, None), ("easy", True, "busy-first"), ("easy", True, "lowest-ids"))


def varied_workload(seed: int, processors: int) -> BatchInstance:
    """A random workload where about a tenth of the jobs run 0 s and another tenth run past their request."""
    inst = random_workload(60, processors, PLATFORMS[processors], horizon=80, max_run=30, seed=seed)
    rng = np.random.default_rng(seed)
    run, req = inst.run_time.copy(), inst.requested_time.copy()
    run[rng.random(inst.n) < 0.1] = 0
    over = rng.random(inst.n) < 0.1
    req[over] = run[over] // 2
    return dataclasses.replace(inst, run_time=run, requested_time=req)


def options(backfill: bool, reservation: str | None, penalty: str = "none", factor: float = 2.0) -> SimOptions:
    if backfill:
        return EasyOptions(penalty=penalty, factor=factor, reservation=reservation)
    return SimOptions(penalty=penalty, factor=factor)


def assert_same_schedule(inst: BatchInstance, opts: SimOptions, backfill: bool) -> None:
    ref = simulate_queue(inst, opts, backfill=backfill, compiled=False)
    fast = simulate_queue(inst, opts, backfill=backfill, compiled=True)
    for j in range(inst.n):
        got = (int(fast.start[j]), int(fast.end[j]), fast.processors[j], bool(fast.failed[j]))
        want = (int(ref.start[j]), int(ref.end[j]), ref.processors[j], bool(ref.failed[j]))
        assert got == want, f"{inst.name} {opts} job {inst.ids[j]}"


@pytest.mark.parametrize("processors", sorted(PLATFORMS))
@pytest.mark.parametrize(("policy", "backfill", "reservation"), POLICIES)
def test_the_compiled_loop_gives_the_python_schedule_on_random_workloads(processors, policy, backfill, reservation):
    for seed in range(10):
        penalty, factor = PENALTIES[seed % len(PENALTIES)]
        inst = varied_workload(seed, processors)
        assert_same_schedule(inst, options(backfill, reservation, penalty, factor), backfill)


def test_the_random_workloads_exercise_what_the_loop_handles():
    """Zero-length jobs, kills at the request, penalised durations and fragmented allocations all occur."""
    zero = killed = penalised = fragmented = 0
    for seed in range(10):
        inst = varied_workload(seed, 130)
        rec = simulate_queue(inst, options(True, "busy-first", "linear", 2.0), backfill=True)
        ran = rec.end - rec.start
        zero += int((ran == 0).sum())
        killed += int(rec.failed.sum())
        penalised += int(((ran > inst.run_time) & ~rec.failed).sum())
        fragmented += sum(" " in p for p in rec.processors)
    assert min(zero, killed, penalised, fragmented) > 0


@pytest.fixture(scope="module")
def kth() -> BatchInstance:
    inst = trace_instance(read_trace(KTH_EXCERPT))
    assert inst.processors == 100 and inst.n > 1000
    return inst


@pytest.mark.parametrize(("policy", "backfill", "reservation"), POLICIES)
def test_the_compiled_loop_gives_the_python_schedule_on_the_kth_excerpt(kth, policy, backfill, reservation):
    assert_same_schedule(kth, options(backfill, reservation), backfill)
    tree = dataclasses.replace(kth, platform=Platform(100, (1, 4, 20, 100)))
    assert_same_schedule(tree, options(backfill, reservation, "exponential", 2.0), backfill)


def test_the_run_store_grows_when_an_instant_may_not_fit(monkeypatch):
    statuses = []
    simulate = queue_kernels.simulate

    def counting(*args):
        statuses.append(simulate(*args))
        return statuses[-1]

    monkeypatch.setattr(queue_kernels, "simulate", counting)
    monkeypatch.setattr(queue_kernels, "_first_store", lambda n, m: m)
    assert_same_schedule(varied_workload(3, 130), options(True, "busy-first"), True)
    assert queue_kernels.GROW in statuses and statuses[-1] == queue_kernels.DONE


def test_the_deadline_is_read_between_calls_of_the_compiled_loop(monkeypatch):
    monkeypatch.setattr(queue_kernels, "CHUNK", 1)
    inst = varied_workload(0, 100)
    assert simulate_queue(inst, EasyOptions(), backfill=True, deadline=Deadline(1e-9), compiled=True) is None
    assert simulate_queue(inst, EasyOptions(), backfill=True, deadline=Deadline(60), compiled=True) is not None


def test_basic_allocation_runs_compiled_and_the_other_variants_do_not():
    assert compiled_loop_applies(EasyOptions()) and compiled_loop_applies(SimOptions(topology="ring"))
    assert not compiled_loop_applies(EasyOptions(allocation="cont"))
    with pytest.raises(ValueError, match="basic"):
        simulate_queue(varied_workload(0, 7), SimOptions(allocation="beloc"), backfill=False, compiled=True)


def test_the_warm_up_compiles_the_loop_for_the_types_an_instance_gives(monkeypatch, capsys):
    monkeypatch.setattr(queue_kernels, "cached", lambda kernels: False)
    queue_kernels.compile_kernels()
    assert "compiling batch kernels" in capsys.readouterr().err
    simulate_queue(varied_workload(1, 65), EasyOptions(penalty="linear"), backfill=True)
    assert len(queue_kernels.simulate.signatures) == 1
