"""The paper's quality measures of a co-schedule (section 6, "Methodology").

All are pure functions of (instance, schedule); the reference is the *1-pack
schedule*, every task alone on all p processors, one after the other.
"""

from __future__ import annotations

import numpy as np

from .instance import PackInstance
from .schedule import PackSchedule, pack_cost, pack_costs

#: the columns of :func:`pack_metrics`, as the benchmark report defines them (section 6 of the paper;
#: t(i, j): time of task i on j processors, sigma(i): its processors, p: the processors, cost: the sum
#: of the pack times max_{i in pack} t(i, sigma(i)))
METRIC_DEFINITIONS = {
    "relative_cost": "cost / sum_i t(i, p): the co-schedule's cost over that of the 1-pack schedule "
    "(every task alone on all p processors, one after the other); lower is better.",
    "packing_ratio": "sum_i sigma(i) t(i, sigma(i)) / (p x cost): the work done over the processor time "
    "available; 1 means no processor ever idles, higher is better.",
    "relative_response_time": "R-hat / R: the mean completion time of the tasks, packs run by increasing "
    "cost, over that of the 1-pack schedule run shortest task first; below 1, tasks finish sooner on average.",
    "packs": "the number of packs.",
}
#: metrics equal to the cost divided by a constant of the instance: optimal exactly at the optimum,
#: and a certified bound on the cost is one on them
OBJECTIVE_SCALED_METRICS = ("relative_cost",)


def one_pack_cost(instance: PackInstance) -> float:
    """Cost of running each task alone on all p processors: sum_i t(i, p)."""
    return float(instance.times[:, -1].sum())


def relative_cost(instance: PackInstance, schedule: PackSchedule) -> float:
    """Cost of the co-schedule divided by the cost of the 1-pack schedule (lower is better)."""
    return pack_cost(instance, schedule) / one_pack_cost(instance)


def total_work(instance: PackInstance, schedule: PackSchedule) -> float:
    """sum_i sigma(i) t(i, sigma(i)): processor-time actually used by the tasks."""
    idx, t = instance.index, instance.times
    return float(sum(q * t[idx[name], q - 1] for pack in schedule.packs for name, q in pack))


def packing_ratio(instance: PackInstance, schedule: PackSchedule) -> float:
    """Total work divided by p x cost: 1 means no idle processor time (higher is better)."""
    return total_work(instance, schedule) / (instance.processors * pack_cost(instance, schedule))


def mean_response_time_one_pack(instance: PackInstance) -> float:
    """R: mean response time of the 1-pack schedule in shortest-task-first order.

    r_i = sum_{j <= i} t(pi(j), p) with tasks sorted by non-decreasing t(i, p).
    """
    tp = np.sort(instance.times[:, -1])
    return float(np.cumsum(tp).mean())


def mean_response_time(instance: PackInstance, schedule: PackSchedule) -> float:
    """R-hat: packs run in increasing order of cost; task i of pack v finishes at
    sum_{l < v} cost(l) + t(i, sigma(i)); R-hat is the mean over tasks."""
    costs = pack_costs(instance, schedule)
    order = np.argsort(costs, kind="stable")
    idx, t = instance.index, instance.times
    start, total = 0.0, 0.0
    for b in order:
        for name, q in schedule.packs[b]:
            total += start + t[idx[name], q - 1]
        start += costs[b]
    return float(total / instance.n)


def relative_response_time(instance: PackInstance, schedule: PackSchedule) -> float:
    """R-hat / R: below 1 means tasks finish sooner on average than one by one, shortest first."""
    return mean_response_time(instance, schedule) / mean_response_time_one_pack(instance)


def pack_metrics(instance: PackInstance, schedule: PackSchedule) -> dict[str, float]:
    """The three measures of the paper's Figures 2-5, plus the number of packs."""
    return {
        "relative_cost": relative_cost(instance, schedule),
        "packing_ratio": packing_ratio(instance, schedule),
        "relative_response_time": relative_response_time(instance, schedule),
        "packs": float(len(schedule)),
    }


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "relative_cost": ("Relative cost", ""),
    "packing_ratio": ("Packing ratio", ""),
    "relative_response_time": ("Relative response time", ""),
    "packs": ("Packs", "count"),
}
