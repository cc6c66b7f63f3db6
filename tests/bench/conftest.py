"""Shared helpers of the bench tests: suite files in a temporary folder, store queries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def write_suite(tmp_path):
    """``write_suite(text, name="s")`` writes ``tmp_path/<name>.toml`` and returns its path."""

    def write(text: str, name: str = "s") -> Path:
        p = tmp_path / f"{name}.toml"
        p.write_text(text, encoding="utf-8")
        return p

    return write


def query(db: Path, sql: str, *args) -> list[tuple]:
    """Read-only query on a result store (a separate connection, as another process would)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def objectives(db: Path) -> dict[tuple, float | None]:
    """{(instance, method, seed, options): objective} of every stored cell."""
    rows = query(db, "SELECT instance_id, method_label, seed, options, objective FROM cells")
    return {r[:4]: r[4] for r in rows}
