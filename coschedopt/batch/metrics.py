"""The measures of thesis chapters 4-5, as pure functions of (instance, schedule).

Per job j (submitted at r_j, started at s_j, ended at e_j, run time p_j on an
ideal allocation, ``size_j`` processors):

- flow e_j − r_j (with the penalised run time: a penalty shows up in the flow),
  waiting time s_j − r_j;
- bounded stretch (e_j − r_j) / max(p_j, B), B = 10 s, optionally clamped
  below at 1 (thesis §5.7, the note's reading of the unset bound);
- contiguity: the number of maximal id ranges (a ring joins the last and the
  first id when the schedule's ``metric_topology`` is ``ring``; a schedule
  without one uses its ``topology``, the allocation's);
- locality: clusters used / ⌈size/ℓ⌉; platform level L / L_min (§5.6.4).

The schedule's measures: makespan (last end − first submission), sums and
means of the above, utilisation (processor-seconds used / P × makespan), the
success count (jobs not killed), and chapter 4's shares of contiguous and of
local jobs and locality ratio E[K] / E[K*] (a ratio of means, §4.6.2).
"""

from __future__ import annotations

import numpy as np

from .instance import BatchInstance
from .schedule import BatchSchedule, min_levels, platform_levels, processor_runs

STRETCH_BOUND = 10


#: the columns of :func:`batch_metrics`, as the benchmark report defines them (job j submitted at r_j,
#: started at s_j, ended at e_j, run time p_j; P processors)
METRIC_DEFINITIONS = {
    "makespan": "the last end minus the first submission.",
    "sum_flow": "sum_j (e_j - r_j), with penalised run times.",
    "mean_flow": "the mean of e_j - r_j.",
    "sum_wait": "sum_j (s_j - r_j).",
    "mean_wait": "the mean of s_j - r_j.",
    "sum_stretch": "sum_j of the bounded stretch (e_j - r_j) / max(p_j, 10 s), clamped below at 1.",
    "mean_stretch": "the mean bounded stretch.",
    "utilisation": "processor-seconds used / (P x makespan).",
    "contiguity_factor": "the mean number of maximal id ranges per job (1: every job contiguous).",
    "locality_factor": "the mean of clusters used / ceil(size / cluster size).",
    "platform_level_factor": "the mean of the platform level L / L_min (section 5.6.4).",
    "success": "the number of jobs not killed for running past their requested time.",
    "contiguous_share": "the share of jobs on one range of ids (chapter 4).",
    "local_share": "the share of jobs on the least possible number of clusters (chapter 4).",
    "locality_ratio": "E[K] / E[K*]: mean clusters used over the mean least possible (section 4.6.2).",
}
#: metrics equal to the objective divided by a constant of the instance
OBJECTIVE_SCALED_METRICS = ("sum_flow", "mean_flow")


def job_shapes(instance: BatchInstance, schedule: BatchSchedule) -> dict[str, np.ndarray]:
    """Per job: ``ranges``, ``clusters`` used, ``min_clusters``, ``level`` L and ``min_level`` L_min.

    Computed on the schedule's table of runs (:func:`.schedule.processor_runs`, read once and shared with the
    validator) for all jobs at once: a job's maximal runs are its ranges (on a ring, a run ending at the last
    id and one starting at 0 are one); a run covers the clusters from its first id's to its last id's, and
    two consecutive runs of a job share at most one cluster (runs are sorted, so a cluster shared by two
    runs holds every run between them)."""
    plat = instance.platform
    ring = schedule.model.get("metric_topology", schedule.model.get("topology")) == "ring"
    n, ell = instance.n, plat.cluster_size
    table = processor_runs(schedule).maximal()
    ranges = np.bincount(table.job, minlength=n).astype(np.int64)
    lowest, highest = table.lowest(), table.highest()
    if ring:
        wraps = (ranges > 1) & (lowest == 0) & (highest == plat.processors - 1)
        ranges -= wraps
    c_first, c_last = table.first // ell, table.last // ell
    shared = np.zeros(len(table.job), dtype=np.int64)
    shared[1:] = (table.job[1:] == table.job[:-1]) & (c_first[1:] == c_last[:-1])
    clusters = np.bincount(table.job, weights=c_last - c_first + 1 - shared, minlength=n).astype(np.int64)
    return {
        "ranges": ranges,
        "clusters": clusters,
        "min_clusters": -(-instance.size // ell),
        "level": platform_levels(instance, lowest, highest),
        "min_level": min_levels(instance),
    }


def bounded_stretch(
    instance: BatchInstance, schedule: BatchSchedule, *, bound: int = STRETCH_BOUND, clamp: bool = True
) -> np.ndarray:
    """(e − r) / max(p, ``bound``) per job, clamped below at 1 when ``clamp``."""
    stretch = (schedule.end - instance.submit) / np.maximum(instance.run_time, bound)
    return np.maximum(stretch, 1.0) if clamp else stretch


def batch_metrics(instance: BatchInstance, schedule: BatchSchedule) -> dict[str, float]:
    """Every measure of the module docstring, one float each (the columns of result tables)."""
    flow = schedule.end - instance.submit
    wait = schedule.start - instance.submit
    span = max(int(schedule.end.max() - instance.submit.min()), 1)
    used = float((instance.size * (schedule.end - schedule.start)).sum())
    shapes = job_shapes(instance, schedule)
    stretch = bounded_stretch(instance, schedule)
    return {
        "makespan": float(span),
        "sum_flow": float(flow.sum()),
        "mean_flow": float(flow.mean()),
        "sum_wait": float(wait.sum()),
        "mean_wait": float(wait.mean()),
        "sum_stretch": float(stretch.sum()),
        "mean_stretch": float(stretch.mean()),
        "utilisation": used / (instance.processors * span),
        "contiguity_factor": float(shapes["ranges"].mean()),
        "locality_factor": float((shapes["clusters"] / shapes["min_clusters"]).mean()),
        "platform_level_factor": float((shapes["level"] / shapes["min_level"]).mean()),
        "success": float((~schedule.failed).sum()),
        "contiguous_share": float((shapes["ranges"] == 1).mean()),
        "local_share": float((shapes["clusters"] == shapes["min_clusters"]).mean()),
        "locality_ratio": float(shapes["clusters"].mean() / shapes["min_clusters"].mean()),
    }


#: metric -> (short axis label, unit; "" for a pure number): the report's axis labels.  Kept apart from
#: METRIC_DEFINITIONS; a metric missing here is labelled by its name.
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "makespan": ("Makespan", "s"),
    "sum_flow": ("Sum flow", "s"),
    "mean_flow": ("Mean flow", "s"),
    "sum_wait": ("Sum wait", "s"),
    "mean_wait": ("Mean wait", "s"),
    "sum_stretch": ("Sum bounded stretch", ""),
    "mean_stretch": ("Mean bounded stretch", ""),
    "utilisation": ("Utilisation", "share"),
    "contiguity_factor": ("Contiguity factor", "ranges per job"),
    "locality_factor": ("Locality factor", ""),
    "platform_level_factor": ("Platform level factor", ""),
    "success": ("Jobs not killed", "count"),
    "contiguous_share": ("Contiguous jobs", "share"),
    "local_share": ("Local jobs", "share"),
    "locality_ratio": ("Locality ratio E[K]/E[K*]", ""),
}
