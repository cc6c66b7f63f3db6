"""Measures of a combos schedule, as pure functions of (instance, schedule).

The paper compares strategies by their *competitive ratio*, makespan / OPT (section
3.3), which needs the LP optimum: :func:`competitive_ratio` takes it as an argument.
Everything else here is computed from the data alone.
"""

from __future__ import annotations

from .instance import CombosInstance
from .schedule import CombosSchedule, makespan

#: the columns of :func:`combos_metrics`, as the benchmark report defines them (b_i: the work of
#: task i, D = sum_i b_i, a*: the fastest combination speed, C_max: the makespan)
METRIC_DEFINITIONS = {
    "makespan": "C_max, the time the last task finishes (the objective); lower is better.",
    "mean_speed": "D / C_max: work done per time unit, the node's average speed over the schedule.",
    "max_speed": "a*, the fastest combination speed of the instance (the same for every method).",
    "ratio_to_trivial_bound": "C_max / max(max_i b_i, D / a*): the makespan over the trivial lower bound.",
    "fcs_ratio_bound": "2 - 1 / a*: Theorem 1's bound on FCS's competitive ratio (the same for every method).",
    "segments": "the number of (combination, duration) segments of the schedule.",
    "combinations_used": "the number of distinct task combinations the schedule runs.",
}
#: metrics equal to the makespan divided by a constant of the instance
OBJECTIVE_SCALED_METRICS = ("makespan", "ratio_to_trivial_bound")


def trivial_lower_bound(instance: CombosInstance) -> float:
    """max(max_i b_i, D / a*): no task runs faster than alone (speed <= 1) and no
    combination faster than a* (D = sum_i b_i, normalised).  O(n + m)."""
    return float(max(instance.b.max(), instance.b.sum() / instance.max_speed))


def fcs_ratio_bound(instance: CombosInstance) -> float:
    """Theorem 1: FCS makespan <= (2 - 1/a*) x OPT, with a* the fastest combination speed."""
    return 2.0 - 1.0 / instance.max_speed


def competitive_ratio(instance: CombosInstance, schedule: CombosSchedule, optimum: float) -> float:
    """Makespan of ``schedule`` divided by the optimal makespan (section 3.3)."""
    return makespan(instance, schedule) / optimum


def mean_speed(instance: CombosInstance, schedule: CombosSchedule) -> float:
    """Average node speed D / C_max (work units per time unit, normalised; a_u / a_v of Lemma 1)."""
    return float(instance.b.sum()) / makespan(instance, schedule)


def combos_metrics(instance: CombosInstance, schedule: CombosSchedule) -> dict[str, float]:
    """The family's metrics for result tables."""
    c = makespan(instance, schedule)
    lb = trivial_lower_bound(instance)
    return {
        "makespan": c,
        "mean_speed": mean_speed(instance, schedule),
        "max_speed": instance.max_speed,
        "ratio_to_trivial_bound": c / lb,
        "fcs_ratio_bound": fcs_ratio_bound(instance),
        "segments": float(len(schedule)),
        "combinations_used": float(len({frozenset(t) for t, _ in schedule.segments})),
    }


def describe(instance: CombosInstance) -> dict[str, float | int]:
    """Size keys of result tables: n, the number of combinations, and for the section 7
    generator's systems the midpoint of their alpha range (the x of Figures 6-7); for a
    pairwise-model instance also ``k``, the most tasks per combination."""
    size: dict[str, float | int] = {"n": instance.n, "combinations": instance.m}
    if getattr(instance, "is_model", False):
        size["k"] = instance.max_size
    lo, hi = instance.meta.get("alpha_low"), instance.meta.get("alpha_high")
    if isinstance(lo, int | float) and isinstance(hi, int | float):
        size["alpha"] = round((lo + hi) / 2, 6)
    return size


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "makespan": ("Makespan", "time units"),
    "mean_speed": ("Mean speed", "work / time unit"),
    "max_speed": ("Fastest combination speed", "work / time unit"),
    "ratio_to_trivial_bound": ("Makespan / trivial bound", ""),
    "fcs_ratio_bound": ("FCS ratio bound", ""),
    "segments": ("Segments", "count"),
    "combinations_used": ("Combinations used", "count"),
}
