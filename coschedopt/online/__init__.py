"""``online``: online scheduling of independent sequential tasks with redirection (thesis ch. 3).

n tasks released over time on m identical processors, scheduled online without
preemption (the preemptive references SRPT/GSRPT aside); the redirection policies
kill a long task that keeps being overtaken and restart it on a small dedicated
pool.  Objectives: bounded stretch and flow, as sum, maximum and L2 norm.

Data flows one way: :class:`OnlineInstance` -> method (the nine policies, the
offline optimum ``milp`` / ``cpsat``) -> :class:`OnlineSchedule` ->
:func:`validate_schedule` -> :func:`online_metrics`.  Importing this package
registers the family, its methods, generators, commands and suites.
"""

from ..core import Family, register_family
from . import metrics as metrics_module
from .instance import OBJECTIVES, OnlineInstance
from .metrics import objective_values, online_metrics, online_objective
from .schedule import OnlineSchedule, validate_schedule

FAMILY = register_family(
    Family(
        kind="online",
        description="online sequential tasks on m processors with redirection: stretch and flow (sum, max, L2)",
        package=__name__,
        instance_from_dict=OnlineInstance.from_dict,
        schedule_from_dict=OnlineSchedule.from_dict,
        validate=validate_schedule,
        objective=online_objective,
        objective_name="objective",
        metric_definitions=metrics_module.METRIC_DEFINITIONS,
        metric_labels=metrics_module.METRIC_LABELS,
        metrics=online_metrics,
        describe=lambda inst: {"n": inst.n, "m": inst.processors, "criterion": inst.objective},
        plotter="coschedopt.online.plot:draw_online_schedule",
        figsize=lambda inst: (10.0, min(12.0, 1.2 + 0.35 * inst.processors)),
        report="coschedopt.online.report:online_sections",
        examples=("random", dict(tasks=5, processors=2, max_time=10, load=0.9, objective="sum-stretch")),
        breakers="coschedopt.online.schedule:BREAKERS",
    )
)

from . import commands, exact, generate, simulators  # noqa: E402,F401  (register everything)

__all__ = [
    "FAMILY",
    "OBJECTIVES",
    "OnlineInstance",
    "OnlineSchedule",
    "objective_values",
    "online_metrics",
    "online_objective",
    "validate_schedule",
]
