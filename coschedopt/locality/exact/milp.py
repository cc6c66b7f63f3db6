"""``milp``: a time-indexed placement MILP (Pyomo + HiGHS), the independent cross-check of ``cpsat``.

A binary x[j, q, t] starts job j at integer tick t in placement q; a placement says which
resources the job holds while it runs, and every resource has a capacity at every tick:

================== ============================================= ============================
constraint         placements of job j                           resources (capacity)
================== ============================================= ============================
``none``           one: size_j of the whole machine               the machine (m)
``local``          a cluster c (size_j <= ell), or a split        each cluster (ell)
                   n_c of size_j over ceil(size_j/ell) clusters
contiguous         an allowed range start a                       each processor id (1)
================== ============================================= ============================

    minimise C
    sum_{q,t} x[j,q,t] = 1                                             every job j
    C >= sum_{q,t} (t + p_j) x[j,q,t]                                  every job j
    sum_{j,q,t : t <= tau < t + p_j} use(q, r) x[j,q,t] <= cap(r)      every resource r, tick tau

It shares no model code with ``cpsat`` (only the list of allowed range starts, tested
against the validator's definition), and it is exact: per-resource capacities are exact
without contiguity for the reason given in :func:`~.placement.sweep_ids`, and with
contiguity every id is its own resource.  The horizon H is the best first-fit
``list`` makespan, so there are n * |placements| * H binaries: for small instances only
(contiguity has m placements per job; the model refuses above ``max_binaries``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import Deadline, MethodOptions, MethodRefused, Result, method, option, run_pyomo_highs, solver_result
from ..bounds import best_lower_bound_ticks
from ..heuristics.listsched import best_list_schedule
from ..instance import LocalityInstance, integer_times, is_contiguous_constraint, is_local_constraint
from ..placement import placement_count, range_ids, range_starts, sweep_ids
from ..schedule import LocalitySchedule, makespan


@dataclass(frozen=True)
class MilpOptions(MethodOptions):
    max_binaries: int = option(
        50_000,
        "refuse instances whose model has more binaries than this (memory and build time)",
        min=1,
    )


def placements(instance: LocalityInstance, j: int) -> list[dict[int, int]]:
    """The placements of job j as {resource: amount held}; resources are numbered per constraint
    (the machine 0; clusters 0..k-1; ids 0..m-1)."""
    size, m, ell, k = int(instance.sizes[j]), instance.processors, instance.cluster_size, instance.clusters
    c = instance.constraint
    if is_contiguous_constraint(c):
        return [
            dict.fromkeys(range_ids(a, size, m), 1)
            for a in range_starts(size, m, ell, instance.ring, is_local_constraint(c))
        ]
    if c == "none" or k == 1:
        return [{0: size}]
    need = instance.min_clusters(size)
    out = []
    for chosen in itertools.combinations(range(k), need):
        for split in _splits(size, need, ell):
            out.append(dict(zip(chosen, split, strict=True)))
    return out


def _splits(total: int, parts: int, cap: int) -> list[tuple[int, ...]]:
    """Ordered ways to write ``total`` as ``parts`` integers in 1..cap."""
    if parts == 1:
        return [(total,)] if 1 <= total <= cap else []
    return [(a, *rest) for a in range(1, min(cap, total) + 1) for rest in _splits(total - a, parts - 1, cap)]


def _capacity(instance: LocalityInstance) -> dict[int, int]:
    c = instance.constraint
    if is_contiguous_constraint(c):
        return dict.fromkeys(range(instance.processors), 1)
    if c == "none" or instance.clusters == 1:
        return {0: instance.processors}
    return dict.fromkeys(range(instance.clusters), instance.cluster_size)


def build_model(instance: LocalityInstance, horizon: int) -> tuple[Any, list[list[dict[int, int]]]]:
    """The Pyomo model (x indexed by (j, q, t)) and the placements of every job."""
    import pyomo.environ as pyo

    ticks, _ = integer_times(instance)
    places = [placements(instance, j) for j in range(instance.n)]
    index = [
        (j, q, t) for j in range(instance.n) for q in range(len(places[j])) for t in range(horizon - int(ticks[j]) + 1)
    ]
    model = pyo.ConcreteModel(name=f"locality-{instance.constraint}")
    model.x = pyo.Var(index, domain=pyo.Binary)
    model.C = pyo.Var(domain=pyo.NonNegativeReals)
    model.objective = pyo.Objective(expr=model.C, sense=pyo.minimize)
    by_job: dict[int, list[tuple[int, int, int]]] = {}
    for key in index:
        by_job.setdefault(key[0], []).append(key)
    model.once = pyo.Constraint(range(instance.n), rule=lambda md, j: pyo.quicksum(md.x[key] for key in by_job[j]) == 1)
    model.ends = pyo.Constraint(
        range(instance.n),
        rule=lambda md, j: pyo.quicksum((key[2] + int(ticks[j])) * md.x[key] for key in by_job[j]) <= md.C,
    )
    load: dict[tuple[int, int], list[tuple[int, tuple[int, int, int]]]] = {}
    for j, q, t in index:
        for r, amount in places[j][q].items():
            for tau in range(t, t + int(ticks[j])):
                load.setdefault((r, tau), []).append((amount, (j, q, t)))
    cap = _capacity(instance)
    rows = [key for key, terms in load.items() if sum(a for a, _ in terms) > cap[key[0]]]
    model.capacity = pyo.Constraint(
        rows, rule=lambda md, r, tau: pyo.quicksum(a * md.x[key] for a, key in load[r, tau]) <= cap[r]
    )
    return model, places


def _decode(instance: LocalityInstance, model: Any, places: list[list[dict[int, int]]]) -> LocalitySchedule:
    ticks, unit = integer_times(instance)
    chosen = {j: (q, t) for (j, q, t), var in model.x.items() if (var.value or 0.0) > 0.5}
    starts = [chosen[j][1] for j in range(instance.n)]
    ends = [s + int(p) for s, p in zip(starts, ticks, strict=True)]
    m, ell = instance.processors, instance.cluster_size
    if is_contiguous_constraint(instance.constraint):
        procs = [sorted(places[j][chosen[j][0]]) for j in range(instance.n)]
    elif instance.constraint == "none" or instance.clusters == 1:
        procs = sweep_ids(starts, ends, [places[j][chosen[j][0]] for j in range(instance.n)], [list(range(m))])
    else:
        pools = [list(range(c * ell, (c + 1) * ell)) for c in range(instance.clusters)]
        procs = sweep_ids(starts, ends, [places[j][chosen[j][0]] for j in range(instance.n)], pools)
    return LocalitySchedule.from_lists(instance, [s * unit for s in starts], procs)


@method("locality", "milp", exact=True, options=MilpOptions)
def solve_milp(instance: LocalityInstance, *, time_limit, seed, verbose, options: MilpOptions) -> Result:
    """Time-indexed placement MILP (Pyomo + HiGHS): the cross-check of cpsat on small instances."""
    deadline = Deadline(time_limit)
    ticks, unit = integer_times(instance)
    greedy = best_list_schedule(instance)
    horizon = round(makespan(instance, greedy) / unit)
    binaries = sum(placement_count(instance, j) * (horizon - int(ticks[j]) + 1) for j in range(instance.n))
    if binaries > options.max_binaries:
        raise MethodRefused(
            f"milp: {binaries:,} binaries (horizon {horizon} ticks) above max_binaries = {options.max_binaries:,}; "
            "use cpsat, or raise max_binaries",
            where="jobs",
        )
    simple = best_lower_bound_ticks(instance)
    # C is integral at the optimum: a gap below one tick proves it (the default relative gap does not)
    run = run_pyomo_highs(lambda: build_model(instance, horizon)[0], deadline, seed=seed, verbose=verbose, abs_gap=0.5)
    stats = {**run.stats, "binaries": binaries, "horizon": horizon * unit}
    lower = max(simple, math.ceil(run.bound - 1e-6) if run.bound is not None else 0) * unit
    found = None
    if run.has_solution:
        found = _decode(instance, run.model, [placements(instance, j) for j in range(instance.n)])
    message = "HiGHS: stopped" if run.has_solution else "HiGHS: no incumbent"
    return solver_result(run.status, found, greedy, partial(makespan, instance), lower, stats=stats, message=message)
