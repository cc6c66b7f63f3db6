"""``cpsat``: the minimum makespan of rigid evolving applications for a stretch limit (OR-Tools CP-SAT).

The problem the paper solves greedily, solved exactly (section 5 of the reading note).
Per application i and stage k an interval [s_ik, s_ik + D_ik) with demand n_ik:

    s_{i,k+1} = s_ik + D_ik             stages follow each other (a stretch is a longer stage)
    D_ik = d_ik                          for the first and the last stage (and every stage if l = 1)
    d_ik <= D_ik <= floor(l d_ik)        for the middle stages (no upper bound but the horizon if l = inf)
    cumulative(intervals, demands) <= nodes
    C >= s_ik + D_ik                     minimise C

then, C fixed at its optimum, the least waste sum_ik n_ik (D_ik - d_ik) (option
``least_waste``).  Time is in units of the durations' gcd (:mod:`.grid`).  The hint is the
best heuristic schedule valid for the limit (``nos``, the paper's variants with l no
larger, the order search with l), and its makespan the horizon; C is bounded below by
max(ceil(used area / nodes), the longest application); each stage starts after the
requested time of the stages before it and ends before the horizon less that of the
stages after it.  ``stats`` gives each solve's status and seconds.

Option ``rigid`` solves CBF's model instead (each application one block of its peak
for its total duration): the best any rigid reservation scheme could do.

On a time limit: TIME_LIMIT with the best schedule (the hint if CP-SAT found none) and
CP-SAT's bound.  Workers: option ``workers`` (0: every core this process may use).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import Deadline, Result, Status, method, option, run_cpsat, solver_result
from ..heuristics import VARIANTS, SearchOptions, makespan_lower_bound, search_order
from ..instance import EvolvingInstance
from ..listsched import cbf_schedule, list_schedule
from ..nodeids import NodeIdOptions, with_node_ids
from ..schedule import EvolvingSchedule, ScheduledApplication, makespan
from .grid import Grid, time_grid

#: moves of the order search whose schedule hints CP-SAT
HINT_SEARCH_MOVES = 200


@dataclass(frozen=True)
class CpsatOptions(NodeIdOptions):
    """Options of ``cpsat``."""

    stretch_limit: float = option(1.0, "l: a middle stage may last up to l times its duration (1: none; inf)", min=1.0)
    rigid: bool = option(False, "CBF's model: each application one block of its peak for its total duration")
    least_waste: bool = option(True, "then minimise the waste at the optimal makespan (a second solve)")
    workers: int = option(0, "CP-SAT workers (0: every core this process may use)", min=0)


def _hints(instance: EvolvingInstance, stretch_limit: float, rigid: bool, deadline: Deadline) -> list[EvolvingSchedule]:
    """Heuristic schedules valid for the model: CBF's if rigid; else nos, the variants with l <= the limit,
    and the order search with the limit (compacting when it stretches), within a tenth of the time left."""
    if rigid:
        return [cbf_schedule(instance)]
    out = [list_schedule(instance).schedule(instance)]
    for limit, compact in VARIANTS.values():
        if 1 < limit <= stretch_limit:
            out.append(list_schedule(instance, stretch_limit=limit, compact=compact).schedule(instance))
    search = SearchOptions(stretch_limit=stretch_limit, compact=stretch_limit > 1, iterations=HINT_SEARCH_MOVES)
    _, found, _ = search_order(instance, search, seed=0, deadline=deadline.share(0.1))
    out.append(found.schedule(instance))
    return out


@dataclass
class _Model:
    model: Any
    starts: list[list[Any]]
    lengths: list[list[Any]]
    makespan: Any
    waste: Any


def _build(instance: EvolvingInstance, grid: Grid, stretch_limit: float, rigid: bool, horizon: int) -> _Model:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    area = sum(
        d * n
        for a, ds in zip(instance.applications, grid.durations, strict=True)
        for d, n in zip(ds, a.nodes, strict=True)
    )
    longest = max(sum(ds) for ds in grid.durations)
    c = model.new_int_var(max(longest, -(-area // instance.nodes)), horizon, "C")
    starts, lengths, intervals, demands, waste = [], [], [], [], []
    for i, (app, ds) in enumerate(zip(instance.applications, grid.durations, strict=True)):
        stages = [(sum(ds), app.peak)] if rigid else list(zip(ds, app.nodes, strict=True))
        s_i, l_i = [], []
        total = sum(d for d, _ in stages)
        before = 0  # the requested time of the stages before k: stage k starts no earlier, ends no later
        for k, (d, n) in enumerate(stages):
            after = total - before - d
            s = model.new_int_var(before, horizon - after - d, f"s_{i}_{k}")
            if 0 < k < len(stages) - 1 and stretch_limit > 1:
                longest_stretch = min(grid.max_stretch(d, stretch_limit, horizon), horizon - total + d)
                length = model.new_int_var(d, max(d, longest_stretch), f"D_{i}_{k}")
                waste.append(n * (length - d))
            else:
                length = d
            e = model.new_int_var(before + d, horizon - after, f"e_{i}_{k}")
            before += d
            intervals.append(model.new_interval_var(s, length, e, f"stage_{i}_{k}"))
            demands.append(n)
            if s_i:
                model.add(s == s_i[-1] + l_i[-1])
            s_i.append(s)
            l_i.append(length)
        model.add(c >= s_i[-1] + l_i[-1])
        starts.append(s_i)
        lengths.append(l_i)
    model.add_cumulative(intervals, demands, instance.nodes)
    return _Model(model, starts, lengths, c, sum(waste) if waste else None)


def _hint(m: _Model, grid: Grid, hint: EvolvingSchedule, instance: EvolvingInstance, rigid: bool) -> None:
    for i, sa in enumerate(hint.applications):
        t = grid.units(sa.start)
        durations = [sum(sa.durations)] if rigid else sa.durations
        for k, d in enumerate(durations):
            m.model.add_hint(m.starts[i][k], t)
            if not isinstance(m.lengths[i][k], int):
                m.model.add_hint(m.lengths[i][k], grid.units(d))
            t += grid.units(d)


def _schedule(value: Any, m: _Model, grid: Grid, instance: EvolvingInstance, rigid: bool) -> EvolvingSchedule:
    """The schedule of a CP-SAT solution (``value`` reads a variable)."""
    apps = []
    for i, app in enumerate(instance.applications):
        start = value(m.starts[i][0]) * grid.unit
        durations = (
            app.durations if rigid else tuple((x if isinstance(x, int) else value(x)) * grid.unit for x in m.lengths[i])
        )
        apps.append(ScheduledApplication(app.name, start, durations, app.nodes))
    return EvolvingSchedule(tuple(apps), rigid=rigid)


@method("evolving", "cpsat", exact=True, options=CpsatOptions)
def solve_cpsat(instance: EvolvingInstance, *, time_limit, seed, verbose, options: CpsatOptions) -> Result:
    """CP-SAT: minimum makespan for a stretch limit (or CBF's rigid model), then least waste."""
    deadline = Deadline(time_limit)
    grid = time_grid(instance, "cpsat")
    limit, rigid = options.stretch_limit, options.rigid
    usable = [h for h in _hints(instance, limit, rigid, deadline) if grid.on_grid(h)]
    best_hint = min(usable, key=lambda h: makespan(instance, h))  # nos and CBF are always on the grid
    horizon = grid.units(makespan(instance, best_hint))
    m = _build(instance, grid, limit, rigid, horizon)
    _hint(m, grid, best_hint, instance, rigid)
    m.model.minimize(m.makespan)
    run = run_cpsat(m.model, deadline, seed=seed, workers=options.workers, verbose=verbose)
    stats: dict[str, Any] = {
        "unit": grid.unit,
        "horizon_units": horizon,
        "phase1": run.stats["status"],
        "phase1_seconds": run.stats.get("seconds"),
    }
    bound = makespan_lower_bound(instance)
    if run.bound is not None:
        bound = max(bound, run.bound * grid.unit)
    if not run.has_solution and run.status is not Status.TIME_LIMIT:
        return Result(Status.ERROR, message=f"cpsat: {run.stats['status']} (a bug: the hint is feasible)")
    found = _schedule(run.value, m, grid, instance, rigid) if run.has_solution else None
    if found is not None and run.status is not Status.OPTIMAL:
        stats["gap_units"] = run.objective - run.bound
    elif found is not None and options.least_waste and m.waste is not None and not deadline.expired():
        found = _least_waste(m, grid, instance, found, run.value, options, seed, deadline, stats)
    message = "cpsat: no solution" if found is None else ""
    result = solver_result(
        run.status, found, best_hint, partial(makespan, instance), bound, stats=stats, message=message
    )
    result.schedule = with_node_ids(instance, result.schedule, options, seed)
    return result


def _least_waste(
    m: _Model,
    grid: Grid,
    instance: EvolvingInstance,
    schedule: EvolvingSchedule,
    first: Any,
    options: CpsatOptions,
    seed: int | None,
    deadline: Deadline,
    stats: dict[str, Any],
) -> EvolvingSchedule:
    """Phase 2: C fixed at its optimum, minimise sum n (D - d); keeps phase 1's schedule if nothing better."""
    optimum = first(m.makespan)
    m.model.clear_hints()
    for row_s, row_l in zip(m.starts, m.lengths, strict=True):
        for s, length in zip(row_s, row_l, strict=True):
            m.model.add_hint(s, first(s))
            if not isinstance(length, int):
                m.model.add_hint(length, first(length))
    m.model.add(m.makespan <= optimum)
    m.model.minimize(m.waste)
    run = run_cpsat(m.model, deadline, seed=seed, workers=options.workers)
    stats["phase2"] = run.stats["status"]
    stats["phase2_seconds"] = run.stats.get("seconds")
    if run.has_solution:
        stats["waste_units"] = run.objective
        return _schedule(run.value, m, grid, instance, options.rigid)
    return schedule
