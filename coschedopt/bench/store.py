"""The result store: one SQLite file (WAL mode), one row per finished cell.

Only the process that runs the suite writes; it commits each cell the moment
its result arrives, in its own transaction, so a run killed at any moment (even
with SIGKILL) loses only the cells in flight, and the file stays consistent
(SQLite's write-ahead log is atomic against process death).

Schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`)::

    runs       one row per `bench run`: provenance and counters
    instances  one row per distinct instance (id = hash of its JSON, or of its recipe), with its data
    plan       the cells of each suite's latest expansion (suite, cell_key)
    cells      one row per finished cell (primary key cell_key)
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core import InputError
from .suite import Cell, InstanceEntry, Suite

#: 2: the plan records each cell's group and method label (missing cells per group);
#: 3: each cell records its method's call number in its worker (``method_call``, running-time tables);
#: 4: each run records the CPU model and the calibration measured at its start, each cell its CPU seconds
#: and its worker's peak resident memory
SCHEMA_VERSION = 4

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id          INTEGER PRIMARY KEY AUTOINCREMENT,
    suite           TEXT NOT NULL,     -- suite name
    suite_path      TEXT NOT NULL,     -- file the suite was read from
    suite_sha256    TEXT NOT NULL,     -- hash of the suite file's text
    suite_config    TEXT NOT NULL,     -- the parsed suite (JSON), [report] section included
    command         TEXT,              -- command line
    executor        TEXT NOT NULL,     -- 'processes:N', 'dask:ADDRESS' or 'dask-local:N'
    started_at      TEXT NOT NULL,     -- ISO 8601, UTC
    ended_at        TEXT,              -- NULL while running, or if the run was killed
    status          TEXT NOT NULL,     -- 'running', 'finished', 'interrupted'
    host            TEXT,
    platform        TEXT,
    python          TEXT,
    package_version TEXT,              -- coschedopt version
    git_commit      TEXT,              -- commit of the source tree, '+dirty' if modified; NULL if not a checkout
    versions        TEXT,              -- JSON {distribution: version} of the solvers and libraries
    cpu_model       TEXT,              -- the processor's model name (NULL in stores before schema 4)
    calibration     TEXT,              -- JSON {python_s, numpy_s}: fixed work timed at the run's start (provenance.calibration)
    cells_planned   INTEGER,
    cells_skipped   INTEGER,           -- already in the store when the run started
    cells_done      INTEGER,           -- finished by this run
    cells_failed    INTEGER            -- of which failed: ERROR (raised, crashed) or killed (TIME_LIMIT without result)
);
CREATE TABLE IF NOT EXISTS instances (
    instance_id TEXT PRIMARY KEY,      -- first 16 hex digits of sha256(canonical JSON of the instance)
    family      TEXT NOT NULL,
    name        TEXT,
    size        TEXT NOT NULL,         -- JSON of the family's describe(), e.g. {"n": 10, "p": 16, "k": 4}
    data        TEXT NOT NULL          -- the instance's JSON, or the recipe of a build = "worker" instance:
                                       -- {"generator", "params", "seed"}, its id the recipe's (load either with
                                       -- coschedopt.bench.suite.instance_from_data)
);
CREATE TABLE IF NOT EXISTS plan (
    suite          TEXT NOT NULL,
    cell_key       TEXT NOT NULL,
    instance_group TEXT,               -- the cell's [[instances]] group (NULL in stores of schema 1)
    method_label   TEXT,               -- the cell's method label (NULL in stores of schema 1)
    PRIMARY KEY (suite, cell_key)
);
CREATE TABLE IF NOT EXISTS cells (
    cell_key      TEXT PRIMARY KEY,    -- hash of (suite, family, group, instance_id, method, seed, options, time_limit)
    suite         TEXT NOT NULL,
    family        TEXT NOT NULL,
    instance_group TEXT NOT NULL,      -- the [[instances]] group, e.g. 'Workload-II'
    instance_id   TEXT NOT NULL REFERENCES instances(instance_id),
    instance_name TEXT,
    instance_seed INTEGER,             -- seed given to the generator (NULL for instance files)
    source        TEXT,                -- JSON: generator, params and seed, or file
    method        TEXT NOT NULL,       -- registered method name
    method_label  TEXT NOT NULL,       -- name in tables and figures
    exact         INTEGER NOT NULL,    -- 1 if the method is registered as exact
    seed          INTEGER NOT NULL,    -- seed given to the method
    options       TEXT NOT NULL,       -- JSON of the method's options
    time_limit    REAL,                -- seconds, NULL = none
    status        TEXT NOT NULL,       -- OPTIMAL, FEASIBLE, INFEASIBLE, TIME_LIMIT, ERROR
    objective     REAL,                -- recomputed from the schedule by coschedopt.solve
    lower_bound   REAL,                -- certified bound (the objective when OPTIMAL)
    runtime_s     REAL,                -- wall-clock seconds of solve()
    cpu_s         REAL,                -- CPU seconds of the worker process (all threads) during the cell
    peak_rss_mb   REAL,                -- the worker process's peak resident memory so far (MiB; a reused worker's
                                       -- peak covers its earlier cells too, unless the suite says fresh_process)
    error         TEXT,                -- message of an ERROR (or of a killed cell)
    traceback     TEXT,
    metrics       TEXT NOT NULL,       -- JSON of the family's metrics(instance, schedule)
    stats         TEXT NOT NULL,       -- JSON of the method's counters
    schedule      TEXT,                -- JSON of the schedule (NULL if none)
    worker        TEXT,                -- host:pid that ran the cell
    method_call   INTEGER,             -- 1 if the cell was its worker's first of this method (paying its imports),
                                       -- 2 the next...; NULL if recorded by the harness or in a schema-2 store
    finished_at   TEXT NOT NULL,       -- ISO 8601, UTC
    run_id        INTEGER NOT NULL REFERENCES runs(run_id)
);
CREATE INDEX IF NOT EXISTS cells_by_suite ON cells (suite);
CREATE INDEX IF NOT EXISTS cells_by_instance ON cells (instance_id);
"""


class ResultStore:
    """A SQLite result store (WAL mode); open one per process, write from one process."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise InputError("no such result store (run `coschedopt bench run SUITE --db ...` first)", where=str(path))
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.conn.row_factory = sqlite3.Row
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")  # durable against process death, fast
            self.conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            raise InputError(f"not a result store: {exc}", where=str(path)) from None
        if version > SCHEMA_VERSION:
            raise InputError(
                f"store schema version {version} is newer than this coschedopt ({SCHEMA_VERSION})", where=str(path)
            )
        self.conn.executescript("BEGIN IMMEDIATE;" + SCHEMA + "COMMIT;")
        self._upgrade()
        self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _upgrade(self) -> None:
        """Schema 1 -> 2: the plan's group and method label columns (NULL for the cells planned before);
        2 -> 3: the cells' ``method_call``; 3 -> 4: the runs' CPU model and calibration, the cells' CPU
        seconds and peak memory (NULL for what was stored before)."""
        columns = {r[1] for r in self.conn.execute("PRAGMA table_info(plan)")}
        cell_columns = {r[1] for r in self.conn.execute("PRAGMA table_info(cells)")}
        run_columns = {r[1] for r in self.conn.execute("PRAGMA table_info(runs)")}
        with self.transaction():
            for col in ("cpu_model", "calibration"):
                if col not in run_columns:
                    self.conn.execute(f"ALTER TABLE runs ADD COLUMN {col} TEXT")
            for col in ("cpu_s", "peak_rss_mb"):
                if col not in cell_columns:
                    self.conn.execute(f"ALTER TABLE cells ADD COLUMN {col} REAL")
            for col in ("instance_group", "method_label"):
                if col not in columns:
                    self.conn.execute(f"ALTER TABLE plan ADD COLUMN {col} TEXT")
            if "method_call" not in cell_columns:
                self.conn.execute("ALTER TABLE cells ADD COLUMN method_call INTEGER")

    # -- plumbing

    def transaction(self) -> _Transaction:
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs

    def start_run(self, suite: Suite, provenance: dict[str, Any], executor: str, command: str) -> int:
        with self.transaction():
            cur = self.conn.execute(
                """INSERT INTO runs (suite, suite_path, suite_sha256, suite_config, command, executor, started_at,
                   status, host, platform, python, package_version, git_commit, versions, cpu_model, calibration)
                   VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    suite.name,
                    str(suite.path),
                    suite.sha256,
                    json.dumps(suite.config, default=str),
                    command,
                    executor,
                    provenance["started_at"],
                    provenance.get("host"),
                    provenance.get("platform"),
                    provenance.get("python"),
                    provenance.get("package_version"),
                    provenance.get("git_commit"),
                    json.dumps(provenance.get("versions", {})),
                    provenance.get("cpu_model"),
                    None if provenance.get("calibration") is None else json.dumps(provenance["calibration"]),
                ),
            )
            return int(cur.lastrowid)

    def update_run(self, run_id: int, **fields: Any) -> None:
        cols = ", ".join(f"{k} = ?" for k in fields)
        with self.transaction():
            self.conn.execute(f"UPDATE runs SET {cols} WHERE run_id = ?", (*fields.values(), run_id))

    def runs(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM runs ORDER BY run_id")]

    # -- plan and instances

    def save_plan(self, suite: Suite) -> None:
        """Store the suite's instances and replace its plan by the current expansion (one transaction)."""
        with self.transaction():
            self.conn.executemany(
                "INSERT OR IGNORE INTO instances (instance_id, family, name, size, data) VALUES (?, ?, ?, ?, ?)",
                [_instance_row(suite.family, e) for e in suite.instances],
            )
            self.conn.execute("DELETE FROM plan WHERE suite = ?", (suite.name,))
            self.conn.executemany(
                "INSERT OR IGNORE INTO plan (suite, cell_key, instance_group, method_label) VALUES (?, ?, ?, ?)",
                [(suite.name, c.key, c.group, c.label) for c in suite.cells],
            )

    def finished_keys(self, keys: Iterable[str]) -> set[str]:
        """Which of ``keys`` already have a row in ``cells``."""
        keys = list(keys)
        done: set[str] = set()
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            q = f"SELECT cell_key FROM cells WHERE cell_key IN ({','.join('?' * len(chunk))})"
            done.update(r[0] for r in self.conn.execute(q, chunk))
        return done

    def cell_statuses(self, keys: Iterable[str]) -> dict[str, str]:
        """The stored status of each of ``keys`` that has a row in ``cells``."""
        keys = list(keys)
        out: dict[str, str] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i : i + 500]
            q = f"SELECT cell_key, status FROM cells WHERE cell_key IN ({','.join('?' * len(chunk))})"
            out.update((r[0], r[1]) for r in self.conn.execute(q, chunk))
        return out

    # -- cells

    def record_cell(self, cell: Cell, source: dict[str, Any], record: dict[str, Any], run_id: int) -> None:
        """Write one finished cell (replacing an older result of the same cell), committed at once."""
        with self.transaction():
            self.conn.execute(
                """INSERT OR REPLACE INTO cells (cell_key, suite, family, instance_group, instance_id, instance_name,
                   instance_seed, source, method, method_label, exact, seed, options, time_limit, status, objective,
                   lower_bound, runtime_s, cpu_s, peak_rss_mb, error, traceback, metrics, stats, schedule, worker,
                   method_call, finished_at, run_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    cell.key,
                    cell.suite,
                    cell.family,
                    cell.group,
                    cell.instance_id,
                    cell.instance_name,
                    cell.instance_seed,
                    json.dumps(source, sort_keys=True, default=str),
                    cell.method,
                    cell.label,
                    int(cell.exact),
                    cell.seed,
                    json.dumps(cell.options, sort_keys=True),
                    cell.time_limit,
                    record["status"],
                    record.get("objective"),
                    record.get("lower_bound"),
                    record.get("runtime_s"),
                    record.get("cpu_s"),
                    record.get("peak_rss_mb"),
                    record.get("error"),
                    record.get("traceback") or None,
                    json.dumps(record.get("metrics") or {}, allow_nan=False),
                    json.dumps(record.get("stats") or {}, allow_nan=False),
                    None if record.get("schedule") is None else json.dumps(record["schedule"], allow_nan=False),
                    record.get("worker"),
                    record.get("method_call"),
                    record["finished_at"],
                    run_id,
                ),
            )

    def cell_rows(self, *, suite: str | None = None, planned_only: bool = True) -> list[dict[str, Any]]:
        """Finished cells joined with their instance's size (``planned_only``: the suites' current plans),
        with the order they were stored in (``stored_order``), without their schedules (the table never reads them, and a whole-trace schedule weighs megabytes)."""
        columns = [r[1] for r in self.conn.execute("PRAGMA table_info(cells)") if r[1] != "schedule"]
        q = (
            f"SELECT {', '.join('c.' + c for c in columns)}, c.rowid AS stored_order, i.size AS size "
            "FROM cells c JOIN instances i USING (instance_id)"
        )
        if planned_only:
            q += " JOIN plan p ON p.suite = c.suite AND p.cell_key = c.cell_key"
        args: tuple = ()
        if suite is not None:
            q += " WHERE c.suite = ?"
            args = (suite,)
        q += " ORDER BY c.suite, c.instance_group, c.instance_id, c.method_label, c.seed"
        return [dict(r) for r in self.conn.execute(q, args)]

    def plan_progress(self, suite: str) -> list[dict[str, Any]]:
        """Per (group, method label) of the suite's current plan: cells ``planned`` and ``finished``."""
        q = """SELECT p.instance_group AS "group", p.method_label AS label, COUNT(*) AS planned,
                      COUNT(c.cell_key) AS finished
               FROM plan p LEFT JOIN cells c ON c.cell_key = p.cell_key
               WHERE p.suite = ? GROUP BY p.instance_group, p.method_label"""
        return [dict(r) for r in self.conn.execute(q, (suite,))]

    def suites(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT suite FROM plan ORDER BY suite")]

    def latest_suite_config(self, suite: str) -> dict[str, Any]:
        row = self.conn.execute(
            "SELECT suite_config FROM runs WHERE suite = ? ORDER BY run_id DESC LIMIT 1", (suite,)
        ).fetchone()
        return json.loads(row[0]) if row else {}


def _instance_row(family: str, e: InstanceEntry) -> tuple:
    return (
        e.instance_id,
        family,
        e.name,
        json.dumps(e.size),  # describe() order: n, p, k
        json.dumps(e.data, sort_keys=True, allow_nan=False),
    )


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
