"""What the two exact methods share: the offline non-preemptive problem as start-time windows
with a cost table per task, an incumbent, and the schedule of a set of start times.

Offline, kill-and-restart never helps (deleting a wasted partial run leaves a
feasible schedule no worse), so the non-preemptive optimum OPT_np on all m
processors bounds every non-preemptive policy from below, redirections included.

Each task T_j starts at an integer s_j in its window [r_j, L_j] (integer data:
shifting every task of an optimal schedule left as far as it goes keeps it
optimal, and then each task starts at its release or at another's completion,
an integer).  Its
contribution g_j is F_j, or S_j for the stretch objectives, squared for the L2
norms; the objective is Σ g_j, max g_j or (Σ g_j)^½.  The windows are cut by an
incumbent of value U (the best of the non-preemptive policies GSPT, FCFS and SPT):
an optimal schedule has g_j <= U - Σ_{i≠j} g_i(p_i) for the sums (every other
task contributes at least its value at F_i = p_i) and g_j <= U for the maxima,
and no task completes after max_j r_j + Σ_j p_j (left-shift any schedule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import MethodRefused
from ..instance import OnlineInstance
from ..metrics import objective_value
from ..schedule import COMPLETED, OnlineSchedule
from ..simulators.policies import simulate
from ..simulators.rules import PolicyRun


@dataclass(frozen=True)
class StartWindows:
    """Task j may start at ``first[j] + k`` for k < len(costs[j]), contributing ``costs[j][k]``."""

    instance: OnlineInstance
    kind: str  # "sum", "max" or "l2" (costs are then squared)
    first: np.ndarray
    costs: list[np.ndarray]
    incumbent: OnlineSchedule
    incumbent_value: float

    @property
    def last(self) -> np.ndarray:
        return self.first + np.array([len(c) for c in self.costs]) - 1

    @property
    def starts(self) -> int:
        """Number of (task, start time) pairs: the size of the time-indexed model."""
        return int(sum(len(c) for c in self.costs))

    def value(self, total: float) -> float:
        """The objective from the aggregated contributions (the square root for the L2 norms)."""
        return float(np.sqrt(total)) if self.kind == "l2" else float(total)

    def objective(self, schedule: OnlineSchedule) -> float:
        """The instance's objective of ``schedule``, computed from its completion times (not from a model)."""
        return objective_value(self.instance, schedule.completion_times(self.instance))


def contributions(instance: OnlineInstance, flows: np.ndarray, j: int | None = None) -> np.ndarray:
    """g_j(F) for an array of flows of task j (all tasks, one flow each, when ``j`` is None)."""
    kind, what = instance.objective.split("-")
    if what == "stretch":
        d = instance.stretch_denominator if j is None else instance.stretch_denominator[j]
        g = flows / d
        if instance.clamp_stretch:
            g = np.maximum(g, 1.0)
    else:
        g = flows.astype(float)
    return g * g if kind == "l2" else g


def check_integer(instance: OnlineInstance, what: str) -> None:
    """Refuse non-integer releases or sizes: the exact models are time-indexed."""
    for field, values in (("release", instance.release), ("time", instance.time)):
        bad = values != np.round(values)
        if bad.any():
            j = int(np.argmax(bad))
            raise MethodRefused(
                f"{what} is time-indexed and takes integer releases and times, got {float(values[j])!r}",
                where=f"tasks[{j}].{field}",
            )


def start_windows(instance: OnlineInstance, what: str, *, max_tasks: int, max_starts: int) -> StartWindows:
    """The windows and cost tables of ``instance``, or :class:`MethodRefused` above the sizes ``what`` takes."""
    check_integer(instance, what)
    if instance.n > max_tasks:
        raise MethodRefused(f"{what} takes at most {max_tasks} tasks, got {instance.n}", where="tasks")
    incumbent, value = best_policy_schedule(instance)
    kind = instance.objective.split("-")[0]
    r, p = instance.release.astype(np.int64), instance.time.astype(np.int64)
    alone = contributions(instance, instance.time)
    budget = value * value if kind == "l2" else value
    room = np.full(instance.n, budget) if kind == "max" else budget - (alone.sum() - alone)
    horizon = int(r.max() + p.sum())
    costs = []
    for j in range(instance.n):
        flows = np.arange(p[j], horizon - r[j] + 1)
        g = contributions(instance, flows, j)
        keep = int(np.searchsorted(g, room[j] * (1 + 1e-9) + 1e-9, side="right"))
        costs.append(g[: max(keep, 1)])
    windows = StartWindows(instance, kind, r, costs, incumbent, value)
    if windows.starts > max_starts:
        raise MethodRefused(
            f"{what} takes at most {max_starts} (task, start time) pairs, this instance needs {windows.starts} "
            f"({instance.n} tasks; windows cut by an incumbent of value {value:.6g})",
            where="tasks",
        )
    return windows


def best_policy_schedule(instance: OnlineInstance) -> tuple[OnlineSchedule, float]:
    """The best non-preemptive, restart-free policy schedule (GSPT, FCFS, SPT) and its objective."""
    best = None
    for policy in ("gspt", "fcfs", "spt"):
        schedule = simulate(instance, PolicyRun(policy))
        value = objective_value(instance, schedule.completion_times(instance))
        if best is None or value < best[1]:
            best = (schedule, value)
    assert best is not None
    return best


def schedule_from_starts(instance: OnlineInstance, starts: np.ndarray) -> OnlineSchedule:
    """Non-preemptive runs at ``starts`` on processors assigned greedily (interval colouring:
    at most m tasks run at any time, so a processor is always free)."""
    order = np.lexsort((np.arange(instance.n), starts))
    free_at = [0.0] * instance.processors
    runs = []
    for j in order.tolist():
        s = float(starts[j])
        i = next((i for i in range(instance.processors) if free_at[i] <= s), None)
        if i is None:
            raise ValueError(f"more than {instance.processors} tasks run at time {s}")
        free_at[i] = s + float(instance.time[j])
        runs.append((j, i, s, free_at[i], COMPLETED))
    return OnlineSchedule.from_runs(runs, task_names=instance.task_names)


def starts_of(schedule: OnlineSchedule, n: int) -> np.ndarray:
    """The integer start of every completed task of ``schedule`` (0 for the others): a solver's hint."""
    out = np.zeros(n, dtype=np.int64)
    done = schedule.outcome == COMPLETED
    out[schedule.task[done]] = np.rint(schedule.start[done]).astype(np.int64)
    return out


def add_processors(model: Any, instance: OnlineInstance, runs: list[Any], starts: list[Any]) -> None:
    """The CP-SAT constraints every time-indexed model of the family shares: at most m of the fixed-size
    intervals ``runs`` at a time (no-overlap when m = 1), and interchangeable tasks (equal release and
    size) started in index order (``starts``: each task's start, or any variable that orders like it)."""
    if instance.processors == 1:
        model.add_no_overlap(runs)
    else:
        model.add_cumulative(runs, [1] * instance.n, instance.processors)
    same: dict[tuple[float, float], list[int]] = {}
    for j in range(instance.n):
        same.setdefault((float(instance.release[j]), float(instance.time[j])), []).append(j)
    for group in same.values():
        for a, b in zip(group, group[1:], strict=False):
            model.add(starts[a] <= starts[b])
