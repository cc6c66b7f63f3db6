"""``lpfix``: the offline optimum of the sums and the L2 norms by the time-indexed LP, reduced-cost
fixing, and the MIP over the starts that are left.

The model is :mod:`.milp`'s in its direct form (Sousa and Wolsey's time-indexed formulation with one
capacity row of m per time, as for P|r_j|Σ w_j C_j): x_{j,s} = 1 iff T_j starts at s in its window
(:mod:`.offline`), Σ_s x_{j,s} = 1, Σ_j Σ_{s=t-p_j+1..t} x_{j,s} <= m, minimise Σ c_{j,s} x_{j,s} with
c_{j,s} = g_j(s + p_j - r_j) (squared for the L2 norms).  Passed column-wise to ``highspy`` in one call.

Reduced-cost fixing.  Let z be the LP's value and d_{j,s} >= 0 the reduced cost of x_{j,s} at an
optimal basis.  For any schedule, Σ c x = z + Σ_{j} d_{j,s_j} + Σ_t μ_t (load_t - m) with the capacity
duals μ_t <= 0 and load_t <= m, so a schedule that starts T_j at s costs at least z + d_{j,s}.  With an
incumbent of value U, every start with z + d_{j,s} > U is out of every schedule better than U, and the
MIP over the starts left has the instance's optimum (or U's schedule) as its optimum.

Three steps, each within the time left:

1. the LP; the incumbent is the best of the policies (:func:`.offline.best_policy_schedule`) and of list
   scheduling (each task, in a list's order, on the processor free first, at its release at the
   earliest) over the LP's orders (mean start, α-points), each improved by a local search that moves
   one task a few places (a tenth of the time left, at most 10 s): the MIPs below keep only the
   starts this incumbent leaves, so its quality sets their size;
2. the MIP over the starts with d <= δ, δ = ``restrict`` x (U - z), within a quarter of the time left:
   it is small and its optimum V is often the instance's; if V <= z + δ it is proven (every schedule
   using a start beyond δ costs more than z + δ); if not, δ is tripled while below U - z;
3. otherwise the MIP over the starts with d <= U - z, the incumbent as its start: its optimum is the
   instance's.

The time-indexed LP bound is within a few per cent of the optimum on the family's random instances,
so step 3 keeps a few per cent of the columns.  The maxima are not separable sums (one z >= c_j row per
task bounds them loosely): ``cpsat``'s bisection solves them.  Integer data only (the starts are
time-indexed); no task cap, the (task, start) pairs are capped at :data:`MAX_STARTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ...core import (
    Deadline,
    MethodOptions,
    MethodRefused,
    Result,
    Status,
    method,
    option,
    quiet_highs,
    run_highs,
    solver_result,
)
from ..bounds import lower_bound
from ..instance import OnlineInstance
from ..metrics import with_objectives
from .offline import StartWindows, schedule_from_starts, start_windows, starts_of

MAX_STARTS = 3_000_000


@dataclass(frozen=True)
class TimeIndexed:
    """The direct time-indexed model of ``windows``: column v starts task ``task[v]`` at ``start[v]``
    for ``cost[v]``; rows 0..n-1 assign the tasks, row n + t caps the tasks running at t."""

    windows: StartWindows
    task: np.ndarray
    start: np.ndarray
    cost: np.ndarray
    offset: np.ndarray  # column of task j's first start

    @classmethod
    def of(cls, w: StartWindows) -> TimeIndexed:
        lengths = np.array([len(c) for c in w.costs], dtype=np.int64)
        offset = np.r_[0, np.cumsum(lengths)]
        task = np.repeat(np.arange(len(lengths)), lengths)
        start = np.repeat(w.first.astype(np.int64), lengths) + (np.arange(offset[-1]) - offset[task])
        return cls(w, task, start, np.concatenate(w.costs).astype(float), offset)

    @property
    def columns(self) -> int:
        return int(self.cost.size)

    # the releases, sizes and first starts as Python integers, for list scheduling's inner loop
    @cached_property
    def release(self) -> list[int]:
        return self.windows.instance.release.astype(np.int64).tolist()

    @cached_property
    def time(self) -> list[int]:
        return self.windows.instance.time.astype(np.int64).tolist()

    @cached_property
    def first(self) -> list[int]:
        return self.windows.first.astype(np.int64).tolist()

    @cached_property
    def matrix(self) -> tuple[np.ndarray, np.ndarray, int]:
        """(column starts, row indices, horizon) of the constraint matrix, column-wise, all coefficients 1:
        built once, shared by the LP and every MIP."""
        inst = self.windows.instance
        p = inst.time.astype(np.int64)[self.task]
        horizon = int((self.start + p).max())
        col_start = np.r_[0, np.cumsum(1 + p)].astype(np.int32)
        index = np.empty(int(col_start[-1]), dtype=np.int32)
        index[col_start[:-1]] = self.task
        running = np.ones(index.size, dtype=bool)
        running[col_start[:-1]] = False
        first = np.repeat(col_start[:-1] + 1, p)  # where each column's capacity entries begin
        index[running] = inst.n + np.repeat(self.start, p) + (np.flatnonzero(running) - first)
        return col_start, index, horizon

    def highs(self, upper: np.ndarray, integer: bool) -> Any:
        """A HiGHS holding the model with column upper bounds ``upper`` (0 fixes a start out)."""
        import highspy

        n, m = self.windows.instance.n, self.windows.instance.processors
        col_start, index, horizon = self.matrix
        h = quiet_highs()
        N = self.columns
        h.passModel(
            N,
            n + horizon,
            int(index.size),
            int(highspy.MatrixFormat.kColwise),
            int(highspy.ObjSense.kMinimize),
            0.0,
            self.cost,
            np.zeros(N),
            upper.astype(float),
            np.r_[np.ones(n), np.full(horizon, -highspy.kHighsInf)],
            np.r_[np.ones(n), np.full(horizon, float(m))],
            col_start,
            index,
            np.ones(index.size),
            np.full(N, 1 if integer else 0, dtype=np.int32),
        )
        return h

    def columns_of(self, starts: np.ndarray) -> np.ndarray | None:
        """The column of each task's start in ``starts``, or None when one lies outside its window."""
        k = starts - self.windows.first
        lengths = np.diff(self.offset)
        if (k < 0).any() or (k >= lengths).any():
            return None
        return self.offset[:-1] + k

    def starts_from(self, x: np.ndarray) -> np.ndarray:
        """Each task's start in the 0/1 column values ``x`` (a MIP solution)."""
        starts = self.windows.first.astype(np.int64).copy()
        chosen = np.flatnonzero(x > 0.5)
        starts[self.task[chosen]] = self.start[chosen]
        return starts

    def total(self, starts: np.ndarray) -> float:
        """Σ_j c_{j, s_j}: the objective in the model's units (squared for the L2 norms)."""
        cols = self.columns_of(starts)
        return float(self.cost[cols].sum()) if cols is not None else float("inf")


def list_total(instance: OnlineInstance, model: TimeIndexed, order: list[int]) -> tuple[float, list[int]]:
    """List scheduling of ``order`` (each task on the processor free first, at its release at the earliest: a
    left-shifted schedule with integer starts) and its Σ_j c_{j, s_j} (inf when a start leaves its window).

    Every schedule is matched or beaten by the list of its own start order (the processors' free times stay
    below the schedule's, task by task), so a search over orders can reach the optimum."""
    release, time, first, costs = model.release, model.time, model.first, model.windows.costs
    free = [0] * instance.processors
    total, starts = 0.0, [0] * instance.n
    for j in order:
        i = min(range(len(free)), key=free.__getitem__)
        s = free[i] if free[i] > release[j] else release[j]
        free[i] = s + time[j]
        starts[j] = s
        k = s - first[j]
        if k >= len(costs[j]):
            return float("inf"), starts
        total += costs[j][k]
    return total, starts


def lp_orders(model: TimeIndexed, x: np.ndarray) -> list[list[int]]:
    """The task orders an LP solution ``x`` suggests: by mean start Σ_s s x_{j,s}, and by α-point (the first
    start where task j's cumulated x reaches α) for α = 0.2, 0.5 and 0.8; ties by size."""
    n = len(model.offset) - 1
    mean = np.zeros(n)
    np.add.at(mean, model.task, model.start * x)
    cumulated = np.cumsum(x)
    before = np.r_[0.0, cumulated][model.offset[:-1]]  # each task's cumulated x before its first column
    reached = cumulated - before[model.task]
    orders = [np.lexsort((model.time, mean))]
    for alpha in (0.2, 0.5, 0.8):
        point = np.full(n, np.inf)
        hit = reached >= alpha - 1e-9
        np.minimum.at(point, model.task[hit], model.start[hit])
        orders.append(np.lexsort((model.time, point)))
    return [o.tolist() for o in orders]


def improve_order(
    instance: OnlineInstance, model: TimeIndexed, order: list[int], deadline: Deadline, reach: int = 4
) -> tuple[float, list[int], list[int]]:
    """First-improvement local search over list orders: move one task up to ``reach`` places earlier or
    later while the total falls, until no move helps or ``deadline`` expires.  Returns (total, order, starts)
    of the best list."""
    best, starts = list_total(instance, model, order)
    n, i = len(order), 0
    while i < n and not deadline.expired():
        moved = False
        for k in range(max(0, i - reach), min(n, i + reach + 1)):
            if k == i:
                continue
            trial = order[:i] + order[i + 1 :]
            trial.insert(k, order[i])
            total, trial_starts = list_total(instance, model, trial)
            if total < best - 1e-9:
                best, order, starts, moved = total, trial, trial_starts, True
                break
        i = max(0, i - reach) if moved else i + 1
    return best, order, starts


@dataclass(frozen=True)
class LpFixOptions(MethodOptions):
    restrict: float = option(
        0.1,
        "step 2's first share of the gap between the incumbent and the LP: the MIP over the starts whose "
        "reduced cost is within it comes first, the share tripled while it is solved and not proven "
        "(0: go straight to the MIP over every start the incumbent leaves)",
        min=0.0,
        max=1.0,
    )


@method("online", "lpfix", exact=True, options=LpFixOptions)
@with_objectives
def solve_lpfix(
    instance: OnlineInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: LpFixOptions
) -> Result:
    """Offline optimum of the sums and L2 norms: time-indexed LP, reduced-cost fixing, then the MIP (HiGHS)."""
    if instance.objective.startswith("max"):
        raise MethodRefused(
            f"lpfix solves the sums and the L2 norms; {instance.objective} is a maximum: use cpsat "
            "(bisection on deadline feasibility)",
            where="objective",
        )
    deadline = Deadline(time_limit)
    w = start_windows(instance, "lpfix", max_tasks=instance.n, max_starts=MAX_STARTS)
    if w.starts == instance.n:  # a single start per task: the incumbent's, at each release
        return Result(Status.OPTIMAL, w.incumbent, stats={"columns": instance.n})
    model = TimeIndexed.of(w)
    squared = w.kind == "l2"
    best, best_total = w.incumbent, w.incumbent_value**2 if squared else w.incumbent_value
    stats: dict[str, Any] = {"columns": model.columns, "incumbent_policy_value": w.incumbent_value}
    bound = lower_bound(instance)

    def result(status: Status, found: Any, total_bound: float | None, proven: bool, note: str) -> Result:
        certified = bound if total_bound is None else max(bound, w.value(max(total_bound, 0.0)))
        return solver_result(status, found, best, w.objective, certified, proven=proven, stats=stats, message=note)

    lp = run_highs(model.highs(np.ones(model.columns), integer=False), deadline, seed=seed)
    stats["lp_seconds"] = round(lp.solver.getRunTime(), 3)
    if lp.status is not Status.OPTIMAL:
        return result(lp.status, None, None, False, f"HiGHS (LP): {lp.stats['termination']}")
    z = float(lp.objective)
    solution = lp.solver.getSolution()
    reduced = np.asarray(solution.col_dual)
    stats["lp_value"] = w.value(max(z, 0.0))
    tol = 1e-6 * max(1.0, abs(z))

    search = deadline.share(0.1, cap=10.0)  # the local search's share of the time left
    for order in lp_orders(model, np.asarray(solution.col_value)):
        total, _, starts = improve_order(instance, model, order, search)
        if total < best_total:
            best, best_total = schedule_from_starts(instance, np.array(starts)), total
    stats["list_search_value"] = w.value(best_total)
    if best_total <= z + tol:
        return result(Status.OPTIMAL, best, z, True, "")

    def mip(slack: float, share: float | None) -> Any:
        """The MIP over the starts with reduced cost <= slack, the incumbent as its start where it fits."""
        keep = reduced <= slack + tol
        cols = model.columns_of(starts_of(best, instance.n))
        feasible = cols is not None and bool(keep[cols].all())
        settings = {"mip_rel_gap": 0.0, "mip_abs_gap": tol}
        while True:
            h = model.highs(keep.astype(float), integer=True)
            if feasible:
                import highspy

                start = highspy.HighsSolution()
                values = np.zeros(model.columns)
                values[cols] = 1.0
                start.col_value = values.tolist()
                start.value_valid = True
                h.setSolution(start)
            run = run_highs(h, deadline, seed=seed, options=settings, time_limit=share)
            # HiGHS 1.16's presolve calls some feasible time-indexed models infeasible (see run_pyomo_highs)
            if not (feasible and run.status is Status.INFEASIBLE and "presolve" not in settings):
                return run, int(keep.sum())
            settings["presolve"] = "off"
            stats["presolve_retry"] = True

    def adopt(run: Any) -> None:
        nonlocal best, best_total
        if run.has_solution:
            starts = model.starts_from(np.asarray(run.solver.getSolution().col_value))
            total = model.total(starts)
            if total < best_total:
                best, best_total = schedule_from_starts(instance, starts), total

    delta = options.restrict * (best_total - z)
    while 0 < delta < best_total - z:
        run, kept = mip(delta, 0.25 * deadline.remaining())
        stats.setdefault("restricted", []).append([round(delta, 6), kept, run.stats["termination"]])
        adopt(run)
        if run.status is not Status.OPTIMAL and run.status is not Status.INFEASIBLE:
            break
        if run.status is Status.OPTIMAL and best_total <= z + delta + tol:
            stats["nodes"] = run.stats.get("nodes")
            return result(Status.OPTIMAL, best, z, True, "")
        delta *= 3
    fixed_at = best_total
    run, kept = mip(fixed_at - z, None)
    stats.update(kept_columns=kept, nodes=run.stats.get("nodes"))
    adopt(run)
    proven = run.status is Status.OPTIMAL  # never infeasible: the incumbent's starts are kept
    total_bound = min(run.bound, fixed_at) if run.bound is not None else z
    status = Status.OPTIMAL if proven else run.status
    return result(status, best, max(z, total_bound), proven, f"HiGHS: {run.stats['termination']}")
