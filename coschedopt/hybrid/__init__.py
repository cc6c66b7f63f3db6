"""``hybrid``: CPU/GPU task assignment, (Pm, Pk) || C_max (thesis chapter 2, SWDUAL).

n independent tasks, each with a CPU time p_j and a GPU time p̄_j, on m identical
CPUs and k identical GPUs; minimise the makespan.  Data flows one way:
:class:`HybridInstance` -> method (exact | dual approximation | peers' heuristic) ->
:class:`HybridSchedule` -> :func:`validate_schedule` -> :func:`hybrid_metrics`.
Importing this package registers the family, its methods and its generators.
"""

from ..core import Family, register_family
from . import metrics as metrics_module
from .bounds import area_bound, best_lower_bound, lambda_bound, longest_task_bound
from .instance import HybridInstance, describe
from .metrics import hybrid_metrics
from .schedule import HybridSchedule, makespan, validate_schedule

FAMILY = register_family(
    Family(
        kind="hybrid",
        description="CPU/GPU task assignment: n tasks on m CPUs and k GPUs, minimise the makespan",
        package=__name__,
        instance_from_dict=HybridInstance.from_dict,
        schedule_from_dict=HybridSchedule.from_dict,
        validate=validate_schedule,
        objective=makespan,
        objective_name="makespan",
        metric_definitions=metrics_module.METRIC_DEFINITIONS,
        metric_labels=metrics_module.METRIC_LABELS,
        objective_scaled_metrics=metrics_module.OBJECTIVE_SCALED_METRICS,
        metric_aliases=metrics_module.METRIC_ALIASES,
        instance_bounds=metrics_module.instance_bounds,
        metrics=hybrid_metrics,
        describe=describe,
        plotter="coschedopt.hybrid.plot:draw_hybrid_schedule",
        figsize=lambda inst: (10.0, 1.2 + 0.32 * min(inst.cpus + inst.gpus, 40)),
        report="coschedopt.hybrid.report:hybrid_sections",
        examples=("random", dict(n=5, m=2, k=1, decimals=0)),
        breakers="coschedopt.hybrid.schedule:BREAKERS",
    )
)

from . import exact, generate, heuristics  # noqa: E402,F401  (register methods and generators)

__all__ = [
    "FAMILY",
    "HybridInstance",
    "HybridSchedule",
    "area_bound",
    "best_lower_bound",
    "hybrid_metrics",
    "lambda_bound",
    "longest_task_bound",
    "makespan",
    "validate_schedule",
]
