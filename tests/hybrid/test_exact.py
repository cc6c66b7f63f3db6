"""The exact methods agree: milp = cpsat = colgen = enumerate (= brute force on tiny instances)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.hybrid.exact.colgen import knapsack_max
from coschedopt.hybrid.exact.enumerate import identical_machines_optimum
from coschedopt.hybrid.generate import random_hybrid_instance

from .oracle import brute_force_optimum
from .strategies import hybrid_instances

EXACT = {
    "enumerate": {},
    "milp": {"shortcut": False},
    "cpsat": {"shortcut": False, "workers": 1},
    "colgen": {"workers": 1},
}


def _optima(inst):
    out = {}
    for name, options in EXACT.items():
        res = cs.solve(inst, name, **options)
        assert res.status is cs.Status.OPTIMAL, (name, res.message)
        assert res.lower_bound == pytest.approx(res.objective)
        out[name] = res.objective
    return out


@settings(max_examples=150, deadline=None)
@given(hybrid_instances(max_n=6, max_m=2, max_k=2))
def test_exact_methods_equal_brute_force_on_tiny_instances(inst):
    opt = brute_force_optimum(inst)
    assert _optima(inst) == pytest.approx(dict.fromkeys(EXACT, opt))


@pytest.mark.parametrize("seed", range(12))
def test_exact_methods_agree_on_small_random_instances(seed):
    n, m, k = 8 + seed % 5, 2 + seed % 3, 1 + seed % 2
    inst = random_hybrid_instance(n, m, k, seed=seed)
    optima = _optima(inst)
    assert len(set(optima.values())) == 1, optima


def test_colgen_exercises_its_certificate_and_its_decisions():
    """On instances where the quick heuristics miss the bound, colgen rejects T by the LP and decides by CP-SAT."""
    certified = decisions = 0
    for seed in range(6):
        stats = cs.solve(random_hybrid_instance(14, 3, 1, seed=seed), "colgen", workers=1).stats
        certified, decisions = certified + stats["certified"], decisions + stats["decisions"]
    assert certified > 0 and decisions > 0


def test_colgen_hands_the_time_left_to_the_decisions_when_its_lp_box_expires():
    """An LP box of a millisecond (``lp_share``): the column generation stops unconverged, and the CP-SAT
    decisions from the bound certified so far still prove the same optimum as enumeration."""
    stopped = 0
    for seed in range(6):
        inst = random_hybrid_instance(14, 3, 1, seed=seed)
        res = cs.solve(inst, "colgen", workers=1, time_limit=60, lp_share=1e-9)
        ref = cs.solve(inst, "enumerate")
        assert res.status is ref.status is cs.Status.OPTIMAL and res.objective == pytest.approx(ref.objective)
        stopped += "lp_stopped_at" in res.stats
    assert stopped > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_colgen_equals_cpsat_at_n_20(seed):
    inst = random_hybrid_instance(20, 4, 2, seed=100 + seed)
    a = cs.solve(inst, "colgen", workers=1)
    b = cs.solve(inst, "cpsat", workers=1, time_limit=120)
    assert a.status is b.status is cs.Status.OPTIMAL and a.objective == b.objective


def test_time_limits_return_a_schedule_and_a_certified_bound():
    inst = random_hybrid_instance(60, 8, 2, seed=7)
    for name in ("milp", "cpsat", "colgen"):
        res = cs.solve(inst, name, time_limit=0.3, **({"workers": 1} if name != "milp" else {}))
        assert res.status in (cs.Status.TIME_LIMIT, cs.Status.OPTIMAL)
        assert res.schedule is not None and res.lower_bound <= res.objective


def test_enumerate_refuses_large_instances_with_a_clear_message():
    with pytest.raises(cs.InputError, match=r"n <= 16 tasks, got n = 17"):
        cs.solve(random_hybrid_instance(17, 2, 1), "enumerate")


def test_integer_methods_refuse_data_without_a_grid():
    inst = random_hybrid_instance(6, 2, 1, seed=0, decimals=9)
    for name in ("cpsat", "colgen"):
        with pytest.raises(cs.InputError, match="decimal grid"):
            cs.solve(inst, name)
    assert cs.solve(inst, "milp").objective == pytest.approx(cs.solve(inst, "enumerate").objective)


def test_identical_machines_and_knapsack_kernels():
    assert identical_machines_optimum([3, 3, 2, 2, 2], 2, 99)[0] == 6
    assert identical_machines_optimum([5, 4], 2, 5) is None  # nothing below the given upper bound
    import numpy as np

    value, chosen = knapsack_max(np.array([0.5, 0.4, 0.3, 0.0]), np.array([4, 3, 2, 1]), 5)
    assert value == pytest.approx(0.7) and sorted(chosen) == [1, 2]
