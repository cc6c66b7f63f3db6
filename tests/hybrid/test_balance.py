"""The load-balancing search of ``colgen`` (:mod:`coschedopt.hybrid.exact.balance`): every assignment it
returns meets the capacity, it never claims a capacity below the optimum, and it reaches the bound on
instances with many tasks per machine."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import Deadline
from coschedopt.hybrid.bounds import best_lower_bound
from coschedopt.hybrid.exact.balance import balance, repack
from coschedopt.hybrid.exact.common import incumbent
from coschedopt.hybrid.generate import random_hybrid_instance
from coschedopt.hybrid.schedule import makespan

from .oracle import brute_force_optimum
from .strategies import hybrid_instances


def loads(p, q, cpus, gpus, machine):
    cost = np.where(machine < cpus, p, q)
    return np.bincount(machine, weights=cost, minlength=cpus + gpus)


@settings(max_examples=120, deadline=None)
@given(hybrid_instances(max_n=6, max_m=2, max_k=2), st.integers(-2, 3), st.integers(0, 2**31 - 1))
def test_balance_meets_its_capacity_and_never_goes_below_the_optimum(inst, shift, seed):
    p, q = inst.cpu_time.astype(np.int64), inst.gpu_time.astype(np.int64)
    m, k = inst.cpus, inst.gpus
    opt = int(brute_force_optimum(inst))
    rng = np.random.default_rng(seed)
    start = rng.integers(0, m + k, inst.n)
    found = balance(p, q, m, k, opt + shift, start, Deadline(None), rng, max_steps=2000)
    if shift < 0:
        assert found is None
    if found is not None:
        assert found.shape == (inst.n,) and ((found >= 0) & (found < m + k)).all()
        assert loads(p, q, m, k, found).max() <= opt + shift


@settings(max_examples=40, deadline=None)
@given(hybrid_instances(max_n=6, max_m=2, max_k=2), st.integers(-1, 2), st.integers(0, 2**31 - 1))
def test_repack_meets_its_capacity_and_never_goes_below_the_optimum(inst, shift, seed):
    p, q = inst.cpu_time.astype(np.int64), inst.gpu_time.astype(np.int64)
    m, k = inst.cpus, inst.gpus
    opt = int(brute_force_optimum(inst))
    rng = np.random.default_rng(seed)
    found = repack(p, q, m, k, opt + shift, rng.integers(0, m + k, inst.n), Deadline(0.2), rng, box=0.05)
    if shift < 0:
        assert found is None
    if found is not None:
        assert loads(p, q, m, k, found).max() <= opt + shift


def test_repack_closes_the_unit_the_balancing_search_leaves():
    """n = 500 on 8 CPUs and 2 GPUs, seed 2: the balancing search stalls above LB_lambda; CP-SAT
    re-packing groups of four machines from its closest assignment reaches the bound itself."""
    inst = random_hybrid_instance(500, 8, 2, seed=2)
    p, q = inst.cpu_time.astype(np.int64), inst.gpu_time.astype(np.int64)
    T0 = round(best_lower_bound(inst))
    start = incumbent(inst)
    machine = np.empty(inst.n, dtype=np.int64)
    machine[start.task] = np.where(start.on_gpu, 8 + start.unit, start.unit)
    rng = np.random.default_rng(2)
    closest: list[np.ndarray] = []
    assert balance(p, q, 8, 2, T0, machine, Deadline(None), rng, max_steps=3000, closest=closest) is None
    found = repack(p, q, 8, 2, T0, closest[0], Deadline(120), rng)
    assert found is not None and loads(p, q, 8, 2, found).max() <= T0


def test_balance_brings_the_quick_heuristics_within_two_units_of_the_bound():
    """n = 300 on 8 CPUs and 2 GPUs (30 tasks a machine): from the quick heuristics' best schedule
    (6-9 units above LB_lambda on these seeds), the search reaches LB_lambda + 2 on every seed."""
    for seed in range(4):
        inst = random_hybrid_instance(300, 8, 2, seed=seed)
        p, q = inst.cpu_time.astype(np.int64), inst.gpu_time.astype(np.int64)
        T0 = round(best_lower_bound(inst))
        start = incumbent(inst)
        assert makespan(inst, start) > T0 + 2
        machine = np.empty(inst.n, dtype=np.int64)
        machine[start.task] = np.where(start.on_gpu, 8 + start.unit, start.unit)
        found = balance(p, q, 8, 2, T0 + 2, machine, Deadline(None), np.random.default_rng(seed), max_steps=20_000)
        assert found is not None and loads(p, q, 8, 2, found).max() <= T0 + 2


def test_colgen_proves_a_large_instance_without_the_lp_when_the_search_reaches_the_bound():
    """The primal phases first: where the balanced schedule (or CP-SAT at the bound) meets LB_lambda,
    colgen proves the optimum with no column generation at all."""
    inst = random_hybrid_instance(300, 8, 2, seed=0)
    res = cs.solve(inst, "colgen", workers=1, time_limit=120)
    assert res.status is cs.Status.OPTIMAL
    assert res.objective == round(best_lower_bound(inst))
    assert res.stats["lp_iterations"] == 0 and "configuration_bound" not in res.stats
