"""``coschedopt bench suites | show``: the bundled suites listed, one printed as a template that runs as a
file, and the suite file format's reference, shipped with the package and naming every key the parser takes."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest

from coschedopt.bench import suite as suite_module
from coschedopt.bench.suite import bundled_suite_files, load_suite
from coschedopt.bench.templates import FORMAT_REFERENCE
from coschedopt.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_suites_lists_every_bundled_suite_with_its_family(capsys):
    assert main(["bench", "suites"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:] if line and not line.startswith(" ")}
    for name, path in bundled_suite_files().items():
        assert lines.get(name) == tomllib.loads(path.read_text())["suite"]["family"], name
    assert "coschedopt bench show NAME" in out and "coschedopt bench show --format" in out


def test_show_prints_a_template_that_runs_as_a_file_of_its_own(tmp_path, capsys):
    assert main(["bench", "show", "quick"]) == 0
    text = capsys.readouterr().out
    shipped = bundled_suite_files()["quick"].read_text()
    assert text.endswith(shipped) and tomllib.loads(text) == tomllib.loads(shipped)
    mine = tmp_path / "my-suite.toml"
    mine.write_text(text.replace('name = "quick"', 'name = "my-suite"'))
    suite = load_suite(mine)
    assert suite.name == "my-suite" and suite.family == "pack" and suite.cells


def test_the_format_reference_names_every_key_the_parser_takes(capsys):
    assert main(["bench", "show", "--format"]) == 0
    reference = capsys.readouterr().out
    assert reference == FORMAT_REFERENCE.read_text()
    for table, keys in {
        "[suite]": suite_module._SUITE_KEYS,
        "[[instances]]": suite_module._INSTANCE_KEYS,
        "[[methods]]": suite_module._METHOD_KEYS,
        "[report]": suite_module._REPORT_KEYS,
    }.items():
        section = reference.split(f"## `{table}`", 1)[1].split("\n## ", 1)[0]
        missing = [k for k in sorted(keys) if f"| `{k}` |" not in section]
        assert missing == [], (table, missing)


def test_the_format_reference_ships_in_the_wheel():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["coschedopt"]
    relative = FORMAT_REFERENCE.relative_to(ROOT / "coschedopt").as_posix()
    assert any(fnmatch.fnmatch(relative, pattern) for pattern in data)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "show"], "name a bundled suite (coschedopt bench suites), or give --format"),
        (["bench", "show", "quick", "--format"], "name a bundled suite (coschedopt bench suites), or give --format"),
        (["bench", "show", "nope"], "no bundled suite 'nope'; bundled suites: "),
    ],
)
def test_show_without_one_thing_to_show_is_one_line(capsys, argv, message):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and len(err.strip().splitlines()) == 1
