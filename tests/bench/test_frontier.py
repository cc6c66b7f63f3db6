"""The ladder of a suite and the frontier of exact methods; the calibration of records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coschedopt.bench import load_suite, run_suite
from coschedopt.bench.frontier import frontier_markdown, frontier_rows, ladder_closed, median_proven
from coschedopt.bench.provenance import calibration, start_record
from coschedopt.bench.report import write_report
from coschedopt.bench.table import read_table, result_table, write_table
from coschedopt.core import InputError

from . import toy_family  # noqa: F401  (registers the test-only family "toy")
from .conftest import query

LADDER = """
[suite]
name = "ladder"
family = "toy"
ladder = "n"
plugins = ["tests.bench.toy_family"]

[[instances]]
group = "g"
generator = "toy-gen"
grid = { size = [2, 3, 4, 5, 6] }

[[methods]]
name = "toy-upto"
label = "upto-3"
options = { limit = 3 }
seeds = [0, 1, 2, 3, 4]

[[methods]]
name = "toy-upto"
label = "upto-4-on-3-seeds"
options = { limit = 3, lucky = 3 }
seeds = [0, 1, 2, 3, 4]

[[methods]]
name = "toy-upto"
label = "upto-everything"
options = { limit = 99 }
seeds = [0, 1, 2, 3, 4]
"""


def test_median_proven_needs_more_than_half():
    assert median_proven(3, 5) and not median_proven(2, 5)
    assert median_proven(1, 1) and not median_proven(0, 1) and not median_proven(2, 4)


def test_a_ladder_stops_each_method_at_its_first_unproven_size_and_leaves_out_the_rest(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    summary = run_suite(write_suite(LADDER), db=db, workers=1, progress=False)
    run = dict(query(db, "SELECT method_label, COUNT(*) FROM cells GROUP BY method_label"))
    # upto-3: sizes 2 and 3 (10 cells), then three failures at 4 lose its median: 2 cells and size 5 and 6 not run
    assert run["upto-3"] == 13
    # upto-4-on-3-seeds: sizes 2-3, size 4 proven on seeds 0-2 (the median), size 5 lost after 3 failures
    assert run["upto-4-on-3-seeds"] == 18
    assert run["upto-everything"] == 25
    assert summary.done == 13 + 18 + 25 and summary.failed == 0
    again = run_suite(write_suite(LADDER), db=db, workers=1, progress=False)
    assert again.done == 0  # a resumed run stops where the first one did

    table = result_table(db)
    front = {r["method"]: r for r in frontier_rows(table.rows, {"ladder": "n"})}
    assert (front["upto-3"]["largest"], front["upto-3"]["first_unproven"]) == (3, 4)
    assert front["upto-3"]["first_unproven_proven"] == "0/5"
    assert front["upto-3"]["first_unproven_gap"] == pytest.approx(1.0)  # objective >= optimum = 2 x bound
    assert (front["upto-4-on-3-seeds"]["largest"], front["upto-4-on-3-seeds"]["first_unproven"]) == (4, 5)
    assert front["upto-everything"]["largest"] == 6 and front["upto-everything"]["first_unproven"] is None
    text = frontier_markdown(list(front.values()))
    assert "| toy | g | upto-3 | n = 3 |" in text and "| n = 4 | 0/5 | 100.00 % |" in text
    assert "| toy | g | upto-everything | n = 6 |" in text and "| beyond n = 6 |" in text

    report = (Path(write_report(db, tmp_path / "rep")["markdown"])).read_text(encoding="utf-8")
    assert "### Frontier" in report and "| toy | g | upto-3 | n = 3 |" in report
    assert "calibration" in report


def test_a_size_the_method_declines_reads_refused():
    rows = [
        {
            "suite": "s",
            "group": "g",
            "family": "f",
            "method_label": "m",
            "exact": True,
            "n": n,
            "instance_seed": i,
            "seed": 0,
            "status": status,
            "runtime_s": 1.0,
            "time_limit": 60,
            "gap": None,
            "error": error,
        }
        for n, status, error in ((10, "OPTIMAL", None), (99, "ERROR", "MethodRefused: at most 60 tasks"))
        for i in range(3)
    ]
    (row,) = frontier_rows(rows, {"s": "n"})
    assert (row["largest"], row["first_unproven"], row["first_unproven_proven"]) == (10, 99, "refused")
    rows[-1]["error"] = "RuntimeError: boom"
    assert frontier_rows(rows, {"s": "n"})[0]["first_unproven_proven"] == "0/3"


def test_ladder_closed_counts_unfinished_cells_as_possibly_proven_only_between_waves(write_suite):
    s = load_suite(write_suite(LADDER))
    cells = [c for c in s.cells if c.label == "upto-3"]
    sizes = {e.instance_id: e.size["n"] for e in s.instances}

    def rung(c):
        return sizes[c.instance_id]

    at_4 = [c for c in cells if rung(c) == 4]
    two_failed = {c.key: "TIME_LIMIT" for c in at_4[:2]}
    assert ladder_closed(at_4, two_failed, rung, decided_only=True) == set()
    assert ladder_closed(at_4, two_failed, rung) == {("g", "upto-3")}
    three_failed = {c.key: "TIME_LIMIT" for c in at_4[:3]}
    assert ladder_closed(at_4, three_failed, rung, decided_only=True) == {("g", "upto-3")}


def test_a_ladder_key_must_be_a_numeric_size(write_suite):
    with pytest.raises(InputError, match=r"suite\.ladder.*'width' is not a numeric size key.*known: n, k"):
        load_suite(write_suite(LADDER.replace('ladder = "n"', 'ladder = "width"')))


def test_runs_and_cells_carry_calibration_cpu_and_memory_and_the_json_export_keeps_them(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(LADDER), db=db, workers=1, progress=False)
    (cpu_model, cal), *_ = query(db, "SELECT cpu_model, calibration FROM runs")
    cal = json.loads(cal)
    assert cal["python_s"] > 0 and cal["numpy_s"] > 0 and "load_average" in cal
    cpu, rss = query(db, "SELECT MIN(cpu_s), MIN(peak_rss_mb) FROM cells")[0]
    assert cpu >= 0 and rss > 10  # a Python process holds more than 10 MiB
    table = result_table(db)
    back = read_table(write_table(table, tmp_path / "t.json"))
    assert back.columns == table.columns and back.rows == table.rows
    assert back.runs[0]["calibration"] == cal and back.runs[0]["cpu_model"] == cpu_model
    assert {r["gap"] for r in back.rows if r["status"] == "OPTIMAL"} == {0.0}
    small = table.select(["method_label", "status", "cpu_s"])
    assert small.columns == ["method_label", "status", "cpu_s"] and len(small.rows) == len(table.rows)
    assert read_table(write_table(small, tmp_path / "s.json", command="x")).rows == small.rows
    assert json.loads((tmp_path / "s.json").read_text())["command"] == "x"
    with pytest.raises(InputError, match="no column 'nope'"):
        table.select(["status", "nope"])


def test_a_benchmark_record_starts_with_a_calibration():
    cal = start_record(["x"])["calibration"]
    assert set(cal) >= {"python_s", "numpy_s", "cpu_model", "load_average"}
    assert calibration(repeats=1)["python_s"] > 0


def test_an_infinite_option_gives_cells_of_their_own():
    s = load_suite("frontier-evolving")
    by_label = {c.label: c for c in s.cells if c.instance_id == s.cells[0].instance_id}
    assert by_label["cpsat l=inf"].options == {"stretch_limit": float("inf")}
    assert len({c.key for c in s.cells}) == len(s.cells)


def test_a_run_records_the_versions_of_the_plugins_whose_methods_ran(write_suite, tmp_path):
    import importlib.metadata

    text = """
[suite]
family = "pack"

[[instances]]
generator = "random"
params = { tasks = 4, processors = 4, max_pack_size = 2 }

[[methods]]
name = "pairs-first"
"""
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(text), db=db, workers=1, progress=False)
    versions = json.loads(query(db, "SELECT versions FROM runs")[0][0])
    assert versions["coschedopt-user-example"] == importlib.metadata.version("coschedopt-user-example")
    report = Path(write_report(db, tmp_path / "rep")["markdown"]).read_text(encoding="utf-8")
    assert "coschedopt-user-example " + versions["coschedopt-user-example"] in report
    db2 = tmp_path / "toy.sqlite"
    run_suite(write_suite(LADDER, name="toy"), db=db2, workers=1, progress=False)
    assert json.loads(query(db2, "SELECT versions FROM runs")[0][0])["tests"] is None  # a local module
