"""The online family's report sections (``Family.report``): the thesis's comparison per trace,
the five trends judged (:mod:`.trends`), SPT-RD's sweeps, and the policies' ratios to the optimum.

Called by ``coschedopt bench report`` with the rows of one suite; each section
appears when the suite has the rows it needs: policies on Method C trace
instances (``paper-online``), SPT-RD with varying m_d and τ
(``paper-online-sweeps``), exact methods beside the policies (``online-optimum``).
The thesis plots means over the 20 instances of a trace; so do these tables, each
metric divided by the mean of GSRPT, the preemptive reference the thesis calls a
lower bound (GSRPT's own means are given), so that the seven traces read alike.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from .instance import OBJECTIVES
from .trends import (
    FLOW,
    STRETCH,
    Means,
    Sweep,
    mean_table,
    policy_of,
    sweep_means,
    trend_1,
    trend_2,
    trend_3,
    trend_4,
    trend_5,
)

ORDER = ("FCFS", "SPT", "GSPT", "SRPT", "GSRPT", "SPT-RD", "GSPT-RD", "GSPT-RD (busy counting)", "SPT-RR", "GSPT-RR")
NAMES = {
    "sum_stretch": "ΣS",
    "max_stretch": "Smax",
    "l2_stretch": "L2 S",
    "sum_flow": "ΣF",
    "max_flow": "Fmax",
    "l2_flow": "L2 F",
}
REFERENCE = "GSRPT"
BUSY = "GSPT-RD (busy counting)"


def online_sections(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """The sections for the rows of one suite (see the module docstring)."""
    from ..viz.report import Section, Table

    out: list[Any] = []
    speed = speed_table(rows)
    if speed[1]:
        return [
            Section(
                "Simulation speed",
                3,
                [
                    "Each policy's own time per call on one instance, repeated (a worker's first call, which "
                    f"loads the dispatch kernel, not counted); target: at most {SPEED_TARGET_S:g} s per simulation. "
                    "CPU seconds are the whole cell's (the simulation, its validation and the six objectives).",
                    Table(*speed),
                ],
            )
        ]
    policies, means = policy_means(rows)
    if policies and not any(r["exact"] for r in rows):
        out += comparison_sections(means, policies, slug)
    curie, thunder = sweep_means(rows, "Curie"), sweep_means(rows, "LLNL-Thunder")
    if len(curie) > 4 or len(thunder) > 4:
        out += sweep_sections(curie, thunder, slug)
    if any(r["exact"] for r in rows):
        out += optimum_sections(rows)
    return out or [Section("Online family", 3, ["No row of this suite feeds the online family's sections."])]


# --------------------------------------------------------------------------- simulation speed

#: the thesis's largest instance must be simulated by each policy within this many seconds
SPEED_TARGET_S = 5.0


def speed_table(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the speed table: per policy run several times on one instance (a suite of
    repeats, such as ``online-speed``), the calls timed, the median wall seconds of the method's own
    time, tasks per second at that median, the median CPU seconds of the cell, and the target's
    verdict.  No rows when no policy was run twice on one instance."""
    runs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if not r["exact"] and r.get("runtime_s") is not None:
            runs[(r["instance_id"], r["method_label"])].append(r)
    headers = [
        "policy",
        "instance",
        "tasks",
        "calls",
        "median s",
        "tasks/s",
        "median CPU s",
        f"<= {SPEED_TARGET_S:g} s",
    ]
    out = []
    for (_, label), rs in runs.items():
        timed = [r for r in rs if r.get("method_call") != 1]
        if len(rs) < 2 or not timed:
            continue
        wall = float(np.median([r["runtime_s"] for r in timed]))
        cpu = [r["cpu_s"] for r in timed if r.get("cpu_s") is not None]
        n = int(rs[0].get("n") or 0)
        out.append(
            [
                label,
                str(rs[0]["instance"]),
                f"{n:,}",
                str(len(timed)),
                f"{wall:.2f}",
                f"{n / wall:,.0f}" if wall > 0 else "–",
                f"{float(np.median(cpu)):.2f}" if cpu else "–",
                "met" if wall <= SPEED_TARGET_S else "missed",
            ]
        )
    return headers, out


# --------------------------------------------------------------------------- thesis comparison


def policy_means(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Means]:
    """The policies' rows on the instances every policy of their trace ran (:func:`common_instances`), and
    their means of the six objectives per trace and policy."""
    policies = common_instances([r for r in rows if not r["exact"] and policy_of(r["method_label"]) in ORDER])
    return policies, mean_table(policies, (*STRETCH, *FLOW))


def common_instances(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of the instances on which every policy of their group has a result (a setting
    refused on an instance, m_d >= m, would otherwise leave that policy's mean over fewer)."""
    done: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        if r.get("sum_stretch") is not None:
            done[r["group"]][policy_of(r["method_label"])].add(r["instance_id"])
    keep = {g: set.intersection(*by.values()) for g, by in done.items()}
    return [r for r in rows if r["instance_id"] in keep.get(r["group"], set()) and r.get("sum_stretch") is not None]


def comparison_sections(means: Means, rows: list[dict[str, Any]], slug: str) -> list[Any]:
    from ..viz.report import Figure, Section, Table

    sec = Section("Thesis chapter 3: the policies per trace (Figures 3.7-3.13)", 3)
    sec.blocks.append(
        f"Means over each trace's instances of the six objectives, each divided by {REFERENCE}'s mean (the preemptive "
        f"reference the thesis calls a lower bound; its own means are the last row). Below 1: better than {REFERENCE}. "
        "Redirections and wasted work (the share of the total work lost in killed runs) are means per instance. "
        "Only the instances on which every policy ran count (a setting with m_d >= m is refused)."
    )
    extra = _extra_means(rows)
    for trace in sorted(means):
        m = means[trace]
        ref = m.get(REFERENCE, {})
        sizes = {r["instance_id"]: (r.get("n"), r.get("m")) for r in rows if r["group"] == trace}
        caption = trace
        if sizes and all(n is not None and k is not None for n, k in sizes.values()):
            caption += (
                f": {len(sizes)} instances, mean n = {np.mean([n for n, _ in sizes.values()]):.0f} tasks, "
                f"mean m = {np.mean([k for _, k in sizes.values()]):.1f} processors"
            )
        table = Table(["policy", *(NAMES[k] for k in (*STRETCH, *FLOW)), "redirections", "wasted"], [], caption=caption)
        for p in [p for p in ORDER if p in m]:
            cells = [_rel(m[p].get(k), ref.get(k)) for k in (*STRETCH, *FLOW)]
            red, wasted = extra.get((trace, p), (None, None))
            table.rows.append(
                [p, *cells, "–" if red is None else f"{red:.0f}", "–" if wasted is None else f"{100 * wasted:.2f} %"]
            )
        if ref:
            table.rows.append(
                [f"{REFERENCE} (absolute)", *(f"{ref.get(k, float('nan')):.4g}" for k in (*STRETCH, *FLOW)), "", ""]
            )
        sec.blocks.append(table)
    sec.blocks.append(
        Figure(_stretch_figure(means), f"{slug}-online-stretch.png", "Stretch metrics relative to GSRPT, per trace.")
    )
    if "Curie" in means:
        sec.blocks.append(
            Figure(_curie_figure(means["Curie"]), f"{slug}-online-curie.png", "Curie, all six objectives (Figure 3.7).")
        )
    trends = Section("The chapter's five trends", 3)
    trends.blocks.append(
        "No plot of the chapter survives in the text, so each stated trend is judged by an explicit test on the means "
        "above (thresholds in `coschedopt/online/trends.py`: a significant cut is to at most 0.8 x the base policy, "
        "near the references is within 1.25 x the better of SRPT and GSRPT). Trend 1 needs the sweeps "
        "(suite `paper-online-sweeps`)."
    )
    verdicts = [("", v) for v in (trend_2(means), trend_3(means), trend_4(means), trend_5(means))]
    if any(BUSY in m for m in means.values()):
        other = other_reading(means)
        note = f" ({BUSY})"
        verdicts += [(note, v) for v in (trend_3(other), trend_4(other), trend_5(other))]
        trends.blocks.append(
            f"The rows marked ({BUSY}) judge trends 3-5 again with GSPT-RD's counter counting an arrival only "
            "while no main processor is idle (the other reading of section 3.4.2, the family note's ambiguity 2); "
            "the others use the literal rule, the default."
        )
    trends.blocks.append(_verdict_table(verdicts))
    return [sec, trends]


def _extra_means(rows: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[float, float]]:
    acc: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        if r.get("redirections") is not None:
            acc[(r["group"], policy_of(r["method_label"]))].append((r["redirections"], r["wasted_share"]))
    return {k: (float(np.mean([a for a, _ in v])), float(np.mean([b for _, b in v]))) for k, v in acc.items()}


def _rel(value: float | None, ref: float | None) -> str:
    return "–" if value is None or not ref else f"{value / ref:.3g}"


def other_reading(means: Means) -> Means:
    """The means with GSPT-RD's results replaced by those of the busy-counting reading."""
    return {t: {**m, "GSPT-RD": m[BUSY]} if BUSY in m else m for t, m in means.items()}


def _verdict_table(verdicts: list[tuple[str, Any]]) -> Any:
    from ..viz.report import Table

    return Table(
        ["trend", "the thesis says", "verdict", "evidence"],
        [[f"{v.trend}{note}", v.claim, v.verdict, v.evidence] for note, v in verdicts],
        caption="Each trend, reproduced or not, with the measured values it rests on.",
    )


def _stretch_figure(means: Means) -> bytes:
    """Per trace, each stretch metric of each policy over GSRPT's, as bars in the report's colours; the
    value axis by :mod:`coschedopt.viz.axes` (from 0, or log past a decade; outliers at the edge)."""
    import matplotlib.pyplot as plt

    from ..viz.axes import apply_scale, choose_scale, mark_outliers
    from ..viz.colors import current_colors
    from ..viz.figure import png_bytes

    colors = current_colors()
    traces = sorted(means)
    fig, axes = plt.subplots(len(traces), 3, figsize=(12, 2.4 * len(traces)), squeeze=False, layout="constrained")
    for row, trace in enumerate(traces):
        m = means[trace]
        policies = [p for p in ORDER if p in m and p != REFERENCE]
        for col, key in enumerate(STRETCH):
            ax = axes[row][col]
            ref = m.get(REFERENCE, {}).get(key)
            values = [m[p][key] / ref if ref else np.nan for p in policies]
            scale = choose_scale([*values, 1.0], bars=True)
            ax.barh(range(len(policies)), values, color=[colors[p] for p in policies])
            mark_outliers(
                ax, scale, [(i, v, colors[p]) for i, (p, v) in enumerate(zip(policies, values, strict=True))], "x"
            )
            ax.axvline(1.0, color="black", lw=0.8)
            apply_scale(ax, scale, f"{NAMES[key]} / {REFERENCE}'s", axis="x")
            ax.xaxis.label.set_fontsize(7)
            ax.set_yticks(range(len(policies)))
            ax.set_yticklabels(policies if col == 0 else [], fontsize=7)
            ax.invert_yaxis()
            ax.set_title(f"{trace}: {NAMES[key]} / {REFERENCE}", fontsize=8)
    data = png_bytes(fig)
    plt.close(fig)
    return data


def _curie_figure(m: dict[str, dict[str, float]]) -> bytes:
    """Curie's six objectives per policy, as bars in the report's colours (value axis: :mod:`coschedopt.viz.axes`)."""
    import matplotlib.pyplot as plt

    from ..viz.axes import apply_scale, axis_label, choose_scale, fit_tick_labels, mark_outliers, set_x_axis
    from ..viz.colors import current_colors
    from ..viz.figure import png_bytes
    from .metrics import METRIC_LABELS

    colors = current_colors()
    policies = [p for p in ORDER if p in m]
    fig, axes = plt.subplots(2, 3, figsize=(13, 6.5), layout="constrained")
    for ax, key in zip(axes.flat, (*STRETCH, *FLOW), strict=True):
        values = [m[p].get(key, np.nan) for p in policies]
        scale = choose_scale(values, bars=True)
        ax.bar(range(len(policies)), values, color=[colors[p] for p in policies])
        mark_outliers(ax, scale, [(i, v, colors[p]) for i, (p, v) in enumerate(zip(policies, values, strict=True))])
        set_x_axis(ax, policies, categorical=True)
        ax.tick_params(axis="x", labelsize=7)
        apply_scale(ax, scale, axis_label(key, METRIC_LABELS))
        ax.set_title(f"Curie: {NAMES[key]} (mean over instances)", fontsize=9)
    fit_tick_labels(fig)
    data = png_bytes(fig)
    plt.close(fig)
    return data


# --------------------------------------------------------------------------- sweeps


def sweep_sections(curie: Sweep, thunder: Sweep, slug: str) -> list[Any]:
    from ..viz.report import Figure, Section

    sec = Section("SPT-RD against m_d and τ (Figures 3.3-3.6)", 3)
    for name, sweep in (("Curie", curie), ("LLNL-Thunder", thunder)):
        if sweep:
            sec.blocks.append(
                Figure(
                    sweep_figure(sweep, name),
                    f"{slug}-sweep-{name.lower()}.png",
                    f"{name}: SPT-RD's mean ΣS and ΣF against m_d (one line per τ) and against τ (one line per m_d).",
                )
            )
    sec.blocks.append(_verdict_table([("", trend_1(curie, thunder))]))
    return [sec]


def sweep_figure(sweep: Sweep, name: str) -> bytes:
    """Four panels: ΣS and ΣF against m_d (a line per τ), then against τ (a line per m_d).

    The lines are settings of one policy, not methods: they take shades of one sequential colour map
    (light to dark with the setting), apart from the report's method colours.  Axes: :mod:`coschedopt.viz.axes`.
    """
    import matplotlib.pyplot as plt

    from ..viz.axes import (
        apply_scale,
        axis_label,
        choose_scale,
        fit_tick_labels,
        mark_outliers,
        set_x_axis,
        x_layout,
    )
    from ..viz.figure import png_bytes
    from .metrics import METRIC_LABELS

    mds, taus = sorted({d for d, _ in sweep}), sorted({t for _, t in sweep})
    shades = plt.get_cmap("viridis")
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), layout="constrained")
    for col, (key, along, lines) in enumerate(
        (("sum_stretch", mds, taus), ("sum_flow", mds, taus), ("sum_stretch", taus, mds), ("sum_flow", taus, mds))
    ):
        ax = axes[col]
        categorical, pos = x_layout(along)
        per_line = [[(pos[x], sweep[(x, line) if col < 2 else (line, x)][key]) for x in along] for line in lines]
        scale = choose_scale(v for pts in per_line for _, v in pts)
        for j, (line, pts) in enumerate(zip(lines, per_line, strict=True)):
            color = shades(0.9 * j / max(len(lines) - 1, 1))
            label = f"{'τ' if col < 2 else 'm_d'}={line}"
            ax.plot([x for x, _ in pts], [v for _, v in pts], marker=".", lw=1, color=color, label=label)
            mark_outliers(ax, scale, [(x, v, color) for x, v in pts])
        set_x_axis(ax, along, categorical)
        ax.set_xlabel("m_d" if col < 2 else "τ")
        apply_scale(ax, scale, axis_label(key, METRIC_LABELS))
        ax.set_title(f"{name}: {NAMES[key]}", fontsize=9)
        ax.legend(fontsize=6, ncol=2)
    fit_tick_labels(fig)
    data = png_bytes(fig)
    plt.close(fig)
    return data


# --------------------------------------------------------------------------- against the optimum


def optimum_sections(rows: list[dict[str, Any]]) -> list[Any]:
    from ..viz.report import Section, Table

    sec = Section("Beyond the thesis: the policies against the offline optimum", 3)
    sec.blocks.append(
        "Ratio of each policy's objective to the proven offline non-preemptive optimum of the same instance (the "
        "instance's objective), mean / max over the instances where the optimum is proven. Kill-and-restart never "
        "helps offline, so the non-preemptive policies (redirections included) are >= 1; the preemptive references "
        "SRPT and GSRPT can go below 1."
    )
    ratios: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        if r["exact"] or not r.get("best_known_proven") or not r.get("best_known") or r["objective"] is None:
            continue
        ratios[(policy_of(r["method_label"]), r.get("criterion") or "")].append(r["objective"] / r["best_known"])
    criteria = [c for c in OBJECTIVES if any(k[1] == c for k in ratios)]
    table = Table(["policy", *criteria], [], caption="policy / OPT, mean / max")
    for p in [p for p in ORDER if any(k[0] == p for k in ratios)]:
        cells = []
        for c in criteria:
            v = ratios.get((p, c))
            cells.append("–" if not v else f"{np.mean(v):.3f} / {np.max(v):.3f}")
        table.rows.append([p, *cells])
    sec.blocks.append(table)
    exact = [r for r in rows if r["exact"]]
    by_instance: dict[str, dict[str, float]] = defaultdict(dict)
    for r in exact:
        if r["status"] == "OPTIMAL":
            by_instance[r["instance_id"]][r["method"]] = r["objective"]
    both = [v for v in by_instance.values() if len(v) >= 2]
    agree = sum(abs(max(v.values()) - min(v.values())) <= 1e-6 * max(1.0, abs(max(v.values()))) for v in both)
    sec.blocks.append(
        f"Exact methods: {len(by_instance)} instances proven; on the {len(both)} proven by both milp and cpsat, "
        f"they agree on {agree}."
    )
    return [sec]
