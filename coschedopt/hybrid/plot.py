"""Gantt chart of a CPU/GPU schedule: one row per CPU and per GPU (``coschedopt plot``)."""

from __future__ import annotations

from typing import Any

import numpy as np


def draw_hybrid_schedule(instance: Any, schedule: Any, ax: Any) -> None:
    """One row per CPU (top, blue) and per GPU (bottom, orange); bars labelled with task names when they fit."""
    m, k = instance.cpus, instance.gpus
    durations = schedule.durations(instance)
    end = float((schedule.start + durations).max()) if schedule.task.size else 1.0
    labels = instance.n <= 60
    for e in range(schedule.task.size):
        gpu = bool(schedule.on_gpu[e])
        row = m + int(schedule.unit[e]) if gpu else int(schedule.unit[e])
        colour = "tab:orange" if gpu else "tab:blue"
        s, d = float(schedule.start[e]), float(durations[e])
        ax.barh(row, d, left=s, height=0.75, color=colour, edgecolor="black", lw=0.4, alpha=0.85)
        if labels and d > 0.04 * end:
            ax.text(
                s + d / 2, row, instance.names[schedule.task[e]], ha="center", va="center", fontsize=7, clip_on=True
            )
    ax.axvline(end, color="black", lw=1.0, ls="--")
    rows = [f"CPU {i}" for i in range(m)] + [f"GPU {g}" for g in range(k)]
    if len(rows) <= 48:
        ax.set_yticks(np.arange(len(rows)))
        ax.set_yticklabels(rows, fontsize=7 if len(rows) > 16 else 9)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, end * 1.02)
    ax.set_xlabel("time")
    ax.set_title(f"makespan {end:.6g}", fontsize=9, loc="right")
