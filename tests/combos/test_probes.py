"""The combos probe pricing-speed: the branch-and-bound, the HiGHS MIP and CP-SAT find the same K = 2 maximum."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.combos.pairwise import random_pairwise_instance
from coschedopt.core import MethodRefused


def brute_force_max(d: np.ndarray, y: np.ndarray) -> float:
    """max over |S| <= 2 of sum_{i in S} y_i a(i, S), a(i, {i, j}) = d_ij, by listing every set."""
    n = len(y)
    best = max(y)
    for i, j in itertools.combinations(range(n), 2):
        best = max(best, y[i] * d[i, j] + y[j] * d[j, i])
    return float(best)


@pytest.mark.parametrize("duals", ["last-master", "ones"])
def test_three_pricers_agree_with_brute_force(probes, duals):
    mod = probes("coschedopt.combos.probes")
    inst = random_pairwise_instance(9, 2, seed=4)
    res = cs.solve(inst, "pricing-speed", duals=duals, time_limit=20)
    assert res.status is cs.Status.FEASIBLE and res.schedule is None
    assert res.stats["mip_proven"] and res.stats["cpsat_proven"]
    assert res.stats["bnb_max"] == pytest.approx(res.stats["mip_max"], abs=1e-7)
    assert res.stats["cpsat_diff"] <= 2 * inst.n / mod.CPSAT_SCALE
    if duals == "ones":
        assert res.stats["bnb_max"] == pytest.approx(brute_force_max(inst.factors, np.ones(inst.n)), abs=1e-9)


def test_pricing_speed_refuses_more_than_two_tasks_per_node(probes):
    probes("coschedopt.combos.probes")
    with pytest.raises(MethodRefused, match="max-size 2"):
        cs.solve(random_pairwise_instance(6, 3, seed=0), "pricing-speed")
