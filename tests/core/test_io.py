"""core/io.py: JSON files, atomic writing."""

from __future__ import annotations

import json

import pytest

from coschedopt.core import write_json


def test_write_json_is_atomic(tmp_path):
    f = tmp_path / "out.json"
    write_json(f, {"a": 1})
    with pytest.raises(ValueError):
        write_json(f, {"a": float("nan")})  # refused before replacing the old file
    assert json.loads(f.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
