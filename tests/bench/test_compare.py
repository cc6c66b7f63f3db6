"""``bench compare``: two runs of one suite agree cell by cell; a changed answer or schedule is named."""

from __future__ import annotations

import json
import sqlite3

from coschedopt.bench import run_suite
from coschedopt.bench.command import main
from coschedopt.bench.compare import compare_stores

from . import toy_family  # noqa: F401  (registers the test-only family "toy")

SUITE = """
[suite]
name = "same"
family = "toy"
plugins = ["tests.bench.toy_family"]

[[instances]]
group = "g"
generator = "toy-gen"
params = { size = 4 }
grid = { k = [1, 2] }

[[methods]]
name = "toy-exact"
[[methods]]
name = "toy-identity"
"""


def _two_runs(write_suite, tmp_path):
    path = write_suite(SUITE)
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    run_suite(path, db=a, workers=1, progress=False)
    run_suite(path, db=b, workers=1, progress=False)
    return a, b


def _edit(db, sql, *args):
    con = sqlite3.connect(db)
    with con:
        con.execute(sql, args)
    con.close()


def test_two_runs_of_a_suite_agree_and_a_changed_cell_is_named(write_suite, tmp_path, capsys):
    a, b = _two_runs(write_suite, tmp_path)
    same = compare_stores(a, b)
    assert (same.shared, same.equal, same.only_a, same.only_b) == (4, 4, 0, 0)
    assert same.schedules_compared == 4
    assert main(["compare", str(a), str(b)]) == 0
    assert "4 agree, 0 differ" in capsys.readouterr().out

    key, schedule = (
        sqlite3.connect(b)
        .execute("SELECT cell_key, schedule FROM cells WHERE method_label = 'toy-identity' ORDER BY cell_key LIMIT 1")
        .fetchone()
    )
    reversed_order = {"order": list(reversed(json.loads(schedule)["order"]))}
    _edit(b, "UPDATE cells SET schedule = ? WHERE cell_key = ?", json.dumps(reversed_order), key)
    _edit(b, "UPDATE cells SET objective = objective + 1 WHERE method_label = 'toy-exact'")
    result = compare_stores(a, b)
    assert sorted(what.split()[0] for *_, what in result.differ) == ["objective", "objective", "schedule"]
    assert main(["compare", str(a), str(b)]) == 1
    assert "toy-exact" in capsys.readouterr().out


def test_numbers_within_the_tolerance_agree_and_nothing_shared_fails(write_suite, tmp_path, capsys):
    a, b = _two_runs(write_suite, tmp_path)
    _edit(b, "UPDATE cells SET objective = objective * (1 + 1e-15) WHERE method_label = 'toy-exact'")
    assert not compare_stores(a, b).differ
    assert len(compare_stores(a, b, rel_tol=0.0).differ) == 2  # the toy optima are sums of positive values
    _edit(b, "DELETE FROM cells")
    assert main(["compare", str(a), str(b)]) == 1
    assert "0 cells in both" in capsys.readouterr().out
    assert main(["compare", str(a), str(tmp_path / "missing.sqlite")]) == 2
