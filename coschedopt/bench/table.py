"""The tidy result table: one row per finished cell, the single source of every report.

Columns, in order: the fixed ones of :data:`LEADING`, the family's size keys
(``describe()``, for packs ``n``, ``p``, ``k``), then :data:`MIDDLE`, the family's
metrics (for packs ``relative_cost``, ``packing_ratio``,
``relative_response_time``, ``packs``), then :data:`TRAILING`.

Reference values per instance (over every stored cell of that instance, all
suites and runs), in the sense of the family's objective (:attr:`Family.sense`;
written here for minimisation, mirrored for maximisation):

* ``gap`` -- the cell's own certified gap, (objective - lower_bound) / lower_bound (0 when
  proven optimal; empty without both);
* ``best_known`` -- the best objective proven optimal by an exact method
  (``best_known_proven`` = true); when no exact method proved an optimum, the best
  objective any method found (``best_known_proven`` = false);
* ``gap_to_best`` = (objective - best_known) / best_known, never negative;
* ``best_bound`` -- the tightest certified bound of any cell (the largest lower
  bound; an optimum is its own bound); ``gap_to_bound`` = (objective - best_bound)
  / best_bound is a certified upper bound on the gap to the optimum, even when it
  is unknown.

``stats`` is the method's own counters (``Result.stats``: columns generated, nodes, rounds...) as
JSON text, as ``options`` is: what a measurement of a method's inner work reads.

``method_call`` is the cell's number among the cells of its method that its
worker process ran (1: the first, which pays the method's imports; the
running-time tables leave it out).  Stores written before it was recorded get it
from the order the cells were stored in, per run, worker and method (a worker
runs one cell at a time and each is stored as it finishes); it is empty for the
cells the harness itself recorded (a worker that died or was killed).
"""

from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import InputError, get_family
from ..core.io import check_output_file, output_error
from .store import ResultStore

LEADING = ("suite", "group", "family", "instance", "instance_id", "instance_seed")
MIDDLE = (
    "method",
    "method_label",
    "exact",
    "seed",
    "options",
    "time_limit",
    "status",
    "objective",
    "lower_bound",
    "gap",
    "best_known",
    "best_known_proven",
    "gap_to_best",
    "best_bound",
    "gap_to_bound",
)
TRAILING = (
    "runtime_s",
    "cpu_s",
    "peak_rss_mb",
    "stats",
    "error",
    "worker",
    "method_call",
    "finished_at",
    "run_id",
    "cell_key",
)

#: relative tolerance when comparing objectives of different methods (solver round-off)
REL_TOL = 1e-6


@dataclass
class ResultTable:
    """Rows (dicts) and the roles of their columns."""

    columns: list[str]
    rows: list[dict[str, Any]]
    size_columns: list[str] = field(default_factory=list)
    metric_columns: list[str] = field(default_factory=list)
    #: the runs that stored these rows: provenance, CPU model and calibration (see :func:`run_rows`)
    runs: list[dict[str, Any]] = field(default_factory=list)

    def select(self, columns: list[str]) -> ResultTable:
        """The table with only ``columns`` (in their order); an unknown column raises :class:`InputError`."""
        unknown = [c for c in columns if c not in self.columns]
        if unknown:
            raise InputError(
                f"no column {unknown[0]!r} in the table; its columns: {', '.join(self.columns)}", where="--columns"
            )
        return ResultTable(
            columns=list(columns),
            rows=[{c: row[c] for c in columns} for row in self.rows],
            size_columns=[c for c in self.size_columns if c in columns],
            metric_columns=[c for c in self.metric_columns if c in columns],
            runs=self.runs,
        )

    def where(self, **equal: Any) -> list[dict[str, Any]]:
        return [r for r in self.rows if all(r.get(k) == v for k, v in equal.items())]


def sense_of(family: str) -> int:
    """+1 when the family minimises its objective, -1 when it maximises (unknown families: +1)."""
    try:
        return -1 if get_family(family).sense == "max" else 1
    except InputError:
        return 1


def metric_aliases(family: str) -> dict[str, str]:
    """Old metric name -> current name for ``family`` (cells stored before a renaming; unknown families: none)."""
    try:
        return dict(get_family(family).metric_aliases)
    except InputError:
        return {}


def _relative_gap(value: float | None, reference: float | None, sign: int = 1) -> float | None:
    if value is None or reference is None:
        return None
    if reference == 0:
        return 0.0 if value == 0 else None
    return sign * (value - reference) / abs(reference)


def reference_values(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per instance_id: best proven optimum, best objective found, best certified bound."""
    refs: dict[str, dict[str, Any]] = {}
    signs: dict[str, int] = {}
    for r in rows:
        sign = signs.setdefault(r["family"], sense_of(r["family"]))
        best, tightest = (min, max) if sign > 0 else (max, min)
        ref = refs.setdefault(r["instance_id"], {"proven": None, "found": None, "bound": None})
        obj, lb = r["objective"], r["lower_bound"]
        if obj is not None:
            if r["exact"] and r["status"] == "OPTIMAL":
                ref["proven"] = obj if ref["proven"] is None else best(ref["proven"], obj)
            ref["found"] = obj if ref["found"] is None else best(ref["found"], obj)
        if lb is not None:
            ref["bound"] = lb if ref["bound"] is None else tightest(ref["bound"], lb)
    return refs


def method_calls(rows: list[dict[str, Any]]) -> dict[str, int]:
    """cell_key -> ``method_call``: as recorded, or, for the runs that recorded none (older stores),
    the cell's rank by ``stored_order`` among its run's cells of the same worker and method."""
    recorded = {r["run_id"] for r in rows if r.get("method_call") is not None}
    out: dict[str, int] = {}
    seen: dict[tuple, int] = {}
    for r in sorted(rows, key=lambda r: r.get("stored_order") or 0):
        if r.get("method_call") is not None:
            out[r["cell_key"]] = int(r["method_call"])
        elif r["run_id"] not in recorded and r.get("worker"):
            key = (r["run_id"], r["worker"], r["method"])
            seen[key] = seen.get(key, 0) + 1
            out[r["cell_key"]] = seen[key]
    return out


def result_table(
    db: str | os.PathLike | ResultStore, *, suite: str | None = None, planned_only: bool = True
) -> ResultTable:
    """The tidy table of the store ``db`` (one suite, or every suite), see the module docstring.

    ``planned_only`` keeps the cells of each suite's latest expansion; cells left
    over from an older version of a suite file stay in the store but not here.
    """
    store = db if isinstance(db, ResultStore) else ResultStore(db, create=False)
    try:
        runs = store.runs()
        raw = store.cell_rows(suite=suite, planned_only=planned_only)
        # references are computed over every stored cell of the instance, whatever its suite
        all_rows = raw if suite is None and not planned_only else store.cell_rows(planned_only=False)
    finally:
        if store is not db:
            store.close()
    refs = reference_values(all_rows)
    calls = method_calls(all_rows)
    size_cols: list[str] = []
    metric_cols: list[str] = []
    rows = []
    signs: dict[str, int] = {}
    aliases: dict[str, dict[str, str]] = {}
    for r in raw:
        sign = signs.setdefault(r["family"], sense_of(r["family"]))
        size = json.loads(r["size"])
        if r["family"] not in aliases:
            aliases[r["family"]] = metric_aliases(r["family"])
        metrics = {aliases[r["family"]].get(k, k): v for k, v in json.loads(r["metrics"]).items()}
        for k in size:
            if k not in size_cols:
                size_cols.append(k)
        for k in metrics:
            if k not in metric_cols:
                metric_cols.append(k)
        ref = refs[r["instance_id"]]
        proven = ref["proven"] is not None
        best = ref["proven"] if proven else ref["found"]
        row = {
            "suite": r["suite"],
            "group": r["instance_group"],
            "family": r["family"],
            "instance": r["instance_name"],
            "instance_id": r["instance_id"],
            "instance_seed": r["instance_seed"],
            **size,
            "method": r["method"],
            "method_label": r["method_label"],
            "exact": bool(r["exact"]),
            "seed": r["seed"],
            "options": r["options"],
            "time_limit": r["time_limit"],
            "status": r["status"],
            "objective": r["objective"],
            "lower_bound": r["lower_bound"],
            "gap": _relative_gap(r["objective"], r["lower_bound"], sign),
            "best_known": best,
            "best_known_proven": proven if best is not None else None,
            "gap_to_best": _relative_gap(r["objective"], best, sign),
            "best_bound": ref["bound"],
            "gap_to_bound": _relative_gap(r["objective"], ref["bound"], sign),
            **metrics,
            "runtime_s": r["runtime_s"],
            "cpu_s": r.get("cpu_s"),
            "peak_rss_mb": r.get("peak_rss_mb"),
            "stats": r.get("stats"),
            "error": r["error"],
            "worker": r["worker"],
            "method_call": calls.get(r["cell_key"]),
            "finished_at": r["finished_at"],
            "run_id": r["run_id"],
            "cell_key": r["cell_key"],
        }
        rows.append(row)
    size_cols = [c for c in size_cols if c not in LEADING + MIDDLE + TRAILING]
    metric_cols = [c for c in metric_cols if c not in LEADING + MIDDLE + TRAILING and c not in size_cols]
    columns = [*LEADING, *size_cols, *MIDDLE, *metric_cols, *TRAILING]
    for row in rows:
        for c in columns:
            row.setdefault(c, None)
    used = {row["run_id"] for row in rows}
    return ResultTable(
        columns=columns,
        rows=rows,
        size_columns=size_cols,
        metric_columns=metric_cols,
        runs=run_rows([r for r in runs if r["run_id"] in used]),
    )


#: what a run contributes to an exported table (its suite's text is in the store, not here)
RUN_COLUMNS = (
    "run_id",
    "suite",
    "command",
    "executor",
    "started_at",
    "ended_at",
    "status",
    "host",
    "platform",
    "python",
    "package_version",
    "git_commit",
    "versions",
    "cpu_model",
    "calibration",
    "ladder",
    "cells_planned",
    "cells_skipped",
    "cells_done",
    "cells_failed",
)


def run_rows(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The store's run rows as plain data: :data:`RUN_COLUMNS`, the JSON columns decoded, and the suite's
    ``ladder`` key (``None`` without one) from its configuration."""
    out = []
    for r in runs:
        config = json.loads(r["suite_config"]) if r.get("suite_config") else {}
        row = {c: r.get(c) for c in RUN_COLUMNS}
        row["ladder"] = config.get("suite", {}).get("ladder")
        for c in ("versions", "calibration"):
            if isinstance(row[c], str):
                row[c] = json.loads(row[c])
        out.append(row)
    return out


def table_from_json(data: dict[str, Any]) -> ResultTable:
    """The table of an export's parsed JSON (:func:`write_table`): its rows as dicts again."""
    return ResultTable(
        columns=list(data["columns"]),
        rows=[dict(zip(data["columns"], row, strict=True)) for row in data["rows"]],
        size_columns=list(data.get("size_columns", [])),
        metric_columns=list(data.get("metric_columns", [])),
        runs=list(data.get("runs", [])),
    )


def read_table(path: str | os.PathLike) -> ResultTable:
    """A table exported as JSON by :func:`write_table` (the records committed under ``benchmarks/results/``)."""
    p = Path(path)
    try:
        return table_from_json(json.loads(p.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"not an exported result table: {exc}", where=str(p)) from None


def _csv_value(v: Any) -> Any:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    return v


def write_table(table: ResultTable, path: str | os.PathLike, *, command: str | None = None) -> Path:
    """Write the table as CSV (``.csv``), JSON (``.json``: the runs' provenance and calibration, then
    one row a line as a list in column order, read back by :func:`read_table`; ``command``, the export's
    command line, is kept in it) or Parquet (``.parquet``, needs pyarrow), atomically."""
    p = Path(path)
    suffix = p.suffix.lower()
    if p.is_dir():
        check_output_file(p, example="results.csv")  # raises: a directory, not a file
    if suffix not in (".csv", ".json", ".parquet"):
        raise InputError(f"output must end in .csv, .json or .parquet, got {str(path)!r}", where="-o")
    check_output_file(p)
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        if suffix == ".csv":
            with tmp.open("w", newline="", encoding="utf-8") as fh:
                w = csv.DictWriter(fh, fieldnames=table.columns)
                w.writeheader()
                for row in table.rows:
                    w.writerow({c: _csv_value(row[c]) for c in table.columns})
        elif suffix == ".json":
            head = {
                "command": command,
                "columns": table.columns,
                "size_columns": table.size_columns,
                "metric_columns": table.metric_columns,
                "runs": table.runs,
            }
            lines = [f"{json.dumps(k)}: {json.dumps(v, allow_nan=False)}," for k, v in head.items()]
            rows = ",\n".join(json.dumps([row[c] for c in table.columns], allow_nan=False) for row in table.rows)
            tmp.write_text("{\n" + "\n".join(lines) + '\n"rows": [\n' + rows + "\n]}\n", encoding="utf-8")
        else:
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise InputError(
                    "writing Parquet needs pyarrow (pip install pyarrow); or write .csv", where="-o"
                ) from None
            data = {c: [row[c] for row in table.rows] for c in table.columns}
            pq.write_table(pa.table(data), tmp)
        os.replace(tmp, p)
    except OSError as exc:
        raise output_error(p, exc) from None
    finally:
        tmp.unlink(missing_ok=True)
    return p
