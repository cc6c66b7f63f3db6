"""The thesis's measures of a schedule (sections 4.4 and 4.6), as pure functions of (instance, schedule).

* ``makespan_over_area_bound``: makespan / max(A/m, p_max), the area bound of the instance
  (``area_bound``, printed beside it by ``coschedopt solve``), the quantity Theorems 4-5 bound
  (it is at least 1, and at most 3 for NFDH + list scheduling); not a method's own bound, so
  that every schedule of one instance is measured against the same number;
* ``utilisation``: A / (m * makespan);
* ``contiguous_jobs`` and ``local_jobs``: the share of jobs whose ids form one range (on the
  instance's topology) and that use the least possible number of clusters, whatever the
  constraint (section 4.6.2 counts them for every allocation variant);
* ``contiguity_factor``: mean number of id ranges per job (1 = every job contiguous);
* ``locality_factor``: mean of clusters used / ceil(size / ell) (1 = every job local).
"""

from __future__ import annotations

import numpy as np

from ..workloads.idsets import runs
from .instance import LocalityInstance
from .schedule import LocalitySchedule, clusters_of, makespan

#: the columns of :func:`locality_metrics`, as the benchmark report defines them (A = sum_j p_j size_j,
#: m processors in clusters of ell, C_max the makespan)
METRIC_DEFINITIONS = {
    "makespan_over_area_bound": "C_max / max(A / m, max_j p_j), the instance's area bound (not the method's own "
    "bound): the quantity Theorems 4-5 bound (>= 1; <= 3 for NFDH + list scheduling).",
    "utilisation": "A / (m x C_max).",
    "contiguous_jobs": "the share of jobs whose ids form one range (on the instance's topology).",
    "local_jobs": "the share of jobs using the least possible number of clusters, ceil(size / ell).",
    "contiguity_factor": "the mean number of id ranges per job (1: every job contiguous).",
    "locality_factor": "the mean of clusters used / ceil(size / ell) (1: every job local).",
}
#: metrics equal to the makespan divided by a constant of the instance
OBJECTIVE_SCALED_METRICS = ("makespan_over_area_bound",)
#: metric names of older versions -> their current names (result tables stored before the renaming)
METRIC_ALIASES = {"makespan_over_bound": "makespan_over_area_bound"}


def instance_bounds(instance: LocalityInstance) -> dict[str, float]:
    """The bound the ratio metric divides by, under the name the metric uses (``coschedopt solve`` prints it)."""
    return {"area_bound": instance.lower_bound}


def locality_metrics(instance: LocalityInstance, schedule: LocalitySchedule) -> dict[str, float]:
    """The columns of the result table for one schedule."""
    m, ell = instance.processors, instance.cluster_size
    cmax = makespan(instance, schedule)
    ranges = np.array(
        [len(runs(a.processors, ring_size=m if instance.ring else None)) for a in schedule.assignments], dtype=float
    )
    spread = np.array(
        [len(clusters_of(a.processors, ell)) / instance.min_clusters(len(a.processors)) for a in schedule.assignments]
    )
    return {
        "makespan_over_area_bound": cmax / instance.lower_bound,
        "utilisation": instance.area / (m * cmax),
        "contiguous_jobs": float(np.mean(ranges == 1)),
        "local_jobs": float(np.mean(spread == 1.0)),
        "contiguity_factor": float(ranges.mean()),
        "locality_factor": float(spread.mean()),
    }


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "makespan_over_area_bound": ("Makespan / max(A/m, p_max)", ""),
    "utilisation": ("Utilisation", "share"),
    "contiguous_jobs": ("Contiguous jobs", "share"),
    "local_jobs": ("Local jobs", "share"),
    "contiguity_factor": ("Contiguity factor", "ranges per job"),
    "locality_factor": ("Locality factor", ""),
}
