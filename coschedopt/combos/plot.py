"""Gantt-like chart of a combos schedule: time on x, tasks on y, a bar wherever a task runs,
coloured by the combination that segment runs (the paper's Figure 1 shape)."""

from __future__ import annotations

from typing import Any


def draw_combos_schedule(instance: Any, schedule: Any, ax: Any) -> None:
    """Draw onto the matplotlib Axes ``ax``; bars of one combination share a colour, segment
    boundaries are thin vertical lines; combinations are listed in the legend when few."""
    import matplotlib

    cmap = matplotlib.colormaps["tab20"]
    colours: dict[frozenset[str], Any] = {}
    index = instance.index
    n = instance.n
    t = 0.0
    total = sum(d for _, d in schedule.segments) or 1.0
    label_bars = n <= 40
    for tasks, d in schedule.segments:
        key = frozenset(tasks)
        if key not in colours:
            colours[key] = cmap(len(colours) % 20)
        first = key not in getattr(ax, "_combos_labelled", set())
        for name in tasks:
            i = index[name]
            ax.barh(
                i,
                d,
                left=t,
                height=0.7,
                color=colours[key],
                edgecolor="black",
                lw=0.4,
                label="{" + ", ".join(sorted(tasks, key=index.get)) + "}" if first else None,
            )
            first = False
        ax._combos_labelled = getattr(ax, "_combos_labelled", set()) | {key}
        if label_bars and d > 0.05 * total and len(tasks) == 1:
            ax.text(t + d / 2, index[tasks[0]], "alone", ha="center", va="center", fontsize=7, clip_on=True)
        ax.axvline(t, color="0.5", lw=0.4)
        t += d
    ax.axvline(t, color="black", lw=1.0)
    ax.set_xlim(0, t if t > 0 else 1)
    ax.set_ylim(-0.6, n - 0.4)
    ax.invert_yaxis()
    if n <= 40:
        ax.set_yticks(range(n))
        ax.set_yticklabels(instance.task_names)
    ax.set_xlabel("time")
    ax.set_ylabel("task")
    if 0 < len(colours) <= 16:
        ax.legend(title="combination", fontsize=7, title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
