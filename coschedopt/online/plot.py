"""Gantt chart of an online schedule: one row per processor, killed runs hatched in red,
preempted pieces in orange, the dedicated pool shaded (``coschedopt plot``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .schedule import COMPLETED, KILLED, PREEMPTED

_STYLE = {
    COMPLETED: {"facecolor": "#4C72B0", "edgecolor": "black", "label": "completed run"},
    PREEMPTED: {"facecolor": "#DD8452", "edgecolor": "black", "label": "preempted piece"},
    KILLED: {"facecolor": "#FFFFFF", "edgecolor": "#C44E52", "hatch": "////", "label": "killed run (work lost)"},
}


def draw_online_schedule(instance: Any, schedule: Any, ax: Any) -> None:
    """Draw onto ``ax``: runs as bars per processor (broken_barh per processor and outcome, so
    70,000-task schedules draw in a second), task names on the bars of small instances,
    release times as ticks on the time axis when there are few tasks."""
    s = schedule
    m = instance.processors
    if s.dedicated:
        ax.axhspan(m - s.dedicated - 0.5, m - 0.5, color="0.92", zorder=0, label="dedicated pool")
    for outcome, style in _STYLE.items():
        sel = s.outcome == outcome
        if not sel.any():
            continue
        style = dict(style)
        label = style.pop("label")
        for i in np.unique(s.processor[sel]).tolist():
            mine = sel & (s.processor == i)
            bars = list(zip(s.start[mine].tolist(), (s.end[mine] - s.start[mine]).tolist(), strict=True))
            ax.broken_barh(bars, (i - 0.35, 0.7), linewidth=0.5, label=label, **style)
            label = None
    if instance.n <= 40:
        for k in range(s.runs):
            ax.text(
                (s.start[k] + s.end[k]) / 2,
                s.processor[k],
                instance.task_names[int(s.task[k])],
                ha="center",
                va="center",
                fontsize=7,
                clip_on=True,
            )
        ax.plot(instance.release, np.full(instance.n, -0.6), "k|", markersize=6, label="releases")
    ax.set_yticks(range(m))
    ax.set_yticklabels([f"M{i}" + (" (ded.)" if i >= m - s.dedicated else "") for i in range(m)] if m <= 40 else [])
    ax.set_ylim(m - 0.4, -0.8)
    ax.set_xlabel("time")
    ax.set_ylabel("processor")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
