"""Quality measures of a CPU/GPU schedule, pure functions of (instance, schedule).

The thesis measures SWDUAL in seconds and GCUPS (cells per second, a throughput
view of the makespan: :func:`gcups`); the dual-approximation literature by the
ratio of the makespan to a lower bound (:func:`makespan_over_lambda_bound`).

The ratio divides by a bound of the instance alone, LB_λ (:func:`.bounds.best_lower_bound`), so
that every method's schedule of one instance is measured against the same number; a method's own
certified bound (``Result.lower_bound``, the configuration LP's for ``colgen``) may be higher.
The name says which bound: ``lambda_bound`` (:data:`INSTANCE_BOUNDS`) is printed beside it.
"""

from __future__ import annotations

import numpy as np

from .bounds import best_lower_bound
from .instance import HybridInstance
from .schedule import HybridSchedule, makespan

#: the columns of :func:`hybrid_metrics`, as the benchmark report defines them (p_j, p̄_j: the
#: CPU and GPU times of task j, m CPUs and k GPUs, C_max the makespan)
METRIC_DEFINITIONS = {
    "makespan_over_lambda_bound": "C_max / LB_λ, LB_λ the instance's dual-test bound (it dominates max_j min(p_j, "
    "p̄_j) and the area LP), not the method's own bound: at least the ratio to the optimum; lower is better.",
    "gpu_task_share": "the share of the tasks run on a GPU.",
    "cpu_utilisation": "busy CPU time / (m x C_max), 0 without CPUs.",
    "gpu_utilisation": "busy GPU time / (k x C_max), 0 without GPUs.",
}
#: metrics equal to the makespan divided by a constant of the instance
OBJECTIVE_SCALED_METRICS = ("makespan_over_lambda_bound",)
#: metric names of older versions -> their current names (result tables stored before the renaming)
METRIC_ALIASES = {"ratio_to_lower_bound": "makespan_over_lambda_bound"}


def instance_bounds(instance: HybridInstance) -> dict[str, float]:
    """The bound the ratio metric divides by, under the name the metric uses (``coschedopt solve`` prints it)."""
    return {"lambda_bound": best_lower_bound(instance)}


def makespan_over_lambda_bound(instance: HybridInstance, schedule: HybridSchedule) -> float:
    """C_max / LB_λ (on the data's grid, :func:`.bounds.best_lower_bound`): >= the ratio to OPT."""
    return makespan(instance, schedule) / best_lower_bound(instance)


def utilisation(instance: HybridInstance, schedule: HybridSchedule, gpu: bool) -> float:
    """Busy time of one type over (its machines x C_max); 0 for a type without machines."""
    machines = instance.gpus if gpu else instance.cpus
    if machines == 0:
        return 0.0
    busy = float(schedule.durations(instance)[schedule.on_gpu == gpu].sum())
    return busy / (machines * makespan(instance, schedule))


def gcups(cells: float, seconds: float) -> float:
    """Giga cell updates per second of a sequence comparison: cells / seconds / 1e9 (thesis Table 2.4)."""
    return cells / seconds / 1e9


def hybrid_metrics(instance: HybridInstance, schedule: HybridSchedule) -> dict[str, float]:
    """The columns of result tables: makespan over LB_λ, GPU task share, each type's utilisation."""
    return {
        "makespan_over_lambda_bound": makespan_over_lambda_bound(instance, schedule),
        "gpu_task_share": float(np.mean(schedule.on_gpu)),
        "cpu_utilisation": utilisation(instance, schedule, gpu=False),
        "gpu_utilisation": utilisation(instance, schedule, gpu=True),
    }


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "makespan_over_lambda_bound": ("Makespan / LB_λ", ""),
    "gpu_task_share": ("Tasks on a GPU", "share"),
    "cpu_utilisation": ("CPU utilisation", "share"),
    "gpu_utilisation": ("GPU utilisation", "share"),
}
