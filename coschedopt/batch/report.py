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
from .readings import configuration, configurations_in_order

CH5_METRICS = (
    ("sum_flow", "Sum flow", "Fig. 5.8", "min"),
    ("sum_stretch", "Sum bounded stretch", "listed in §5.7.5, no figure", "min"),
    ("contiguity_factor", "Contiguity factor", "Fig. 5.13", "min"),
    ("locality_factor", "Locality factor", "Fig. 5.14", "min"),
    ("platform_level_factor", "Platform level factor", "Fig. 5.15", "min"),
    ("success", "Job success rate", "Fig. 5.16", "max"),
)

#: the clouds of points of §5.7.5: per instance, the sum flow of one variant (x) against another's (y)
CH5_CLOUDS = (
    ("basic", "beplat", "Fig. 5.9"),
    ("basic", "plat", "Fig. 5.10"),
    ("beloc", "beplat", "Fig. 5.11"),
    ("loc", "plat", "Fig. 5.12"),
)

#: the thesis's platform names (§5.7.4) -> the suite's groups
THESIS_PLATFORMS = {
    "Curie": "Curie",
    "HPC2N": "HPC2N",
    "KTH SP2": "KTH-SP2",
    "LLNL Thunder": "LLNL-Thunder",
    "RICC": "RICC",
    "SDSC Blue": "SDSC-Blue",
}


def _claims() -> list[tuple[str, str, Any]]:
    """The statements §5.7.5 makes about Figures 5.8-5.16 (it gives no numbers), each as (metric, statement,
    test): ``test(norm, g)`` says whether our normalised means bear it out on platform ``g``, from
    ``norm[(group, variant)]``; a statement holds when it holds on every platform."""

    def best(metric_sense, variants_ok, g, norm):
        vals = {v: x for (gg, v), x in norm.items() if gg == g}
        top = (min if metric_sense == "min" else max)(vals.values())
        return any(abs(vals.get(v, float("nan")) - top) < 1e-9 for v in variants_ok)

    def better(v, g, norm, sense="min"):
        x = norm.get((g, v))
        return x is not None and (x < 1.0 if sense == "min" else x > 1.0)

    def improved_and_led_by(sense, leaders):
        """Every variant better than basic on the platform, and one of ``leaders`` best there."""
        return lambda n, g: all(better(v, g, n, sense) for v in VARIANTS if v != "basic") and best(sense, leaders, g, n)

    return [
        (
            "sum_flow",
            "every best-effort variant has a lower sum flow than basic, except beloc on SDSC-Blue",
            lambda n, g: all(
                better(v, g, n) or (v, g) == ("beloc", "SDSC-Blue") for v in ("becont", "beloc", "beplat")
            ),
        ),
        (
            "sum_flow",
            "beplat has the lowest sum flow on every platform",
            lambda n, g: best("min", ("beplat",), g, n),
        ),
        (
            "sum_flow",
            "cont and loc are worse than basic on HPC2N, cont on KTH-SP2; the other forced variants are better",
            lambda n, g: all(
                (not better(v, g, n)) == ((v, g) in {("cont", "HPC2N"), ("loc", "HPC2N"), ("cont", "KTH-SP2")})
                for v in ("cont", "loc", "plat")
            ),
        ),
        (
            "contiguity_factor",
            "every variant improves contiguity over basic; becont and cont are best",
            improved_and_led_by("min", ("becont", "cont")),
        ),
        (
            "locality_factor",
            "every variant improves locality over basic; beloc and loc are best",
            improved_and_led_by("min", ("beloc", "loc")),
        ),
        (
            "platform_level_factor",
            "every variant improves the platform level factor over basic; beplat and plat are best",
            improved_and_led_by("min", ("beplat", "plat")),
        ),
        (
            "success",
            "every variant runs more jobs to success than basic; beplat and plat are best on every platform",
            improved_and_led_by("max", ("beplat", "plat")),
        ),
    ]


def claims_by_platform(
    norms: dict[str, dict[tuple[str, str], float]], groups: list[str], variants: list[str]
) -> list[tuple[str, str, dict[str, bool] | None]]:
    """(metric, statement, on which platforms our normalised means bear it out) for each of §5.7.5's statements;
    ``norms[metric][(group, variant)]`` as :func:`normalised` gives them.  ``None`` (not checked) unless all seven
    variants ran: the statements compare them all."""
    out: list[tuple[str, str, dict[str, bool] | None]] = []
    for metric, statement, holds_on in _claims():
        norm = {k: x for k, x in norms[metric].items() if k[1] in variants}
        out.append(
            (
                metric,
                statement,
                {g: bool(holds_on(norm, g)) for g in groups} if set(variants) >= set(VARIANTS) else None,
            )
        )
    return out


def verdict(on: dict[str, bool] | None) -> str:
    """A statement's verdict with its platforms: ``yes (6/6)``, ``no (2/6)``, or ``not checked``."""
    if on is None:
        return "not checked (not every variant ran)"
    return f"{'yes' if all(on.values()) else 'no'} ({sum(on.values())}/{len(on)})"


def batch_report(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    from ..viz.report import Section

    rows = tag_rows([r for r in rows if r.get("status") == "FEASIBLE" and r.get("sum_flow") is not None])
    ch4 = [r for r in rows if str(r["group"]).startswith("ch4")]
    ch5 = [r for r in rows if not str(r["group"]).startswith("ch4")]
    out = []
    if ch4:
        out.append(Section("Thesis chapter 4: offline Curie samples beside the thesis", 3, chapter4_blocks(ch4)))
    configs = configurations_in_order(r["_config"] for r in ch5)
    if len(configs) > 1:
        out.append(Section("Thesis chapter 5: the statements under each reading", 3, [readings_table(ch5)]))
    for k, config in enumerate(configs):
        title = "Thesis chapter 5: seven variants on six traces beside the thesis"
        if len(configs) > 1:
            title += f" ({config})"
        part = [r for r in ch5 if r["_config"] == config]
        out.append(Section(title, 3, chapter5_blocks(part, slug if k == 0 else f"{slug}-{k}")))
    return out


def tag_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with each one's variant (``_variant``: its ``allocation`` option) and configuration (``_config``:
    :func:`.readings.configuration` of its options) read from its options' JSON."""
    for r in rows:
        options = json.loads(r["options"]) if r.get("options") else {}
        r["_variant"], r["_config"] = options.get("allocation", "basic"), configuration(options)
    return rows


def complete_instances(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The rows of the instances on which every variant ran (an interrupted run), their platforms and variants."""
    variants = _order(r["_variant"] for r in rows)
    complete = {i for (i,), rs in _by(rows, "instance_id").items() if {r["_variant"] for r in rs} >= set(variants)}
    rows = [r for r in rows if r["instance_id"] in complete]
    return rows, list(dict.fromkeys(r["group"] for r in rows)), variants


def claims_by_configuration(rows: list[dict[str, Any]]) -> dict[str, list[tuple[str, str, dict[str, bool] | None]]]:
    """Per configuration (``_config``), :func:`claims_by_platform` on its normalised means."""
    out = {}
    for config in configurations_in_order(r["_config"] for r in rows):
        part, groups, variants = complete_instances([r for r in rows if r["_config"] == config])
        norms = {metric: normalised(part, metric) for metric, *_ in CH5_METRICS}
        out[config] = claims_by_platform(norms, groups, variants)
    return out


def statement_rows(checked: dict[str, list[tuple[str, str, dict[str, bool] | None]]]) -> list[list[str]]:
    """One row per §5.7.5 statement: its text, then its :func:`verdict` under each configuration of ``checked``
    (configuration -> :func:`claims_by_platform`)."""
    names = list(checked)
    return [[text, *[verdict(checked[c][i][2]) for c in names]] for i, (_, text, _) in enumerate(checked[names[0]])]


def readings_table(rows: list[dict[str, Any]]) -> Any:
    """§5.7.5's statements x configurations: whether each holds, on how many platforms."""
    from ..viz.report import Table

    claims = claims_by_configuration(rows)
    return Table(
        ["the thesis says (§5.7.5)", *claims],
        statement_rows(claims),
        "each statement checked on the normalised means of each configuration (platforms where it holds)",
    )


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

    rows, groups, variants = complete_instances(rows)
    counts = {g: len({r["instance_id"] for r in rows if r["group"] == g}) for g in groups}
    blocks: list[Any] = [
        "Each value is the mean over the instances of the platform of the instance's value divided by the mean "
        "of basic there (§5.7.5), so basic's mean is 1.  Instances per platform (with every variant run): "
        + ", ".join(f"{g} {counts[g]}" for g in groups)
        + " (the thesis: 30 each)."
    ]
    norms = {metric: normalised(rows, metric) for metric, *_ in CH5_METRICS}
    for metric, title, figure, sense in CH5_METRICS:
        norm = norms[metric]
        body = [[v, *[f"{norm[(g, v)]:.3f}" if (g, v) in norm else "–" for g in groups]] for v in variants]
        best = []
        for g in groups:
            vals = {v: norm[(g, v)] for v in variants if (g, v) in norm}
            if vals:
                top = (min if sense == "min" else max)(vals.values())
                best.append(f"{g}: {', '.join(v for v, x in vals.items() if abs(x - top) < 1e-9)}")
        blocks.append(Table(["variant", *groups], body, f"{title} ({figure}); best per platform: {'; '.join(best)}"))
    titles = {m: t for m, t, *_ in CH5_METRICS}
    claims = [[titles[m], text, verdict(on)] for m, text, on in claims_by_platform(norms, groups, variants)]
    blocks.append(
        Table(
            ["metric", "the thesis says (§5.7.5; its figures give no numbers)", "our run bears it out (platforms)"],
            claims,
            "the thesis's statements checked on the normalised means above",
        )
    )
    for metric, title, figure, _ in CH5_METRICS:
        if metric != "sum_stretch":
            blocks.append(_normalised_figure(norms[metric], groups, variants, slug, metric, title, figure))
    for x, y, figure in CH5_CLOUDS:
        if {x, y} <= set(variants):
            blocks.append(_cloud_figure(rows, groups, x, y, figure, slug))
    return blocks


def _normalised_figure(norm, groups, variants, slug, metric, title, figure):
    """Figs. 5.8 and 5.13-5.16: a metric normalised to basic per platform and variant, as points (an axis that
    need not start at 0 would make bars lie), each variant in the report's colour, the axis by
    :mod:`coschedopt.viz.axes`."""
    import matplotlib.pyplot as plt

    from ..viz import png_bytes
    from ..viz.axes import apply_scale, choose_scale, fit_tick_labels, mark_outliers, set_x_axis
    from ..viz.colors import current_colors
    from ..viz.report import Figure

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
    apply_scale(ax, scale, f"{title} / basic's")
    ax.grid(alpha=0.3, axis="y")
    fig.legend(ncol=len(variants), fontsize=8, loc="outside lower center", frameon=False)
    fit_tick_labels(fig)
    png = png_bytes(fig)
    plt.close(fig)
    name = metric.replace("_", "-")
    return Figure(
        png,
        f"{slug}-batch-{name}.png",
        f"{title} normalised to basic per platform and variant (cf. {figure}; 1 = basic, the black line)",
    )


def _cloud_figure(rows, groups, x, y, figure, slug):
    """Figs. 5.9-5.12: each instance's sum flow with variant ``x`` (horizontal) against ``y`` (vertical), one
    panel per platform, log axes (sum flows of one platform spread over decades), the diagonal where both equal:
    points below it favour ``y``."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogFormatterSciNotation, LogLocator, NullFormatter

    from ..viz import png_bytes
    from ..viz.colors import current_colors
    from ..viz.report import Figure

    colors = current_colors()
    flows = {(r["instance_id"], r["_variant"]): r["sum_flow"] for r in rows}
    cols = min(len(groups), 3)
    fig, axes = plt.subplots(
        (len(groups) + cols - 1) // cols, cols, figsize=(3.4 * cols, 3.2 * ((len(groups) + cols - 1) // cols)),
        layout="constrained", squeeze=False,
    )  # fmt: skip
    for ax, g in zip(axes.flat, groups, strict=False):
        ids = sorted({r["instance_id"] for r in rows if r["group"] == g})
        pts = [(flows[i, x], flows[i, y]) for i in ids if (i, x) in flows and (i, y) in flows]
        pts = [(a, b) for a, b in pts if a > 0 and b > 0]
        if not pts:
            ax.set_visible(False)
            continue
        below = sum(1 for a, b in pts if b < a)
        ax.loglog([a for a, _ in pts], [b for _, b in pts], "o", ms=4, color=colors[y], alpha=0.8)
        lo, hi = min(min(p) for p in pts) / 1.3, max(max(p) for p in pts) * 1.3
        ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.6)
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_title(f"{g}: {y} lower on {below} of {len(pts)}", fontsize=9)
        ax.set_xlabel(f"sum flow, {x} (s, log scale)", fontsize=8)
        ax.set_ylabel(f"sum flow, {y} (s, log scale)", fontsize=8)
        ax.tick_params(labelsize=7)
        for axis in (ax.xaxis, ax.yaxis):  # labels at 1, 2, 5 of each decade: labelled minor ticks overlap
            axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
            axis.set_major_formatter(LogFormatterSciNotation(labelOnlyBase=False))
            axis.set_minor_formatter(NullFormatter())
    for ax in list(axes.flat)[len(groups) :]:
        ax.set_visible(False)
    png = png_bytes(fig)
    plt.close(fig)
    return Figure(
        png,
        f"{slug}-batch-cloud-{x}-{y}.png",
        f"Sum flow per instance, {x} against {y} (cf. {figure}); below the diagonal {y} is better",
    )


def norms_from_means(means: list[dict[str, Any]]) -> tuple[dict[str, dict[tuple[str, str], float]], list[str]]:
    """``norms[metric][(trace, variant)]`` and the platforms from a record's normalised means (rows of trace,
    variant and one value per metric; basic, 1 by definition, is not among them and is added here)."""
    traces = sorted({r["trace"] for r in means})
    norms: dict[str, dict[tuple[str, str], float]] = {}
    for metric, *_ in CH5_METRICS:
        norm = {(r["trace"], r["variant"]): r[metric] for r in means if r.get(metric) is not None}
        norms[metric] = norm | {(t, "basic"): 1.0 for t in traces}
    return norms, traces


def readings_tables(configs: dict[str, list[dict[str, Any]]]) -> tuple[list[list[str]], list[list[str]]]:
    """From each configuration's normalised means (``configs[name]``, as a record holds them): §5.7.5's statements
    with their verdict per configuration (one row per statement), and per configuration the variant of lowest
    sum flow on each platform with its normalised mean (one row per configuration, a column per platform of any)."""
    checked = {}
    lowest = []
    every = sorted({r["trace"] for means in configs.values() for r in means})
    for name, means in configs.items():
        norms, traces = norms_from_means(means)
        checked[name] = claims_by_platform(norms, traces, list(VARIANTS))
        cells = []
        for t in every:
            vals = {v: x for (g, v), x in norms["sum_flow"].items() if g == t}
            top = min(vals, key=vals.get) if vals else None
            cells.append(f"{top} {vals[top]:.3f}" if top else "–")
        lowest.append([name, *cells])
    return statement_rows(checked), lowest
