"""Co-scheduling over task combinations (Kuchumov & Korkhov, *Analytical and numerical
evaluation of co-scheduling strategies and their application*).

Data flows one way: :class:`CombosInstance` (combinations listed) or :class:`PairwiseInstance`
(speeds from the pairwise interference model, any number of tasks) -> method (``lp`` | ``fcs`` |
``search-pi`` | ``search-ei`` | ``search-ucb``; ``lp`` by column generation on the model) ->
:class:`CombosSchedule` -> :func:`validate_schedule` -> :mod:`metrics`.  Importing this package registers the family, its methods, the
``generate combos`` generator and the ``measure`` command.  It shares nothing with the
other families except :mod:`coschedopt.core`.
"""

from ..core import Family, register_family
from .instance import (
    MAX_TASKS_ALL_COMBINATIONS,
    CombosInstance,
    all_combination_masks,
    check_all_combinations,
    combination_masks_up_to,
    repair_monotone,
)
from .metrics import (
    METRIC_DEFINITIONS,
    METRIC_LABELS,
    OBJECTIVE_SCALED_METRICS,
    combos_metrics,
    competitive_ratio,
    describe,
    fcs_ratio_bound,
    trivial_lower_bound,
)
from .pairwise import PairwiseInstance, fit_pairwise, random_pairwise_instance, read_instance
from .schedule import CombosSchedule, makespan, validate_schedule, work_done

FAMILY = register_family(
    Family(
        kind="combos",
        description="co-scheduling over task combinations with known speeds: minimise the makespan (LP over 2^n - 1 "
        "combinations, FCS, online search)",
        package=__name__,
        instance_from_dict=read_instance,
        schedule_from_dict=CombosSchedule.from_dict,
        validate=validate_schedule,
        objective=makespan,
        objective_name="makespan",
        metric_definitions=METRIC_DEFINITIONS,
        metric_labels=METRIC_LABELS,
        objective_scaled_metrics=OBJECTIVE_SCALED_METRICS,
        metrics=combos_metrics,
        describe=describe,
        report="coschedopt.combos.report:competitive_ratio_sections",
        repair=lambda data: read_instance(data, repair_profiles=True),
        plotter="coschedopt.combos.plot:draw_combos_schedule",
        figsize=lambda instance: (10.0, 0.8 + 0.35 * max(instance.n, 3)),
        examples=("random", dict(tasks=3, alpha_low=0.75, alpha_high=0.85, max_size=None)),
        breakers="coschedopt.combos.schedule:BREAKERS",
    )
)

from . import commands, exact, generate, heuristics  # noqa: E402,F401  (register methods, generator, command)

__all__ = [
    "FAMILY",
    "MAX_TASKS_ALL_COMBINATIONS",
    "CombosInstance",
    "CombosSchedule",
    "PairwiseInstance",
    "all_combination_masks",
    "check_all_combinations",
    "combination_masks_up_to",
    "combos_metrics",
    "competitive_ratio",
    "fcs_ratio_bound",
    "fit_pairwise",
    "makespan",
    "random_pairwise_instance",
    "repair_monotone",
    "trivial_lower_bound",
    "validate_schedule",
    "work_done",
]
