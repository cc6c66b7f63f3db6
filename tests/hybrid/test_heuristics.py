"""HEFT and HeteroPrio: valid, never below the optimum, equal to straightforward reference simulations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.hybrid import HybridInstance, makespan
from coschedopt.hybrid.heuristics.greedy import heft_schedule, heteroprio_schedule
from coschedopt.hybrid.knapsack import ratio_order

from .strategies import hybrid_instances


def reference_heft(inst: HybridInstance) -> list[tuple[bool, int, float]]:
    """Scan every unit (CPUs first, then GPUs) for the earliest finish; the first strict minimum wins."""
    loads = {("cpu", i): 0.0 for i in range(inst.cpus)} | {("gpu", g): 0.0 for g in range(inst.gpus)}
    order = sorted(range(inst.n), key=lambda j: (-inst.min_time[j], j))
    out = [None] * inst.n
    for j in order:
        best = None
        for (kind, u), load in loads.items():
            end = load + (inst.gpu_time[j] if kind == "gpu" else inst.cpu_time[j])
            if best is None or end < best[0]:
                best = (end, kind, u)
        _, kind, u = best
        out[j] = (kind == "gpu", u, loads[(kind, u)])
        loads[(kind, u)] = best[0]
    return out


def reference_heteroprio(inst: HybridInstance) -> list[tuple[bool, int, float]]:
    """Without spoliation: repeatedly the worker free first (GPUs before CPUs, then by index) takes
    the most (GPU) or least (CPU) accelerated remaining task."""
    queue = list(ratio_order(inst).order)
    free = {(0, g): 0.0 for g in range(inst.gpus)} | {(1, i): 0.0 for i in range(inst.cpus)}
    out = [None] * inst.n
    while queue:
        kind, u = min(free, key=lambda w: (free[w], w))
        j = queue.pop(0) if kind == 0 else queue.pop()
        out[j] = (kind == 0, u, free[(kind, u)])
        free[(kind, u)] += inst.gpu_time[j] if kind == 0 else inst.cpu_time[j]
    return out


def _placements(schedule):
    return [(bool(g), int(u), float(s)) for g, u, s in zip(schedule.on_gpu, schedule.unit, schedule.start, strict=True)]


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=9))
def test_heuristics_are_valid_and_never_beat_the_optimum(inst):
    opt = cs.solve(inst, "enumerate").objective
    for name in ("heft", "heteroprio"):
        res = cs.solve(inst, name)  # solve() validates the schedule
        assert res.objective >= opt - 1e-9 and res.lower_bound <= opt + 1e-9
    for order in ("spt-min", "ratio"):
        assert cs.solve(inst, "heft", order=order).objective >= opt - 1e-9


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=10, max_m=4, max_k=4))
def test_heft_and_heteroprio_equal_their_references(inst):
    assert _placements(heft_schedule(inst)) == reference_heft(inst)
    assert _placements(heteroprio_schedule(inst, spoliation=False)[0]) == reference_heteroprio(inst)


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=10, max_m=4, max_k=4))
def test_spoliation_never_lengthens_the_schedule(inst):
    plain, _ = heteroprio_schedule(inst, spoliation=False)
    spoliated, count = heteroprio_schedule(inst, spoliation=True)
    assert makespan(inst, spoliated) <= makespan(inst, plain) + 1e-9
    if count == 0:
        assert _placements(spoliated) == _placements(plain)


def test_spoliation_restarts_a_long_cpu_task_on_the_idle_gpu():
    # one CPU, one GPU: the GPU takes T1 (most accelerated, 1), the CPU T2 (10 on CPU, 2 on GPU);
    # at time 1 the queue is empty and the GPU would end T2 at 3 < 10: it spoliates
    inst = HybridInstance(np.array([10.0, 10.0]), np.array([1.0, 2.0]), 1, 1)
    sched, count = heteroprio_schedule(inst)
    assert count == 1 and makespan(inst, sched) == 3.0
    assert cs.solve(inst, "heteroprio").stats["spoliations"] == 1


@pytest.mark.parametrize("cpus,gpus", [(0, 2), (3, 0)])
def test_single_type_platforms(cpus, gpus):
    inst = HybridInstance(np.array([5.0, 4.0, 3.0, 3.0]), np.array([2.0, 2.0, 1.0, 3.0]), cpus, gpus)
    opt = cs.solve(inst, "enumerate").objective
    for name in ("heft", "heteroprio", "dual2", "dual32", "milp", "cpsat", "colgen"):
        res = cs.solve(inst, name)
        assert res.objective >= opt - 1e-9
        assert not (res.schedule.on_gpu if gpus == 0 else ~res.schedule.on_gpu).any()


@pytest.mark.parametrize("method", ["dual2", "dual32", "heft", "heteroprio", "enumerate", "milp", "cpsat", "colgen"])
def test_one_task_goes_to_its_faster_side(method):
    inst = HybridInstance(np.array([7.0]), np.array([3.0]), 2, 1)
    res = cs.solve(inst, method)
    assert res.objective == 3.0 and bool(res.schedule.on_gpu[0])


def test_equal_ratios_are_broken_by_gpu_time_then_index():
    # every task twice as fast on the GPU: the knapsack fills the GPU with the longest GPU tasks first
    inst = HybridInstance(np.array([8.0, 4.0, 6.0, 2.0]), np.array([4.0, 2.0, 3.0, 1.0]), 1, 1)
    assert ratio_order(inst).order.tolist() == [0, 2, 1, 3]
    assert ratio_order(inst, ties="index").order.tolist() == [0, 1, 2, 3]
