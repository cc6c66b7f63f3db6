"""``coschedopt online table-3-1``: thesis Table 3.1 beside what the traces and Method C give here.

Per trace: the task count under the note's filter (and KTH's extra filter), the
span in days, and over the instances of seeds 0..k-1 the mean processors m / Q
(Method C, rounded), the mean task count and the mean offered load (work over
m · window).  The thesis's instance processor counts do not come out of Method C
(the family's notes discuss it); its task counts do, within about 10 %.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from .method_c import DAY, method_c_instance
from .traces import PRESETS, read_trace_jobs


@dataclass(frozen=True)
class TraceRow:
    """One row of Table 3.1, thesis and ours."""

    name: str
    tasks: int
    span_days: float
    mean_processors: float
    mean_tasks: float
    mean_load: float


def table_3_1_rows(seeds: int = 20, *, inside: bool = False, progress: bool = False) -> list[TraceRow]:
    """Table 3.1 recomputed from the traces and the Method C instances of seeds 0 .. seeds-1."""
    rows = []
    for name in PRESETS:
        jobs = read_trace_jobs(name)
        span = float(jobs.submit.max() - jobs.submit.min()) / DAY
        insts = [method_c_instance(name, seed=s, inside=inside) for s in range(seeds)]
        rows.append(
            TraceRow(
                name,
                len(jobs.job_id),
                span,
                float(np.mean([i.processors for i in insts])),
                float(np.mean([i.n for i in insts])),
                float(np.mean([i.time.sum() / (i.processors * i.source["window_days"] * DAY) for i in insts])),
            )
        )
        if progress:
            print(f"table-3-1: {name} done", file=sys.stderr)
    return rows


def table_3_1_markdown(rows: list[TraceRow]) -> str:
    """The table in Markdown: thesis values beside ours."""
    head = (
        "| trace | CPUs | tasks (thesis) | tasks (ours) | span (thesis) | span (ours, days) | window (days) "
        "| instance CPUs (thesis) | m/Q (ours) | instance tasks (thesis) | instance tasks (ours) | load (ours) |"
    )
    lines = [head, "|" + "---|" * 12]
    for r in rows:
        p = PRESETS[r.name]
        lines.append(
            f"| {r.name} | {p.processors} | {p.tasks} | {r.tasks}{' =' if r.tasks == p.tasks else ''} | {p.span:g} "
            f"| {r.span_days:.1f} | {p.window_days:g} | {p.instance_processors} | {r.mean_processors:.1f} "
            f"| {p.instance_tasks} | {r.mean_tasks:.0f} ({100 * (r.mean_tasks / p.instance_tasks - 1):+.0f} %) "
            f"| {r.mean_load:.2f} |"
        )
    return "\n".join(lines)
