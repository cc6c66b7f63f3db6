"""``cpsat``: the offline non-preemptive optimum as a CP-SAT model (OR-Tools), the second exact path.

Start s_j = r_j + o_j with o_j in [0, L_j - r_j] (windows of :mod:`.offline`), a
fixed-size interval [s_j, s_j + p_j) per task, one cumulative constraint of
capacity m (no-overlap when m = 1); the contribution of T_j is an element of its
cost table indexed by o_j (affine in o_j for the flow sum and maximum, where it is
written as such; likewise the stretch sum and maximum with exact integer weights).  Tasks with equal release and size are interchangeable: their
starts are ordered.  The incumbent policy schedule is the search hint.

CP-SAT takes integer costs.  Flows are integers.  A stretch F_j / max(p_j, B) is
scaled by L = lcm of the denominators max(p_j, B) when they are integers and the
scaled costs stay below 2^53 (the costs are then exact integers, squares included);
otherwise every cost is rounded to a multiple of 1/S with S a power of two chosen
so the sum stays below 2^53.  With rounding, the CP-SAT optimum is exact for the
rounded costs and the returned bound accounts for the rounding
(OPT >= (OPT_S - n/2) / S for the sums, (OPT_S - 1/2) / S for the maxima), and the
status is OPTIMAL only when the rounding error cannot change the optimal value by
more than a relative 1e-9.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import Deadline, MethodOptions, Result, Status, available_cores, method, option
from .bounds import lower_bound
from .instance import OnlineInstance
from .metrics import objective_value
from .offline import StartWindows, schedule_from_starts, start_windows
from .schedule import COMPLETED

MAX_TASKS = 100
MAX_STARTS = 400_000
_EXACT_LIMIT = 2.0**53


@dataclass(frozen=True)
class IntegerCosts:
    """``tables[j][o]`` = round(scale · g_j) for start offset o; ``exact`` when no rounding happened."""

    tables: list[np.ndarray]
    scale: float
    exact: bool


def integer_costs(w: StartWindows) -> IntegerCosts:
    """Scale the cost tables of ``w`` to integers (see the module docstring)."""
    inst = w.instance
    worst = sum(float(c[-1]) for c in w.costs)
    if inst.objective.endswith("flow"):
        return IntegerCosts([np.rint(c).astype(np.int64) for c in w.costs], 1.0, True)
    d = inst.stretch_denominator
    if np.all(d == np.round(d)) and not inst.clamp_stretch:
        lcm = math.lcm(*(int(x) for x in d))
        scale = float(lcm * lcm if w.kind == "l2" else lcm)
        if worst * scale < _EXACT_LIMIT:
            return IntegerCosts([np.rint(c * scale).astype(np.int64) for c in w.costs], scale, True)
    scale = 2.0 ** math.floor(math.log2(_EXACT_LIMIT / max(worst, 1e-300) / 4))
    return IntegerCosts([np.rint(c * scale).astype(np.int64) for c in w.costs], scale, False)


@dataclass(frozen=True)
class CpSatOptions(MethodOptions):
    workers: int = option(0, "CP-SAT search workers (0: the machine's cores)", min=0)


@method("online", "cpsat", exact=True, options=CpSatOptions)
def solve_cpsat(
    instance: OnlineInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: CpSatOptions
) -> Result:
    """Offline non-preemptive optimum: CP-SAT with a cumulative constraint (integer data, small n)."""
    from ortools.sat.python import cp_model

    deadline = Deadline(time_limit)
    w = start_windows(instance, "cpsat", max_tasks=MAX_TASKS, max_starts=MAX_STARTS)
    costs = integer_costs(w)
    model, offsets, objective = _build(cp_model, w, costs)
    start_of_incumbent = _incumbent_starts(w)
    for j, o in enumerate(offsets):
        model.add_hint(o, int(start_of_incumbent[j] - w.first[j]))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = options.workers or available_cores()
    solver.parameters.random_seed = int(seed or 0)
    solver.parameters.log_search_progress = bool(verbose)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(0.01, deadline.remaining())
    code = solver.solve(model)
    status_name = solver.status_name(code)
    stats: dict[str, Any] = {
        "solver": "CP-SAT",
        "starts": w.starts,
        "status": status_name,
        "weights": "exact" if costs.exact else f"rounded to 1/{costs.scale:.6g}",
        "scale": costs.scale,
        "branches": solver.num_branches,
        "incumbent_policy_value": w.incumbent_value,
    }
    schedule = w.incumbent
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        starts = np.array([w.first[j] + solver.value(o) for j, o in enumerate(offsets)])
        found = schedule_from_starts(instance, starts)
        if _true(w, found) <= w.incumbent_value:
            schedule = found
    slack = 0.0 if costs.exact else (0.5 if w.kind == "max" else 0.5 * instance.n)
    bound_scaled = solver.best_objective_bound if code in (cp_model.OPTIMAL, cp_model.FEASIBLE) else -math.inf
    certified = lower_bound(instance)
    if math.isfinite(bound_scaled):
        certified = max(certified, w.value(max(0.0, (bound_scaled - slack) / costs.scale)))
    value = _true(w, schedule)
    if code == cp_model.OPTIMAL and (costs.exact or value - certified <= 1e-9 * max(1.0, value)):
        return Result(Status.OPTIMAL, schedule, lower_bound=min(certified, value), stats=stats)
    status = Status.TIME_LIMIT if deadline.expired() or code == cp_model.FEASIBLE else Status.FEASIBLE
    return Result(status, schedule, lower_bound=min(certified, value), stats=stats, message=f"CP-SAT: {status_name}")


def _build(cp_model: Any, w: StartWindows, costs: IntegerCosts) -> tuple[Any, list[Any], Any]:
    inst = w.instance
    model = cp_model.CpModel()
    p = inst.time.astype(np.int64)
    offsets, intervals, terms = [], [], []
    linear = costs.exact and w.kind != "l2" and not inst.clamp_stretch  # g_j = (o_j + p_j) * scale / d_j
    for j in range(inst.n):
        table = costs.tables[j]
        o = model.new_int_var(0, len(table) - 1, f"o{j}")
        intervals.append(model.new_fixed_size_interval_var(o + int(w.first[j]), int(p[j]), f"run{j}"))
        offsets.append(o)
        if linear:
            step = int(table[1] - table[0]) if len(table) > 1 else 0
            terms.append(step * o + int(table[0]))
        else:
            g = model.new_int_var(int(table.min()), int(table.max()), f"g{j}")
            model.add_element(o, [int(x) for x in table], g)
            terms.append(g)
    if inst.processors == 1:
        model.add_no_overlap(intervals)
    else:
        model.add_cumulative(intervals, [1] * inst.n, inst.processors)
    groups: dict[tuple[int, int], list[int]] = {}
    for j in range(inst.n):
        groups.setdefault((int(w.first[j]), int(p[j])), []).append(j)
    for same in groups.values():  # interchangeable tasks: ordered starts
        for a, b in zip(same, same[1:], strict=False):
            model.add(offsets[a] <= offsets[b])
    if w.kind == "max":
        z = model.new_int_var(0, int(max(int(t.max()) for t in costs.tables)), "z")
        for term in terms:
            model.add(z >= term)
        model.minimize(z)
    else:
        model.minimize(sum(terms))
    return model, offsets, terms


def _incumbent_starts(w: StartWindows) -> np.ndarray:
    s = w.incumbent
    starts = np.zeros(w.instance.n, dtype=np.int64)
    done = s.outcome == COMPLETED
    starts[s.task[done]] = np.rint(s.start[done]).astype(np.int64)
    return starts


def _true(w: StartWindows, schedule: Any) -> float:
    return objective_value(w.instance, schedule.completion_times(w.instance))
