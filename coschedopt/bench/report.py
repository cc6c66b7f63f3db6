"""``bench report``: a Markdown report and a standalone HTML page, drawn only from the tidy table.

For every suite in the store:

* headline: per instance group, how often the optimum is proven and the best
  heuristic's gap to it (or, where no optimum is proven, to the best certified bound);
* one figure per metric (for ``paper-pack``: relative cost, packing ratio, relative
  response time, the paper's Figures 2-5) against the size key ``x`` (``k``), one
  panel per instance group, one line per heuristic, the optimum as a dashed black
  line where it is proven for every instance at that ``x``;
* median running time per method and group (the paper's Table 1), a worker's first call of a method apart;
* gap to the optimum (mean / max per method and ``x``), and the certified gap bound
  where the optimum is unknown;
* status counts, the failed cells (``ERROR``, or killed by the harness without a result)
  with their messages, the cells stopped at their time limit with a result (finished
  cells, listed with their gaps), consistency checks (no objective below a certified
  bound), and each run's provenance;
* at the top, how many planned cells of each group are still missing, when some are;
* the probes' figures (methods that measure code: their stats, one row per cell), which
  the headline, figures and gaps leave out.

The Markdown file links the figures as PNG files next to it; the HTML page embeds
them (base64), so it can be mailed or archived as one file.  The table itself is
written next to them as ``results.csv``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import InputError, get_family, get_method, resolve
from ..core.io import check_output_dir, output_error
from ..viz.colors import MethodColors, current_colors, report_colors
from ..viz.figure import png_bytes
from ..viz.report import Figure, Section, Table, render_html, render_markdown
from .cell import is_failure, is_time_limited
from .figures import MetricInfo, figure_caption, is_optimal_row, metric_figure, metric_info
from .frontier import FRONTIER_HEADERS, frontier_rows, frontier_table
from .provenance import RECORDED_DISTRIBUTIONS
from .store import ResultStore
from .suite import default_label
from .table import REL_TOL, ResultTable, result_table, write_table


def _fmt(x: Any, digits: int = 4) -> str:
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        if not math.isfinite(x):
            return "–"
        return f"{x:.{digits}g}"
    return str(x)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}%"


def _ms(seconds: Iterable[float | None]) -> str:
    """The median of ``seconds`` in milliseconds, ``–`` if there is none."""
    vals = [s for s in seconds if s is not None]
    if not vals:
        return "–"
    m = 1000 * statistics.median(vals)
    return f"{m:.3g}" if m < 1000 else f"{m:,.0f}"


def _sort_key(v: Any) -> tuple:
    return (0, v, "") if isinstance(v, int | float) else (1, 0, str(v))


# --------------------------------------------------------------------------- analysis


def infer_x(table: ResultTable, rows: list[dict[str, Any]], config: dict[str, Any]) -> str | None:
    """The size key to plot against: ``[report] x`` if given, else the one varying most within groups."""
    x = config.get("x")
    if x in table.size_columns:
        return x
    best, best_count = None, 1
    for col in table.size_columns:
        per_group: dict[str, set] = defaultdict(set)
        for r in rows:
            per_group[r["group"]].add(r[col])
        count = max((len(v) for v in per_group.values()), default=0)
        if count > best_count:
            best, best_count = col, count
    return best


def _mean(vals: Iterable[float | None]) -> float | None:
    v = [x for x in vals if x is not None]
    return statistics.fmean(v) if v else None


def _max(vals: Iterable[float | None]) -> float | None:
    v = [x for x in vals if x is not None]
    return max(v) if v else None


# --------------------------------------------------------------------------- sections


def _ordered(values: Iterable[Any]) -> list[Any]:
    return sorted(set(values), key=_sort_key)


def _config_order(config: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Group names and method labels in the order the suite file declares them."""
    groups = [b.get("group", b.get("generator", "files")) for b in config.get("instances", []) if isinstance(b, dict)]
    labels = [
        b.get("label", default_label(b.get("name", ""), b.get("options", {})))
        for b in config.get("methods", [])
        if isinstance(b, dict)
    ]
    return list(dict.fromkeys(groups)), list(dict.fromkeys(labels))


def _in_order(values: Iterable[str], order: list[str]) -> list[str]:
    """``values`` (deduplicated) sorted by their position in ``order``, unknown ones last."""
    rank = {v: i for i, v in enumerate(order)}
    seen = list(dict.fromkeys(values))
    return sorted(seen, key=lambda v: (rank.get(v, len(order)), seen.index(v)))


@dataclass
class SuiteView:
    """What every section of one suite's report draws from: its rows and their order."""

    rows: list[dict[str, Any]]
    config: dict[str, Any]
    runs: list[dict[str, Any]]
    slug: str
    groups: list[str]
    x: str | None
    heuristics: list[str]
    exacts: list[str]
    #: the report's colour per method label (the same in every figure of the report)
    colors: MethodColors
    #: per (group, label) of the suite's plan: cells planned and finished (:meth:`ResultStore.plan_progress`)
    plan: list[dict[str, Any]] = field(default_factory=list)
    #: the family's metric definitions and objective-scaled metrics
    info: MetricInfo = field(default_factory=lambda: MetricInfo({}, frozenset()))
    #: the probes' labels (:func:`probe_labels`): their figures are their stats, not objectives
    probes: list[str] = field(default_factory=list)

    @property
    def report_cfg(self) -> dict[str, Any]:
        return self.config.get("report", {})

    @property
    def captions(self) -> dict[str, str]:
        return {self.info.current(k): v for k, v in self.report_cfg.get("captions", {}).items()}

    @property
    def plotted(self) -> list[str]:
        """The labels drawn in the figures: the heuristics, or the exact methods if there is none."""
        return self.heuristics or self.exacts

    @property
    def labels(self) -> list[str]:
        return self.heuristics + self.exacts + self.probes


def suite_view(
    table: ResultTable,
    suite: str,
    config: dict[str, Any],
    runs: list[dict[str, Any]],
    slug: str,
    plan: list[dict[str, Any]] | None = None,
) -> SuiteView:
    rows = table.where(suite=suite)
    group_order, label_order = _config_order(config)
    probes = probe_labels(config, rows)
    heuristics = _in_order(
        (r["method_label"] for r in rows if not r["exact"] and r["method_label"] not in probes), label_order
    )
    exacts = _in_order((r["method_label"] for r in rows if r["exact"]), label_order)
    colors = current_colors()
    colors.extend(heuristics + exacts)  # first sight fixes a label's colour for the whole report
    return SuiteView(
        rows=rows,
        config=config,
        runs=runs,
        slug=slug,
        groups=_in_order((r["group"] for r in rows), group_order),
        x=infer_x(table, rows, config.get("report", {})),
        heuristics=heuristics,
        exacts=exacts,
        colors=colors,
        plan=list(plan or []),
        info=metric_info(config.get("suite", {}).get("family") or next((r["family"] for r in rows), None)),
        probes=_in_order(probes, label_order),
    )


def intro_section(table: ResultTable, suite: str, v: SuiteView) -> Section:
    head = v.config.get("suite", {})
    intro = Section(v.report_cfg.get("title") or f"Suite `{suite}`", level=2)
    missing = missing_cells_paragraph(suite, v.plan)
    if missing:
        intro.blocks.append(missing)
    if head.get("description"):
        intro.blocks.append(str(head["description"]).strip())
    counts: dict[str, int] = defaultdict(int)
    for r in v.rows:
        counts[r["status"]] += 1
    n_inst = len({(r["group"], r["instance_id"]) for r in v.rows})
    intro.blocks.append(
        f"{len(v.rows)} cells: {n_inst} instances in {len(v.groups)} group(s) x {len(v.heuristics)} heuristic(s)"
        + (
            f", {len(v.exacts)} exact method(s) and {len(v.probes)} probe(s)"
            if v.probes
            else f" and {len(v.exacts)} exact method(s)"
        )
        + " with their seeds; "
        + ", ".join(f"{counts[s]} {s}" for s in sorted(counts))
        + (f". Figures are drawn against `{v.x}`." if v.x and (v.heuristics or v.exacts) else ".")
    )
    return intro


def missing_cells_paragraph(suite: str, plan: list[dict[str, Any]]) -> str | None:
    """``Missing cells: 909 of 944 planned ...`` with the count per group; ``None`` when none is missing."""
    planned = sum(p["planned"] for p in plan)
    missing = planned - sum(p["finished"] for p in plan)
    if not missing:
        return None
    per_group: dict[str, list[int]] = {}
    for p in plan:
        counts = per_group.setdefault(p["group"] or "group not recorded", [0, 0])
        counts[0] += p["planned"] - p["finished"]
        counts[1] += p["planned"]
    groups = "; ".join(f"{g}: {m} of {n}" for g, (m, n) in per_group.items() if m)
    return (
        f"**Missing cells: {missing} of {planned} planned cells have no result** ({groups}). "
        f"Everything below is drawn from the {planned - missing} finished cells only; "
        f"`coschedopt bench run {suite}` with the same `--db` runs the rest."
    )


def _best_heuristic(grows: list[dict[str, Any]], heuristics: list[str], all_proven: bool) -> tuple[str | None, tuple]:
    """The heuristic with the smallest mean gap to the optimum (all proven) or to the bound, and its gaps."""
    stats = {}
    for label in heuristics:
        lr = [r for r in grows if r["method_label"] == label]
        to_opt = [r["gap_to_best"] for r in lr if r["best_known_proven"]]
        to_bound = [r["gap_to_bound"] for r in lr if r["gap_to_bound"] is not None]
        if lr:
            stats[label] = (_mean(to_opt), _max(to_opt), _mean(to_bound), _max(to_bound))
    use = 0 if all_proven else 2
    ranked = [lb for lb in stats if stats[lb][use] is not None] or [lb for lb in stats if stats[lb][0] is not None]
    use = use if any(stats[lb][use] is not None for lb in stats) else 0
    best = min(ranked, key=lambda lb: stats[lb][use]) if ranked else None
    return best, stats.get(best, (None, None, None, None))


def headline_section(v: SuiteView) -> Section:
    hl = Table(
        [
            "group",
            "instances",
            "optimum proven",
            "lower bound known",
            "best heuristic",
            "gap to optimum, mean / max",
            "certified gap bound, mean / max",
        ],
        [],
        caption="Per group, the heuristic with the smallest mean gap to the optimum when every instance's optimum "
        "is proven; otherwise the one with the smallest mean certified gap bound (objective vs the best lower bound "
        "of any method: the true gap is at most that). Gaps to the optimum are over the instances where it is proven.",
    )
    for g in v.groups:
        grows = [r for r in v.rows if r["group"] == g]
        insts = {r["instance_id"] for r in grows}
        proven = {r["instance_id"] for r in grows if r["best_known_proven"]}
        bounded = {r["instance_id"] for r in grows if r["best_bound"] is not None}
        best, st = _best_heuristic(grows, v.heuristics, proven == insts)
        hl.rows.append(
            [
                g,
                str(len(insts)),
                f"{len(proven)}/{len(insts)}",
                f"{len(bounded)}/{len(insts)}",
                best or "–",
                f"{_pct(st[0])} / {_pct(st[1])}",
                f"{_pct(st[2])} / {_pct(st[3])}",
            ]
        )
    return Section("Headline: optimum vs best heuristic", 3, [hl])


def figures_section(table: ResultTable, v: SuiteView) -> Section | None:
    named = [v.info.current(m) for m in v.report_cfg.get("metrics", table.metric_columns)]
    metrics = [m for m in named if m in table.metric_columns]
    if not (v.x and metrics and v.plotted):
        return None
    fsec = Section("Figures", 3)
    for metric in metrics:
        if not any(r.get(metric) is not None for r in v.rows):
            continue
        fig = metric_figure(v.rows, v.groups, metric, v.x, v.plotted, v.colors, v.info)
        caption = figure_caption(metric, v.x, v.info, "heuristic" if v.heuristics else "method")
        if metric in v.captions:
            caption += f" {v.captions[metric]}"
        fsec.blocks.append(Figure(png_bytes(fig), f"{v.slug}-{metric}.png", caption))
    return fsec


def definitions_section(table: ResultTable, v: SuiteView) -> Section:
    """What each column of the figures and tables means: the family's metrics, then the harness's gaps."""
    sec = Section("Definitions", 3)
    kind = v.config.get("suite", {}).get("family") or next((r["family"] for r in v.rows), "?")
    shown = [m for m in table.metric_columns if any(r.get(m) is not None for r in v.rows)]
    for m in shown:
        text = v.info.definitions.get(m, f"(family {kind!r} gives no definition)")
        sec.blocks.append(f"`{m}`: {text}")
    obj = v.info.objective_name
    if v.info.sense == "min":
        gap, bound, best = "(objective - optimum) / optimum", "(objective - best bound) / best bound", "largest lower"
    else:
        gap, bound, best = "(optimum - objective) / optimum", "(best bound - objective) / best bound", "smallest upper"
    sec.blocks += [
        f"Gap to the optimum (`gap_to_best`): {gap}, where the optimum is the best {obj} an exact method "
        "proved optimal for the instance (over every stored cell of that instance).",
        f"Best bound (`best_bound`): the {best} bound any method certified for the instance (a proven optimum "
        f"is its own bound). Gap to the bound (`gap_to_bound`): {bound}, an upper limit on the gap to the "
        "optimum even where the optimum is unknown.",
        "Own gap of a time-limited cell: |objective - its own bound| / |objective|, as the method reports it.",
    ]
    return sec


def runtime_section(v: SuiteView) -> Section:
    """Median running time per method and group (the paper's Table 1), without the first calls.

    A worker's first cell of a method pays the method's imports (a solver, a
    compiled kernel): hundreds of milliseconds beside a run of one.  The median
    over the other cells is what a call costs; the first calls are given apart,
    in their own column, so nothing is hidden.
    """
    rt = Table(
        ["method", "exact", *v.groups, "first call in a worker"],
        [],
        caption="Median running time in milliseconds per method and group, over the cells that were not their "
        "worker's first of the method (the first pays the method's imports: its median, over every group, is "
        "the last column; '–' in a group: only first calls there)"
        + (f" ({v.captions['runtime']})" if "runtime" in v.captions else "")
        + ".",
    )
    for label in v.labels:
        lr = [r for r in v.rows if r["method_label"] == label]
        rt.rows.append(
            [
                label,
                "yes" if lr[0]["exact"] else "no",
                *[_ms(r["runtime_s"] for r in lr if r["group"] == g and r["method_call"] != 1) for g in v.groups],
                _ms(r["runtime_s"] for r in lr if r["method_call"] == 1),
            ]
        )
    return Section("Running times", 3, [rt])


def _gap_table(v: SuiteView, group: str, kind: str, col: str, proven: bool) -> Table | None:
    """Mean / max of ``col`` per method and x over the rows whose optimum is (not) ``proven``."""
    x = v.x
    grows = [r for r in v.rows if r["group"] == group]
    xs = _ordered(r[x] for r in grows) if x else ["all"]
    t = Table(
        [f"method \\ {x or ''}", *[_fmt(val) for val in xs]], [], caption=f"{group}: gap to the {kind}, mean / max"
    )
    for label in v.labels:
        cells = []
        for val in xs:
            sel = [
                r[col]
                for r in grows
                if r["method_label"] == label
                and (not x or r[x] == val)
                and bool(r["best_known_proven"]) == proven
                and r[col] is not None
            ]
            cells.append(f"{_pct(_mean(sel))} / {_pct(_max(sel))}" if sel else "–")
        if any(c != "–" for c in cells):
            t.rows.append([label, *cells])
    if not t.rows:
        return None
    keep = [0] + [j for j in range(1, len(t.headers)) if any(row[j] != "–" for row in t.rows)]
    t.headers = [t.headers[j] for j in keep]
    t.rows = [[row[j] for j in keep] for row in t.rows]
    return t


def true_gap_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the heuristics' true gaps, from exported or stored rows: per group, n and method,
    objective / optimum - 1 over the instances whose optimum is proven (mean and max), and the largest certified
    gap (to the best bound) over the others.  A gap below zero stays (a preemptive reference may beat the
    non-preemptive optimum); a rounding's -0.00 % does not."""
    runs: dict[tuple[str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        solved = r.get("objective") is not None and r.get("status") in ("OPTIMAL", "FEASIBLE", "TIME_LIMIT")
        if solved and not r.get("exact"):
            runs[(r["group"], int(r["n"]), r["method_label"])].append(r)

    def gap(r: dict[str, Any], key: str) -> float:
        g = float(r[key])
        return 0.0 if abs(g) < 1e-9 else g

    headers = ["group", "n", "method", "optimum proven", "mean gap", "max gap", "largest gap to the bound elsewhere"]
    out = []
    for (group, n, label), rs in sorted(runs.items()):
        true = [gap(r, "gap_to_best") for r in rs if r.get("best_known_proven")]
        certified = [gap(r, "gap_to_bound") for r in rs if not r.get("best_known_proven")]
        out.append(
            [
                group,
                f"{n:,}",
                label,
                f"{len(true)}/{len(rs)}",
                f"{100 * statistics.fmean(true):.2f} %" if true else "–",
                f"{100 * max(true):.2f} %" if true else "–",
                f"{100 * max(certified):.2f} %" if certified else "–",
            ]
        )
    return headers, out


def gap_section(v: SuiteView) -> Section:
    gsec = Section("Gap to the optimum", 3)
    gsec.blocks.append(
        "Relative gap (objective - optimum) / optimum, mean / max over the instances (and seeds) whose optimum is "
        "proven by an exact method. Where no optimum is proven, the certified bound (objective - best lower bound) "
        "/ best lower bound is given instead: the true gap is at most that."
    )
    for g in v.groups:
        for kind, col, proven in (("optimum", "gap_to_best", True), ("certified bound", "gap_to_bound", False)):
            t = _gap_table(v, g, kind, col, proven)
            if t is not None:
                gsec.blocks.append(t)
    return gsec


def probe_labels(config: dict[str, Any], rows: list[dict[str, Any]]) -> set[str]:
    """The labels of the suite's probes (methods that measure code, whose figures are their stats), after
    importing the suite's plugins: a family's probes register only where a suite loads them."""
    for module in config.get("suite", {}).get("plugins", []):
        with contextlib.suppress(ImportError):  # a plug-in absent here: its methods read as ordinary ones
            importlib.import_module(module)
    out = set()
    for r in rows:
        try:
            if get_method(r["family"], r["method"]).probe:
                out.add(r["method_label"])
        except InputError:
            pass
    return out


def probe_section(v: SuiteView) -> Section | None:
    """One row per probe cell with its scalar figures (its ``stats``), or ``None`` if the suite has no probe."""
    rows = [r for r in v.rows if r["method_label"] in v.probes]
    if not rows:
        return None
    stats = [json.loads(r["stats"]) if isinstance(r["stats"], str) else (r["stats"] or {}) for r in rows]
    keys = _ordered(k for st in stats for k, x in st.items() if isinstance(x, int | float | str))
    table = Table(
        ["group", "instance", "method", *keys],
        [
            [r["group"], r["instance"], r["method_label"], *(_fmt(st.get(k)) for k in keys)]
            for r, st in zip(rows, stats, strict=True)
        ],
        caption="Each probe cell's figures, from the stats column of the tidy table.",
    )
    text = (
        "Probes measure code on the instance instead of solving it (compiled code against its reference, a peer "
        "simulator beside ours): their figures are their stats, and objectives and gaps do not apply to them."
    )
    return Section("Probe figures", 3, [text, table])


def status_section(v: SuiteView) -> Section:
    statuses = _ordered(r["status"] for r in v.rows)
    st = Table(["method", *statuses], [], caption="Cells per method and status.")
    for label in v.labels:
        st.rows.append(
            [label, *[str(sum(1 for r in v.rows if r["method_label"] == label and r["status"] == s)) for s in statuses]]
        )
    return Section("Statuses", 3, [st])


def failed_section(v: SuiteView) -> Section:
    x = v.x
    failed = [r for r in v.rows if is_failure(r["status"], r["objective"], r["lower_bound"])]
    fsec = Section("Failed cells", 3)
    if not failed:
        fsec.blocks.append("None: every finished cell has a result (cells stopped at their time limit are below).")
        return fsec
    ft = Table(
        ["group", "instance", *([x] if x else []), "method", "seed", "status", "runtime (s)", "error"],
        [],
        caption="Cells without a result: they raised or their worker crashed (ERROR), or the harness killed them "
        "past their kill_after (TIME_LIMIT without objective or bound).",
    )
    for r in failed:
        err = (r["error"] or "").replace("\n", " ")
        ft.rows.append(
            [
                r["group"],
                r["instance"],
                *([_fmt(r[x])] if x else []),
                r["method_label"],
                str(r["seed"]),
                r["status"],
                _fmt(r["runtime_s"], 3),
                err[:300] + ("..." if len(err) > 300 else ""),
            ]
        )
    fsec.blocks.append(ft)
    return fsec


def time_limited_section(v: SuiteView) -> Section | None:
    """Cells stopped by their time limit with a result: finished cells, listed with their gaps."""
    x = v.x
    limited = [r for r in v.rows if is_time_limited(r["status"], r["objective"], r["lower_bound"])]
    if not limited:
        return None
    t = Table(
        [
            "group",
            "instance",
            *([x] if x else []),
            "method",
            "seed",
            "objective",
            "own bound",
            "own gap",
            "gap to best bound",
            "runtime (s)",
        ],
        [],
        caption="Cells stopped by their time limit with their best objective and certified bound (not failures: "
        "they count in every table above). Own gap: (objective - own bound) / objective; gap to best bound: "
        "against the best bound of any method on that instance.",
    )
    for r in limited:
        own = None
        if r["objective"] is not None and r["lower_bound"] is not None and r["objective"] != 0:
            own = abs(r["objective"] - r["lower_bound"]) / abs(r["objective"])
        t.rows.append(
            [
                r["group"],
                r["instance"],
                *([_fmt(r[x])] if x else []),
                r["method_label"],
                str(r["seed"]),
                _fmt(r["objective"], 8),
                _fmt(r["lower_bound"], 8),
                _pct(own),
                _pct(r["gap_to_bound"]),
                _fmt(r["runtime_s"], 3),
            ]
        )
    return Section("Time-limited cells", 3, [t])


def _check_row(problem: str, r: dict[str, Any]) -> list[str]:
    return [
        problem,
        r["group"],
        r["instance"],
        r["method_label"],
        _fmt(r["objective"], 10),
        _fmt(r["best_bound"], 10),
        _fmt(r["best_known"], 10),
    ]


def checks_section(v: SuiteView) -> Section:
    csec = Section("Consistency checks", 3)
    below = [
        r
        for r in v.rows
        if r["objective"] is not None
        and r["best_bound"] is not None
        and r["objective"] < r["best_bound"] - REL_TOL * max(1.0, abs(r["best_bound"]))
    ]
    disagree = [
        r
        for r in v.rows
        if r["exact"]
        and r["status"] == "OPTIMAL"
        and r["best_known_proven"]
        and r["objective"] is not None
        and not is_optimal_row(r)
    ]
    if not below and not disagree:
        csec.blocks.append(
            "Passed: no objective lies below a certified lower bound, and every exact method that "
            "claims an optimum agrees with the best proven value (relative tolerance 1e-6)."
        )
        return csec
    ct = Table(["problem", "group", "instance", "method", "objective", "best bound", "best known"], [])
    ct.rows += [_check_row("objective below a certified bound", r) for r in below]
    ct.rows += [_check_row("claimed optimum differs", r) for r in disagree]
    csec.blocks.append("FAILED: these cells contradict each other; a method is wrong.")
    csec.blocks.append(ct)
    return csec


def frontier_section(v: SuiteView) -> Section | None:
    """For a suite with a ladder: each exact method's frontier (:mod:`.frontier`)."""
    ladder = v.config.get("suite", {}).get("ladder")
    if ladder is None:
        return None
    rows = frontier_rows(v.rows, {r["suite"]: ladder for r in v.rows})
    if not rows:
        return None
    text = (
        f"Each exact method climbs `{ladder}` and stops at the first value whose median cell is not proven "
        "optimal; a value not climbed counts as not proven."
    )
    return Section("Frontier", 3, [text, Table(list(FRONTIER_HEADERS), frontier_table(rows))])


def _calibration(text: str | None) -> str:
    if not text:
        return "–"
    cal = json.loads(text)
    load = cal.get("load_average")
    return f"{cal['python_s']:.2f} s / {cal['numpy_s']:.2f} s" + (f", load {load[0]:.1f}" if load else "")


def provenance_section(v: SuiteView) -> Section:
    pt = Table(
        [
            "run",
            "started",
            "ended",
            "status",
            "executor",
            "host",
            "cells run",
            "failed",
            "coschedopt",
            "git commit",
            "solvers",
            "plug-ins",
            "CPU",
            "calibration",
        ],
        [],
        caption="Runs of this suite in the store (ended '–': killed); calibration: CPU seconds of a fixed "
        "pure-Python loop / numpy kernel at the run's start, and the load average then.",
    )
    for run in v.runs:
        versions = json.loads(run["versions"] or "{}")
        solvers = ", ".join(
            f"{k} {ver}" for k, ver in versions.items() if ver and k in ("highspy", "pyomo", "pulp", "ortools")
        )
        pt.rows.append(
            [
                str(run["run_id"]),
                run["started_at"],
                run["ended_at"] or "–",
                run["status"],
                run["executor"],
                run["host"] or "–",
                _fmt(run["cells_done"]),
                _fmt(run["cells_failed"]),
                run["package_version"] or "–",
                (run["git_commit"] or "–")[:19],
                solvers,
                ", ".join(
                    f"{k} {ver or '(not installed)'}" for k, ver in versions.items() if k not in RECORDED_DISTRIBUTIONS
                )
                or "–",
                run.get("cpu_model") or "–",
                _calibration(run.get("calibration")),
            ]
        )
    return Section("Provenance", 3, [pt])


def suite_sections(
    table: ResultTable,
    suite: str,
    config: dict[str, Any],
    runs: list[dict[str, Any]],
    slug: str,
    *,
    plan: list[dict[str, Any]] | None = None,
) -> list[Section]:
    """The generic sections of one suite's report, in order (each drawn from the tidy table;
    ``plan``, the suite's planned and finished cells per group and method, says what is missing)."""
    v = suite_view(table, suite, config, runs, slug, plan)
    solved = v.heuristics + v.exacts  # objectives, gaps and their figures are about these, not the probes
    sections = [
        intro_section(table, suite, v),
        probe_section(v),
        *(
            [headline_section(v), frontier_section(v), definitions_section(table, v), figures_section(table, v)]
            if solved
            else []
        ),
        runtime_section(v),
        gap_section(v) if solved else None,
        status_section(v),
        failed_section(v),
        time_limited_section(v),
        checks_section(v),
        provenance_section(v),
    ]
    return [s for s in sections if s is not None]


def family_sections(table: ResultTable, suite: str, config: dict[str, Any], slug: str) -> list[Section]:
    """The family's own sections (:attr:`Family.report`), e.g. a paper's table beside ours.

    The family's function is called as ``report(rows, config, slug)`` with the
    suite's rows of the tidy table and its suite file (as a dict), and returns
    :class:`Section` objects (paragraphs, :class:`Table`, :class:`Figure`).
    """
    rows = table.where(suite=suite)
    probes = probe_labels(config, rows)
    rows = [r for r in rows if r["method_label"] not in probes]  # the family's sections read solutions
    kinds = {r["family"] for r in rows}
    out: list[Section] = []
    for kind in sorted(kinds):
        try:
            family = get_family(kind)
        except InputError:
            continue
        if family.report is not None:
            out += resolve(family.report)(rows, config, slug)
    return out


def _slug(s: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in s).strip("-") or "suite"


def write_report(db: str | os.PathLike, out_dir: str | os.PathLike, *, suite: str | None = None) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``figures/*.png`` and ``results.csv`` into ``out_dir``.

    Returns the paths written.  Every number comes from :func:`.table.result_table`.
    """
    out = check_output_dir(out_dir)
    store = ResultStore(db, create=False)
    try:
        table = result_table(store, suite=suite)
        suites = [suite] if suite else list(dict.fromkeys([*(r["suite"] for r in table.rows), *store.suites()]))
        configs = {s: store.latest_suite_config(s) for s in suites}
        runs = {s: [r for r in store.runs() if r["suite"] == s] for s in suites}
        plans = {s: store.plan_progress(s) for s in suites}
    finally:
        store.close()
    sections: list[Section] = []
    with report_colors(()):  # one colour per method label in every figure of this report
        for s in suites:
            sections += suite_sections(table, s, configs[s], runs[s], _slug(s), plan=plans[s])
            sections += family_sections(table, s, configs[s], _slug(s))
    title = "coschedopt benchmark report" + (f": {suites[0]}" if len(suites) == 1 else "")
    preamble = [
        f"Result store `{Path(db).name}`: {len(table.rows)} cells of {len(suites)} suite(s). Every number and figure "
        "below is computed from the tidy table `results.csv` written next to this report (`coschedopt bench export`)."
    ]
    planned = sum(p["planned"] for ps in plans.values() for p in ps)
    missing = planned - sum(p["finished"] for ps in plans.values() for p in ps)
    if missing:
        preamble.append(
            f"**Partial results: {missing} of {planned} planned cells are missing** (not run yet, or the run was "
            "stopped); each suite's first section says where. Figures and tables show the finished cells only."
        )
    if not table.rows:
        preamble.append("The store holds no finished cell yet.")
    try:
        return _write_files(out, table, title, preamble, sections)
    except OSError as exc:
        raise output_error(exc.filename or out, exc) from None


def _write_files(
    out: Path, table: ResultTable, title: str, preamble: list[str], sections: list[Section]
) -> dict[str, Path]:
    figdir = out / "figures"
    figdir.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for sec in sections:
        for b in sec.blocks:
            if isinstance(b, Figure):
                p = figdir / b.filename
                p.write_bytes(b.png)
                paths[b.filename] = p
    paths["csv"] = write_table(table, out / "results.csv")
    md = out / "report.md"
    md.write_text(render_markdown(title, preamble, sections, "figures"), encoding="utf-8")
    page = out / "report.html"
    page.write_text(render_html(title, preamble, sections), encoding="utf-8")
    paths["markdown"], paths["html"] = md, page
    return paths
