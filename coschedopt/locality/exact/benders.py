"""``benders``: the optimum under every constraint through the bar relaxation over processor ids.

The combinatorial Benders decomposition of Côté, Dell'Amico and Iori for strip packing
(Operations Research 62(3), 2014), with the strip's width as the processors and its height
as time.  For a makespan T (in the ticks of :func:`~.instance.integer_times`):

* master (the bar relaxation): a first id X_j per job on the line, among the ranges its
  constraint allows (:func:`~.placement.range_starts`: inside ceil(size_j / ell) clusters
  under locality), such that every processor's load sum_{j : X_j <= i < X_j + size_j} p_j
  is at most T -- one cumulative over the m ids, of capacity T, a short horizon where the
  time axis of :mod:`.cpsat` is long;
* slave: starts S_j in [0, T - p_j] such that jobs sharing a processor never overlap in
  time (one NoOverlap per distinct set of jobs on a processor, and the cumulative of
  capacity m over time as a redundant constraint).

A slave solution is a contiguous schedule on a line -- valid under every constraint (on a
ring too, and without contiguity a fortiori; under locality its ranges lie in the fewest
clusters).  The master is a relaxation of the contiguous problems on a line, so a master
proven infeasible at T proves C >= T + 1 there; without contiguity, or on a ring, it only
steers the search.  Where a slave fails, the master is solved again with another random
seed (randomised search) rather than cut: on the random job sets of the benchmarks about
one master solution in three has a schedule, and each round takes milliseconds to a
fraction of a second.

The method races two searches on the cores it is given, the first to finish stopping the
other (:class:`~coschedopt.core.Deadline`'s ``cancel``): the bar search, on one thread, at
T = the best lower bound (area, the clusters' dual feasible bound), T + 1, ... below the list
schedule's makespan, half the time left at each T, until it finds a schedule; and
:mod:`.cpsat` (chained bounds, the full model) on the other cores.  A bar schedule at the
lower bound is optimal; otherwise the result is the better schedule of the two with the
better bound, so the method stays exact where the bars stop short (the cumulative over time
of ``cpsat`` finds some tight packings the bars miss, and the bars many it misses).

Why it helps: on these instances the optimum is almost always the area (or cluster) bound
and the question is whether a packing with a handful of idle processor-ticks exists; a
search over time lines up thousands of starts, one over ids places n ranges on 32 ids.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import Deadline, Result, Status, available_cores, method, option, run_cpsat, solver_result
from ..bounds import best_lower_bound_ticks
from ..heuristics.listsched import best_list_schedule
from ..instance import LocalityInstance, integer_times, is_contiguous_constraint, is_local_constraint
from ..placement import range_ids, range_starts
from ..schedule import LocalitySchedule, makespan
from .cpsat import CpSatOptions, identical_pairs, solve_chained


@dataclass(frozen=True)
class BendersOptions(CpSatOptions):
    rounds: int = option(200, "master solutions tried per makespan at most", min=1)
    slave_seconds: float = option(
        0.5, "time limit of one slave (the starts for fixed ranges)", above=0.0, advanced=True
    )


def bar_master(instance: LocalityInstance, makespan_ticks: int) -> tuple[Any, list[Any]]:
    """The bar relaxation at makespan T as a CP-SAT model, and its X_j variables."""
    from ortools.sat.python import cp_model

    ticks = [int(t) for t in integer_times(instance)[0]]
    m, ell = instance.processors, instance.cluster_size
    local = is_local_constraint(instance.constraint) and instance.clusters > 1
    sizes = [int(s) for s in instance.sizes]
    model = cp_model.CpModel()
    first = [
        model.new_int_var_from_domain(cp_model.Domain.from_values(range_starts(s, m, ell, False, local)), f"X{j}")
        for j, s in enumerate(sizes)
    ]
    bars = [model.new_fixed_size_interval_var(x, s, f"B{j}") for j, (x, s) in enumerate(zip(first, sizes, strict=True))]
    model.add_cumulative(bars, ticks, makespan_ticks)
    for i, j in identical_pairs(ticks, sizes):
        model.add(first[i] <= first[j])
    return model, first


def bar_slave(instance: LocalityInstance, makespan_ticks: int, first_ids: list[int]) -> tuple[Any, list[Any]]:
    """Starts for fixed ranges (first ids ``first_ids``) within makespan T, as a CP-SAT model."""
    from ortools.sat.python import cp_model

    ticks = [int(t) for t in integer_times(instance)[0]]
    sizes = [int(s) for s in instance.sizes]
    model = cp_model.CpModel()
    start = [model.new_int_var(0, makespan_ticks - p, f"S{j}") for j, p in enumerate(ticks)]
    busy = [model.new_fixed_size_interval_var(s, p, f"T{j}") for j, (s, p) in enumerate(zip(start, ticks, strict=True))]
    sharing = {
        frozenset(j for j, (x, s) in enumerate(zip(first_ids, sizes, strict=True)) if x <= i < x + s)
        for i in range(instance.processors)
    }
    for jobs in sharing:
        if len(jobs) > 1:
            model.add_no_overlap([busy[j] for j in sorted(jobs)])
    model.add_cumulative(busy, sizes, instance.processors)
    for i, j in identical_pairs(ticks, sizes):
        if first_ids[i] == first_ids[j]:
            model.add(start[i] <= start[j])
    return model, start


def bar_search(
    instance: LocalityInstance, makespan_ticks: int, deadline: Deadline, seed: int | None, options: BendersOptions
) -> tuple[LocalitySchedule | None, bool, int]:
    """A schedule of makespan <= T from the bars, or ``None``; whether the master was proven
    infeasible at T; the rounds run.  Each round solves the master with a new random seed, then
    its slave within ``slave_seconds``."""
    _, unit = integer_times(instance)
    master, first = bar_master(instance, makespan_ticks)
    base = int(seed or 0)
    for r in range(options.rounds):
        if deadline.expired():
            return None, False, r
        run = run_cpsat(master, deadline, seed=base + r, workers=1, params={"randomize_search": True})
        if run.status is Status.INFEASIBLE:
            return None, True, r + 1
        if not run.has_solution:
            continue
        ids = [int(run.value(x)) for x in first]
        slave, start = bar_slave(instance, makespan_ticks, ids)
        done = run_cpsat(slave, deadline.share(1.0, cap=options.slave_seconds), seed=base + r, workers=1)
        if done.has_solution:
            starts = [int(done.value(s)) * unit for s in start]
            procs = [range_ids(x, int(size), instance.processors) for x, size in zip(ids, instance.sizes, strict=True)]
            return LocalitySchedule.from_lists(instance, starts, procs), False, r + 1
    return None, False, options.rounds


def bar_descent(
    instance: LocalityInstance, lower: int, horizon: int, deadline: Deadline, seed: int | None, options: BendersOptions
) -> tuple[LocalitySchedule | None, int, dict[float, int]]:
    """:func:`bar_search` at T = ``lower``, ``lower`` + 1, ... below ``horizon`` (ticks), half the
    time left at each T, until a schedule is found.  Returns it (or ``None``), the lower bound
    (raised past every T whose master is infeasible under contiguity on a line) and the rounds
    run per makespan."""
    _, unit = integer_times(instance)
    proves = is_contiguous_constraint(instance.constraint) and not instance.ring
    rounds: dict[float, int] = {}
    for target in range(lower, horizon):
        if deadline.expired():
            break
        found, infeasible, rounds[target * unit] = bar_search(instance, target, deadline.share(0.5), seed, options)
        if found is not None:
            return found, lower, rounds
        if infeasible and proves and lower == target:
            lower = target + 1
    return None, lower, rounds


@method("locality", "benders", exact=True, options=BendersOptions)
def solve_benders(instance: LocalityInstance, *, time_limit, seed, verbose, options: BendersOptions) -> Result:
    """The optimum under the instance's constraint: the bar decomposition racing cpsat."""
    _, unit = integer_times(instance)
    lower = max(best_lower_bound_ticks(instance), math.ceil(options.lower_bound / unit - 1e-9))
    first = best_list_schedule(instance)
    horizon = round(makespan(instance, first) / unit)
    if horizon <= lower:
        return Result(Status.OPTIMAL, first, lower_bound=horizon * unit, stats={"solver": "none: list = bound"})
    done = threading.Event()
    race = Deadline(time_limit, cancel=done)
    bars: dict[str, Any] = {}

    def run_bars() -> None:
        try:
            bars["schedule"], bars["lower"], bars["rounds"] = bar_descent(instance, lower, horizon, race, seed, options)
            if bars["schedule"] is not None and makespan(instance, bars["schedule"]) <= bars["lower"] * unit:
                done.set()  # optimal: stop cpsat
        except BaseException as exc:  # noqa: BLE001  (re-raised in the caller's thread)
            bars["error"] = exc

    thread = threading.Thread(target=run_bars, name="coschedopt-bars", daemon=True)
    thread.start()
    workers = max(1, (options.workers or available_cores()) - 1)
    res = solve_chained(instance, race, seed, verbose, dataclasses.replace(options, workers=workers))
    done.set()
    thread.join()
    if "error" in bars:
        raise bars["error"]
    value = partial(makespan, instance)
    found = bars["schedule"] if bars["schedule"] is not None else first
    bound = max(res.lower_bound or 0.0, bars["lower"] * unit)
    best = min((s for s in (res.schedule, found) if s is not None), key=value)
    stats = {
        **res.stats,
        "bar_rounds": bars["rounds"],
        "bars_found": None if bars["schedule"] is None else value(found),
        "bars_lower": bars["lower"] * unit,
    }
    return solver_result(res.status, best, None, value, bound, proven=value(best) <= bound + 1e-9, stats=stats)
