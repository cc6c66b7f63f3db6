"""The stopping contract (:mod:`coschedopt.core.deadline`), checked for every exact method.

The methods come from the registry (every method registered ``exact``), so a new exact
method is covered without editing this file; it runs on its family's instance of
:data:`HARD` (or an entry of :data:`OWN` when it refuses that one).  Each method is
stopped three ways: a stop request a few milliseconds after the call (start-up:
compilation, heuristics, model building), one after half a second (the search), and a
time limit of half a second.  Within 2 s of the stop it must return either a finished
result or ``TIME_LIMIT`` with ``stats["stopped_by"]``, a valid schedule and a bound.

The 2 s are wall-clock seconds, as a user at a terminal counts them.  On a shared 2-core
machine another process can hold the cores for seconds, so these tests run one after
another on one test worker (``xdist_group``) and a timing that fails is run again, twice at
most (``flaky``): a method that ignores the stop fails every time, a starved one does not.
"""

from __future__ import annotations

import threading
import time

import pytest

import coschedopt as cs
import coschedopt.examples.toy  # noqa: F401  (registers the toy family's methods)
from coschedopt.core import MethodRefused, Status, read_json
from coschedopt.core.deadline import request_stop, stop_on_interrupt
from coschedopt.core.registry import get_method

#: seconds a method may take to return after the stop request or the time limit
GRACE = 2.0


def _pack():
    from coschedopt.pack.generate import random_pack_instance

    return random_pack_instance(16, 8, 4, seed=1)


def _hybrid():
    from coschedopt.hybrid.generate import random_hybrid_instance

    return random_hybrid_instance(40, 8, 2, seed=0)


def _locality():
    from coschedopt.locality.generate import random_locality_instance

    return random_locality_instance(30, 32, 4, constraint="contiguous+local", seed=0)


def _online():
    from coschedopt.online.generate import random_instance

    return random_instance(40, 3, seed=0)


def _evolving():
    from coschedopt.evolving.generate import random_evolving_instance

    return random_evolving_instance(seed=0)


def _combos():
    from coschedopt.combos.generate import random_combos_instance

    return random_combos_instance(18, seed=0)


def _toy():
    from coschedopt.examples.toy import ToyInstance

    return ToyInstance(values=(3.0, 1.0, 2.0, 5.0))


#: per family, an instance on which its exact methods still search after half a second
HARD = {
    "pack": _pack,
    "hybrid": _hybrid,
    "locality": _locality,
    "online": _online,
    "evolving": _evolving,
    "combos": _combos,
    "toy": _toy,
}


def _pack_bnp():
    from coschedopt.pack.generate import workload_ii

    return workload_ii(seed=0)


def _pack_k2():
    from coschedopt.pack.generate import random_pack_instance

    return random_pack_instance(30, 8, 2, seed=0)


def _hybrid_small():
    from coschedopt.hybrid.generate import random_hybrid_instance

    return random_hybrid_instance(16, 4, 2, seed=0)


def _evolving_coarse():
    from coschedopt.evolving.generate import random_evolving_instance

    return random_evolving_instance(seed=0, time_unit=100)


#: methods that refuse (or solve at once) their family's instance: their own instance
OWN = {
    ("pack", "branch-and-price"): _pack_bnp,
    ("pack", "matching"): _pack_k2,
    ("hybrid", "enumerate"): _hybrid_small,
    ("evolving", "milp"): _evolving_coarse,
}

#: every registered family: the built-in ones, the toy template and the installed plug-ins
SHIPPED = cs.families()

EXACT = [
    (f, name)
    for f in SHIPPED
    for name in cs.methods(f)
    if get_method(f, name).exact and f in HARD and not get_method(f, name).func.__module__.startswith("tests.")
]  # but the throw-away methods tests register on purpose (one that ignores its limit, say)


def test_every_family_with_an_exact_method_has_an_instance_here():
    families = {f for f in SHIPPED if any(get_method(f, name).exact for name in cs.methods(f))}
    assert families <= set(HARD), f"add an instance of {sorted(families - set(HARD))} to HARD"


def _solve(family: str, name: str, *, stop_after: float | None, time_limit: float | None):
    instance = OWN.get((family, name), HARD[family])()
    with stop_on_interrupt():
        timer = None if stop_after is None else threading.Timer(stop_after, request_stop)
        start = time.perf_counter()
        if timer is not None:
            timer.start()
        try:
            res = cs.solve(instance, name, time_limit=time_limit, seed=0)
        except MethodRefused as exc:
            pytest.fail(f"{family} {name} refuses its instance here ({exc}): give it one in OWN")
        finally:
            if timer is not None:
                timer.cancel()
        return res, time.perf_counter() - start


def _check_stopped(res, why: str) -> None:
    if res.status in (Status.OPTIMAL, Status.INFEASIBLE):  # finished before the stop took effect
        return
    assert res.status is Status.TIME_LIMIT, res.message
    assert res.stats["stopped_by"] == why
    assert res.schedule is not None and res.lower_bound is not None  # validated by cs.solve
    assert res.message.startswith("interrupted" if why == "interrupt" else "stopped by the time limit")


#: the timing tests: on one worker, one after another; a timing that fails runs again (module docstring)
timed = [pytest.mark.xdist_group("stop-contract"), pytest.mark.flaky(reruns=2)]


@pytest.mark.parametrize("moment", [0.01, 0.5], ids=["start-up", "search"])
@pytest.mark.parametrize(("family", "name"), EXACT)
@timed[0]
@timed[1]
def test_a_stop_request_returns_the_best_result_within_2_s(family, name, moment):
    res, elapsed = _solve(family, name, stop_after=moment, time_limit=60.0)
    assert elapsed <= moment + GRACE, f"returned {elapsed - moment:.2f} s after the stop request"
    _check_stopped(res, "interrupt")


@pytest.mark.parametrize(("family", "name"), EXACT)
@timed[0]
@timed[1]
def test_a_time_limit_returns_the_best_result_within_2_s(family, name):
    res, elapsed = _solve(family, name, stop_after=None, time_limit=0.5)
    assert elapsed - res.stats.get("prepare_seconds", 0.0) <= 0.5 + GRACE
    _check_stopped(res, "time_limit")


def test_the_hard_instances_keep_the_methods_searching():
    # the "search" case stops a search, not a finished method: on HARD, CP-SAT and HiGHS still run at 0.5 s
    for family, name in (("hybrid", "milp"), ("locality", "cpsat"), ("online", "milp"), ("pack", "ilp")):
        res, _ = _solve(family, name, stop_after=0.5, time_limit=60.0)
        assert res.status is Status.TIME_LIMIT and res.stats["stopped_by"] == "interrupt", (family, name)


@timed[0]
@timed[1]
def test_ctrl_c_on_the_command_line_prints_interrupted_writes_the_schedule_and_exits_130(tmp_path):
    # as a terminal does it: SIGINT to the whole process group, once CP-SAT is searching
    import os
    import signal
    import subprocess
    import sys

    inst, sol = tmp_path / "inst.json", tmp_path / "sol.json"
    cs.save_instance(_locality(), inst)
    code = "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"
    args = [sys.executable, "-c", code, "solve", str(inst), "-m", "cpsat", "-o", str(sol), "--verbose"]
    # the command's output goes to files, and the time is taken to the process's exit: a pipe can stay open after
    # it if a child process the command leaves holds it, which is not what the contract is about
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out_path, "w") as out_file, open(err_path, "w") as err_file:
        # as from a terminal: SIGINT at its default (pytest-xdist's workers ignore it, and a child inherits that)
        restore = lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)  # noqa: E731
        proc = subprocess.Popen(
            args, stdout=out_file, stderr=err_file, text=True, start_new_session=True, preexec_fn=restore
        )
        try:
            started = time.perf_counter()
            while "Starting" not in err_path.read_text() and time.perf_counter() - started < 120:
                assert proc.poll() is None, "the command ended before CP-SAT's log started"
                time.sleep(0.02)  # CP-SAT's log (--verbose): the search has started
            time.sleep(0.3)
            assert proc.poll() is None, "the solve ended before the interrupt"
            sent = time.perf_counter()
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
    elapsed = time.perf_counter() - sent
    out, err = out_path.read_text(), err_path.read_text()
    assert elapsed <= GRACE + 1.0, elapsed  # + the interpreter's exit
    assert proc.returncode == 130 and "Traceback" not in err
    assert "interrupted" in err and "interrupted" in out
    data = read_json(sol)
    assert data["status"] == "TIME_LIMIT" and data["stats"]["stopped_by"] == "interrupt"
    instance = cs.load_instance(inst)
    cs.validate(instance, cs.load_schedule(instance, sol))
