"""The six objectives of §3.2 and the family's metrics, as pure functions of (instance, schedule).

Flow F_j = C_j - r_j; bounded stretch S_j = F_j / max(p_j, B) (max(S_j, 1) when the
instance asks for the clamp).  For each: the sum, the maximum and the L2 norm
(sum of squares, then the square root).  A redirected task keeps its original r_j
and p_j: its flow counts from its first release, its stretch divides by its size.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import Result
from .instance import OBJECTIVES, OnlineInstance
from .schedule import OnlineSchedule

#: the columns of :func:`online_metrics`, as the benchmark report defines them (task j released at
#: r_j, completed at C_j, size p_j; B the stretch bound)
METRIC_DEFINITIONS = {
    "sum_stretch": "sum_j S_j, S_j = (C_j - r_j) / max(p_j, B) the bounded stretch (clamped at 1 if asked).",
    "max_stretch": "max_j S_j.",
    "l2_stretch": "sqrt(sum_j S_j^2).",
    "sum_flow": "sum_j (C_j - r_j).",
    "max_flow": "max_j (C_j - r_j).",
    "l2_flow": "sqrt(sum_j (C_j - r_j)^2).",
    "redirections": "the number of tasks sent to the dedicated pool: killed on the main pool and restarted there "
    "(RD), or sent there on arrival (RR).",
    "killed_runs": "the number of runs killed and restarted from scratch (RD; RR kills none).",
    "preemptions": "the number of preempted runs (preemptive policies only).",
    "wasted_work": "processor time of the killed runs.",
    "wasted_share": "wasted work / the total work sum_j p_j.",
}


def flows(instance: OnlineInstance, completion: np.ndarray) -> np.ndarray:
    return completion - instance.release


def stretches(instance: OnlineInstance, completion: np.ndarray) -> np.ndarray:
    s = flows(instance, completion) / instance.stretch_denominator
    return np.maximum(s, 1.0) if instance.clamp_stretch else s


def objective_values(instance: OnlineInstance, completion: np.ndarray) -> dict[str, float]:
    """All six objectives of the completion times ``completion`` (one per task, file order)."""
    out: dict[str, float] = {}
    for kind, values in (("stretch", stretches(instance, completion)), ("flow", flows(instance, completion))):
        out[f"sum-{kind}"] = float(math.fsum(values))
        out[f"max-{kind}"] = float(values.max())
        out[f"l2-{kind}"] = math.sqrt(math.fsum(values * values))
    return {k: out[k] for k in OBJECTIVES}


def objective_value(instance: OnlineInstance, completion: np.ndarray, objective: str | None = None) -> float:
    """One objective (the instance's by default) of the completion times."""
    objective = objective or instance.objective
    kind, what = objective.split("-")
    values = stretches(instance, completion) if what == "stretch" else flows(instance, completion)
    if kind == "sum":
        return float(math.fsum(values))
    if kind == "max":
        return float(values.max())
    return math.sqrt(math.fsum(values * values))


def online_objective(instance: OnlineInstance, schedule: OnlineSchedule) -> float:
    """The instance's objective, recomputed from the schedule's completed runs."""
    return objective_value(instance, schedule.completion_times(instance))


def online_metrics(instance: OnlineInstance, schedule: OnlineSchedule) -> dict[str, float]:
    """The six objectives (keys with ``_``: ``sum_stretch`` ...), redirections (tasks sent to the dedicated
    pool), killed runs, preemptions, wasted work (processor time of killed runs) and its share of the total work."""
    values = objective_values(instance, schedule.completion_times(instance))
    out = {k.replace("-", "_"): v for k, v in values.items()}
    wasted = schedule.wasted_work()
    out["redirections"] = float(schedule.redirections(instance.processors))
    out["killed_runs"] = float(schedule.killed_runs())
    out["preemptions"] = float(schedule.preemptions())
    out["wasted_work"] = wasted
    out["wasted_share"] = wasted / float(instance.time.sum())
    return out


def with_objectives(solve: Callable[..., Result]) -> Callable[..., Result]:
    """Decorate a method so that its Result's ``stats`` carry :func:`online_metrics` of its schedule
    (the six objectives, redirections, ...), as the policies' Results do; the method's own counters
    are kept (and win on a shared key).  Put it under ``@method``."""

    @functools.wraps(solve)
    def call(instance: OnlineInstance, **kwargs: Any) -> Result:
        result = solve(instance, **kwargs)
        if result.schedule is not None:
            result.stats = {**online_metrics(instance, result.schedule), **result.stats}
        return result

    return call


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "sum_stretch": ("Sum stretch", ""),
    "max_stretch": ("Max stretch", ""),
    "l2_stretch": ("L2 norm of the stretches", ""),
    "sum_flow": ("Sum flow", "s"),
    "max_flow": ("Max flow", "s"),
    "l2_flow": ("L2 norm of the flows", "s"),
    "redirections": ("Tasks sent to the dedicated pool", "count"),
    "killed_runs": ("Killed runs", "count"),
    "preemptions": ("Preemptions", "count"),
    "wasted_work": ("Wasted work", "processor-s"),
    "wasted_share": ("Wasted work", "share of the work"),
}
