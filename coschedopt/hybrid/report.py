"""The family's own report sections (``coschedopt bench report`` on the ``paper-hybrid`` suite).

* SWDUAL beside the thesis: mean simulated seconds of each method on the ``swdual``
  groups, next to Table 2.2 (UniProt, 2..8 workers) and Table 2.4 (each database at
  2, 4, 8 workers), with the mean certified lower bound (no allocation is faster);
* the heuristics' ratios: per group and method, the mean and largest ratio of the
  makespan to the proven optimum (where every instance of the group has one) or
  else to the best certified bound;
* the speed of repeated calls (``hybrid-speed``): per method on one instance, the median
  and smallest seconds of its own time, a worker's first call (which loads the compiled
  list-scheduling loop) not counted.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from typing import Any

from . import paper

_SWDUAL_NAME = re.compile(r"swdual-(?P<db>[a-z]+)-(?P<qs>[a-z]+)-m(?P<m>\d+)-k(?P<k>\d+)-s\d+")


def _ok(r: dict[str, Any]) -> bool:
    return r.get("objective") is not None and r.get("status") in ("OPTIMAL", "FEASIBLE", "TIME_LIMIT")


def swdual_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the SWDUAL table: database, workers, paper seconds, each method's mean seconds."""
    runs: dict[tuple[str, int], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    bounds: dict[tuple[str, int], dict[str, float]] = defaultdict(dict)
    for r in rows:
        match = _SWDUAL_NAME.fullmatch(str(r.get("instance", "")))
        if not match or match["qs"] != "main" or not _ok(r):
            continue
        key = (match["db"], int(match["m"]) + int(match["k"]))
        runs[key][r["method_label"]].append(float(r["objective"]))
        if r.get("best_bound") is not None:
            bounds[key][r["instance"]] = float(r["best_bound"])
    labels = sorted({label for by in runs.values() for label in by})
    headers = ["database", "workers", "thesis (s)", *[f"{lb} (s)" for lb in labels], "lower bound (s)"]
    out = []
    for db, w in sorted(runs, key=lambda key: (key[0] != "uniprot", key)):
        thesis = paper.TABLE_2_4.get(db, {}).get(w, (None,))[0] if db != "uniprot" else paper.TABLE_2_2["SWDUAL"][w - 1]
        cells = [db, str(w), "–" if thesis is None else f"{thesis:.2f}"]
        cells += [f"{statistics.fmean(runs[(db, w)][lb]):.2f}" if runs[(db, w)][lb] else "–" for lb in labels]
        b = list(bounds[(db, w)].values())
        cells.append(f"{statistics.fmean(b):.2f}" if b else "–")
        out.append(cells)
    return headers, out


def ratio_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows): per group and method, mean / max of makespan over the reference (optimum or bound)."""
    ratios: dict[tuple[str, str], list[float]] = defaultdict(list)
    proven: dict[str, bool] = defaultdict(lambda: True)
    for r in rows:
        proven[r["group"]] &= bool(r.get("best_known_proven"))
    for r in rows:
        if not _ok(r) or r.get("exact"):
            continue
        ref = r.get("best_known") if proven[r["group"]] else r.get("best_bound")
        if ref:
            ratios[(r["group"], r["method_label"])].append(float(r["objective"]) / float(ref))
    headers = ["group", "reference", "method", "instances", "mean ratio", "max ratio"]
    out = []
    for (group, label), vals in sorted(ratios.items()):
        ref = "optimum" if proven[group] else "lower bound"
        out.append([group, ref, label, str(len(vals)), f"{statistics.fmean(vals):.4f}", f"{max(vals):.4f}"])
    return headers, out


def speed_rows(rows: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the speed table: per heuristic called several times on one instance (a suite of
    repeats, such as ``hybrid-speed``), the median and smallest seconds of its own time over the calls, a
    worker's first call not counted, with the makespan and the method's certified lower bound.  No rows when
    no heuristic ran twice on one instance."""
    runs: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if not r.get("exact") and _ok(r) and r.get("runtime_s") is not None:
            runs[(r["instance_id"], r["method_label"])].append(r)
    headers = ["method", "n", "calls", "median s", "min s", "makespan", "lower bound"]
    out = []
    for (_, label), rs in sorted(runs.items(), key=lambda item: item[0][1]):
        timed = [float(r["runtime_s"]) for r in rs if r.get("method_call") != 1]
        if len(rs) < 2 or not timed:
            continue
        bound = rs[0].get("lower_bound")
        out.append(
            [
                label,
                f"{int(rs[0]['n']):,}",
                str(len(timed)),
                f"{statistics.median(timed):.3f}",
                f"{min(timed):.3f}",
                f"{float(rs[0]['objective']):g}",
                "–" if bound is None else f"{float(bound):g}",
            ]
        )
    return headers, out


def hybrid_sections(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """The SWDUAL table beside the thesis and the heuristics' ratio table (:mod:`coschedopt.bench.report` sections)."""
    from ..viz.report import Section, Table

    sections = []
    headers, body = speed_rows(rows)
    if body:
        text = "Each method's own time per call on one instance, repeated (a worker's first call not counted)."
        sections.append(Section("Speed", 3, [text, Table(headers, body)]))
    headers, body = swdual_rows(rows)
    if body:
        text = (
            "Simulated seconds: the makespan of each method's allocation of the 40 queries, at the single-worker "
            "rates of Table 2.2 (UniProt rows: Table 2.2; other databases: Table 2.4). The simulation leaves out "
            "the master's reading and conversion, result gathering and the CPU share of the GPU workers, and the "
            "query lengths are drawn (not published): see benchmarks/results/hybrid-notes.md."
        )
        sections.append(Section("SWDUAL beside the thesis (Tables 2.2 and 2.4)", 3, [text, Table(headers, body)]))
    headers, body = ratio_rows(rows)
    if body:
        sections.append(Section("Ratios of the approximations and heuristics", 3, [Table(headers, body)]))
    return sections
