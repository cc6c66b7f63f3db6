"""The frontier of an exact method: the largest instance size it proves optimal, and the gap beyond.

A suite with a ``ladder`` (a size key, e.g. ``n``) climbs that key's values in increasing
order for each (group, method).  A *rung* (one value) is **proven** when the median of its
cells is proven optimal, i.e. when more than half of them end ``OPTIMAL`` within the time
limit (a cell not run counts as not proven); the climb stops at the first rung that is not.
The frontier of a (group, method) is then

* ``largest`` -- the largest value whose rung and every rung below it are proven, with the
  median seconds of that rung (cells not proven count as their time limit, so the median is a
  proven cell's time);
* ``first_unproven`` -- the next value climbed, with its proven count and the median of the
  certified gaps of its cells ((objective - bound) / bound; a cell with no bound has none).

:func:`frontier_rows` computes it from the tidy result table (so a report reads it from the
store or from an exported file alike) and :func:`frontier_markdown` renders the table that the
README's exact-solving headline and ``bench report`` show.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .suite import Cell

PROVEN = "OPTIMAL"


def median_proven(proven: int, planned: int) -> bool:
    """Whether the median of ``planned`` cells is proven when ``proven`` of them are."""
    return 2 * proven > planned


def ladder_closed(
    cells: Iterable[Cell],
    statuses: Mapping[str, str],
    rung: Callable[[Cell], float],
    *,
    decided_only: bool = False,
) -> set[tuple[str, str]]:
    """The (group, method label) pairs of ``cells`` with a rung that is not proven.

    ``statuses`` maps a finished cell's key to its status.  With ``decided_only`` a cell not yet
    finished may still be proven, so a rung closes only once its failures alone rule the median
    out (the runner's test between waves); otherwise an unfinished cell counts as not proven.
    """
    planned: dict[tuple[str, str, float], int] = defaultdict(int)
    proven: dict[tuple[str, str, float], int] = defaultdict(int)
    failed: dict[tuple[str, str, float], int] = defaultdict(int)
    for c in cells:
        key = (c.group, c.label, rung(c))
        planned[key] += 1
        status = statuses.get(c.key)
        if status == PROVEN:
            proven[key] += 1
        elif status is not None:
            failed[key] += 1
    closed = set()
    for key, n in planned.items():
        best_case = n - failed[key] if decided_only else proven[key]
        if not median_proven(best_case, n):
            closed.add(key[:2])
    return closed


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def frontier_rows(rows: Iterable[Mapping[str, Any]], ladder: Mapping[str, str]) -> list[dict[str, Any]]:
    """One row per (suite, group, exact method) of the ladder suites among ``rows`` (the tidy table's).

    ``ladder`` maps a suite name to its ladder key.  Each row: ``suite``, ``family``, ``group``,
    ``method`` (the label), ``ladder`` (the key), ``rungs`` (the values climbed), ``largest`` and
    ``largest_median_s`` (``None`` when even the first rung is not proven), ``first_unproven``,
    ``first_unproven_proven`` (e.g. "1/5", or "refused" when the method declined every cell of that
    size), ``first_unproven_gap`` (the median certified gap of its
    cells), and ``time_limit``.  Every rung plans the same cells (each instance seed seen in the group,
    by any method, with each of the method's seeds), so a rung left early (its median already lost)
    counts the cells it did not run as not proven.
    """
    cells: dict[tuple[str, str, str], dict[float, list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    family: dict[tuple[str, str, str], str] = {}
    instance_seeds: dict[tuple[str, str], set[Any]] = defaultdict(set)
    for r in rows:
        key_name = ladder.get(r["suite"])
        if key_name is None or r.get(key_name) is None:
            continue
        instance_seeds[(r["suite"], r["group"])].add(r.get("instance_seed"))
        if not r.get("exact"):
            continue
        k = (r["suite"], r["group"], r["method_label"])
        cells[k][float(r[key_name])].append(r)
        family[k] = r["family"]
    out = []
    for (suite, group, label), by_rung in cells.items():
        largest = largest_s = first = first_proven = first_gap = None
        limit = None
        # a rung plans each instance seed of the group with each method seed; one left early has fewer rows
        method_seeds = {r["seed"] for rs in by_rung.values() for r in rs}
        planned = max(max(len(rs) for rs in by_rung.values()), len(instance_seeds[(suite, group)]) * len(method_seeds))
        for value in sorted(by_rung):
            rs = by_rung[value]
            limit = max((r["time_limit"] or 0 for r in rs), default=None) or None
            n_proven = sum(r["status"] == PROVEN for r in rs)
            if median_proven(n_proven, planned):
                largest = value
                times = [r["runtime_s"] if r["status"] == PROVEN else math.inf for r in rs]
                times += [math.inf] * (planned - len(rs))
                largest_s = _median(times)
                continue
            first, first_proven = value, f"{n_proven}/{planned}"
            if all(r["status"] == "ERROR" and str(r.get("error") or "").startswith("MethodRefused") for r in rs):
                first_proven = "refused"  # the method declines the size (its documented limit)
            first_gap = _median([r["gap"] for r in rs if r.get("gap") is not None])
            break
        out.append(
            {
                "suite": suite,
                "family": family[(suite, group, label)],
                "group": group,
                "method": label,
                "ladder": ladder[suite],
                "rungs": sorted(by_rung),
                "largest": largest,
                "largest_median_s": largest_s,
                "first_unproven": first,
                "first_unproven_proven": first_proven,
                "first_unproven_gap": first_gap,
                "time_limit": limit,
            }
        )
    out.sort(key=lambda r: (r["family"], r["group"], r["method"]))
    return out


def _value(x: float | None) -> str:
    if x is None:
        return "-"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


FRONTIER_HEADERS = [
    "family",
    "instances",
    "method",
    "largest proven",
    "median s",
    "first not proven",
    "proven there",
    "median gap there",
]


def frontier_table(frontier: list[dict[str, Any]]) -> list[list[str]]:
    """The rows of the frontier table (:data:`FRONTIER_HEADERS`): family, instances, method, the largest
    size proven (median of the seeds) with its median seconds, the first size not proven with its
    proven count and median gap."""
    out = []
    for r in frontier:
        key = r["ladder"]
        largest = "none" if r["largest"] is None else f"{key} = {_value(r['largest'])}"
        # every size climbed was proven: the frontier lies beyond the ladder's top
        top = f"beyond {key} = {_value(max(r['rungs']))}" if r["rungs"] else "-"
        first = top if r["first_unproven"] is None else f"{key} = {_value(r['first_unproven'])}"
        seconds = "-" if r["largest_median_s"] is None else f"{r['largest_median_s']:.1f}"
        gap = "-" if r["first_unproven_gap"] is None else f"{100 * r['first_unproven_gap']:.2f} %"
        out.append(
            [r["family"], r["group"], r["method"], largest, seconds, first, r["first_unproven_proven"] or "-", gap]
        )
    return out


def frontier_markdown(frontier: list[dict[str, Any]]) -> str:
    """:func:`frontier_table` in Markdown."""
    lines = ["| " + " | ".join(FRONTIER_HEADERS) + " |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    lines += ["| " + " | ".join(row) + " |" for row in frontier_table(frontier)]
    return "\n".join(lines) + "\n"
