"""The solver back-end layer: CP-SAT, Pyomo + HiGHS and highspy, run the same way.

A family writes only its model; one of the runners below solves it.  Each takes the
model, the method's :class:`~coschedopt.core.deadline.Deadline`, the seed and the
worker count, configures the solver (threads, seed, time limit, output: off, or its log
on stderr when ``verbose``, never on stdout) and returns a :class:`SolverRun`: the
:class:`~coschedopt.core.status.Status` mapped once here, whether there is an
incumbent and how to read it, the certified bound and the solver's statistics.

======================  =========================================================
``run_cpsat``           an OR-Tools ``CpModel``
``run_pyomo_highs``     a Pyomo model, through Pyomo's HiGHS interface
``run_highs``           a ``highspy.Highs`` built with :func:`quiet_highs`
``run_cbc``             a PuLP problem, with CBC (stop and status as far as PuLP allows)
======================  =========================================================

and :func:`solver_result` turns the run into the method's :class:`~coschedopt.core.result.Result`
the same way for every family: the better of the solver's schedule and the family's own,
the status mapped, the bound clamped to the schedule returned.

**The stopping contract** (stated in :mod:`coschedopt.core.deadline`).  A method stops
when its deadline expires: on its time limit, or when a stop is requested (Ctrl-C inside
:func:`~coschedopt.core.deadline.stop_on_interrupt`, or
:func:`~coschedopt.core.deadline.request_stop` from any thread).  The layer, not the
family, watches the deadline while a solver runs:

* CP-SAT: ``stop_search()`` from a watcher thread (:func:`watch`); CP-SAT's own SIGINT
  handler is off (``catch_sigint_signal``), so Ctrl-C is the toolkit's stop request.
* HiGHS (highspy or Pyomo): its simplex, IPM and MIP interrupt callbacks, and, for its
  presolve, which calls none, its time limit set to 0 from a watcher thread.
* Pure-Python phases with no place to poll (building a Pyomo model, building a PuLP
  problem and writing CBC's input): :class:`Stopped` raised into them
  (:func:`interruptible`; the libraries are imported before, since an import cut halfway
  leaves a broken module behind).  Pyomo's transfer of the model to HiGHS polls the
  deadline between chunks of constraints.  Not numba's compilation (a method's one-time
  preparation): cut inside, numba stays broken for the process; it polls between steps.
* CBC, a child process: SIGINT (it stops with its incumbent), SIGKILL if it has not
  stopped :data:`CBC_GRACE` s later.

Between solver calls a method polls ``deadline.expired()``, and worker processes are
stopped by their parent.  A stopped run keeps its incumbent and its bound (status
``TIME_LIMIT``); :func:`coschedopt.solve` then records ``stats["stopped_by"]``
(``"interrupt"`` or ``"time_limit"``).

Pyomo + HiGHS: the model is handed to Pyomo's own HiGHS interface (so Pyomo maps the
variables and loads the values back), through a subclass that installs the layer's
interrupt callbacks on the ``highspy.Highs`` Pyomo built, right before it runs (it
overrides Pyomo's ``_solve`` and reads ``_solver_model``: private names of
``pyomo.contrib.solver.solvers.highs``, checked with Pyomo 6.10 by tests/core), and
that polls the deadline between chunks of constraints while Pyomo hands them over.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import progress
from .deadline import Deadline, stop_requested
from .machine import available_cores
from .result import Result
from .status import Status

#: how often a watcher thread looks at the deadline while CP-SAT runs (seconds)
WATCH_PERIOD = 0.02
#: how often :func:`interruptible` raises :class:`Stopped` again while the phase goes on (seconds)
RETRY_PERIOD = 0.25
#: at most this many constraints handed to Pyomo's HiGHS interface between two looks at the deadline
PYOMO_CHUNK = 2000
#: seconds one chunk of that transfer should take (the chunk grows or shrinks to it): the stop latency there
PYOMO_CHUNK_SECONDS = 0.05


@dataclass
class SolverRun:
    """The outcome of one solver call.

    ``status``: ``OPTIMAL`` (proven within the requested gap), ``INFEASIBLE``,
    ``TIME_LIMIT`` (stopped: time limit, Ctrl-C or another limit; the incumbent and
    the bound are kept), ``FEASIBLE`` (stopped by a requested gap or solution limit)
    or ``ERROR``.  ``value(var)`` reads a variable of the incumbent (when
    ``has_solution``); ``bound`` is the solver's certified dual bound (None when it
    has none).  ``solver`` is the solver object, for the values a family reads itself
    (``CpSolver``, ``highspy.Highs``; Pyomo's results, with their ``solution_loader``).
    """

    status: Status
    has_solution: bool = False
    objective: float | None = None
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    value: Callable[[Any], float] | None = None
    solver: Any = None
    #: the solver's own status code (CP-SAT's status, HiGHS's model status; None: not run)
    raw: Any = None
    #: the model solved (:func:`run_pyomo_highs` builds it; None when stopped before it was built)
    model: Any = None

    @property
    def stopped_by(self) -> str | None:
        """``"interrupt"``, ``"time_limit"`` or None (the solver finished)."""
        return stopped_by(self.status)

    @property
    def iteration_limited(self) -> bool:
        """Whether HiGHS stopped at its simplex iteration limit (the point reached is kept, not an optimum)."""
        if self.raw is None or not type(self.raw).__module__.startswith("highspy"):
            return False
        import highspy

        return self.raw == highspy.HighsModelStatus.kIterationLimit


def stopped_by(status: Status) -> str | None:
    """Why a run with ``status`` ended early: ``"interrupt"`` (a stop request), ``"time_limit"``, or None."""
    if status is not Status.TIME_LIMIT:
        return None
    return "interrupt" if stop_requested() else "time_limit"


def _seed(seed: int | None) -> int:
    return int(seed or 0) % (2**31 - 1)


@contextlib.contextmanager
def watch(
    deadline: Deadline, cancel: Callable[[], None], period: float = WATCH_PERIOD, repeat: bool = False
) -> Iterator[None]:
    """Call ``cancel()`` from a watcher thread once ``deadline`` expires while the block runs (checked
    every :data:`WATCH_PERIOD` at most; with ``repeat``, again every ``period`` until the block ends)."""
    done = threading.Event()

    def loop() -> None:
        fired = False
        while not done.wait(period if fired else min(period, WATCH_PERIOD)):
            if deadline.expired():
                cancel()
                fired = True
                if not repeat:
                    return

    thread = threading.Thread(target=loop, name="coschedopt-stop-watch", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


class Stopped(BaseException):
    """Raised into a long pure-Python phase (building a Pyomo model, handing it to the solver)
    when its deadline expires; a ``BaseException`` so that no library's ``except Exception`` eats it."""


@contextlib.contextmanager
def interruptible(deadline: Deadline, native: Callable[[], bool] | None = None) -> Iterator[Callable[[], None]]:
    """Raise :class:`Stopped` in this thread, at its next Python instruction, once ``deadline``
    expires inside the block; yields ``disarm()``, to call before code that must not be cut
    (a solver run, which the layer stops its own way).  The caller catches ``Stopped`` around
    the block.  (Pure-Python phases of a library, such as Pyomo's model transfer, have no
    place where a family could poll its deadline.)  ``native()``, if given, is asked first
    at each try: when it returns True (it stopped a solver process itself), nothing is raised
    and the block is disarmed."""
    import ctypes

    target = threading.get_ident()
    lock = threading.Lock()
    armed = [True]

    def disarm() -> None:
        with lock:
            armed[0] = False

    def inject() -> None:
        with lock:
            if native is not None and native():
                armed[0] = False
            if armed[0]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(Stopped))

    # again every RETRY_PERIOD: an exception raised inside a gc callback or a __del__ is dropped by
    # Python; rarely enough that the clean-up of the first one (Pyomo restoring stdout) is not cut
    with watch(deadline, inject, period=RETRY_PERIOD, repeat=True):
        try:
            yield disarm
        finally:
            disarm()


# --------------------------------------------------------------------------- CP-SAT


def run_cpsat(
    model: Any,
    deadline: Deadline,
    *,
    seed: int | None = None,
    workers: int | None = None,
    verbose: bool = False,
    params: dict[str, Any] | None = None,
) -> SolverRun:
    """Solve the ``CpModel`` within ``deadline`` (``workers`` None or 0: the cores this process may use)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = workers or available_cores()
    p.random_seed = _seed(seed)
    p.catch_sigint_signal = False  # the layer stops it (module docstring)
    if verbose:
        p.log_search_progress = True
        p.log_to_stdout = False
        solver.log_callback = lambda line: print(line, file=sys.stderr)
    for key, val in (params or {}).items():
        setattr(p, key, val)
    stats: dict[str, Any] = {"solver": "CP-SAT", "workers": p.num_workers}
    if deadline.expired():
        return SolverRun(Status.TIME_LIMIT, stats={**stats, "status": "NOT_RUN"}, solver=solver)
    rem = deadline.remaining()
    if math.isfinite(rem):
        p.max_time_in_seconds = max(1e-3, rem)
    callback = _cpsat_progress(solver, model) if progress.listening() else None
    with watch(deadline, solver.stop_search):
        code = solver.solve(model, callback)
    stats.update(
        status=solver.status_name(code),
        conflicts=solver.num_conflicts,
        branches=solver.num_branches,
        seconds=round(solver.wall_time, 3),
    )
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if code == cp_model.OPTIMAL:
        status = Status.OPTIMAL
    elif code == cp_model.INFEASIBLE:
        status = Status.INFEASIBLE
    elif code == cp_model.MODEL_INVALID:
        status = Status.ERROR
    else:  # FEASIBLE or UNKNOWN: stopped
        status = Status.TIME_LIMIT
    has_objective = found and model.has_objective()
    return SolverRun(
        status,
        has_solution=found,
        objective=float(solver.objective_value) if has_objective else None,
        bound=float(solver.best_objective_bound) if has_objective else None,
        stats=stats,
        value=solver.value if found else None,
        solver=solver,
        raw=code,
    )


def _cpsat_progress(solver: Any, model: Any) -> Any:
    """A solution callback reporting the search's gap to :mod:`coschedopt.core.progress` at each new
    solution, and at each better bound (``best_bound_callback``); None for a model without an objective."""
    if not model.has_objective():
        return None
    from ortools.sat.python import cp_model

    last = [math.inf]

    def on_bound(bound: float) -> None:
        progress.report(gap=progress.solver_gap(last[0], bound))

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            last[0] = self.objective_value
            progress.report(gap=progress.solver_gap(self.objective_value, self.best_objective_bound))

    solver.best_bound_callback = on_bound
    return Report()


# --------------------------------------------------------------------------- highspy

_banner_lock = threading.Lock()
_banner_written = False


def quiet_highs(threads: int | None = None) -> Any:
    """A ``highspy.Highs`` with its output off, its banner swallowed, watched by :func:`run_highs`.

    HiGHS 1.16 prints its banner on the process's standard output when the first
    ``Highs`` of a process is built, before any option can be set (``solve --json``
    printed two lines before its JSON): the first construction runs with file
    descriptor 1 on the null device.  ``threads``: HiGHS starts one thread pool per
    process, sized by the first solve; a later instance asking for another count
    refuses to run, so leave it ``None`` unless every HiGHS of the process asks the same.
    """
    import highspy

    global _banner_written
    with _banner_lock:
        if not _banner_written:
            sys.stdout.flush()
            saved = os.dup(1)
            try:
                with open(os.devnull, "wb") as null:
                    os.dup2(null.fileno(), 1)
                    h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _banner_written = True
        else:
            h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if threads is not None:
        h.setOptionValue("threads", threads)
    return h


def _watch_highs(h: Any, deadline: Deadline) -> None:
    """Interrupt ``h``'s simplex, IPM and MIP when ``deadline`` expires (callbacks installed once per object)."""
    h._coschedopt_deadline = deadline
    if getattr(h, "_coschedopt_watched", False):
        return

    def interrupt(event: Any) -> None:
        if h._coschedopt_deadline.expired():
            event.interrupt()

    def mip_interrupt(event: Any) -> None:
        if progress.listening():  # the branch and bound's gap, for a live view
            out = event.data_out
            progress.report(gap=progress.solver_gap(out.mip_primal_bound, out.mip_dual_bound))
        interrupt(event)

    h.cbSimplexInterrupt += interrupt
    h.cbIpmInterrupt += interrupt
    h.cbMipInterrupt += mip_interrupt
    h._coschedopt_watched = True


def _expire_highs(h: Any) -> None:
    """Make a running HiGHS meet its time limit: its presolve calls no interrupt callback,
    but reads the time limit (a watcher thread sets it while HiGHS runs)."""
    h.setOptionValue("time_limit", 0.0)


def highs_status(h: Any) -> tuple[Status, bool]:
    """The toolkit's status of ``h``'s last run and whether it holds a feasible solution."""
    import highspy

    ms = h.getModelStatus()
    has_solution = h.getInfo().primal_solution_status == 2
    S = highspy.HighsModelStatus
    if ms == S.kOptimal:
        return Status.OPTIMAL, has_solution
    if ms == S.kInfeasible:
        return Status.INFEASIBLE, False
    if ms in (S.kTimeLimit, S.kInterrupt, S.kHighsInterrupt, S.kIterationLimit, S.kMemoryLimit):
        return Status.TIME_LIMIT, has_solution
    if ms in (S.kSolutionLimit, S.kObjectiveBound, S.kObjectiveTarget):
        return Status.FEASIBLE, has_solution
    return Status.ERROR, has_solution


def run_highs(
    h: Any,
    deadline: Deadline,
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    time_limit: float | None = None,
) -> SolverRun:
    """Run the ``highspy.Highs`` ``h`` (from :func:`quiet_highs`) within ``deadline``.

    ``time_limit`` caps this run further (a sub-task's share); HiGHS's ``time_limit``
    counts from the object's creation, so it is set as run time so far + the time left.
    ``stats`` has the model status, the node and iteration counts.
    """
    for key, val in (options or {}).items():
        h.setOptionValue(key, val)
    if seed is not None:
        h.setOptionValue("random_seed", _seed(seed))
    _watch_highs(h, deadline)
    if deadline.expired():
        return SolverRun(Status.TIME_LIMIT, stats={"solver": "HiGHS", "termination": "not run"}, solver=h)
    rem = min(deadline.remaining(), math.inf if time_limit is None else time_limit)
    h.setOptionValue("time_limit", h.getRunTime() + max(1e-3, rem) if math.isfinite(rem) else math.inf)
    with watch(deadline, lambda: _expire_highs(h)):
        h.run()
    return _highs_run(h)


def _highs_run(h: Any) -> SolverRun:
    status, has_solution = highs_status(h)
    info = h.getInfo()
    mip = info.mip_node_count >= 0
    stats = {
        "solver": "HiGHS",
        "termination": h.modelStatusToString(h.getModelStatus()),
        "nodes": int(info.mip_node_count) if mip else None,
        "simplex_iterations": int(info.simplex_iteration_count),
    }
    if mip:
        bound = float(info.mip_dual_bound) if math.isfinite(info.mip_dual_bound) else None
    else:
        bound = float(info.objective_function_value) if status is Status.OPTIMAL else None
    col_value = h.getSolution().col_value if has_solution else None
    return SolverRun(
        status,
        has_solution=has_solution,
        objective=float(info.objective_function_value) if has_solution else None,
        bound=bound,
        stats=stats,
        value=(lambda j: col_value[j]) if has_solution else None,
        solver=h,
        raw=h.getModelStatus(),
    )


# --------------------------------------------------------------------------- Pyomo + HiGHS


@contextlib.contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """The cyclic garbage collector off while a model is built: a build allocates millions of small
    objects, each allocation burst can start a full collection of a large heap, and a collection is
    one C call that neither a stop request nor :class:`Stopped` can cut (seconds in a long test run).
    A model holds few cycles; the next collection after the block takes them."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _pyomo_highs_class() -> type:
    from pyomo.contrib.solver.solvers.highs import Highs

    class WatchedHighs(Highs):
        """Pyomo's HiGHS interface that polls the deadline while it hands the constraints to HiGHS
        (by chunks: raising :class:`Stopped` there, never inside Pyomo's output capture's clean-up)
        and puts the layer's interrupt callbacks on the ``highspy.Highs`` it runs."""

        deadline: Deadline

        def add_constraints(self, cons: list) -> None:
            # chunks sized to take about PYOMO_CHUNK_SECONDS each, whatever a constraint's length
            i, size = 0, 16
            while i < len(cons):
                if self.deadline.expired():
                    raise Stopped
                start = time.perf_counter()
                super().add_constraints(cons[i : i + size])
                i += size
                took = time.perf_counter() - start
                size = max(1, min(PYOMO_CHUNK, int(size * min(4.0, PYOMO_CHUNK_SECONDS / max(took, 1e-6)))))

        def _solve(self) -> Any:
            _watch_highs(self._solver_model, self.deadline)
            with watch(self.deadline, lambda: _expire_highs(self._solver_model)):
                return super()._solve()

    return WatchedHighs


def run_pyomo_highs(
    model: Any,
    deadline: Deadline,
    *,
    seed: int | None = None,
    verbose: bool = False,
    rel_gap: float = 0.0,
    abs_gap: float | None = None,
    options: dict[str, Any] | None = None,
    known_feasible: bool = False,
) -> SolverRun:
    """Solve a Pyomo model with HiGHS within ``deadline``; an incumbent's values are loaded into
    the model's variables (``has_solution``).  ``options``: HiGHS options by name.

    ``known_feasible``: the caller holds a solution of the model (a heuristic's schedule inside
    its windows), so "infeasible" is a solver error; HiGHS's presolve is then turned off and the
    model solved again in the time left (HiGHS 1.16's presolve declares some small time-indexed
    models infeasible that it solves to optimality without it; ``stats["presolve_retry"]``).

    ``model`` is the model or a function building it: building it here lets the deadline cut
    a long build too (:func:`interruptible`), as it cuts Pyomo's transfer of the model to
    HiGHS; ``SolverRun.model`` is the model (None when stopped before it was built).
    """
    import pyomo.environ  # noqa: F401  (imported before the interruptible build: see the module docstring)

    not_run = SolverRun(Status.TIME_LIMIT, stats={"solver": "HiGHS (Pyomo)", "termination": "not run"})
    if deadline.expired():
        return not_run
    solver = _pyomo_highs_class()()
    if not solver.available():
        raise RuntimeError("HiGHS is not available to Pyomo (install highspy)")
    solver.deadline = deadline
    config: dict[str, Any] = {
        "load_solutions": False,
        "raise_exception_on_nonoptimal_result": False,
        "rel_gap": rel_gap,
        "abs_gap": abs_gap,
        "tee": sys.stderr if verbose else False,
        "solver_options": {"random_seed": _seed(seed), **(options or {})},
    }
    # Pyomo warns about HiGHS's "interrupted" status, which it does not know (the layer maps it),
    # and logs a model construction cut by Stopped as an error
    logs = [logging.getLogger(name) for name in ("pyomo.contrib.solver.solvers.highs", "pyomo.core")]
    levels = [log.level for log in logs]
    logs[0].setLevel(logging.ERROR)
    logs[1].setLevel(logging.CRITICAL)
    try:
        with interruptible(deadline), _no_gc_pauses():
            built = model() if callable(model) else model
        rem = deadline.remaining()
        if math.isfinite(rem):
            config["time_limit"] = max(1e-3, rem)
        res = solver.solve(built, **config)
        if known_feasible and _highs_run(solver._solver_model).status is Status.INFEASIBLE and not deadline.expired():
            config["solver_options"] = {**config["solver_options"], "presolve": "off"}
            if math.isfinite(rem):
                config["time_limit"] = max(1e-3, deadline.remaining())
            res = solver.solve(built, **config)
            retried = True
        else:
            retried = False
    except Stopped:
        not_run.model = None if callable(model) else model
        return not_run
    finally:
        for log, level in zip(logs, levels, strict=True):
            log.setLevel(level)
    run = _highs_run(solver._solver_model)
    run.stats["solver"] = f"HiGHS {'.'.join(map(str, solver.version()))} (Pyomo)"
    if retried:
        run.stats["presolve_retry"] = True
    run.solver, run.model = res, built
    if run.has_solution:
        res.solution_loader.load_vars()
        run.value = lambda var: var.value
    return run


# --------------------------------------------------------------------------- PuLP + CBC


#: seconds CBC gets to stop on SIGINT with its incumbent before it is killed (it polls rarely)
CBC_GRACE = 1.0


def run_cbc(
    build: Callable[[], tuple[Any, Any]],
    make_solver: Callable[..., Any],
    deadline: Deadline,
    *,
    seed: int | None,
    rel_gap: float,
    options: list[str] | None = None,
    log_path: str | None = None,
) -> tuple[Status, Any]:
    """Build a PuLP problem (``build()`` returns the problem and the variables the family reads)
    and solve it with CBC (``make_solver(**kwargs)`` builds PuLP's ``COIN_CMD``) within
    ``deadline``.  Returns the status and what ``build()`` returned (None when stopped before
    it was built); the family reads the values and CBC's log, the only place PuLP leaves its bound.

    Stopping, as far as PuLP allows: building the problem and PuLP's writing of the model
    file are cut by :func:`interruptible`; CBC itself, a child process, is sent SIGINT (a
    terminal's Ctrl-C reaches it anyway: same process group) and stops with its incumbent,
    or is killed when it has not stopped :data:`CBC_GRACE` seconds later (CBC polls the
    signal rarely; its incumbent is lost then: ``TIME_LIMIT`` without a solution).  CBC
    processes are found in Linux's ``/proc``; elsewhere CBC stops at its time limit.
    """
    import pulp

    kwargs: dict[str, Any] = {"msg": False, "gapRel": rel_gap, "gapAbs": 0.0, "options": list(options or [])}
    if seed is not None:
        kwargs["options"].append(f"randomCbcSeed {_seed(seed) + 1}")
    if log_path is not None:
        kwargs["logPath"] = log_path
    signalled: dict[int, float] = {}
    built = None
    try:
        with interruptible(deadline, native=lambda: _stop_cbc(signalled)):
            built = build()
            rem = deadline.remaining()
            if math.isfinite(rem):
                kwargs["timeLimit"] = max(1, math.ceil(rem))  # CBC takes whole seconds
            built[0].solve(make_solver(**kwargs))
    except (Stopped, pulp.PulpSolverError):
        if not deadline.expired():
            raise
        _stop_cbc(signalled, kill=True)  # Stopped while PuLP started CBC: no orphan left running
        return Status.TIME_LIMIT, built
    problem = built[0]
    if problem.sol_status == pulp.LpSolutionOptimal:
        return Status.OPTIMAL, built
    if problem.status == pulp.LpStatusInfeasible:
        return Status.INFEASIBLE, built
    if problem.sol_status == pulp.LpSolutionIntegerFeasible or deadline.expired():
        return Status.TIME_LIMIT, built
    return Status.ERROR, built


def _stop_cbc(signalled: dict[int, float], kill: bool = False) -> bool:
    """SIGINT to this process's CBC child processes (once each: ``signalled`` maps them to the
    time), SIGKILL to those still running :data:`CBC_GRACE` s later (or at once with ``kill``);
    whether there was one.  Linux ``/proc``; elsewhere a no-op returning False."""
    import glob
    import signal
    import time

    found = False
    now = time.perf_counter()
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        with contextlib.suppress(OSError), open(path) as fh:
            for pid in map(int, fh.read().split()):
                with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as cmd:
                    if b"cbc" not in cmd.read().lower():
                        continue
                    found = True
                    if pid not in signalled:
                        signalled[pid] = now
                        os.kill(pid, signal.SIGKILL if kill else signal.SIGINT)
                    elif kill or now - signalled[pid] > CBC_GRACE:
                        os.kill(pid, signal.SIGKILL)
    return found


# --------------------------------------------------------------------------- from a run to a Result


def solver_result(
    status: Status,
    found: Any | None,
    start: Any | None,
    objective: Callable[[Any], float],
    bound: float | None,
    *,
    proven: bool | None = None,
    exact: bool = True,
    stats: dict[str, Any] | None = None,
    message: str = "",
) -> Result:
    """The :class:`~coschedopt.core.result.Result` of an exact method whose model was solved with
    ``status`` (a :class:`SolverRun`'s, or :func:`run_cbc`'s): what every exact method does with its run.

    * The schedule: ``found``, the solver's incumbent as the family decoded it (None: the solver
      has none), unless ``start`` is strictly better by ``objective``.  ``start`` is the family's
      own schedule (the heuristic its model was bounded or hinted with, or a fallback): a solver
      stopped early may hold a worse incumbent, or none.
    * The status: ``OPTIMAL`` when the run proved its incumbent optimal (``proven``; by default
      whether ``status`` is ``OPTIMAL``: a family asks more when its model is a rounding of the
      objective, or when it asked the solver for a gap); otherwise ``TIME_LIMIT`` when the run was
      stopped (time limit or stop request) and ``FEASIBLE`` when it ended for another reason
      (a requested gap or limit, or a solver failure): a valid schedule, not proven.
    * The lower bound: proven optimal, the schedule's objective (with ``exact``; else it is only
      optimal within a tolerance or a requested gap, and the bound is the one below); otherwise
      ``bound``, the family's certified bound with the solver's folded in, clamped to the objective
      (a bound above the schedule in hand is the solver's tolerance, not information).
    * ``message`` is the Result's when optimality is not proven.
    """
    schedule = start if found is None or (start is not None and objective(start) < objective(found)) else found
    value = objective(schedule)
    proven = (status is Status.OPTIMAL if proven is None else proven) and found is not None
    stats = {} if stats is None else stats
    if proven:
        return Result(Status.OPTIMAL, schedule, lower_bound=value if exact else _clamp(bound, value), stats=stats)
    stopped = Status.TIME_LIMIT if status is Status.TIME_LIMIT else Status.FEASIBLE
    return Result(stopped, schedule, lower_bound=_clamp(bound, value), stats=stats, message=message)


def _clamp(bound: float | None, value: float) -> float | None:
    return None if bound is None else min(bound, value)
