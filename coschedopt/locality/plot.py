"""The Gantt chart of a locality schedule (``coschedopt plot``): time across, processor ids up,
cluster boundaries drawn.

Each job is one rectangle per run of consecutive ids it holds (a contiguous job is one
rectangle; a range wrapping on a ring is two), all in the job's colour and labelled with
its name on its largest piece.
"""

from __future__ import annotations

from typing import Any

from ..workloads.idsets import runs
from .instance import LocalityInstance
from .schedule import LocalitySchedule, makespan


def draw_locality_schedule(instance: LocalityInstance, schedule: LocalitySchedule, ax: Any) -> None:
    """Draw ``schedule`` on the matplotlib Axes ``ax``."""
    import matplotlib.pyplot as plt

    m, ell = instance.processors, instance.cluster_size
    colours = plt.get_cmap("tab20").colors
    for a in schedule.assignments:
        j = instance.index[a.job]
        width = float(instance.times[j])
        pieces = [(first, last + 1 - first) for first, last in runs(a.processors)]
        for first, count in pieces:
            ax.add_patch(
                plt.Rectangle(
                    (a.start, first), width, count, facecolor=colours[j % len(colours)], edgecolor="black", lw=0.6
                )
            )
        first, count = max(pieces, key=lambda p: p[1])
        ax.text(a.start + width / 2, first + count / 2, a.job, ha="center", va="center", fontsize=7, clip_on=True)
    end = makespan(instance, schedule)
    for c in range(1, instance.clusters):
        ax.axhline(c * ell, color="crimson", lw=1.2, ls="--")
    for c in range(instance.clusters):
        ax.text(end * 1.01, c * ell + ell / 2, f"cluster {c}", va="center", fontsize=7, color="crimson")
    ax.set_xlim(0, end * 1.12)
    ax.set_ylim(0, m)
    ax.set_xlabel("time")
    ax.set_ylabel("processor id")
    step = max(1, m // 16)
    ax.set_yticks([p + 0.5 for p in range(0, m, step)], [str(p) for p in range(0, m, step)])
    ax.set_title(f"{instance.name}: {instance.constraint} on a {instance.topology}, makespan {end:g}", fontsize=9)
