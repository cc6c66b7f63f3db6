"""Contiguity and locality (thesis ch. 4): rigid jobs on clustered processors, optimal makespans under
each constraint, the ratio theorems checked by computation, NFDH + list scheduling, the RCS bound.

Data flows one way: :class:`LocalityInstance` -> method (``cpsat`` | ``milp`` | ``nfdh-ls`` |
``rcs-list`` | ``list``) -> :class:`LocalitySchedule` -> :func:`validate_schedule` ->
:func:`locality_metrics`.  :func:`constraint_ratios` gives the four optima C, C^C, C^L, C^{C+L}
of one job set and the ratios between them; :func:`search_worst_ratios` (``coschedopt locality
search``) looks for the instances maximising each ratio.  Importing this package registers the
family, its methods, its generators (``coschedopt generate locality random | tight | record``) and
its command.  It shares nothing with the other families except :mod:`coschedopt.core`.
"""

from ..core import Family, register_family
from . import metrics as metrics_module
from .instance import CONSTRAINTS, TOPOLOGIES, Job, LocalityInstance, make_instance
from .metrics import locality_metrics
from .schedule import Assignment, LocalitySchedule, makespan, validate_schedule

FAMILY = register_family(
    Family(
        kind="locality",
        description="rigid jobs on clustered processors: minimise the makespan with no constraint, contiguity, "
        "locality or both (thesis ch. 4)",
        package=__name__,
        instance_from_dict=LocalityInstance.from_dict,
        schedule_from_dict=LocalitySchedule.from_dict,
        validate=validate_schedule,
        objective=makespan,
        objective_name="makespan",
        metric_definitions=metrics_module.METRIC_DEFINITIONS,
        metric_labels=metrics_module.METRIC_LABELS,
        objective_scaled_metrics=metrics_module.OBJECTIVE_SCALED_METRICS,
        metric_aliases=metrics_module.METRIC_ALIASES,
        instance_bounds=metrics_module.instance_bounds,
        metrics=locality_metrics,
        describe=lambda inst: {
            "n": inst.n,
            "m": inst.processors,
            "k": inst.clusters,
            "constraint": inst.constraint,
        },
        plotter="coschedopt.locality.plot:draw_locality_schedule",
        figsize=lambda inst: (10.0, min(9.0, 1.5 + 0.12 * inst.processors)),
        report="coschedopt.locality.report:locality_sections",
        examples=(
            "random",
            dict(jobs=4, processors=4, clusters=2, max_time=5, max_size=None, constraint="none", topology="line"),
        ),
        breakers="coschedopt.locality.schedule:BREAKERS",
    )
)

from . import commands, exact, generate, heuristics  # noqa: E402,F401  (register the methods, the command)
from .ratio_search import SearchSpace, search_worst_ratios  # noqa: E402
from .ratios import RATIOS, ConstraintOptima, constraint_ratios, contiguous_to_local  # noqa: E402

__all__ = [
    "CONSTRAINTS",
    "FAMILY",
    "RATIOS",
    "TOPOLOGIES",
    "Assignment",
    "ConstraintOptima",
    "Job",
    "LocalityInstance",
    "LocalitySchedule",
    "SearchSpace",
    "constraint_ratios",
    "contiguous_to_local",
    "locality_metrics",
    "make_instance",
    "makespan",
    "search_worst_ratios",
    "validate_schedule",
]
