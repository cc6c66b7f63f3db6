"""``batch``: online batch scheduling of rigid jobs on real traces (thesis chapters 4-5).

Problem: jobs (submit time, run time, requested wall time, size) arrive over
time at a platform of P processors under a fat tree; a batch scheduler gives
each one ``size`` processor ids and a start time.  The simulators are FCFS,
EASY and conservative backfilling (``fcfs``, ``easy``, ``conservative``), each
with the seven allocation variants of the thesis (basic, becont, cont, beloc,
loc, beplat, plat), the communication penalty of §5.3.4 and, for
conservative, the reassignment of §5.5.

Data flows one way: :class:`BatchInstance` (JSON, or an SWF trace read by
``coschedopt.workloads.read_swf``) -> simulator -> :class:`BatchSchedule` ->
:func:`validate_schedule` -> :func:`batch_metrics`.  Importing this package
registers the family, its simulators, its generators
(``coschedopt generate batch ...``), its exports and its suites.
"""

from ..core import Family, register_family
from . import metrics as metrics_module
from .instance import BatchInstance
from .metrics import batch_metrics
from .schedule import BatchSchedule, sum_flow, validate_schedule
from .traces import read_trace_instance

FAMILY = register_family(
    Family(
        kind="batch",
        description="online batch scheduling on real traces: FCFS, EASY, conservative backfilling (thesis ch. 4-5)",
        package=__name__,
        instance_from_dict=BatchInstance.from_dict,
        schedule_from_dict=BatchSchedule.from_dict,
        validate=validate_schedule,
        objective=sum_flow,
        objective_name="sum flow",
        metric_definitions=metrics_module.METRIC_DEFINITIONS,
        metric_labels=metrics_module.METRIC_LABELS,
        objective_scaled_metrics=metrics_module.OBJECTIVE_SCALED_METRICS,
        metrics=batch_metrics,
        describe=lambda inst: {"n": inst.n, "m": inst.processors},
        plotter="coschedopt.batch.plot:draw_batch_schedule",
        figsize=lambda inst: (11.0, 6.0),
        readers={".swf": read_trace_instance, ".swf.gz": read_trace_instance},
        exporters={"evalys": lambda inst, sched, path: write_jobs_csv(inst, sched, path)},
        report="coschedopt.batch.report:batch_report",
        examples=("random", dict(jobs=8, processors=8, levels=[], horizon=20, max_run=10)),
        breakers="coschedopt.batch.schedule:BREAKERS",
    )
)

from . import commands, generate, simulators  # noqa: E402,F401  (register the simulators and generators)
from .export import write_jobs_csv  # noqa: E402

__all__ = ["FAMILY", "BatchInstance", "BatchSchedule", "batch_metrics", "sum_flow", "validate_schedule"]
