"""The family's own report sections (``coschedopt bench report`` on the ``pack-table1`` suite).

Table 1 of Aupy et al. beside ours: per heuristic and workload, the median milliseconds of the
method's own time over the suite's calls (a worker's first call of a method, which pays its
imports, not counted), the paper's figure and the ratio ours / paper.  The paper does not say what
machine or language its times come from, so the ratio says how far apart, not who is faster in
kind.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

#: the workloads of Table 1, in its column order
TABLE_1_WORKLOADS = ("Workload-I", "Workload-II", "Workload-III")

#: Table 1 of the paper, milliseconds: (Workload-I, Workload-II, Workload-III)
TABLE_1_MS = {
    "pack-approx": (0.50, 0.30, 5.12),
    "pack-by-pack-1": (0.03, 0.12, 0.53),
    "pack-by-pack-9": (0.30, 1.17, 5.07),
    "random-pack-1": (0.07, 0.34, 9.30),
    "random-pack-9": (0.67, 2.71, 87.25),
    "random-proc-1": (0.05, 0.26, 4.49),
    "random-proc-9": (0.47, 2.26, 39.54),
}


def table_1(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """{heuristic: {workload: {"ours_ms", "paper_ms", "ratio", "calls"}}} from the tidy table's rows of the
    Table 1 heuristics on the Table 1 workloads (groups), the first call of each worker's method not counted."""
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        name, group = r["method"], r["group"]
        if name in TABLE_1_MS and group in TABLE_1_WORKLOADS and r["method_call"] != 1 and r["runtime_s"] is not None:
            times[(name, group)].append(float(r["runtime_s"]))
    out: dict[str, dict[str, dict[str, float]]] = {}
    for (name, group), ts in times.items():
        ours = 1000 * statistics.median(ts)
        paper = TABLE_1_MS[name][TABLE_1_WORKLOADS.index(group)]
        out.setdefault(name, {})[group] = {"ours_ms": ours, "paper_ms": paper, "ratio": ours / paper, "calls": len(ts)}
    return out


def table_1_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[list[str], list[list[str]], list[tuple[str, str]]]:
    """(headers, rows, slower): Table 1 ours beside the paper's, and the (heuristic, workload) cells where
    ours is slower."""
    t = table_1(rows)
    workloads = [w for w in TABLE_1_WORKLOADS if any(w in by_workload for by_workload in t.values())]
    headers = ["heuristic"] + [f"{w.replace('Workload-', 'W-')} {s}" for w in workloads for s in ("ours", "paper")]
    out, slower = [], []
    for name in TABLE_1_MS:
        if name not in t:
            continue
        cells = [name]
        for w in workloads:
            c = t[name].get(w)
            paper = TABLE_1_MS[name][TABLE_1_WORKLOADS.index(w)]
            cells += ["–" if c is None else f"{c['ours_ms']:.2f}", f"{paper:.2f}"]
            if c is not None and c["ratio"] > 1:
                slower.append((name, w))
        out.append(cells)
    return headers, out, slower


def slower_text(slower: list[tuple[str, str]]) -> str:
    """'no heuristic is slower than the paper's', or the cells where ours is."""
    if not slower:
        return "no heuristic is slower than the paper's"
    return "slower than the paper's: " + ", ".join(f"{h} on {w}" for h, w in slower)


def pack_sections(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """Table 1 beside the paper's, when the suite ran the heuristics on the paper's workloads."""
    from ..viz.report import Section, Table

    headers, body, slower = table_1_rows(rows)
    if not body:
        return []
    text = (
        "Median milliseconds of each heuristic's own time (a worker's first call of a method not counted) beside "
        f"Table 1 of the paper; {slower_text(slower)}."
    )
    return [Section("Table 1: running times beside the paper's", 3, [text, Table(headers, body)])]
