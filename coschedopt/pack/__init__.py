"""k-in-p pack co-scheduling (Aupy, Shantharam, Benoit, Robert, Raghavan).

Data flows one way: :class:`PackInstance` -> method (exact | heuristic) ->
:class:`PackSchedule` -> :func:`validate_schedule` -> :mod:`metrics`.
Importing this package registers the family, its methods and its generators.
"""

from ..core import Family, register_family
from .instance import PackInstance, repair
from .metrics import (
    METRIC_DEFINITIONS,
    METRIC_LABELS,
    OBJECTIVE_SCALED_METRICS,
    pack_metrics,
    packing_ratio,
    relative_cost,
    relative_response_time,
)
from .schedule import PackSchedule, pack_cost, pack_costs, validate_schedule
from .single_pack import min_processors_single_pack, optimal_single_pack, single_pack_dp

FAMILY = register_family(
    Family(
        kind="pack",
        description="k-in-p pack co-scheduling: partition tasks into packs, minimise the sum of pack times",
        package=__name__,
        instance_from_dict=PackInstance.from_dict,
        schedule_from_dict=PackSchedule.from_dict,
        validate=validate_schedule,
        objective=pack_cost,
        objective_name="cost",
        metric_definitions=METRIC_DEFINITIONS,
        metric_labels=METRIC_LABELS,
        objective_scaled_metrics=OBJECTIVE_SCALED_METRICS,
        metrics=pack_metrics,
        describe=lambda inst: {"n": inst.n, "m": inst.processors, "k": inst.max_pack_size},
        repair=lambda data: PackInstance.from_dict(data, repair_profiles=True),
        plotter="coschedopt.pack.plot:plot_pack_schedule",
        report="coschedopt.pack.report:pack_sections",
        examples=("random", dict(tasks=5, processors=4, integer=False, max_pack_size=2)),
        breakers="coschedopt.pack.schedule:BREAKERS",
    )
)

from . import exact, generate, heuristics  # noqa: E402,F401  (register methods and generators)

__all__ = [
    "FAMILY",
    "PackInstance",
    "PackSchedule",
    "min_processors_single_pack",
    "optimal_single_pack",
    "pack_cost",
    "pack_costs",
    "pack_metrics",
    "packing_ratio",
    "relative_cost",
    "relative_response_time",
    "repair",
    "single_pack_dp",
    "validate_schedule",
]
