"""``cpsat``: the optimal makespan under the instance's constraint, with OR-Tools CP-SAT (reading note section 3).

Times are integer ticks (:func:`~.instance.integer_times`); a left-shifted optimal schedule
starts every job at an integer tick, so the optimum over integer starts is the optimum.
Every variant has, for each job j, a start S_j in [0, H - p_j] and its interval T_j, and

    minimise C,   C >= S_j + p_j,   C >= max(p_max, ceil(A/m), lower_bound option),
    cumulative(T, size, m)

(under locality, C is also at least the clusters' dual feasible bound, :mod:`~coschedopt.locality.bounds`),
with H the makespan of the best first-fit ``list`` schedule of the same constraint (also
the solver's hint); when H meets the lower bound, that schedule is returned as optimal.  Then, by constraint:

* ``none``: nothing more -- the cumulative is exact, since ids can be handed out in start
  order (:func:`~.placement.sweep_ids`).
* contiguity: a first id X_j over the allowed range starts (:func:`~.placement.range_starts`)
  and NoOverlap2D over time x ids.  On a ring where some range may wrap, each job is two
  boxes on an unrolled line, at X_j and X_j + m: two ranges of length <= m meet on the
  ring iff some box of one meets some box of the other.  (A model with two optional
  pieces per job was seen to make CP-SAT 9.15 claim a wrong optimum; two fixed boxes are
  exact.)
* locality, sizes <= ell: y_jc with exactly one cluster per job, optional intervals
  present iff y_jc and one cumulative of capacity ell per cluster (exact for the same
  reason as ``none``); with contiguity too, y_jc => c*ell <= X_j <= (c+1)*ell - size_j.
* locality, some size > ell: n_jc in [0, ell] ids of job j in cluster c, u_jc = [n_jc > 0],
  sum_c u_jc = ceil(size_j / ell), sum_c n_jc = size_j, per-cluster cumulatives with
  variable demands n_jc; with contiguity the allowed starts already span the least number
  of clusters.

Chained bounds (option ``chain``): before a constrained problem, its relaxations are solved
within a share of the time (``none`` for contiguity or locality; then contiguity and
locality for both), and their bound C^{C+L} >= max(C^C, C^L) >= C raises the makespan's
lower bound: an optimum equal to a weaker one is then proven as soon as it is found.  Under
locality, when the clusters' dual feasible bound is above the area bound, the relaxations
without clusters are skipped: they end near the area bound, below what the clusters give.

Symmetry breaking: identical jobs (same time and size) start in index order; without
contiguity across clusters, clusters are interchangeable, so job j uses only clusters
c < sum_{i <= j} ceil(size_i / ell) (relabel the clusters by the first job using them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any

from ...core import Deadline, MethodOptions, Result, Status, method, option, run_cpsat, solver_result
from ..bounds import best_lower_bound_ticks, cluster_dff_bound_ticks
from ..heuristics.listsched import best_list_schedule
from ..instance import (
    LocalityInstance,
    integer_times,
    is_contiguous_constraint,
    is_local_constraint,
    lower_bound_ticks,
)
from ..placement import range_ids, range_starts, sweep_ids
from ..schedule import LocalitySchedule, makespan


@dataclass(frozen=True)
class CpSatOptions(MethodOptions):
    workers: int | None = option(None, "CP-SAT search workers (default: the cores this process may use)", min=1)
    lower_bound: float = option(
        0.0, "a proven lower bound on the optimum (e.g. the optimum of a weaker constraint)", min=0.0
    )
    symmetry_breaking: bool = option(True, "order identical jobs; interchangeable clusters by first use")
    presolve: bool = option(True, "CP-SAT's presolve (off halves the time of tiny models)", advanced=True)
    chain: bool = option(True, "first solve the weaker constraints for a lower bound (C <= C^C, C^L <= C^{C+L})")


@dataclass
class _Model:
    """The CP-SAT model and the variables a schedule is read from."""

    model: Any
    ticks: list[int]
    start: list[Any]
    makespan: Any
    first_id: list[Any] | None = None
    cluster: list[list[Any]] | None = None  # y_jc or n_jc


def build_model(instance: LocalityInstance, horizon: int, lower: int, symmetry_breaking: bool = True) -> _Model:
    """The CP-SAT model of the instance's constraint with makespan in [lower, horizon] ticks."""
    from ortools.sat.python import cp_model

    ticks, _ = integer_times(instance)
    ticks = [int(t) for t in ticks]
    sizes = [int(s) for s in instance.sizes]
    m, n = instance.processors, instance.n
    model = cp_model.CpModel()
    start = [model.new_int_var(0, horizon - p, f"S{j}") for j, p in enumerate(ticks)]
    busy = [model.new_fixed_size_interval_var(start[j], ticks[j], f"T{j}") for j in range(n)]
    cmax = model.new_int_var(min(lower, horizon), horizon, "C")
    for j in range(n):
        model.add(cmax >= start[j] + ticks[j])
    model.add_cumulative(busy, sizes, m)
    model.minimize(cmax)
    out = _Model(model, ticks, start, cmax)
    if is_contiguous_constraint(instance.constraint):
        out.first_id = _contiguity(model, instance, busy)
    if is_local_constraint(instance.constraint) and instance.clusters > 1:
        out.cluster = _locality(model, instance, ticks, start, symmetry_breaking, out.first_id)
    if symmetry_breaking:
        for i, j in identical_pairs(ticks, sizes):
            model.add(start[i] <= start[j])
    return out


def _contiguity(model: Any, instance: LocalityInstance, busy: list[Any]) -> list[Any]:
    from ortools.sat.python import cp_model

    m, ell, local = instance.processors, instance.cluster_size, is_local_constraint(instance.constraint)
    domains = [range_starts(int(s), m, ell, instance.ring, local) for s in instance.sizes]
    first = [model.new_int_var_from_domain(cp_model.Domain.from_values(d), f"X{j}") for j, d in enumerate(domains)]
    boxes = [model.new_fixed_size_interval_var(first[j], int(s), f"R{j}") for j, s in enumerate(instance.sizes)]
    times = list(busy)
    if any(a + int(s) > m for d, s in zip(domains, instance.sizes, strict=True) for a in d):
        boxes += [
            model.new_fixed_size_interval_var(first[j] + m, int(s), f"R{j}+m") for j, s in enumerate(instance.sizes)
        ]
        times += busy
    model.add_no_overlap_2d(boxes, times)
    return first


def _locality(
    model: Any, instance: LocalityInstance, ticks: list[int], start: list[Any], symmetry_breaking: bool, first: Any
) -> list[list[Any]]:
    """y_jc (sizes <= ell) or n_jc (some size > ell) with one cumulative of capacity ell per cluster."""
    k, ell, n = instance.clusters, instance.cluster_size, instance.n
    sizes = [int(s) for s in instance.sizes]
    need = [instance.min_clusters(s) for s in sizes]
    small = instance.fits_clusters
    if not small and first is not None:
        return []  # the allowed range starts already touch the least number of clusters
    used: list[list[Any]] = []  # presence per (job, cluster)
    share: list[list[Any]] = []  # ids per (job, cluster): the size, or n_jc
    per_cluster: list[list[Any]] = [[] for _ in range(k)]
    demands: list[list[Any]] = [[] for _ in range(k)]
    opened = 0
    for j in range(n):
        opened += need[j]
        row = [model.new_bool_var(f"y{j},{c}") for c in range(k)]
        model.add(sum(row) == need[j])
        counts: list[Any] = []
        for c in range(k):
            if symmetry_breaking and c >= opened:
                model.add(row[c] == 0)
            if small:
                counts.append(sizes[j])
            else:
                cnt = model.new_int_var(0, min(ell, sizes[j]), f"n{j},{c}")
                model.add(cnt >= 1).only_enforce_if(row[c])
                model.add(cnt == 0).only_enforce_if(~row[c])
                counts.append(cnt)
            iv = model.new_optional_fixed_size_interval_var(start[j], ticks[j], row[c], f"T{j},{c}")
            per_cluster[c].append(iv)
            demands[c].append(counts[c])
            if first is not None:  # small jobs, contiguous too: the range lies in the cluster
                model.add(first[j] >= c * ell).only_enforce_if(row[c])
                model.add(first[j] <= (c + 1) * ell - sizes[j]).only_enforce_if(row[c])
        if not small:
            model.add(sum(counts) == sizes[j])
        used.append(row)
        share.append(counts)
    for c in range(k):
        model.add_cumulative(per_cluster[c], demands[c], ell)
    return share if not small else used


def identical_pairs(ticks: list[int], sizes: list[int]) -> list[tuple[int, int]]:
    """Consecutive pairs (i, j), i < j, of jobs with the same time and size."""
    last: dict[tuple[int, int], int] = {}
    pairs = []
    for j, key in enumerate(zip(ticks, sizes, strict=True)):
        if key in last:
            pairs.append((last[key], j))
        last[key] = j
    return pairs


def _decode(instance: LocalityInstance, built: _Model, value: Any) -> LocalitySchedule:
    """The schedule of a CP-SAT solution (``value`` reads a variable)."""
    ticks, m, ell = built.ticks, instance.processors, instance.cluster_size
    _, unit = integer_times(instance)
    s = [int(value(v)) for v in built.start]
    if built.first_id is not None:
        procs = [range_ids(int(value(x)), int(size), m) for x, size in zip(built.first_id, instance.sizes, strict=True)]
    elif built.cluster:
        k = instance.clusters
        if instance.fits_clusters:
            demands = [
                {c: int(instance.sizes[j]) for c in range(k) if value(built.cluster[j][c])} for j in range(instance.n)
            ]
        else:
            demands = [
                {c: int(value(built.cluster[j][c])) for c in range(k) if value(built.cluster[j][c])}
                for j in range(instance.n)
            ]
        pools = [list(range(c * ell, (c + 1) * ell)) for c in range(k)]
        procs = sweep_ids(s, [a + p for a, p in zip(s, ticks, strict=True)], demands, pools)
    else:
        demands = [{0: int(size)} for size in instance.sizes]
        procs = sweep_ids(s, [a + p for a, p in zip(s, ticks, strict=True)], demands, [list(range(m))])
    return LocalitySchedule.from_lists(instance, [a * unit for a in s], procs)


def _hint(built: _Model, instance: LocalityInstance, schedule: LocalitySchedule, unit: float) -> None:
    for a, var in zip(schedule.by_job(instance), built.start, strict=True):
        built.model.add_hint(var, round(a.start / unit))


#: share of the time left given to each relaxation solved for the chained bounds
RELAXATION_SHARE = {"none": 0.4, "contiguous": 0.3, "local": 0.4}


def chained_lower_bound(
    instance: LocalityInstance, deadline: Deadline, seed: int | None, options: CpSatOptions, verbose: bool = False
) -> tuple[float, dict[str, float]]:
    """A lower bound from the weaker constraints: C^C, C^L >= C and C^{C+L} >= max(C^C, C^L).

    Each relaxation is solved by :func:`solve_one` within its share of the time left
    (:data:`RELAXATION_SHARE`), its log shown with ``verbose`` (they take most of a hard
    instance's first seconds); an unproven one still gives its certified bound.  Returns the
    bound and the bound of each relaxation.
    """
    if instance.constraint == "none":
        return 0.0, {}
    bounds: dict[str, float] = {}
    clustered = cluster_dff_bound_ticks(instance) > lower_bound_ticks(instance)

    def relax(c: str, lower: float) -> float:
        if clustered and not is_local_constraint(c):
            return lower  # the clusters' bound already lies above the area, where a relaxation without them ends
        res = solve_one(instance.with_constraint(c), deadline.share(RELAXATION_SHARE[c]), seed, verbose, options, lower)
        bounds[c] = float(res.lower_bound or 0.0)
        return bounds[c]

    lower = relax("none", options.lower_bound)
    if instance.constraint == "contiguous+local":
        lower = max(relax("contiguous", lower), relax("local", lower))
    return lower, bounds


def solve_one(
    instance: LocalityInstance,
    deadline: Deadline,
    seed: int | None,
    verbose: bool,
    options: CpSatOptions,
    lower_bound: float,
) -> Result:
    """One CP-SAT solve of the instance's constraint with makespan >= ``lower_bound`` (no chaining)."""
    _, unit = integer_times(instance)
    greedy = best_list_schedule(instance)
    horizon = round(makespan(instance, greedy) / unit)
    lower = max(best_lower_bound_ticks(instance), math.ceil(max(lower_bound, options.lower_bound) / unit - 1e-9))
    if horizon <= lower:  # the greedy schedule meets the lower bound
        return Result(Status.OPTIMAL, greedy, lower_bound=horizon * unit, stats={"solver": "none: list = bound"})
    built = build_model(instance, horizon, lower, options.symmetry_breaking)
    _hint(built, instance, greedy, unit)
    run = run_cpsat(
        built.model,
        deadline,
        seed=seed,
        workers=options.workers,
        verbose=verbose,
        params={"cp_model_presolve": options.presolve},
    )
    stats: dict[str, Any] = {**run.stats, "horizon": horizon * unit}
    bound = min(lower, horizon) * unit
    if run.bound is not None:
        bound = max(bound, run.bound * unit)
    if run.status not in (Status.OPTIMAL, Status.TIME_LIMIT):
        return Result(Status.ERROR, None, message=f"CP-SAT: {stats['status']}", stats=stats)
    found = _decode(instance, built, run.value) if run.has_solution else None
    return solver_result(run.status, found, greedy, partial(makespan, instance), bound, stats=stats)


def solve_chained(
    instance: LocalityInstance, deadline: Deadline, seed: int | None, verbose: bool, options: CpSatOptions
) -> Result:
    """The chained bounds (option ``chain``), then :func:`solve_one`."""
    lower, relaxations = 0.0, {}
    if options.chain:
        lower, relaxations = chained_lower_bound(instance, deadline, seed, options, verbose)
    res = solve_one(instance, deadline, seed, verbose, options, lower)
    if relaxations:
        res.stats["relaxation_bounds"] = relaxations
    return res


@method("locality", "cpsat", exact=True, options=CpSatOptions)
def solve_cpsat(instance: LocalityInstance, *, time_limit, seed, verbose, options: CpSatOptions) -> Result:
    """The optimum under the instance's constraint (CP-SAT: cumulative, NoOverlap2D, clusters), chained bounds."""
    return solve_chained(instance, Deadline(time_limit), seed, verbose, options)
