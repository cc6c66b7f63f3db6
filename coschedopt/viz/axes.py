"""The axis rules every report figure follows, so that a figure reads true.

Each rule is a pure decision on the values drawn (:func:`x_layout`,
:func:`choose_scale`, :func:`axis_label`), then a small function applying it to
a matplotlib Axes, so tests check the decision and the Axes, never pixels.

**x axis** (:func:`x_layout`, :func:`set_x_axis`): categorical -- one evenly
spaced tick per value, labelled with the value -- when the values are not all
numbers or when there is a single value (a numeric axis around one value shows
only its round-off: "39.955 39.970 40.000"); otherwise numeric, with a tick at
each value when there are at most :data:`MAX_VALUE_TICKS`.  Tick labels never
overlap (:func:`fit_tick_labels`): rotated by 45 degrees when side by side they
would, and thinned to every k-th when even rotated they would.

**value axis** (:func:`choose_scale`), on the finite values drawn in one panel:

1. *Outliers.*  The values are taken on a log scale when all are positive,
   else as they are.  With Q1 and Q3 their quartiles (at least 4 values), a value
   beyond Tukey's far fences Q3 + 3 (Q3 - Q1) or Q1 - 3 (Q3 - Q1) is a candidate.
   The candidates are outliers only if, on the axis the rules below would choose
   for all the values, the other values would fill less than
   :data:`FLATTEN_SHARE` of it (they would be flattened).  Outliers are then left
   off the axis, which is chosen for the others, and each is drawn at the edge
   it lies beyond as a triangle with its value written beside it
   (:func:`mark_outliers`).
2. *Log scale* when the values are all positive and max / min > :data:`LOG_SPREAD`
   (more than a decade); the label says "log scale".
3. *Zero.*  A linear axis includes 0 when the values' own range fills at least
   :data:`ZERO_SHARE` of the axis from 0 to them (or they are all equal, or the
   axis draws bars, whose length is their value).  Otherwise it spans the values
   only, its label says "axis does not start at 0", and a broken-axis mark (two
   slanted strokes) is drawn across the end of the axis nearest to 0.

**labels** (:func:`axis_label`): "Label (unit)" from the family's metric labels,
else the metric's name with its underscores as spaces, capitalised.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: a positive range wider than this ratio (max / min) is drawn on a log scale
LOG_SPREAD = 10.0
#: a linear axis includes 0 when the values' range fills at least this share of the axis from 0
ZERO_SHARE = 0.5
#: Tukey's "far out" fence, in interquartile ranges beyond the quartiles
FAR_OUT = 3.0
#: far-out values are left off the axis when the others would fill less than this share of it
FLATTEN_SHARE = 0.15
#: a numeric x axis gets one tick per value up to this many values (else matplotlib's locator)
MAX_VALUE_TICKS = 12
#: margin added on each side of the values on a linear axis (share of the range)
MARGIN = 0.06
#: gid of an x axis whose ticks sit at the values (numeric): :func:`fit_tick_labels` may replace them
VALUE_TICKS = "value-ticks"
#: gid of the artists :func:`mark_outliers` and :func:`mark_break` draw (tests find them by it)
OUTLIER_GID = "outlier"
BREAK_GID = "axis-break"


# --------------------------------------------------------------------------- labels


def humanise(metric: str) -> str:
    """``"makespan_rel"`` -> ``"Makespan rel"``: the fallback label of a metric without one."""
    text = metric.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def axis_label(metric: str, labels: Mapping[str, tuple[str, str]] | None = None) -> str:
    """``"Label (unit)"`` from ``labels`` (metric -> (label, unit); unit ``""`` for pure numbers),
    or the humanised metric name when ``labels`` does not know it."""
    label, unit = (labels or {}).get(metric, (humanise(metric), ""))
    return f"{label} ({unit})" if unit else label


# --------------------------------------------------------------------------- x axis


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def x_layout(values: Sequence[Any]) -> tuple[bool, dict[Any, float]]:
    """(categorical, value -> position) for the sorted distinct x ``values`` of a panel."""
    categorical = len(values) <= 1 or not all(_is_number(v) for v in values)
    if categorical:
        return True, {v: float(i) for i, v in enumerate(values)}
    return False, {v: float(v) for v in values}


def tick_text(v: Any) -> str:
    """An x value as a tick label: integers as they are, floats in 4 significant digits."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def set_x_axis(ax: Any, values: Sequence[Any], categorical: bool) -> None:
    """Ticks for the x ``values`` (see the module docstring); a categorical axis gets half a slot of margin."""
    from matplotlib.ticker import MaxNLocator, NullLocator

    if categorical:
        ax.set_xticks(range(len(values)), [tick_text(v) for v in values])
        ax.set_xlim(-0.5, len(values) - 0.5)
    elif len(values) <= MAX_VALUE_TICKS:
        ax.set_xticks([float(v) for v in values], [tick_text(v) for v in values])
        ax.xaxis.set_gid(VALUE_TICKS)  # fit_tick_labels may give them up for matplotlib's locator
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=all(isinstance(v, int) for v in values)))
    ax.xaxis.set_minor_locator(NullLocator())


def _renderer(fig: Any) -> Any:
    """A renderer to measure text with, after laying ``fig`` out."""
    if not hasattr(fig.canvas, "get_renderer"):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    return fig.canvas.get_renderer()


#: the angle of rotated tick labels, degrees
ROTATION = 45.0
#: points of free space kept between two tick labels
TICK_GAP = 3.0


def fit_tick_labels(fig: Any, axis: str = "x") -> None:
    """Rotate, then thin, each Axes' ``axis`` tick labels of ``fig`` until no two overlap.

    A numeric x axis with a tick at each value (unevenly spaced values crowd)
    first gives them up for matplotlib's own locator, evenly spaced.  Side by side, neighbours need their anchors at least half their widths apart
    (plus :data:`TICK_GAP`); rotated by :data:`ROTATION`, parallel labels need
    their anchors at least (height + gap) / sin(angle) apart.  When even that
    fails, every k-th label is kept (the first always), k the smallest that fits.
    """
    renderer = _renderer(fig)
    gap = TICK_GAP * fig.dpi / 72
    if axis == "x" and _numeric_ticks_to_locator(fig, renderer, gap):
        renderer = _renderer(fig)
    for ax in fig.axes:
        axis_obj = ax.xaxis if axis == "x" else ax.yaxis
        ticks = [t for t in axis_obj.get_major_ticks() if t.label1.get_visible() and t.label1.get_text()]
        lo, hi = sorted(ax.get_xlim() if axis == "x" else ax.get_ylim())
        ticks = [t for t in ticks if lo <= t.get_loc() <= hi]
        if len(ticks) < 2:
            continue
        to_px = ax.transData.transform
        at = [to_px((t.get_loc(), 0) if axis == "x" else (0, t.get_loc()))[0 if axis == "x" else 1] for t in ticks]
        boxes = [t.label1.get_window_extent(renderer) for t in ticks]
        dist = [abs(b - a) for a, b in zip(at, at[1:], strict=False)]
        if axis == "y":  # y labels sit side by side vertically: their heights must fit
            need = [(a.height + b.height) / 2 + gap for a, b in zip(boxes, boxes[1:], strict=False)]
            step = _step(dist, need)
        else:
            side = [(a.width + b.width) / 2 + gap for a, b in zip(boxes, boxes[1:], strict=False)]
            if all(d >= n for d, n in zip(dist, side, strict=True)):
                continue
            for t in ticks:
                t.label1.set_rotation(ROTATION)
                t.label1.set_horizontalalignment("right")
                t.label1.set_rotation_mode("anchor")
            height = max(b.height for b in boxes)
            need = [(height + gap) / math.sin(math.radians(ROTATION))] * len(dist)
            step = _step(dist, need)
            axis_obj.set_tick_params(labelrotation=ROTATION)
        if step > 1:
            locs = [t.get_loc() for t in ticks]
            texts = [t.label1.get_text() if i % step == 0 else "" for i, t in enumerate(ticks)]
            (ax.set_xticks if axis == "x" else ax.set_yticks)(locs, texts)
            if axis == "x":
                for t in axis_obj.get_major_ticks():
                    t.label1.set_horizontalalignment("right")
                    t.label1.set_rotation_mode("anchor")


def _numeric_ticks_to_locator(fig: Any, renderer: Any, gap: float) -> bool:
    """Give the value ticks of a numeric x axis that would overlap side by side up for matplotlib's
    locator; returns whether any axis changed."""
    from matplotlib.ticker import MaxNLocator, ScalarFormatter

    changed = False
    for ax in fig.axes:
        if ax.xaxis.get_gid() != VALUE_TICKS:
            continue
        ticks = [t for t in ax.xaxis.get_major_ticks() if t.label1.get_text()]
        at = [ax.transData.transform((t.get_loc(), 0))[0] for t in ticks]
        boxes = [t.label1.get_window_extent(renderer) for t in ticks]
        pairs = zip(zip(at, boxes, strict=True), zip(at[1:], boxes[1:], strict=False), strict=False)
        if any(b - a < (wa.width + wb.width) / 2 + gap for (a, wa), (b, wb) in pairs):
            integer = all(float(t.get_loc()).is_integer() for t in ticks)
            ax.xaxis.set_major_locator(MaxNLocator(integer=integer))
            ax.xaxis.set_major_formatter(ScalarFormatter())
            ax.xaxis.set_gid(None)
            changed = True
    return changed


def _step(dist: list[float], need: list[float]) -> int:
    """The smallest k such that labels k apart are as far apart as they need."""
    n = len(dist) + 1
    for k in range(1, n):
        if all(sum(dist[i : i + k]) >= max(need[i : i + k]) for i in range(0, n - k, k)):
            return k
    return n


# --------------------------------------------------------------------------- value axis


@dataclass(frozen=True)
class Scale:
    """The value axis chosen for a panel (see the module docstring)."""

    log: bool
    lower: float
    upper: float
    #: the axis includes 0 (always false on a log axis)
    from_zero: bool
    #: values left off the axis: drawn at its edge by :func:`mark_outliers`
    outliers: tuple[float, ...] = field(default=())

    @property
    def broken(self) -> bool:
        """A linear axis that leaves 0 out (marked by :func:`mark_break`)."""
        return not self.log and not self.from_zero

    def note(self) -> str:
        """What the label adds: the scale, or that the axis does not start at 0."""
        if self.log:
            return "log scale"
        if self.broken:
            return "axis does not start at 0"
        return ""


def _linear_or_log(values: list[float], bars: bool) -> Scale:
    """Rules 2 and 3 of the module docstring on ``values`` (no outlier left off)."""
    lo, hi = min(values), max(values)
    if lo > 0 and hi / lo > LOG_SPREAD:
        pad = 10 ** (0.04 * math.log10(hi / lo))
        return Scale(True, lo / pad, hi * pad, False)
    zlo, zhi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo or bars or (hi - lo) >= ZERO_SHARE * (zhi - zlo):
        if zhi == zlo:
            return Scale(False, -1.0, 1.0, True)
        span = zhi - zlo
        lower = zlo - (MARGIN * span if lo < 0 else 0.0)
        upper = zhi + (MARGIN * span if hi > 0 else 0.0)
        return Scale(False, lower, upper, True)
    span = hi - lo
    return Scale(False, lo - MARGIN * span, hi + MARGIN * span, False)


def _position(scale: Scale, v: float) -> float:
    """Where ``v`` lies on the axis, 0 at ``lower`` and 1 at ``upper``."""
    if scale.log:
        return (math.log10(v) - math.log10(scale.lower)) / (math.log10(scale.upper) - math.log10(scale.lower))
    return (v - scale.lower) / (scale.upper - scale.lower)


def far_out(values: Sequence[float]) -> list[float]:
    """The values beyond Tukey's far fences (on log10 of the values when all are positive)."""
    if len(values) < 4:
        return []
    t = [math.log10(v) for v in values] if min(values) > 0 else list(values)
    q1, _, q3 = statistics.quantiles(t, n=4, method="inclusive")
    iqr = q3 - q1
    if iqr <= 0:
        return []
    return [v for v, tv in zip(values, t, strict=True) if tv > q3 + FAR_OUT * iqr or tv < q1 - FAR_OUT * iqr]


def choose_scale(values: Iterable[float | None], *, bars: bool = False) -> Scale:
    """The value axis for the ``values`` drawn in a panel (``None`` and NaN ignored)."""
    vals = [float(v) for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return Scale(False, 0.0, 1.0, True)
    whole = _linear_or_log(vals, bars)
    out = far_out(vals)
    if out:
        rest = [v for v in vals if v not in out]
        share = _position(whole, max(rest)) - _position(whole, min(rest))
        if share < FLATTEN_SHARE:
            scale = _linear_or_log(rest, bars)
            beyond = tuple(v for v in out if v > scale.upper or v < scale.lower)
            return Scale(scale.log, scale.lower, scale.upper, scale.from_zero, beyond)
    return whole


def apply_scale(ax: Any, scale: Scale, label: str, axis: str = "y") -> None:
    """Set ``ax``'s value ``axis`` to ``scale`` with ``label`` (and its note), and mark a break."""
    if axis == "y":
        ax.set_yscale("log" if scale.log else "linear")
        ax.set_ylim(scale.lower, scale.upper)
        ax.set_ylabel(f"{label}\n({scale.note()})" if scale.note() else label)
    else:
        ax.set_xscale("log" if scale.log else "linear")
        ax.set_xlim(scale.lower, scale.upper)
        ax.set_xlabel(f"{label} ({scale.note()})" if scale.note() else label)
    if scale.broken:
        mark_break(ax, at_top=scale.upper < 0, axis=axis)


def mark_break(ax: Any, *, at_top: bool = False, axis: str = "y") -> None:
    """Two slanted strokes across the end of the value axis nearest to 0: it does not start there."""
    from matplotlib.lines import Line2D

    end = 1.0 if at_top else 0.0
    for shift in (-0.012, 0.012):
        if axis == "y":
            xs, ys = (-0.025, 0.025), (end + shift - 0.012, end + shift + 0.012)
        else:
            xs, ys = (end + shift - 0.012, end + shift + 0.012), (-0.025, 0.025)
        ax.add_line(Line2D(xs, ys, transform=ax.transAxes, color="k", lw=1.2, clip_on=False, gid=BREAK_GID, zorder=5))


def outlier_text(v: float) -> str:
    """An outlier's value as written beside its triangle: 3 significant digits, thousands in full."""
    if 1e3 <= abs(v) < 1e9:
        return f"{v:,.0f}" if abs(v) < 1e4 else f"{float(f'{v:.3g}'):,.0f}"
    return f"{v:.3g}"


def mark_outliers(ax: Any, scale: Scale, points: Iterable[tuple[float, float, str]], axis: str = "y") -> None:
    """Draw each ``(position, value, colour)`` whose value is off ``scale`` as a triangle at the edge it
    lies beyond, its value written beside it (``axis``: the value axis, ``"y"`` or ``"x"``)."""
    for at, v, color in points:
        if v is None or not math.isfinite(v) or scale.lower <= v <= scale.upper:
            continue
        high = v > scale.upper
        edge = scale.upper if high else scale.lower
        if axis == "y":
            xy, marker, offset = (at, edge), "^" if high else "v", (5, -9 if high else 9)
        else:
            xy, marker, offset = (edge, at), ">" if high else "<", (-5 if high else 5, 7)
        ax.plot(*([c] for c in xy), marker=marker, color=color, ms=8, clip_on=False, zorder=6, gid=OUTLIER_GID)
        ax.annotate(
            outlier_text(v),
            xy,
            xytext=offset,
            textcoords="offset points",
            fontsize=7,
            color=color,
            ha="left" if axis == "y" or not high else "right",
            va="center",
            gid=OUTLIER_GID,
        )
