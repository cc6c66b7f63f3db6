"""The measures of section 5.1 of Klein & Pérez (Tables 1 and 2), per test.

System-centric (Table 1):

* ``waste_pct`` -- reserved but unused node-seconds over the *used* ones, in %.  The
  paper says "% of total resources"; CBF's 116 % maximum cannot be a share of
  anything, and the used area as denominator reproduces its 70 % average;
* ``reservation_rel`` -- reserved node-seconds over CBF's;
* ``utilisation_pct`` -- used node-seconds over nodes x makespan, in %;
* ``makespan_rel`` -- makespan over CBF's.

User-centric (Table 2):

* ``avg_jct_rel``, ``avg_jwt_rel`` -- mean completion and mean start (waiting) time,
  each over CBF's (NaN when CBF's is 0 and ours is not);
* ``stretches_pct`` -- share of the applications with any stage stretched, in %;
* ``job_stretch_pct_{min,mean,max}`` -- per application (sum d' - sum d) / sum d, in %;
* ``job_waste_pct_{min,mean,max}`` -- per application, reserved but unused over used.

The per-job columns are summaries over the test's applications; a table pools them
over tests (the mean weighted by the number of applications: :mod:`.tables`).  CBF
is the baseline of every relative measure, computed here from the instance
(submission order, :func:`~coschedopt.evolving.listsched.cbf_schedule`).
"""

from __future__ import annotations

import math
from functools import lru_cache

from .instance import EvolvingInstance
from .listsched import cbf_schedule
from .schedule import TIME_RTOL, EvolvingSchedule, makespan

#: the columns of :func:`evolving_metrics`, as the benchmark report defines them (section 5.1; every
#: relative measure is over CBF's value on the same test)
METRIC_DEFINITIONS = {
    "waste_pct": "reserved but unused node-seconds over the used ones, in % (Table 1).",
    "reservation_rel": "reserved node-seconds / CBF's (Table 1).",
    "utilisation_pct": "used node-seconds / (nodes x makespan), in % (Table 1).",
    "makespan_rel": "makespan / CBF's makespan (Table 1).",
    "avg_jct_rel": "mean completion time / CBF's (Table 2).",
    "avg_jwt_rel": "mean start (waiting) time / CBF's (Table 2).",
    "stretches_pct": "the share of applications with a stretched stage, in % (Table 2).",
    "job_stretch_pct_min": "per application (sum d' - sum d) / sum d in %, the least over the test.",
    "job_stretch_pct_mean": "per application (sum d' - sum d) / sum d in %, the mean over the test.",
    "job_stretch_pct_max": "per application (sum d' - sum d) / sum d in %, the largest over the test.",
    "job_waste_pct_min": "per application, reserved but unused over used node-seconds in %, the least.",
    "job_waste_pct_mean": "per application, reserved but unused over used node-seconds in %, the mean.",
    "job_waste_pct_max": "per application, reserved but unused over used node-seconds in %, the largest.",
}
#: metrics equal to the makespan divided by a constant of the instance (CBF's makespan)
OBJECTIVE_SCALED_METRICS = ("makespan_rel",)


def reserved_area(schedule: EvolvingSchedule) -> float:
    """Node-seconds the schedule reserves (its stages, or each application's peak block if rigid)."""
    return float(sum((e - s) * n for a in schedule.applications for s, e, n in a.reserved_stages(schedule.rigid)))


def used_area(instance: EvolvingInstance) -> float:
    """Node-seconds the applications compute: sum n_k d_k of the requests."""
    return float(sum(a.area for a in instance.applications))


def _ratio(a: float, b: float) -> float:
    if b == 0:
        return 1.0 if a == 0 else math.nan
    return a / b


@lru_cache(maxsize=256)
def _baseline(instance: EvolvingInstance) -> tuple[float, float, float, float]:
    """CBF's reserved area, makespan, mean completion and mean start."""
    cbf = cbf_schedule(instance)
    ends = [a.end for a in cbf.applications]
    starts = [a.start for a in cbf.applications]
    return reserved_area(cbf), makespan(instance, cbf), sum(ends) / len(ends), sum(starts) / len(starts)


def job_measures(instance: EvolvingInstance, schedule: EvolvingSchedule) -> list[tuple[float, float, bool]]:
    """Per application: (Job Stretch %, Job Waste %, stretched?)."""
    out = []
    for sa in schedule.applications:
        req = instance.applications[instance.index[sa.application]]
        stretch = 100.0 * (sum(sa.durations) - req.total_duration) / req.total_duration
        reserved = sum((e - s) * n for s, e, n in sa.reserved_stages(schedule.rigid))
        waste = 100.0 * (reserved - req.area) / req.area
        stretched = any(d2 > d * (1 + TIME_RTOL) for d2, d in zip(sa.durations, req.durations, strict=True))
        out.append((stretch, waste, stretched))
    return out


def evolving_metrics(instance: EvolvingInstance, schedule: EvolvingSchedule) -> dict[str, float]:
    """The columns of Tables 1 and 2 for one test (see the module docstring)."""
    base_reserved, base_makespan, base_jct, base_jwt = _baseline(instance)
    used = used_area(instance)
    reserved = reserved_area(schedule)
    span = makespan(instance, schedule)
    jobs = job_measures(instance, schedule)
    stretches = [s for s, _, _ in jobs]
    wastes = [w for _, w, _ in jobs]
    n = len(jobs)
    return {
        "waste_pct": 100.0 * (reserved - used) / used,
        "reservation_rel": reserved / base_reserved,
        "utilisation_pct": 100.0 * used / (instance.nodes * span),
        "makespan_rel": span / base_makespan,
        "avg_jct_rel": _ratio(sum(a.end for a in schedule.applications) / n, base_jct),
        "avg_jwt_rel": _ratio(sum(a.start for a in schedule.applications) / n, base_jwt),
        "stretches_pct": 100.0 * sum(st for _, _, st in jobs) / n,
        "job_stretch_pct_min": min(stretches),
        "job_stretch_pct_mean": sum(stretches) / n,
        "job_stretch_pct_max": max(stretches),
        "job_waste_pct_min": min(wastes),
        "job_waste_pct_mean": sum(wastes) / n,
        "job_waste_pct_max": max(wastes),
    }


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "waste_pct": ("Waste", "%"),
    "reservation_rel": ("Reservation / CBF's", ""),
    "utilisation_pct": ("Utilisation", "%"),
    "makespan_rel": ("Makespan / CBF's", ""),
    "avg_jct_rel": ("Mean completion time / CBF's", ""),
    "avg_jwt_rel": ("Mean waiting time / CBF's", ""),
    "stretches_pct": ("Applications stretched", "%"),
    "job_stretch_pct_min": ("Stretch per application, least", "%"),
    "job_stretch_pct_mean": ("Stretch per application, mean", "%"),
    "job_stretch_pct_max": ("Stretch per application, largest", "%"),
    "job_waste_pct_min": ("Waste per application, least", "%"),
    "job_waste_pct_mean": ("Waste per application, mean", "%"),
    "job_waste_pct_max": ("Waste per application, largest", "%"),
}
