"""Quality measures of a CPU/GPU schedule, pure functions of (instance, schedule).

The thesis measures SWDUAL in seconds and GCUPS (cells per second, a throughput
view of the makespan: :func:`gcups`); the dual-approximation literature by the
ratio of the makespan to a lower bound (:func:`ratio_to_lower_bound`).
"""

from __future__ import annotations

import numpy as np

from .bounds import best_lower_bound
from .instance import HybridInstance
from .schedule import HybridSchedule, makespan


def ratio_to_lower_bound(instance: HybridInstance, schedule: HybridSchedule) -> float:
    """C_max / the best certified lower bound (LB_λ on the data's grid): >= the ratio to OPT."""
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
    """The columns of result tables: ratio to the lower bound, GPU task share, each type's utilisation."""
    return {
        "ratio_to_lower_bound": ratio_to_lower_bound(instance, schedule),
        "gpu_task_share": float(np.mean(schedule.on_gpu)),
        "cpu_utilisation": utilisation(instance, schedule, gpu=False),
        "gpu_utilisation": utilisation(instance, schedule, gpu=True),
    }
