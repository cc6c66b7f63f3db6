"""The pack probe kernel-speed: both codes timed on the same inputs give the same values; no schedule."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core import get_method
from coschedopt.pack.exact.bnp import kernels
from coschedopt.pack.generate import random_pack_instance

pytestmark = pytest.mark.skipif(not kernels.COMPILED, reason="numba is not installed")


@pytest.mark.parametrize("operation", ["batched-dp", "best-set", "min-level", "enumeration"])
def test_kernel_speed_times_both_codes_and_finds_the_same_values(probes, operation):
    probes("coschedopt.pack.probes")
    assert get_method("pack", "kernel-speed").probe
    inst = random_pack_instance(14, 8, 3, seed=1)
    res = cs.solve(inst, "kernel-speed", operation=operation, repeat=2)
    assert res.status is cs.Status.FEASIBLE and res.schedule is None and res.objective is None
    assert res.stats["same_values"] is True
    assert res.stats["compiled_s"] > 0 and res.stats["reference_s"] > 0
    assert res.stats["speedup"] == pytest.approx(res.stats["reference_s"] / res.stats["compiled_s"])
    assert kernels.COMPILED  # the reference run does not leave the compiled kernels switched off


def test_probes_are_loaded_only_where_asked(probes):
    assert "kernel-speed" not in cs.methods("pack") or get_method("pack", "kernel-speed").probe
    probes("coschedopt.pack.probes")
    assert "kernel-speed" in cs.methods("pack")
