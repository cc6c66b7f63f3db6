"""``coschedopt export sol.json -o jobs.csv``: a schedule as Batsim's ``out_jobs.csv`` (what evalys reads).

Columns are Batsim's (``job_id, workload_name, submission_time,
requested_number_of_resources, requested_time, success, final_state,
starting_time, execution_time, finish_time, waiting_time, turnaround_time,
stretch, allocated_resources``), ``allocated_resources`` an interval set of
0-based ids such as ``0-3 8``; a killed job is ``COMPLETED_WALLTIME_REACHED``
with ``success`` 0, as Batsim writes it.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from .instance import BatchInstance
from .schedule import BatchSchedule

COLUMNS = (
    "job_id",
    "workload_name",
    "submission_time",
    "requested_number_of_resources",
    "requested_time",
    "success",
    "final_state",
    "starting_time",
    "execution_time",
    "finish_time",
    "waiting_time",
    "turnaround_time",
    "stretch",
    "allocated_resources",
)


def write_jobs_csv(instance: BatchInstance, schedule: BatchSchedule, path: str | os.PathLike) -> Path:
    """Write one row per job (in the instance's order) to ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(COLUMNS)
        for j in range(instance.n):
            submit, start, end = int(instance.submit[j]), int(schedule.start[j]), int(schedule.end[j])
            run = end - start
            failed = bool(schedule.failed[j])
            out.writerow(
                (
                    instance.ids[j],
                    instance.name,
                    submit,
                    int(instance.size[j]),
                    int(instance.requested_time[j]),
                    0 if failed else 1,
                    "COMPLETED_WALLTIME_REACHED" if failed else "COMPLETED_SUCCESSFULLY",
                    start,
                    run,
                    end,
                    start - submit,
                    end - submit,
                    (end - submit) / run if run else 1.0,
                    schedule.processors[j],
                )
            )
    return path
