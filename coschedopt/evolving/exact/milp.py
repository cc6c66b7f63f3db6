"""``milp``: the no-stretch minimum makespan as a time-indexed MILP (Pyomo + HiGHS), cross-checking ``cpsat``.

Without stretching an application is a rigid profile ep_i of length L_i that only
moves in time.  With x[i, tau] = 1 when application i starts at tau (time in units of
the durations' gcd, tau = 0 .. H - L_i, H the makespan of ``nos``)::

    minimise C
    sum_tau x[i, tau] = 1                                          every application starts once
    sum_{i, tau} x[i, tau] ep_i(t - tau) <= nodes                  t = 0 .. H - 1
    C >= sum_tau (tau + L_i) x[i, tau]                             every completion

sum_i (H - L_i + 1) binaries and H capacity rows with sum_i (H - L_i + 1) L_i
nonzeros: instances whose horizon exceeds ``max_horizon`` units are refused.  A model
independent of CP-SAT's (time-indexed against interval variables, HiGHS against
CP-SAT), so that ``cpsat`` with ``stretch_limit = 1`` and ``milp`` agreeing on many
random instances checks both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import Deadline, MethodRefused, Result, method, option, run_pyomo_highs, solver_result
from ..heuristics import makespan_lower_bound
from ..instance import EvolvingInstance
from ..listsched import list_schedule
from ..nodeids import NodeIdOptions, with_node_ids
from ..schedule import EvolvingSchedule, ScheduledApplication, makespan
from .grid import time_grid


@dataclass(frozen=True)
class MilpOptions(NodeIdOptions):
    """Options of ``milp``."""

    max_horizon: int = option(2000, "refuse instances whose horizon (nos's makespan) exceeds this many units", min=1)


def _profile_units(durations: tuple[int, ...], nodes: tuple[int, ...]) -> list[int]:
    """ep(u) for u = 0 .. L - 1 in units."""
    out: list[int] = []
    for d, n in zip(durations, nodes, strict=True):
        out += [n] * d
    return out


def build_time_indexed(instance: EvolvingInstance, units: list[list[int]], horizon: int) -> Any:
    """The Pyomo model of the module docstring (``units[i]``: ep_i per unit of time)."""
    import pyomo.environ as pyo

    m = pyo.ConcreteModel(name=f"time-indexed-{instance.name}")
    starts = [(i, tau) for i, ep in enumerate(units) for tau in range(horizon - len(ep) + 1)]
    m.x = pyo.Var(starts, domain=pyo.Binary)
    m.C = pyo.Var(domain=pyo.NonNegativeReals, bounds=(0, horizon))
    m.objective = pyo.Objective(expr=m.C, sense=pyo.minimize)
    m.once = pyo.Constraint(
        range(len(units)), rule=lambda m, i: sum(m.x[i, t] for t in range(horizon - len(units[i]) + 1)) == 1
    )
    at: list[list[tuple[int, Any]]] = [[] for _ in range(horizon)]
    for i, tau in starts:
        for u, n in enumerate(units[i]):
            at[tau + u].append((n, m.x[i, tau]))
    m.capacity = pyo.Constraint(
        [t for t in range(horizon) if at[t]],
        rule=lambda m, t: sum(n * x for n, x in at[t]) <= instance.nodes,
    )
    m.completion = pyo.Constraint(
        range(len(units)),
        rule=lambda m, i: sum((t + len(units[i])) * m.x[i, t] for t in range(horizon - len(units[i]) + 1)) <= m.C,
    )
    return m


@method("evolving", "milp", exact=True, options=MilpOptions)
def solve_milp(instance: EvolvingInstance, *, time_limit, seed, verbose, options: MilpOptions) -> Result:
    """Time-indexed MILP (Pyomo + HiGHS): the minimum makespan without stretching."""
    deadline = Deadline(time_limit)
    grid = time_grid(instance, "milp")
    greedy = list_schedule(instance).schedule(instance)
    horizon = grid.units(makespan(instance, greedy))
    if horizon > options.max_horizon:
        raise MethodRefused(
            f"milp: the horizon is {horizon} units of {grid.unit} s, above max_horizon = {options.max_horizon} "
            "(use coarser durations, raise max_horizon, or use cpsat)",
            where="max_horizon",
        )
    units = [_profile_units(ds, a.nodes) for ds, a in zip(grid.durations, instance.applications, strict=True)]
    run = run_pyomo_highs(
        lambda: build_time_indexed(instance, units, horizon), deadline, seed=seed, verbose=verbose, abs_gap=0.0
    )
    stats: dict[str, Any] = {"unit": grid.unit, "horizon_units": horizon, **run.stats}
    if run.model is not None:
        stats["binaries"] = len(run.model.x)
    found = None
    if run.has_solution:
        apps = []
        for i, app in enumerate(instance.applications):
            tau = next(t for (j, t), x in run.model.x.items() if j == i and (x.value or 0) > 0.5)
            apps.append(ScheduledApplication(app.name, tau * grid.unit, app.durations, app.nodes))
        found = EvolvingSchedule(tuple(apps))
    lower = makespan_lower_bound(instance)
    if run.bound is not None:
        lower = max(lower, math.ceil(run.bound - 1e-6) * grid.unit)
    message = f"milp: HiGHS stopped ({run.stats['termination']})"
    result = solver_result(run.status, found, greedy, partial(makespan, instance), lower, stats=stats, message=message)
    result.schedule = with_node_ids(instance, result.schedule, options, seed)
    return result
