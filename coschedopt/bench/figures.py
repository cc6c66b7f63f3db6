"""The report's figures: each metric against the size key ``x``, drawn from the tidy table.

The data drawn is computed first, as :class:`Series` (:func:`group_series`), then
drawn (:func:`metric_figure`), so what a figure shows can be checked without
looking at pixels.

What the dashed black line means depends on the metric, and the family says
which is which (:func:`metric_info`):

* a metric that is the objective divided by a constant of the instance (the pack
  family's relative cost) is optimal exactly at the optimum, so the line is the
  **optimum**, drawn only at the ``x`` where every instance's optimum is proven and
  never across an ``x`` where it is not; where no optimum is proven but every
  instance has a certified bound, the **best certified bound** is drawn as open
  triangles, alone;
* any other metric (packing ratio, relative response time) is only measured *at*
  the optimal schedule, which need not be optimal for it: the line is labelled
  as that schedule's value (``cost-optimal schedule``), never as an optimum.

Methods keep apart where their means coincide: each has its own marker, a small
offset along ``x`` and some transparency, and its colour from the report's
colour map (:mod:`coschedopt.viz.colors`).  The axes follow the rules of
:mod:`coschedopt.viz.axes`: a categorical ``x`` when a panel has a single value,
tick labels that never overlap, a value axis from 0 or visibly broken, log when
the values span more than a decade, outliers marked at the edge, and labels with
units from the family's ``metric_labels``.

What the report knows of a family's metrics comes from its :class:`~coschedopt.core.Family`:
``metric_definitions`` (metric name -> one-line definition, the report's
definitions section), ``metric_labels`` (metric name -> axis label and unit) and ``objective_scaled_metrics`` (the metrics equal to the
objective divided by a positive constant of the instance).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import InputError, get_family
from ..viz.axes import apply_scale, axis_label, choose_scale, fit_tick_labels, mark_outliers, set_x_axis, x_layout
from .table import REL_TOL

MARKERS = "osD^v<>pPX*h"
#: offset between two methods' points along x, as a fraction of the smallest x spacing
DODGE = 0.025


@dataclass(frozen=True)
class MetricInfo:
    """What the report knows of a family's metrics (see the module docstring)."""

    definitions: dict[str, str]
    scaled: frozenset[str]
    objective_name: str = "objective"
    sense: str = "min"
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: metric names of older versions -> current names (:attr:`~coschedopt.core.Family.metric_aliases`)
    aliases: Mapping[str, str] = field(default_factory=dict)

    def current(self, metric: str) -> str:
        """The current name of ``metric`` (a suite file or stored table may use an older one)."""
        return self.aliases.get(metric, metric)

    def reference_label(self, metric: str) -> str:
        """The name of the dashed line: the optimum, or the value at the optimal schedule."""
        if metric in self.scaled:
            return "optimum"
        return f"{self.objective_name}-optimal schedule"


def metric_info(kind: str | None) -> MetricInfo:
    """The metric definitions and objective-scaled metrics of family ``kind`` (empty if it gives none)."""
    try:
        family = get_family(kind or "")
    except InputError:
        return MetricInfo({}, frozenset())
    return MetricInfo(
        dict(family.metric_definitions),
        frozenset(family.objective_scaled_metrics),
        family.objective_name,
        family.sense,
        dict(family.metric_labels),
        dict(family.metric_aliases),
    )


@dataclass(frozen=True)
class Series:
    """One thing drawn in a panel: ``role`` is ``method``, ``optimum``, ``reference`` or ``bound``;
    ``y`` is NaN where there is nothing to draw (a line is never drawn across it)."""

    label: str
    role: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    marker: str

    def points(self) -> list[tuple[float, float]]:
        return [(a, b) for a, b in zip(self.x, self.y, strict=True) if not math.isnan(b)]


def _sort_key(v: Any) -> tuple:
    return (0, v, "") if isinstance(v, int | float) else (1, 0, str(v))


def _mean(vals: Iterable[float | None]) -> float | None:
    v = [x for x in vals if x is not None]
    return statistics.fmean(v) if v else None


def is_optimal_row(r: dict[str, Any]) -> bool:
    """An exact method's cell at the instance's proven optimum."""
    return (
        r["exact"]
        and r["status"] == "OPTIMAL"
        and r["objective"] is not None
        and r["best_known_proven"]
        and abs(r["objective"] - r["best_known"]) <= REL_TOL * max(1.0, abs(r["best_known"]))
    )


def _per_instance(rows: list[dict[str, Any]], value: Any) -> float | None:
    """Mean over the instances of ``rows`` of ``value(instance rows)``; ``None`` unless every one has it."""
    by_instance: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_instance.setdefault(r["instance_id"], []).append(r)
    vals = [value(irows) for irows in by_instance.values()]
    if not vals or any(v is None for v in vals):
        return None
    return statistics.fmean(vals)


def optimum_metric(rows: list[dict[str, Any]], metric: str) -> float | None:
    """Mean of ``metric`` over the instances of ``rows`` at their proven optimum (``None`` unless
    every instance has one); the optimum's metric is that of the first exact method reaching it."""

    def at_optimum(irows: list[dict[str, Any]]) -> float | None:
        return next((r[metric] for r in irows if is_optimal_row(r) and r.get(metric) is not None), None)

    return _per_instance(rows, at_optimum)


def bound_metric(rows: list[dict[str, Any]], metric: str) -> float | None:
    """For an objective-scaled metric (metric = objective / c): the mean over the instances of
    best bound / c, ``None`` unless every instance has a bound and a cell giving c."""

    def at_bound(irows: list[dict[str, Any]]) -> float | None:
        for r in irows:
            obj, val, bound = r["objective"], r.get(metric), r["best_bound"]
            if bound is not None and obj and val is not None:
                return bound * val / obj
        return None

    return _per_instance(rows, at_bound)


def group_series(
    grows: list[dict[str, Any]], metric: str, x: str, labels: list[str], info: MetricInfo
) -> tuple[list[Any], dict[Any, float], list[Series]]:
    """The x values, their positions and the series of one panel (one group's rows); the positions
    are the values, or 0, 1, ... on a categorical axis (:func:`coschedopt.viz.axes.x_layout`)."""
    xs = sorted({r[x] for r in grows if r[x] is not None}, key=_sort_key)
    _, pos = x_layout(xs)
    steps = [b - a for a, b in zip(sorted(pos.values()), sorted(pos.values())[1:], strict=False) if b > a]
    dodge = DODGE * (min(steps) if steps else 1.0)
    out: list[Series] = []
    for i, label in enumerate(labels):
        ys = [_mean(r.get(metric) for r in grows if r["method_label"] == label and r[x] == v) for v in xs]
        if all(y is None for y in ys):
            continue
        shift = dodge * (i - (len(labels) - 1) / 2)
        out.append(
            Series(
                label,
                "method",
                tuple(pos[v] + shift for v in xs),
                tuple(math.nan if y is None else y for y in ys),
                MARKERS[i % len(MARKERS)],
            )
        )
    at = {v: [r for r in grows if r[x] == v] for v in xs}
    opt = [optimum_metric(at[v], metric) for v in xs]
    if any(y is not None for y in opt):
        role = "optimum" if metric in info.scaled else "reference"
        ys = tuple(math.nan if y is None else y for y in opt)
        out.append(Series(info.reference_label(metric), role, tuple(pos[v] for v in xs), ys, "o"))
    if metric in info.scaled:
        bound = [bound_metric(at[v], metric) if o is None else None for v, o in zip(xs, opt, strict=True)]
        if any(y is not None for y in bound):
            ys = tuple(math.nan if y is None else y for y in bound)
            marker = "v" if info.sense == "min" else "^"
            out.append(Series("best certified bound", "bound", tuple(pos[v] for v in xs), ys, marker))
    return xs, pos, out


def metric_figure(
    rows: list[dict[str, Any]],
    groups: list[str],
    metric: str,
    x: str,
    labels: list[str],
    colors: Any,
    info: MetricInfo,
) -> Any:
    """A matplotlib Figure: ``metric`` against ``x``, one panel per group (see the module docstring);
    ``colors`` maps each label to its colour (a dict, or the report's :class:`~coschedopt.viz.colors.MethodColors`)."""
    from matplotlib.figure import Figure as MplFigure

    ncols = len(groups)
    fig = MplFigure(figsize=(4.4 * ncols + 1.6, 3.6), dpi=110, layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    ylabel = axis_label(metric, info.labels)
    for ax, group in zip(axes, groups, strict=True):
        xs, _, series = group_series([r for r in rows if r["group"] == group], metric, x, labels, info)
        scale = choose_scale(y for s in series for y in s.y)
        for s in series:
            if s.role == "method":
                style = {"color": colors[s.label], "lw": 1.2, "ms": 4.5, "alpha": 0.8, "zorder": 2}
            elif s.role == "bound":
                style = {"color": "k", "ls": "none", "mfc": "none", "ms": 6, "zorder": 3}
            else:
                style = {"color": "k", "ls": "--", "mfc": "none", "ms": 6, "lw": 1.4, "zorder": 3}
            ax.plot(s.x, s.y, marker=s.marker, label=s.label, **style)
            mark_outliers(ax, scale, [(px, py, style["color"]) for px, py in s.points()])
        ax.set_title(group, fontsize=10)
        ax.set_xlabel(x)
        set_x_axis(ax, xs, x_layout(xs)[0])
        apply_scale(ax, scale, ylabel)
        ax.grid(alpha=0.3)
    handles, names = [], []
    for ax in axes:
        for h, n in zip(*ax.get_legend_handles_labels(), strict=True):
            if n not in names:
                handles.append(h)
                names.append(n)
    if handles:
        fig.legend(handles, names, loc="outside right center", fontsize=8, frameon=False)
    fit_tick_labels(fig)
    return fig


def figure_caption(metric: str, x: str, info: MetricInfo, per: str) -> str:
    """What a figure shows, its dashed line and its triangles included."""
    text = f"{axis_label(metric, info.labels)} against {x}, one line per {per} (mean over instances and seeds)"
    text += (
        "; a y axis that does not start at 0 says so in its label and has two slanted strokes at its foot; "
        "a value far beyond the others is a triangle at the edge, its value written beside it"
    )
    if metric in info.scaled:
        return (
            text + "; dashed black: the optimum, only at the values where every instance's optimum is proven "
            "(no line across the others); open triangles, where drawn: the best certified bound where that is all there is."
        )
    return (
        text + f"; dashed black: this metric at the {info.objective_name}-optimal schedule, where it is proven "
        f"for every instance (that schedule optimises the {info.objective_name}, not this metric: a heuristic "
        "may lie on either side of it)."
    )
