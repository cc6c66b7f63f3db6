"""The toy family's measures of a schedule (the columns of the result table)."""

from __future__ import annotations

from .instance import ToyInstance
from .schedule import ToySchedule, toy_objective


def toy_metrics(instance: ToyInstance, schedule: ToySchedule) -> dict[str, float]:
    """``relative_objective``: the objective over sum(v) (1 for a single job)."""
    return {"relative_objective": toy_objective(instance, schedule) / sum(instance.values)}
