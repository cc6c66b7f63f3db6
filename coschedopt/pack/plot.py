"""The pack diagram of the paper's Figure 1: packs side by side in time, processors stacked."""

from __future__ import annotations

from typing import Any

import numpy as np


def plot_pack_schedule(instance: Any, schedule: Any, ax: Any) -> None:
    """Each pack is a column as wide as its cost; each task a box of width t(i, sigma(i))
    and height sigma(i); hatched space is idle processor time."""
    import matplotlib
    from matplotlib.patches import Rectangle

    cmap = matplotlib.colormaps["tab20"]
    idx, t, p = instance.index, instance.times, instance.processors
    start = 0.0
    total = sum(max(t[idx[name], q - 1] for name, q in pack) for pack in schedule.packs)
    label_tasks = instance.n <= 60
    for b, pack in enumerate(schedule.packs):
        cost = max(t[idx[name], q - 1] for name, q in pack)
        ax.add_patch(Rectangle((start, 0), cost, p, facecolor="none", edgecolor="0.3", hatch="//", lw=0.0, alpha=0.25))
        y = 0
        for name, q in pack:
            d = t[idx[name], q - 1]
            ax.add_patch(Rectangle((start, y), d, q, facecolor=cmap(idx[name] % 20), edgecolor="black", lw=0.6))
            if label_tasks and d > 0.04 * total and q >= 0.06 * p:
                ax.text(start + d / 2, y + q / 2, f"{name}\n{q}p", ha="center", va="center", fontsize=7, clip_on=True)
            y += q
        ax.axvline(start, color="black", lw=1.2)
        if cost > 0.02 * total:
            ax.text(start + cost / 2, p * 1.01, f"P{b + 1}", ha="center", va="bottom", fontsize=8)
        start += cost
    ax.axvline(start, color="black", lw=1.2)
    ax.set_xlim(0, start if start > 0 else 1)
    ax.set_ylim(0, p * 1.08)
    ax.set_xlabel("time")
    ax.set_ylabel("processors")
    ax.set_yticks(np.unique(np.linspace(0, p, min(p, 8) + 1).round().astype(int)))
