"""``coschedopt bench compare A.sqlite B.sqlite``: do two result stores give the same answers cell by cell?

The regression check of a change that must not change results (a faster simulator, a
refactoring): run a suite into one store at the old commit and into another at the new one,
then compare.  Cells are matched by their key (suite, family, group, instance, method,
seed, options, time limit: :class:`.suite.Cell`), so the same suite on the same instances
matches whatever the order or the executor.  A pair of finished cells agrees when its status,
objective, bound and every metric are equal (to ``rel_tol``, default 1e-12: the last bits of
a sum may follow the summation order) and, where both stores kept the schedule, when the
schedules are equal as JSON values.  Timings and counters (stats) are not compared: they
describe the run, not the answer.
"""

from __future__ import annotations

import json
import math
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import InputError

#: what a cell answers; the rest of its row describes how the run went
ANSWER = ("status", "objective", "lower_bound")


@dataclass
class Comparison:
    """The outcome of :func:`compare_stores`: how many cells each store holds, how many both, and those that differ
    (``(suite, instance name, method label, seed, what differs)``)."""

    only_a: int = 0
    only_b: int = 0
    shared: int = 0
    schedules_compared: int = 0
    differ: list[tuple[str, str, str, int, str]] = field(default_factory=list)

    @property
    def equal(self) -> int:
        return self.shared - len(self.differ)

    def text(self, limit: int = 10) -> str:
        lines = [
            f"{self.shared} cells in both stores ({self.only_a} only in the first, {self.only_b} only in the "
            f"second): {self.equal} agree, {len(self.differ)} differ; schedules compared on {self.schedules_compared}"
        ]
        lines += [f"  {s} / {i} / {m} seed {seed}: {what}" for s, i, m, seed, what in self.differ[:limit]]
        if len(self.differ) > limit:
            lines.append(f"  ... and {len(self.differ) - limit} more")
        return "\n".join(lines)


def _cells(path: Path, suite: str | None) -> dict[str, sqlite3.Row]:
    if not path.exists():
        raise InputError(f"{path}: no such result store", where=str(path))
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        q = (
            "SELECT cell_key, suite, instance_name, method_label, seed, status, objective, lower_bound, metrics, "
            "schedule FROM cells"
        )
        rows = con.execute(q + (" WHERE suite = ?" if suite else ""), (suite,) if suite else ()).fetchall()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"{path}: not a result store ({exc})", where=str(path)) from exc
    finally:
        con.close()
    return {r["cell_key"]: r for r in rows}


def _same_number(x: Any, y: Any, rel_tol: float) -> bool:
    if isinstance(x, int | float) and isinstance(y, int | float) and not isinstance(x, bool):
        return x == y or math.isclose(x, y, rel_tol=rel_tol, abs_tol=0.0)
    return x == y


def _difference(a: sqlite3.Row, b: sqlite3.Row, rel_tol: float) -> str | None:
    """What differs between two finished cells' answers, or None."""
    for key in ANSWER:
        if not _same_number(a[key], b[key], rel_tol):
            return f"{key} {a[key]!r} != {b[key]!r}"
    ma, mb = json.loads(a["metrics"] or "{}"), json.loads(b["metrics"] or "{}")
    for key in sorted(set(ma) | set(mb)):
        if not _same_number(ma.get(key), mb.get(key), rel_tol):
            return f"metric {key} {ma.get(key)!r} != {mb.get(key)!r}"
    if (
        a["schedule"] is not None
        and b["schedule"] is not None
        and json.loads(a["schedule"]) != json.loads(b["schedule"])
    ):
        return "schedule"
    return None


def compare_stores(a: str | Path, b: str | Path, *, suite: str | None = None, rel_tol: float = 1e-12) -> Comparison:
    """Compare the finished cells of stores ``a`` and ``b`` (of ``suite`` only, if given); see the module docstring."""
    cells_a, cells_b = _cells(Path(a), suite), _cells(Path(b), suite)
    out = Comparison(only_a=len(cells_a.keys() - cells_b.keys()), only_b=len(cells_b.keys() - cells_a.keys()))
    for key in sorted(cells_a.keys() & cells_b.keys()):
        x, y = cells_a[key], cells_b[key]
        out.shared += 1
        out.schedules_compared += x["schedule"] is not None and y["schedule"] is not None
        what = _difference(x, y, rel_tol)
        if what is not None:
            out.differ.append((x["suite"], x["instance_name"], x["method_label"], x["seed"], what))
    return out
