"""The combos paper's Figures 6 and 7 and their table, drawn from a suite's rows of the tidy table.

The competitive ratio of a cell is its makespan over the instance's proven optimum
(the ``lp`` cell of the same system: the table's ``best_known`` when
``best_known_proven``).  Rows are grouped by the size key ``alpha`` (the midpoint of
the generator's alpha range); the search methods' labels are read as ``NAME k=K``
when a suite gives several quantiles k of one strategy (as ``paper-combos`` does),
else each label is its own line.  Named in :attr:`coschedopt.core.Family.report`.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from typing import Any

SEARCHES = {"search-pi": "PI", "search-ei": "EI", "search-ucb": "UCB"}


def ratios(rows: list[dict[str, Any]]) -> dict[tuple[str, str, Any], list[float]]:
    """(method, label, alpha) -> the competitive ratios of the cells with a proven optimum."""
    out: dict[tuple[str, str, Any], list[float]] = defaultdict(list)
    for r in rows:
        if r["exact"] or r["objective"] is None or not r["best_known_proven"] or not r["best_known"]:
            continue
        out[(r["method"], r["method_label"], r.get("alpha"))].append(r["objective"] / r["best_known"])
    return out


def _labels(by: dict[tuple[str, str, Any], list[float]]) -> list[str]:
    """The labels in table order: FCS first, then each method's labels by name."""
    return list(dict.fromkeys(label for _, label, _ in sorted(by, key=lambda k: (k[0] != "fcs", k[0], k[1]))))


def _alphas(by: dict[tuple[str, str, Any], list[float]]) -> list[float]:
    return sorted({a for _, _, a in by if a is not None})


def competitive_ratio_table(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, body): one row per label (FCS first), one column per alpha (or ``all`` without one),
    each cell the mean (max) competitive ratio of the label's cells there; the table of the family's
    report and of the docs' block ``combos-competitive``, so both read the same figures off the rows."""
    by = ratios(rows)
    alphas = _alphas(by)
    headers = ["method", *([f"alpha {a:g}" for a in alphas] or ["all"])]
    body = []
    for label in _labels(by):
        cells = []
        for a in alphas or [None]:
            vals = [v for (m, lb, al), vs in by.items() if lb == label and al == a for v in vs]
            cells.append(f"{statistics.fmean(vals):.3f} ({max(vals):.3f})" if vals else "–")
        body.append([label, *cells])
    return headers, body


def _decoded(v: Any) -> dict[str, Any]:
    """A JSON-text column (options, stats) as a dict; {} when empty."""
    if isinstance(v, str):
        v = json.loads(v) if v else None
    return v or {}


def competitive_ratio_summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the table does not show: the largest ratio of FCS and of each search over all its k and
    alphas; the largest FCS ratio over Theorem 1's bound 2 - 1/a* (<= 1 if the theorem and the code
    agree); the mean share of a search's makespan spent measuring (its ``measuring_time`` counter, when
    the rows carry ``stats``)."""
    by = ratios(rows)
    worst = {}
    for name in ("fcs", *SEARCHES):
        vals = [v for (m, _, _), vs in by.items() if m == name for v in vs]
        if vals:
            worst["FCS" if name == "fcs" else SEARCHES[name]] = max(vals)
    fcs_bound = [
        r["objective"] / r["best_known"] / r["fcs_ratio_bound"]
        for r in rows
        if r["method"] == "fcs" and r.get("fcs_ratio_bound") and r["objective"] and r["best_known"]
    ]
    shares = [
        _decoded(r.get("stats"))["measuring_time"] / r["objective"]
        for r in rows
        if r["method"] in SEARCHES and r["objective"] and "measuring_time" in _decoded(r.get("stats"))
    ]
    return {
        "max_ratio": worst,
        "fcs_over_theorem1_max": max(fcs_bound) if fcs_bound else None,
        "measuring_share_mean": statistics.fmean(shares) if shares else None,
    }


def competitive_ratio_sections(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """A table of mean (max) ratios per label and alpha, and Figures 6-7 when alpha varies."""
    from ..viz.report import Figure, Section, Table

    by = ratios(rows)
    if not by:
        return []
    alphas = _alphas(by)
    headers, body = competitive_ratio_table(rows)
    table = Table(
        headers,
        body,
        caption="Competitive ratio = makespan / LP optimum of the same system, mean (max) over the systems "
        "(section 3.3 of the paper); FCS is proven below 2 - 1/a* (Theorem 1).",
    )
    section = Section("Competitive ratios (the paper's Figures 6-7)", 3, [table])
    if len(alphas) > 1:
        section.blocks.append(
            Figure(
                _figure6(by, alphas),
                f"{slug}-figure6.png",
                "Figure 6: each search's mean ratio against alpha, one line per k.",
            )
        )
        section.blocks.append(
            Figure(
                _figure7(by, alphas),
                f"{slug}-figure7.png",
                "Figure 7: the k of lowest mean ratio of each search beside FCS (dotted: max).",
            )
        )
    return [section]


def _series(by: dict, method: str, label: str, alphas: list[float]) -> tuple[list[float], list[float]]:
    means, maxes = [], []
    for a in alphas:
        vals = by.get((method, label, a), [])
        means.append(statistics.fmean(vals) if vals else float("nan"))
        maxes.append(max(vals) if vals else float("nan"))
    return means, maxes


def _figure6(by: dict, alphas: list[float]) -> bytes:
    """Each search's mean ratio against alpha, a line per label in the report's colours; one value axis
    for the panels (shared), chosen by :mod:`coschedopt.viz.axes`."""
    from matplotlib.figure import Figure as MplFigure

    from ..viz import png_bytes
    from ..viz.axes import apply_scale, choose_scale, fit_tick_labels, mark_outliers, set_x_axis, x_layout
    from ..viz.colors import current_colors

    colors = current_colors()
    searches = [m for m in SEARCHES if any(k[0] == m for k in by)]
    categorical, pos = x_layout(alphas)
    xs = [pos[a] for a in alphas]
    lines = {m: {lb: _series(by, m, lb, alphas)[0] for lb in sorted({k[1] for k in by if k[0] == m})} for m in searches}
    scale = choose_scale(y for per in lines.values() for ys in per.values() for y in ys)
    fig = MplFigure(figsize=(4.6 * max(len(searches), 1) + 1, 3.8), layout="constrained")
    axes = fig.subplots(1, max(len(searches), 1), squeeze=False)[0]
    for i, (ax, method) in enumerate(zip(axes, searches, strict=False)):
        for label, means in lines[method].items():
            ax.plot(xs, means, marker="o", ms=4, label=label, color=colors[label])
            mark_outliers(ax, scale, [(x, y, colors[label]) for x, y in zip(xs, means, strict=True)])
        ax.set_title(SEARCHES[method])
        ax.set_xlabel("alpha (midpoint of the range)")
        set_x_axis(ax, alphas, categorical)
        apply_scale(ax, scale, "Competitive ratio (mean)" if i == 0 else "")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fit_tick_labels(fig)
    return png_bytes(fig)


def _figure7(by: dict, alphas: list[float]) -> bytes:
    """FCS and the best k of each search (mean, dotted: max) against alpha, in the report's colours."""
    from matplotlib.figure import Figure as MplFigure

    from ..viz import png_bytes
    from ..viz.axes import apply_scale, choose_scale, fit_tick_labels, mark_outliers, set_x_axis, x_layout
    from ..viz.colors import current_colors

    colors = current_colors()
    categorical, pos = x_layout(alphas)
    xs = [pos[a] for a in alphas]
    fig = MplFigure(figsize=(7.5, 4.2), layout="constrained")
    ax = fig.subplots()
    lines = [("fcs", label) for label in sorted({k[1] for k in by if k[0] == "fcs"})]
    for method in SEARCHES:
        labels = sorted({k[1] for k in by if k[0] == method})
        if labels:
            lines.append((method, min(labels, key=lambda lb: statistics.fmean(_series(by, method, lb, alphas)[0]))))
    drawn = {label: _series(by, method, label, alphas) for method, label in lines}
    scale = choose_scale(y for means, maxes in drawn.values() for y in (*means, *maxes))
    for method, label in lines:
        means, maxes = drawn[label]
        ax.plot(xs, means, marker="s" if method == "fcs" else "o", ms=4, label=label, color=colors[label])
        ax.plot(xs, maxes, ls=":", lw=0.8, color=colors[label])
        mark_outliers(ax, scale, [(x, y, colors[label]) for x, y in zip(xs, [*means], strict=True)])
    off = "" if scale.lower <= 2.0 <= scale.upper else " (above the axis)"
    ax.axhline(2.0, color="red", lw=0.8, ls="--", label=f"FCS bound 2{off}")
    ax.set_xlabel("alpha (midpoint of the range)")
    set_x_axis(ax, alphas, categorical)
    apply_scale(ax, scale, "Competitive ratio (mean; dotted: max)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fit_tick_labels(fig)
    return png_bytes(fig)
