"""The batch family's report sections: chapters 4 and 5 of the thesis beside our runs (``bench report``).

Called as ``batch_report(rows, config, slug)`` with the tidy rows of a suite
(``paper-batch``): rows whose group is ``ch4-...`` are chapter 4's offline
samples, the others chapter 5's trace windows; the variant is the
``allocation`` option.  Chapter 5's normalisation is the thesis's (§5.7.5):
each instance's value divided by the mean of ``basic`` over the instances of
its platform, then averaged over the instances.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from typing import Any

from .allocation import VARIANTS

CH5_METRICS = (
    ("sum_flow", "Sum flow (Fig. 5.8)", "min"),
    ("sum_stretch", "Sum bounded stretch (listed in §5.7.5, no figure)", "min"),
    ("contiguity_factor", "Contiguity factor (Fig. 5.13)", "min"),
    ("locality_factor", "Locality factor (Fig. 5.14)", "min"),
    ("platform_level_factor", "Platform level factor (Fig. 5.15)", "min"),
    ("success", "Job success (Fig. 5.16)", "max"),
)

#: the thesis's stated conclusions, per metric (§5.7.5)
CH5_CLAIMS = {
    "sum_flow": "every best-effort variant beats basic except beloc on SDSC-Blue; beplat is best on every platform; "
    "cont and loc are worse than basic on HPC2N, cont on KTH",
    "contiguity_factor": "becont and cont are best",
    "locality_factor": "beloc and loc are best",
    "platform_level_factor": "the stronger the constraint the better; beplat and plat are best",
    "success": "beplat and plat are best on every platform",
}


def batch_report(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    from ..viz.report import Section

    rows = [r for r in rows if r.get("status") == "FEASIBLE" and r.get("sum_flow") is not None]
    for r in rows:
        r["_variant"] = json.loads(r["options"]).get("allocation", "basic") if r.get("options") else "basic"
    ch4 = [r for r in rows if str(r["group"]).startswith("ch4")]
    ch5 = [r for r in rows if not str(r["group"]).startswith("ch4")]
    out = []
    if ch4:
        out.append(Section("Thesis chapter 4: offline Curie samples beside the thesis", 3, chapter4_blocks(ch4)))
    if ch5:
        out.append(
            Section("Thesis chapter 5: seven variants on six traces beside the thesis", 3, chapter5_blocks(ch5, slug))
        )
    return out


def _by(rows, *keys):
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        groups[tuple(r[k] for k in keys)].append(r)
    return groups


def _order(variants) -> list[str]:
    present = set(variants)
    return [v for v in VARIANTS if v in present]


def chapter4_blocks(rows: list[dict[str, Any]]) -> list[Any]:
    """Makespan against basic (Figs. 4.7-4.9), contiguous and local jobs (4.10-4.11), locality ratio (4.12)."""
    from ..viz.report import Table

    basic = {r["instance_id"]: r["makespan"] for r in rows if r["_variant"] == "basic"}
    mean_basic = statistics.fmean(basic.values()) if basic else None
    table = []
    for variant, rs in sorted(_by(rows, "_variant").items(), key=lambda kv: VARIANTS.index(kv[0][0])):
        paired = [r["makespan"] / basic[r["instance_id"]] for r in rs if r["instance_id"] in basic]
        within = sum(1 for x in paired if x <= 1.02) / len(paired) if paired else None
        mean_ms = statistics.fmean(r["makespan"] for r in rs)
        table.append(
            [
                variant[0],
                str(len(rs)),
                f"{100 * (mean_ms / mean_basic - 1):+.3f} %" if mean_basic else "–",
                f"{100 * within:.1f} %" if within is not None else "–",
                f"{100 * statistics.fmean(r['contiguous_share'] for r in rs):.1f} %",
                f"{100 * statistics.fmean(r['local_share'] for r in rs):.1f} %",
                f"{statistics.fmean(r['locality_ratio'] for r in rs):.3f}",
            ]
        )
    headers = [
        "variant",
        "instances",
        "mean makespan vs basic",
        "instances within 2 % of basic",
        "contiguous jobs",
        "local jobs",
        "locality ratio E[K]/E[K*]",
    ]
    claims = (
        "The thesis (§4.6, 512 instances of 300 Curie jobs on 512 processors, clusters of 16): becont's mean "
        "makespan is within 0.1 % of basic's and cont's within 2 %, with a wider cloud; every variant but cont "
        "keeps more than 99.6 % of the instances within 2 % of basic; beloc makes about 90 % of the jobs local; "
        "becont makes fewer local jobs than basic; by locality ratio beloc is best, then cont, then becont ≈ basic."
    )
    return [claims, Table(headers, table, "our run: conservative backfilling, submit 0, requested = run time")]


def normalised(rows: list[dict[str, Any]], metric: str) -> dict[tuple[str, str], float]:
    """(group, variant) -> mean over instances of value / mean of basic on that group (§5.7.5)."""
    out = {}
    basic = {
        g: statistics.fmean(r[metric] for r in rs)
        for (g, v), rs in _by(rows, "group", "_variant").items()
        if v == "basic"
    }
    for (g, v), rs in _by(rows, "group", "_variant").items():
        if basic.get(g):
            out[(g, v)] = statistics.fmean(r[metric] / basic[g] for r in rs)
    return out


def chapter5_blocks(rows: list[dict[str, Any]], slug: str) -> list[Any]:
    from ..viz.report import Table

    variants = _order(r["_variant"] for r in rows)
    complete = {i for (i,), rs in _by(rows, "instance_id").items() if {r["_variant"] for r in rs} >= set(variants)}
    rows = [r for r in rows if r["instance_id"] in complete]  # an interrupted run: instances with every variant
    groups = list(dict.fromkeys(r["group"] for r in rows))
    counts = {g: len({r["instance_id"] for r in rows if r["group"] == g}) for g in groups}
    blocks: list[Any] = [
        "Each value is the mean over the instances of the platform of the instance's value divided by the mean "
        "of basic there (§5.7.5), so basic's mean is 1.  Instances per platform (with every variant run): "
        + ", ".join(f"{g} {counts[g]}" for g in groups)
        + " (the thesis: 30 each)."
    ]
    for metric, title, sense in CH5_METRICS:
        norm = normalised(rows, metric)
        body = [[v, *[f"{norm[(g, v)]:.3f}" if (g, v) in norm else "–" for g in groups]] for v in variants]
        best = []
        for g in groups:
            vals = {v: norm[(g, v)] for v in variants if (g, v) in norm}
            if vals:
                top = (min if sense == "min" else max)(vals.values())
                best.append(f"{g}: {', '.join(v for v, x in vals.items() if abs(x - top) < 1e-9)}")
        blocks.append(Table(["variant", *groups], body, f"{title}; best per platform: {'; '.join(best)}"))
        if metric in CH5_CLAIMS:
            blocks.append(f"Thesis: {CH5_CLAIMS[metric]}.")
    fig = _flow_figure(rows, groups, variants, slug)
    if fig is not None:
        blocks.append(fig)
    return blocks


def _flow_figure(rows, groups, variants, slug):
    """Fig. 5.8's data: normalised sum flow per platform and variant, as points (an axis that need not
    start at 0 would make bars lie), each variant in the report's colour, the axis by :mod:`coschedopt.viz.axes`."""
    import matplotlib.pyplot as plt

    from ..viz import png_bytes
    from ..viz.axes import apply_scale, choose_scale, fit_tick_labels, mark_outliers, set_x_axis
    from ..viz.colors import current_colors
    from ..viz.report import Figure

    norm = normalised(rows, "sum_flow")
    colors = current_colors()
    fig, ax = plt.subplots(figsize=(10, 3.6), layout="constrained")
    scale = choose_scale([*norm.values(), 1.0])
    width = 0.8 / max(len(variants), 1)
    for k, v in enumerate(variants):
        shift = (k - (len(variants) - 1) / 2) * width
        pts = [(i + shift, norm[(g, v)]) for i, g in enumerate(groups) if (g, v) in norm]
        ax.plot([x for x, _ in pts], [y for _, y in pts], "o", color=colors[v], label=v, ms=6)
        mark_outliers(ax, scale, [(x, y, colors[v]) for x, y in pts])
    ax.axhline(1.0, color="black", linewidth=0.6)
    set_x_axis(ax, groups, categorical=True)
    apply_scale(ax, scale, "Sum flow / basic's")
    ax.grid(alpha=0.3, axis="y")
    fig.legend(ncol=len(variants), fontsize=8, loc="outside lower center", frameon=False)
    fit_tick_labels(fig)
    png = png_bytes(fig)
    plt.close(fig)
    return Figure(
        png,
        f"{slug}-batch-sum-flow.png",
        "Normalised sum flow per platform and variant (cf. Fig. 5.8; 1 = basic, the black line)",
    )
