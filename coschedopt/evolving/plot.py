"""The resource EP of a schedule, each application's stages in its own colour (``coschedopt plot``).

At every instant the applications' node counts are stacked (the paper's resource EP:
the occupation of the cluster), those started earlier lower, so that a band moves only
when one below it ends; the part of an application's band that is reserved but
not computing is hatched: the tail of a stretched stage (it holds its nodes while it
waits for the next stage's), or, in a rigid (CBF) schedule, the difference between
the peak it reserves and the stage it runs.  The dashed line is the cluster size.
"""

from __future__ import annotations

from typing import Any


def _bands(instance: Any, schedule: Any) -> list[tuple[str, list[tuple[float, float, int, int]]]]:
    """Per application, in the order they start (ties: instance order): (from, to, reserved, used) pieces."""
    out = []
    by_name = schedule.by_name()
    for app in instance.applications:
        sa = by_name[app.name]
        pieces, t = [], sa.start
        peak = max(sa.nodes)
        for d_req, d, n in zip(app.durations, sa.durations, sa.nodes, strict=True):
            held = peak if schedule.rigid else n
            pieces.append((t, t + d_req, held, n))
            if d > d_req:
                pieces.append((t + d_req, t + d, held, 0))
            t += d
        out.append((app.name, pieces))
    return sorted(out, key=lambda band: band[1][0][0])


def draw_resource_profile(instance: Any, schedule: Any, ax: Any) -> None:
    """Stacked node counts over time: solid where an application computes, hatched where it only holds nodes."""
    import matplotlib
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Patch, Rectangle

    bands = _bands(instance, schedule)
    colour_of = {a.name: i for i, a in enumerate(instance.applications)}
    cmap = matplotlib.colormaps["tab20"]
    times = sorted({t for _, pieces in bands for a, b, _, _ in pieces for t in (a, b)})
    solid, hollow, solid_colours, hollow_colours = [], [], [], []
    for a, b in zip(times, times[1:], strict=False):
        y = 0
        for name, pieces in bands:
            for s, e, held, used in pieces:
                if s <= a and b <= e:
                    colour = cmap(colour_of[name] % 20)
                    if used:
                        solid.append(Rectangle((a, y), b - a, used))
                        solid_colours.append(colour)
                    if held > used:
                        hollow.append(Rectangle((a, y + used), b - a, held - used))
                        hollow_colours.append(colour)
                    y += held
                    break
    ax.add_collection(PatchCollection(solid, facecolors=solid_colours, edgecolors="none"))
    ax.add_collection(
        PatchCollection(hollow, facecolors="white", edgecolors=hollow_colours, hatch="////", linewidths=0.0)
    )
    end = times[-1] if times else 1
    ax.axhline(instance.nodes, color="black", ls="--", lw=1)
    ax.set_xlim(0, end)
    ax.set_ylim(0, instance.nodes * 1.05)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("nodes")
    handles = [Patch(color=cmap(i % 20), label=a.name) for i, a in enumerate(instance.applications)]
    handles.append(Patch(facecolor="white", edgecolor="0.3", hatch="////", label="held, not computing"))
    if len(handles) <= 25:
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
