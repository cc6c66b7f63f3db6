"""``cpsat``: the assignment model in OR-Tools CP-SAT (the note's section 4).

Same Booleans as :mod:`.milp` (x[j, i] task j on CPU i, y[j, g] on GPU g, with the
same rank-based symmetry breaking), ``add_exactly_one`` per task, one linear load
<= C per machine, the two aggregate area cuts, C between LB_λ and the best quick
heuristic, and that heuristic's schedule as the solution hint.  CP-SAT needs
integers: times are scaled by the data's grid (``HybridInstance.time_scale``,
integers: 1); data with more than 6 decimals is refused.  No intervals are needed:
on each machine the tasks just run back to back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...core import Deadline, MethodOptions, MethodRefused, Result, Status, method, option, run_cpsat, solver_result
from ..bounds import best_lower_bound
from ..instance import HybridInstance
from ..schedule import HybridSchedule, makespan
from .common import decreasing_ranks, incumbent, rank_relabel, schedule_from_units


@dataclass(frozen=True)
class CpsatOptions(MethodOptions):
    workers: int = option(0, "CP-SAT search workers (0: the machine's cores)", min=0)
    symmetry_breaking: bool = option(True, "allow task of rank r only on machines 0..r of each type")
    hint: bool = option(True, "hint the best quick heuristic's schedule")
    shortcut: bool = option(
        True, "return the best quick heuristic at once when it meets the lower bound", advanced=True
    )


def integer_times(instance: HybridInstance, method_name: str) -> tuple[int, list[int], list[int]]:
    """(scale, CPU times, GPU times) as integers on the data's grid; refuses data without one."""
    s = instance.time_scale
    if s is None:
        raise MethodRefused(
            f"{method_name} needs times on a decimal grid (at most 6 decimals); round the times first",
            where="tasks",
        )
    return s, [round(v * s) for v in instance.cpu_time.tolist()], [round(v * s) for v in instance.gpu_time.tolist()]


def build_cpsat(
    instance: HybridInstance, p: list[int], q: list[int], lower: int, upper: int, symmetry_breaking: bool
) -> tuple[Any, dict, dict, Any]:
    """The CP-SAT model; returns (model, x, y, C)."""
    from ortools.sat.python import cp_model

    n, m, k = instance.n, instance.cpus, instance.gpus
    r = decreasing_ranks(instance.cpu_time) if symmetry_breaking else np.full(n, n)
    rb = decreasing_ranks(instance.gpu_time) if symmetry_breaking else np.full(n, n)
    model = cp_model.CpModel()
    x = {(j, i): model.new_bool_var(f"x{j}_{i}") for j in range(n) for i in range(min(m, int(r[j]) + 1))}
    y = {(j, g): model.new_bool_var(f"y{j}_{g}") for j in range(n) for g in range(min(k, int(rb[j]) + 1))}
    C = model.new_int_var(lower, upper, "C")
    for j in range(n):
        model.add_exactly_one([v for (jj, _), v in x.items() if jj == j] + [v for (jj, _), v in y.items() if jj == j])
    for i in range(m):
        model.add(sum(p[j] * v for (j, ii), v in x.items() if ii == i) <= C)
    for g in range(k):
        model.add(sum(q[j] * v for (j, gg), v in y.items() if gg == g) <= C)
    if m:
        model.add(sum(p[j] * v for (j, _), v in x.items()) <= m * C)
    if k:
        model.add(sum(q[j] * v for (j, _), v in y.items()) <= k * C)
    model.minimize(C)
    return model, x, y, C


def hint_schedule(model: Any, x: dict, y: dict, instance: HybridInstance, schedule: HybridSchedule) -> None:
    """Hint ``schedule``, its machines relabelled to respect the rank rule (:func:`.common.rank_relabel`)."""
    for gpu, table, times in ((False, x, instance.cpu_time), (True, y, instance.gpu_time)):
        unit = rank_relabel(schedule, gpu, decreasing_ranks(times))
        for (j, u), var in table.items():
            model.add_hint(var, int(unit.get(j) == u))


def decode(instance: HybridInstance, value: Any, x: dict, y: dict) -> HybridSchedule:
    """The schedule of a CP-SAT solution (``value`` reads a variable): each task on the unit whose Boolean
    is true, back to back."""
    on_gpu = np.zeros(instance.n, dtype=bool)
    unit = np.zeros(instance.n, dtype=np.int64)
    for (j, g), v in y.items():
        if value(v):
            on_gpu[j], unit[j] = True, g
    for (j, i), v in x.items():
        if value(v):
            unit[j] = i
    return schedule_from_units(instance, on_gpu, unit)


@method("hybrid", "cpsat", exact=True, options=CpsatOptions)
def cpsat(instance: HybridInstance, *, time_limit, seed, verbose, options: CpsatOptions) -> Result:
    """The assignment model in CP-SAT, hinted with the best quick heuristic (integer or decimal data)."""
    deadline = Deadline(time_limit)
    s, p, q = integer_times(instance, "cpsat")
    lb = best_lower_bound(instance)
    start = incumbent(instance)
    ub = makespan(instance, start)
    if options.shortcut and ub <= lb:
        return Result(Status.OPTIMAL, start, lower_bound=lb, message="heuristic meets the lower bound")
    model, x, y, C = build_cpsat(instance, p, q, round(lb * s), round(ub * s), options.symmetry_breaking)
    if options.hint:
        hint_schedule(model, x, y, instance, start)
    run = run_cpsat(model, deadline, seed=seed, workers=options.workers, verbose=verbose)
    stats = {"incumbent_start": ub, **run.stats}
    found = decode(instance, run.value, x, y) if run.has_solution else None
    bound = lb if run.bound is None else max(lb, run.bound / s)
    return solver_result(run.status, found, start, partial(makespan, instance), bound, stats=stats)
