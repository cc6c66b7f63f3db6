"""Rigid evolving applications (Klein & Pérez, RR-7205): evolution profiles, fit, CBF, node IDs, optimum.

Applications change their node needs during the run along a known evolution profile
(EP); all arrive at time 0 on a cluster of identical nodes.  Data flows one way:
:class:`EvolvingInstance` -> method -> :class:`EvolvingSchedule` ->
:func:`validate_schedule` -> :func:`evolving_metrics`.

* :mod:`.evolution` -- the EP algebra (value, max, loc, delay, stretch, sum, change points, fits);
* :mod:`.fit` -- Algorithm 3 (base fit with a stretch limit) and compacting;
* :mod:`.listsched` -- Algorithm 2 (list scheduling) and the CBF baseline;
* :mod:`.heuristics` -- methods ``cbf``, ``fit``, ``nos``, ``mic``, ``mic+c``, ``inf``,
  ``inf+c``, ``order-search``;
* :mod:`.nodeids` -- Algorithm 1 (node IDs; ``-O node_ids=true`` on every method);
* :mod:`.exact` -- ``cpsat`` (minimum makespan for a stretch limit, then least waste) and
  ``milp`` (time-indexed, no stretch);
* :mod:`.metrics`, :mod:`.tables`, :mod:`.report` -- Tables 1 and 2 beside the paper's;
* :mod:`.generate` -- the paper's workload (``coschedopt generate evolving paper``).
"""

from ..core import Family, register_family
from . import metrics as metrics_module
from .evolution import Profile, fits
from .instance import Application, EvolvingInstance
from .metrics import evolving_metrics
from .schedule import EvolvingSchedule, NodeAllocation, ScheduledApplication, makespan, validate_schedule

FAMILY = register_family(
    Family(
        kind="evolving",
        description="rigid evolving applications on identical nodes: delay and stretch their EPs, minimise the makespan",
        package=__name__,
        instance_from_dict=EvolvingInstance.from_dict,
        schedule_from_dict=EvolvingSchedule.from_dict,
        validate=validate_schedule,
        objective=makespan,
        objective_name="makespan",
        metric_definitions=metrics_module.METRIC_DEFINITIONS,
        metric_labels=metrics_module.METRIC_LABELS,
        objective_scaled_metrics=metrics_module.OBJECTIVE_SCALED_METRICS,
        metrics=evolving_metrics,
        describe=lambda inst: {"n": inst.n, "m": inst.nodes, "stages": inst.total_stages},
        plotter="coschedopt.evolving.plot:draw_resource_profile",
        figsize=lambda inst: (11.0, 4.5),
        report="coschedopt.evolving.report:evolving_report",
        examples=(
            "small",
            dict(
                min_apps=2,
                max_apps=3,
                min_stages=1,
                max_stages=2,
                min_duration=500,
                max_duration=1500,
                min_nodes=1,
                max_nodes=6,
                cluster=10,
                time_unit=100,
            ),
        ),
        breakers="coschedopt.evolving.schedule:BREAKERS",
    )
)

from . import exact, generate, heuristics  # noqa: E402,F401  (register the methods and generators)

__all__ = [
    "FAMILY",
    "Application",
    "EvolvingInstance",
    "EvolvingSchedule",
    "NodeAllocation",
    "Profile",
    "ScheduledApplication",
    "evolving_metrics",
    "fits",
    "makespan",
    "validate_schedule",
]
