"""Figures of a batch schedule: a Gantt chart over processor ids and the utilisation over time.

``coschedopt plot sol.json -o g.png`` draws both (the Gantt of a window, the
utilisation of the whole schedule below it); ``coschedopt batch gantt
sol.json --start S --end E -o g.png`` (:mod:`.commands`) picks the window.  Jobs are rectangles
(time × their id ranges), coloured by job, killed jobs hatched; a drawing of
tens of thousands of rectangles stays one matplotlib collection.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..workloads.idsets import parse_ids, runs

DAY = 24 * 3600


def default_window(instance: Any, schedule: Any) -> tuple[int, int]:
    """The whole schedule when it spans at most two days, else its first day."""
    first, last = int(instance.submit.min()), int(schedule.end.max())
    return (first, last) if last - first <= 2 * DAY else (first, first + DAY)


def draw_gantt(instance: Any, schedule: Any, ax: Any, window: tuple[int, int] | None = None) -> None:
    """Jobs running in ``window`` as rectangles over processor ids."""
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    lo, hi = window or default_window(instance, schedule)
    shown = np.flatnonzero((schedule.start < hi) & (schedule.end > lo) & (schedule.end > schedule.start))
    cmap = _colours()
    boxes, colours, killed = [], [], []
    for j in shown.tolist():
        s, e = int(schedule.start[j]), int(schedule.end[j])
        for a, b in runs(parse_ids(schedule.processors[j])):
            box = Rectangle((s, a), e - s, b + 1 - a)
            (killed if schedule.failed[j] else boxes).append(box)
            colours.append(cmap(j % cmap.N))
    ax.add_collection(PatchCollection(boxes, facecolor=colours[: len(boxes)], edgecolor="black", linewidth=0.2))
    if killed:
        ax.add_collection(PatchCollection(killed, facecolor="none", edgecolor="red", hatch="//", linewidth=0.4))
    ax.set_xlim(lo, hi)
    ax.set_ylim(0, instance.processors)
    ax.set_ylabel("processor id")
    ax.set_title(f"{len(shown)} jobs in [{lo}, {hi}) s", fontsize=9, loc="left")


def utilisation_curve(instance: Any, schedule: Any) -> tuple[np.ndarray, np.ndarray]:
    """(times, fraction of processors busy from each time to the next): a step function."""
    times = np.concatenate((schedule.start, schedule.end))
    order = np.argsort(times, kind="stable")
    times = times[order]
    busy = np.cumsum(np.concatenate((instance.size, -instance.size))[order])
    last = np.concatenate((np.flatnonzero(np.diff(times)), [len(times) - 1]))  # the last event of each time
    return times[last], busy[last] / instance.processors


def draw_utilisation(instance: Any, schedule: Any, ax: Any, window: tuple[int, int] | None = None) -> None:
    t, busy = utilisation_curve(instance, schedule)
    ax.step(t, busy, where="post", linewidth=0.8)
    if window:
        ax.axvspan(*window, color="grey", alpha=0.15, linewidth=0)
    ax.set_ylim(0, 1.02)
    ax.set_ylabel("utilisation")
    ax.set_xlabel("time (s)")


def draw_batch_schedule(instance: Any, schedule: Any, ax: Any, window: tuple[int, int] | None = None) -> None:
    """The family's drawing: the Gantt of ``window`` on ``ax``, the utilisation in a panel below."""
    from mpl_toolkits.axes_grid1 import make_axes_locatable

    window = window or default_window(instance, schedule)
    draw_gantt(instance, schedule, ax, window)
    below = make_axes_locatable(ax).append_axes("bottom", size="30%", pad=0.45)
    draw_utilisation(instance, schedule, below, window)


def _colours() -> Any:
    import matplotlib

    return matplotlib.colormaps["tab20"]
