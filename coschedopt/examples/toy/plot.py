"""The toy drawing: jobs as consecutive bars on one machine (``coschedopt plot``)."""

from __future__ import annotations

from typing import Any


def draw_toy_schedule(instance: Any, schedule: Any, ax: Any) -> None:
    """One bar per job in schedule order, labelled with its index."""
    t = 0.0
    for j in schedule.order:
        v = instance.values[j]
        ax.barh(0, v, left=t, height=0.6, edgecolor="black", lw=0.5)
        ax.text(t + v / 2, 0, str(j), ha="center", va="center", fontsize=8)
        t += v
    ax.set_yticks([])
    ax.set_xlabel("time")
