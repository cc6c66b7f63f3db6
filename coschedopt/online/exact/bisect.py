"""The offline non-preemptive optimum of max flow and max stretch by bisection on the objective (``cpsat``'s path
for the maxima; ``-O bisect=false`` gives its single model instead).

For a value v every task must complete by r_j + F_j(v), where F_j(v) is the largest integer flow whose
contribution g_j(F) (:func:`.offline.contributions`: F, or F / max(p_j, B), clamped at 1 when asked) is
at most v.  Whether v is reachable is then P|r_j, d_j|- feasibility: one fixed-size interval per task
with its start in [r_j, r_j + F_j(v) - p_j], one cumulative constraint of capacity m (tasks of equal
release and size ordered).  CP-SAT's timetabling and edge finding settle such a probe in milliseconds
where the model minimising max_j g_j (:mod:`.cpsat`) leaves a wide gap at n = 200, its bound coming
from the relaxation of a max over many linear terms.  Bisection on the bound with deadline
feasibility is the classic route to min-max objectives with release dates (e.g. Gharbi and Haouari,
J. Sched. 5(4), 2002, for P|r_j, q_j|Cmax).

The values a schedule can take are g_j(F) at integer flows F, so with ``lower`` the least such value not
proven unreachable (at first max_j g_j(p_j)) and ``best`` the value of the best schedule (at first the
best policy's, :func:`.offline.best_policy_schedule`), each probe at v = (lower + best) / 2 either finds
a schedule (best drops to its value, <= v) or proves v unreachable (lower rises to the least value
above v); the search ends when lower = best.  About log2((best - lower) / resolution) probes, each one
CP-SAT model of n intervals.  Integer releases and sizes (the probes are time-indexed by CP-SAT's
integer starts; a left-shifted schedule starts every task at an integer).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import Deadline, Result, Status, run_cpsat
from ..instance import OnlineInstance
from ..metrics import objective_value
from .offline import (
    add_processors,
    best_policy_schedule,
    check_integer,
    contributions,
    schedule_from_starts,
    starts_of,
)

#: relative tolerance when a value is compared with a contribution F / d (floating division)
_TOLERANCE = 1e-9


class _Contributions:
    """g_j(F) for integer flows F, and its inverse: the largest flow whose contribution is at most v."""

    def __init__(self, instance: OnlineInstance) -> None:
        self.instance = instance
        self.stretch = instance.objective.endswith("stretch")
        self.d = instance.stretch_denominator.astype(float) if self.stretch else np.ones(instance.n)

    def largest_flow(self, v: float) -> np.ndarray:
        """F_j(v) = max{F integer: g_j(F) <= v}; a clamped stretch is at most v >= 1 exactly when F / d_j is."""
        return np.floor(v * self.d * (1 + _TOLERANCE) + _TOLERANCE).astype(np.int64)

    def next_value(self, v: float) -> float:
        """The least value g_j(F) > v that some task can take at an integer flow."""
        above = np.floor(v * self.d * (1 + _TOLERANCE) + _TOLERANCE) + 1
        values = above / self.d
        if self.stretch and self.instance.clamp_stretch:
            values = np.maximum(values, 1.0)  # v >= 1 here: the lower bound of a clamped stretch is 1
        return float(values.min())


def _probe(
    instance: OnlineInstance, flows: np.ndarray, hint: np.ndarray, deadline: Deadline, seed: int | None, workers: int
) -> np.ndarray | bool | None:
    """Starts of a schedule where task j completes by r_j + flows[j]; False if none exists, None if stopped."""
    from ortools.sat.python import cp_model

    r, p = instance.release.astype(np.int64), instance.time.astype(np.int64)
    latest = r + flows - p
    if (latest < r).any():
        return False
    model = cp_model.CpModel()
    starts = [model.new_int_var(int(r[j]), int(latest[j]), f"s{j}") for j in range(instance.n)]
    runs = [model.new_fixed_size_interval_var(starts[j], int(p[j]), f"run{j}") for j in range(instance.n)]
    add_processors(model, instance, runs, starts)
    for j in range(instance.n):
        model.add_hint(starts[j], int(min(max(hint[j], r[j]), latest[j])))
    run = run_cpsat(model, deadline, seed=seed, workers=workers, params={"stop_after_first_solution": True})
    if run.status is Status.INFEASIBLE:
        return False
    if not run.has_solution:
        return None
    return np.array([run.value(s) for s in starts], dtype=np.int64)


def solve_max(instance: OnlineInstance, deadline: Deadline, seed: int | None, workers: int) -> Result:
    """Max flow or max stretch of ``instance`` (integer data): OPTIMAL, or TIME_LIMIT with the best schedule and
    the least value not proven unreachable."""
    check_integer(instance, "cpsat")
    g = _Contributions(instance)
    best, best_value = best_policy_schedule(instance)
    lower = float(contributions(instance, instance.time).max())
    stats: dict[str, Any] = {"incumbent_policy_value": best_value, "probes": 0, "infeasible_probes": 0}
    while lower < best_value * (1 - _TOLERANCE) and not deadline.expired():
        v = max(lower, (lower + best_value) / 2)
        stats["probes"] += 1
        found = _probe(instance, g.largest_flow(v), starts_of(best, instance.n), deadline, seed, workers)
        if found is None:
            break
        if found is False:
            stats["infeasible_probes"] += 1
            lower = g.next_value(v)
            continue
        schedule = schedule_from_starts(instance, found)
        value = objective_value(instance, schedule.completion_times(instance))
        if value < best_value:
            best, best_value = schedule, value
    if lower >= best_value * (1 - _TOLERANCE):
        return Result(Status.OPTIMAL, best, lower_bound=best_value, stats=stats)
    return Result(Status.TIME_LIMIT, best, lower_bound=min(lower, best_value), stats=stats)
