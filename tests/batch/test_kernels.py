"""Which simulations run compiled, and the simulators' prepare hooks (:mod:`coschedopt.batch.kernels`)."""

from __future__ import annotations

import subprocess
import sys

from coschedopt.batch import kernels
from coschedopt.batch.generate import random_workload
from coschedopt.batch.simulators.conservative import ConservativeOptions


def test_a_small_solve_never_loads_numba():
    code = (
        "import sys; import coschedopt as cs\n"
        "from coschedopt.batch.generate import random_workload\n"
        "inst = random_workload(200, 300, (1, 2, 300), seed=1)\n"
        "for m, o in (('conservative', {'allocation': 'beplat'}), ('easy', {}), ('fcfs', {'allocation': 'basic'})):\n"
        "    res = cs.solve(inst, m, options=o)\n"
        "    assert 'prepare_seconds' not in res.stats, res.stats\n"
        "print('numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr


def test_the_work_decides_the_compiled_path():
    small, large = random_workload(100, 64, (), seed=0), random_workload(6000, 64, (), seed=0)
    assert not kernels.compiled_profile_applies(small)
    assert kernels.compiled_profile_applies(large) == kernels.numba_installed()
    basic, beplat = ConservativeOptions(), ConservativeOptions(allocation="beplat")
    assert kernels.compiled_loop_applies(large, basic) == kernels.numba_installed()
    assert not kernels.compiled_loop_applies(large, beplat) and not kernels.compiled_loop_applies(small, basic)


def test_the_hook_loads_the_variant_s_kernels_once():
    assert kernels.profile_groups(ConservativeOptions(allocation="beplat")) == ("profile", "platform", "reassign")
    assert kernels.profile_groups(ConservativeOptions(allocation="loc", reassign=False)) == ("profile", "loc")
    if not kernels.numba_installed():
        return
    large = random_workload(6000, 64, (), seed=0)
    options = ConservativeOptions(allocation="cont")
    kernels.prepare_conservative(large, options)
    assert {"profile", "cont", "reassign"} <= kernels._LOADED
    assert kernels.prepare_conservative(large, options) is False  # loaded already: nothing to do


def test_bench_run_says_compiling_only_when_the_cache_lacks_the_kernels():
    from types import SimpleNamespace

    from coschedopt.bench.runner import prepare_kernels

    kernels.prepare_conservative()  # every batch kernel in the disk cache (compiled here at most once)
    shown = []
    bar = SimpleNamespace(show=shown.append)
    cells = [SimpleNamespace(family="batch", method=m) for m in ("conservative", "easy", "fcfs")]
    prepare_kernels(cells, bar)
    assert shown == []  # cached: no message, and the parent loads nothing
