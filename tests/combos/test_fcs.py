"""combos/heuristics/fcs.py: FCS within Theorem 1's bound."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import coschedopt as cs

from .strategies import arbitrary_monotone_instance, combos_instances


@settings(max_examples=200, deadline=None)
@given(combos_instances(max_n=6))
def test_fcs_within_theorem_1_bound(inst):
    opt = cs.solve(inst, "lp", backend="highspy").objective
    res = cs.solve(inst, "fcs")
    bound = 2 - 1 / inst.max_speed
    assert opt * (1 - 1e-9) <= res.objective <= bound * opt * (1 + 1e-9)
    assert res.lower_bound <= opt * (1 + 1e-9)
    # FCS finishes at least one task per segment
    assert len(res.schedule) <= inst.n


def test_fcs_runs_the_fastest_combination_first_and_breaks_ties_deterministically():
    inst = arbitrary_monotone_instance(4, 3, levels=True)
    res = cs.solve(inst, "fcs")
    first = inst.mask_of(res.schedule.segments[0][0])
    assert inst.combination_speed[inst.column(first)] == pytest.approx(inst.max_speed)
    assert cs.solve(inst, "fcs").schedule == res.schedule
