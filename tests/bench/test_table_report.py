"""The tidy table and the report, on the real `quick` suite (and a toy suite for failures and stale cells)."""

from __future__ import annotations

import base64
import csv
import json
import statistics
from html.parser import HTMLParser

import pytest

import coschedopt as cs
from coschedopt.bench import load_suite, result_table, run_suite, write_report, write_table
from coschedopt.bench.report import true_gap_rows
from coschedopt.core import InputError

from . import toy_family  # noqa: F401  (registers the test-only family "toy")
from .test_runner import FAILURES_SUITE

REQUIRED_COLUMNS = [
    "suite", "family", "instance", "n", "m", "k", "seed", "method", "status", "objective", "lower_bound",
    "best_known", "gap_to_best", "relative_cost", "packing_ratio", "relative_response_time", "runtime_s", "error",
]  # fmt: skip


@pytest.fixture(scope="module")
def quick_db(tmp_path_factory):
    """The bundled `quick` suite, run once for this module."""
    db = tmp_path_factory.mktemp("quick") / "results.sqlite"
    summary = run_suite("quick", db=db, workers=2, progress=False)
    assert summary.done == summary.planned == len(load_suite("quick").cells)
    return db


def test_export_has_one_tidy_row_per_cell_with_the_required_columns(quick_db, tmp_path):
    table = result_table(quick_db)
    assert len(table.rows) == len(load_suite("quick").cells)
    assert set(REQUIRED_COLUMNS) <= set(table.columns)
    assert table.size_columns == ["n", "m", "k"]
    assert {"relative_cost", "packing_ratio", "relative_response_time"} <= set(table.metric_columns)
    path = write_table(table, tmp_path / "results.csv")
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(table.rows) and list(rows[0]) == table.columns
    assert {r["suite"] for r in rows} == {"quick"}


def test_each_row_carries_its_methods_counters_as_stored(quick_db):
    """``stats`` is the method's ``Result.stats`` (JSON text): solving the cell's instance again gives the
    same counters for the deterministic methods."""
    table = result_table(quick_db)
    instances = {e.instance_id: e.instance for e in load_suite("quick").instances}
    stats = [json.loads(r["stats"]) for r in table.rows]
    assert all(isinstance(s, dict) for s in stats)
    checked = 0
    for r, s in zip(table.rows, stats, strict=True):
        if r["method"] in ("enumerate", "matching"):
            assert s and s == cs.solve(instances[r["instance_id"]], r["method"]).stats
            checked += 1
    assert checked >= len(instances)


def test_best_known_is_the_best_proven_optimum_and_heuristics_never_beat_it(quick_db):
    table = result_table(quick_db)
    optimum = {}
    for r in table.rows:
        if r["exact"] and r["status"] == "OPTIMAL":
            optimum[r["instance_id"]] = min(optimum.get(r["instance_id"], float("inf")), r["objective"])
    assert len(optimum) == len(load_suite("quick").instances)  # quick proves every optimum
    for r in table.rows:
        assert r["best_known_proven"] is True
        assert r["best_known"] == optimum[r["instance_id"]]
        assert r["objective"] >= r["best_known"] * (1 - 1e-9)
        assert r["gap_to_best"] == pytest.approx((r["objective"] - r["best_known"]) / r["best_known"])
        if r["exact"]:  # the exact methods agree with each other
            assert r["gap_to_best"] == pytest.approx(0, abs=1e-6)
            assert 0 < r["relative_cost"] <= 1 + 1e-9  # the optimum never loses to one task at a time on all p
        assert 0 < r["packing_ratio"] <= 1 + 1e-9


class StrictHTML(HTMLParser):
    """Fails on unbalanced tags; collects the <img> sources."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack, self.images, self.doctype, self.tags = [], [], False, set()

    def handle_decl(self, decl):
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def test_report_of_quick_has_its_figures_and_tables_and_is_valid_html(quick_db, tmp_path):
    paths = write_report(quick_db, tmp_path / "reports")
    page = paths["html"].read_text()
    parser = StrictHTML()
    parser.feed(page)
    parser.close()
    assert parser.doctype and not parser.stack
    assert {"html", "head", "title", "body", "table", "figure"} <= parser.tags
    assert len(parser.images) == 3  # relative cost, packing ratio, relative response time
    for src in parser.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    md = paths["markdown"].read_text()
    for metric in ("relative_cost", "packing_ratio", "relative_response_time"):
        png = tmp_path / "reports" / "figures" / f"quick-{metric}.png"
        assert png.read_bytes().startswith(b"\x89PNG") and f"(figures/quick-{metric}.png)" in md
    for heading in ("Headline", "Running times", "Gap to the optimum", "Failed cells", "Consistency checks"):
        assert heading in md and heading in page
    assert "Passed: no objective lies below a certified lower bound" in md
    for label in ("pack-approx", "pack-by-pack-9", "random-proc-1", "branch-and-price", "ilp-cbc"):
        assert f"| {label} |" in md
    assert "| method \\ k | 2 | 4 | 6 | 8 | 10 |" in md  # Workload-I gap table, one column per k

    # the headline is computed from the table: recompute the Workload-I best heuristic independently
    rows = [r for r in result_table(quick_db).rows if r["group"] == "Workload-I" and not r["exact"]]
    gaps = {}
    for r in rows:
        gaps.setdefault(r["method_label"], []).append(r["gap_to_best"])
    best = min(gaps, key=lambda m: statistics.fmean(gaps[m]))
    line = next(x for x in md.splitlines() if x.startswith("| Workload-I | 5 | 5/5 | 5/5 |"))
    assert f"| {best} | {100 * statistics.fmean(gaps[best]):.2f}% / {100 * max(gaps[best]):.2f}% |" in line


def test_report_lists_failed_cells_with_their_messages(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(FAILURES_SUITE), db=db, workers=2, progress=False)
    md = write_report(db, tmp_path / "out")["markdown"].read_text()
    failed = md.split("### Failed cells", 1)[1].split("###", 1)[0]
    assert "RuntimeError: boom on purpose" in failed
    assert "worker process died (exit code 7)" in failed
    assert "killed by the harness" in failed
    # only the killed cell is a failure among the TIME_LIMIT ones; the two that
    # stopped with a schedule and a bound are finished cells, listed apart with their gaps
    assert failed.count("| TIME_LIMIT |") == 1 and failed.count("| ERROR |") == 5
    limited = md.split("### Time-limited cells", 1)[1].split("###", 1)[0]
    assert limited.count("| toy-limited |") == 2 and "toy-stubborn" not in limited
    optimum = min(r["objective"] for r in result_table(db).rows if r["method"] == "toy-exact")
    own_gap = (629 - 312.5) / 629
    assert f"| 629 | 312.5 | {100 * own_gap:.2f}% | {100 * (629 - optimum) / optimum:.2f}% |" in limited


PROBE_SUITE = """
[suite]
name = "probed"
family = "toy"
plugins = ["tests.bench.toy_family"]

[[instances]]
generator = "toy-gen"
grid = { size = [3, 5] }

[[methods]]
name = "toy-exact"
[[methods]]
name = "toy-identity"
[[methods]]
name = "toy-probe"
"""


@pytest.mark.parametrize("solved", [True, False])
def test_a_probes_figures_are_its_stats_and_objectives_are_about_the_other_methods(write_suite, tmp_path, solved):
    text = PROBE_SUITE if solved else PROBE_SUITE.split("[[methods]]", 1)[0] + '[[methods]]\nname = "toy-probe"\n'
    db = tmp_path / "p.sqlite"
    run_suite(write_suite(text), db=db, workers=1, progress=False)
    md = write_report(db, tmp_path / "out")["markdown"].read_text()
    probes = md.split("### Probe figures", 1)[1].split("###", 1)[0]
    assert "| half_size | size_counted |" in probes
    assert "| 1.5 | 3 |" in probes and "| 2.5 | 5 |" in probes
    assert "and 1 probe(s)" in md
    assert ("### Headline" in md) is solved  # a suite of probes alone has no objective to summarise
    if solved:
        headline = md.split("### Headline", 1)[1].split("###", 1)[0]
        assert "toy-probe" not in headline


def test_a_report_on_a_partial_store_says_how_many_planned_cells_are_missing_per_group(write_suite, tmp_path):
    # a report once said "35 cells ... Failed cells: None" while 909 of 944 planned cells were missing
    from coschedopt.bench.store import ResultStore

    small = FAILURES_SUITE.split("[[methods]]")[0] + '[[methods]]\nname = "toy-exact"\n'
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(small, name="failures"), db=db, workers=1, progress=False)
    grown = small.replace(
        "grid = { k = [1, 2] }",
        "grid = { k = [1, 2] }\n[[instances]]\ngroup = 'h'\n"
        "generator = 'toy-gen'\nparams = { size = 4 }\ngrid = { k = [1, 2, 3] }",
    )
    grown += '[[methods]]\nname = "toy-identity"\n'
    with ResultStore(db) as store:  # the suite grew; its new cells are planned but not run (as after a kill)
        store.save_plan(load_suite(write_suite(grown, name="failures")))
    md = write_report(db, tmp_path / "out")["markdown"].read_text()
    head = md.split("### Headline", 1)[0]
    assert "**Partial results: 8 of 10 planned cells are missing**" in head
    assert "**Missing cells: 8 of 10 planned cells have no result** (g: 2 of 4; h: 6 of 6)" in head
    assert "coschedopt bench run failures" in head


def test_export_keeps_the_current_plan_unless_all(write_suite, tmp_path):
    text = FAILURES_SUITE.replace('[[methods]]\nname = "toy-stubborn"\nwhen = { k = 1 }\n', "").replace(
        '[[methods]]\nname = "toy-crash"\nwhen = { k = 2 }\n', ""
    )
    path = write_suite(text)
    db = tmp_path / "r.sqlite"
    run_suite(path, db=db, workers=1, progress=False)
    assert len(result_table(db).rows) == 10
    path.write_text(text.replace('[[methods]]\nname = "toy-boom"\n', ""))  # the suite drops a method
    run_suite(path, db=db, workers=1, progress=False)
    assert len(result_table(db).rows) == 8 and "toy-boom" not in {r["method"] for r in result_table(db).rows}
    assert len(result_table(db, planned_only=False).rows) == 10


def test_parquet_export_or_a_clear_message(quick_db, tmp_path):
    table = result_table(quick_db)
    try:
        import pyarrow.parquet as pq
    except ImportError:
        with pytest.raises(InputError, match="pyarrow"):
            write_table(table, tmp_path / "r.parquet")
        assert not (tmp_path / "r.parquet").exists()
    else:
        back = pq.read_table(write_table(table, tmp_path / "r.parquet"))
        assert back.num_rows == len(table.rows) and back.column_names == table.columns
    with pytest.raises(InputError, match=r"\.csv, \.json or \.parquet"):
        write_table(table, tmp_path / "r.xlsx")


def test_gap_table_takes_the_true_gap_where_the_optimum_is_proven_and_the_bound_elsewhere():
    def row(instance, label, objective, proven, exact=False):
        return {
            "group": "g",
            "n": 200,
            "instance": instance,
            "method_label": label,
            "objective": objective,
            "status": "OPTIMAL" if exact else "FEASIBLE",
            "exact": exact,
            "best_known_proven": proven,
            "gap_to_best": objective / 100.0 - 1,
            "gap_to_bound": objective / 99.0 - 1,
        }

    rows = [row("a", "colgen", 100.0, True, exact=True), row("a", "heft", 102.0, True), row("b", "heft", 104.0, True)]
    rows += [row("c", "heft", 109.89, False)]
    rows += [row("a", "srpt", 97.0, True), row("b", "srpt", 100.0 - 1e-12, True)]  # a preemptive reference; a rounding
    headers, body = true_gap_rows(rows)
    assert headers[3:6] == ["optimum proven", "mean gap", "max gap"]
    assert body == [  # colgen is the reference, not a row
        ["g", "200", "heft", "2/3", "3.00 %", "4.00 %", "11.00 %"],
        ["g", "200", "srpt", "2/2", "-1.50 %", "0.00 %", "–"],
    ]
