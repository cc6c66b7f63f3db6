"""core/backends.py: the solver layer maps each solver's outcome once, and stops it on request."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from coschedopt.core import Deadline, Status, quiet_highs, run_cpsat, run_highs, run_pyomo_highs, solver_result
from coschedopt.core.backends import Stopped, interruptible, stopped_by
from coschedopt.core.deadline import request_stop, stop_on_interrupt


def _cpsat_model(infeasible: bool = False):
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    y = model.new_int_var(0, 10, "y")
    model.add(x + y >= 7)
    if infeasible:
        model.add(x + y <= 3)
    model.minimize(2 * x + 3 * y)
    return model, x


def test_run_cpsat_maps_optimal_and_infeasible_and_reads_the_incumbent():
    model, x = _cpsat_model()
    run = run_cpsat(model, Deadline(10), seed=0, workers=1)
    assert run.status is Status.OPTIMAL and run.has_solution
    assert run.objective == run.bound == 14 and run.value(x) == 7
    run = run_cpsat(_cpsat_model(infeasible=True)[0], Deadline(10), workers=1)
    assert run.status is Status.INFEASIBLE and not run.has_solution


def _lp():
    import highspy

    h = quiet_highs()
    inf = highspy.kHighsInf
    h.addVars(2, np.zeros(2), np.full(2, inf))
    h.changeColsCost(2, np.arange(2, dtype=np.int32), np.array([2.0, 3.0]))
    h.addRow(7.0, inf, 2, np.arange(2, dtype=np.int32), np.ones(2))
    return h


def test_run_highs_maps_optimal_and_reads_the_solution():
    run = run_highs(_lp(), Deadline(10), seed=0)
    assert run.status is Status.OPTIMAL and run.has_solution
    assert run.objective == pytest.approx(14.0) and run.bound == pytest.approx(14.0) and run.value(0) == 7.0


def test_run_pyomo_highs_builds_the_model_and_loads_the_values():
    import pyomo.environ as pyo

    def build():
        m = pyo.ConcreteModel()
        m.x = pyo.Var(domain=pyo.NonNegativeIntegers)
        m.y = pyo.Var(domain=pyo.NonNegativeIntegers)
        m.c = pyo.Constraint(expr=m.x + m.y >= 7)
        m.o = pyo.Objective(expr=2 * m.x + 3 * m.y)
        return m

    run = run_pyomo_highs(build, Deadline(10), seed=0)
    assert run.status is Status.OPTIMAL and run.has_solution and run.bound == pytest.approx(14.0)
    assert run.value(run.model.x) == pytest.approx(7.0)


def test_a_stop_requested_before_a_run_returns_time_limit_without_running():
    with stop_on_interrupt():
        request_stop()
        assert stopped_by(Status.TIME_LIMIT) == "interrupt"
        for run in (
            run_cpsat(_cpsat_model()[0], Deadline(10)),
            run_highs(_lp(), Deadline(10)),
            run_pyomo_highs(lambda: None, Deadline(10)),
        ):
            assert run.status is Status.TIME_LIMIT and not run.has_solution and run.stopped_by == "interrupt"
    assert stopped_by(Status.TIME_LIMIT) == "time_limit" and stopped_by(Status.OPTIMAL) is None


def test_interruptible_cuts_a_pure_python_phase_and_disarm_protects_what_follows():
    # the deadlines expire when the test moves their clock; the watcher thread, which looks every
    # WATCH_PERIOD (0.02 s), runs in real time: the phase spins at most 5 s, far beyond its cut
    now = [0.0]
    with pytest.raises(Stopped), interruptible(Deadline(1.0, clock=lambda: now[0])):
        now[0] = 1.0
        start = time.perf_counter()
        while time.perf_counter() - start < 5:
            pass
    now[0] = 0.0
    with interruptible(Deadline(1.0, clock=lambda: now[0])) as disarm:
        disarm()
        now[0] = 1.0
        time.sleep(0.4)  # the watcher sees the deadline expired (and retries past RETRY_PERIOD): not cut


def test_a_stop_request_from_another_thread_stops_a_running_cpsat_search():
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()  # a pigeonhole model CP-SAT does not close quickly: 13 pigeons, 12 holes
    n = 13
    x = [[model.new_bool_var(f"x{i}{j}") for j in range(n - 1)] for i in range(n)]
    for i in range(n):
        model.add_exactly_one(x[i])
    for j in range(n - 1):
        model.add_at_most_one(x[i][j] for i in range(n))
    with stop_on_interrupt():
        timer = threading.Timer(0.3, request_stop)
        timer.start()
        start = time.perf_counter()
        run = run_cpsat(model, Deadline(60), workers=1, params={"cp_model_presolve": False})
        elapsed = time.perf_counter() - start
        timer.cancel()  # proved before it fired: no stop request left over for the next test
        why = run.stopped_by  # read while the stop request lasts
    # proved before the stop on a fast machine, else stopped by the request, within the contract's 2 s
    assert run.status is Status.INFEASIBLE or (run.status is Status.TIME_LIMIT and why == "interrupt")
    assert elapsed < 0.3 + 2.0


def test_solver_result_keeps_the_better_schedule_maps_the_status_and_clamps_the_bound():
    cost = float  # schedules stand for their own objective here
    res = solver_result(Status.OPTIMAL, 5.0, 7.0, cost, 4.999)
    assert (res.status, res.schedule, res.lower_bound, res.message) == (Status.OPTIMAL, 5.0, 5.0, "")
    res = solver_result(Status.OPTIMAL, 5.0, 7.0, cost, 4.5, exact=False)  # optimal within a gap: bound kept
    assert res.status is Status.OPTIMAL and res.lower_bound == 4.5
    res = solver_result(Status.OPTIMAL, 5.0, 7.0, cost, 4.5, proven=False, message="rounded")  # e.g. rounded weights
    assert (res.status, res.lower_bound, res.message) == (Status.FEASIBLE, 4.5, "rounded")
    res = solver_result(Status.TIME_LIMIT, 9.0, 7.0, cost, 8.0, stats={"k": 1}, message="stopped")
    assert (res.status, res.schedule, res.lower_bound, res.stats) == (Status.TIME_LIMIT, 7.0, 7.0, {"k": 1})
    assert solver_result(Status.TIME_LIMIT, 7.0, 7.0, cost, 3.0).schedule == 7.0  # a tie keeps the solver's
    res = solver_result(Status.TIME_LIMIT, None, 7.0, cost, None)  # stopped before the first incumbent
    assert (res.status, res.schedule, res.lower_bound) == (Status.TIME_LIMIT, 7.0, None)
    for other in (Status.FEASIBLE, Status.ERROR, Status.INFEASIBLE):  # a gap or limit reached, or a solver failure
        assert solver_result(other, 6.0, 7.0, cost, 3.0).status is Status.FEASIBLE
    assert solver_result(Status.OPTIMAL, None, 7.0, cost, 3.0).status is Status.FEASIBLE  # nothing proven
