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


def test_write_json_keeps_the_mode_of_the_file_it_replaces_and_else_follows_the_umask(tmp_path):
    # mkstemp's 0600 must not leak into the user's files
    import os
    import stat

    f = tmp_path / "kept.json"
    f.write_text("{}")
    f.chmod(0o644)
    write_json(f, {"a": 1})
    assert stat.S_IMODE(f.stat().st_mode) == 0o644
    f.chmod(0o640)
    write_json(f, {"a": 2})
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    old = os.umask(0o022)
    try:
        write_json(tmp_path / "new.json", {})
        os.umask(0o077)
        write_json(tmp_path / "private.json", {})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "private.json").stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("outdir", "outdir: is a directory; give a file name inside it"),
        ("small.json/sol.json", "small.json is a file, not a directory"),
    ],
)
def test_write_json_names_the_path_and_the_problem(tmp_path, target, message):
    # one InputError, not IsADirectoryError / FileExistsError
    from coschedopt.core import InputError

    (tmp_path / "outdir").mkdir()
    (tmp_path / "small.json").write_text("{}")
    with pytest.raises(InputError, match=message):
        write_json(tmp_path / target, {"a": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["outdir", "small.json"]  # no temporary file left
