"""The family's report sections: Tables 1 and 2 of the paper beside ours (``coschedopt bench report``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .tables import markdown, paper_tables


def records_by_method(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per method label: one record per test (its metrics, ``time_ms`` and ``n``)."""
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r.get("status") not in ("OPTIMAL", "FEASIBLE", "TIME_LIMIT") or r.get("makespan_rel") is None:
            continue
        runtime = r.get("runtime_s")
        out[r["method_label"]].append({**r, "time_ms": None if runtime is None else 1000.0 * runtime})
    return dict(out)


def compacting_later(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How often compacting ends the whole schedule later than the same variant without it, over the tests
    both ran: ``{"mic+c > mic": count, "inf+c > inf": count, "tests": tests with both pairs}``."""
    spans: dict[str, dict[str, float]] = defaultdict(dict)
    for r in rows:
        if r.get("objective") is not None and r["method_label"] in ("mic", "mic+c", "inf", "inf+c"):
            spans[r["instance_id"]][r["method_label"]] = float(r["objective"])
    both = [v for v in spans.values() if len(v) == 4]
    return {
        "mic+c > mic": sum(v["mic+c"] > v["mic"] for v in both),
        "inf+c > inf": sum(v["inf+c"] > v["inf"] for v in both),
        "tests": len(both),
    }


def evolving_report(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """One section: both tables (ours beside the paper's), and the averages outside the tolerance."""
    from ..viz.report import Section, Table

    records = records_by_method(rows)
    if not records:
        return []
    tests = max(len(v) for v in records.values())
    blocks: list[Any] = [
        f"Klein & Pérez's Tables 1 and 2 over the {tests} tests of this suite beside the paper's 1,000 "
        "(min / avg / max; relative values are over CBF's on the same test).  An average further from the "
        "paper's than 0.02 (relative) or 2 points (%) is marked *.  Times are this machine's, the paper's "
        "a 2.53 GHz laptop's."
    ]
    for table in paper_tables(records):
        blocks.append(Table(table.headers, table.rows, caption=table.title))
        if table.differences:
            blocks.append("Averages outside the tolerance: " + "; ".join(table.differences) + ".")
    return [Section("Klein & Pérez, Tables 1 and 2", 2, blocks)]


__all__ = ["compacting_later", "evolving_report", "markdown", "records_by_method"]
