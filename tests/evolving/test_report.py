"""The paper-evolving suite and the family's report section, end to end through the benchmark harness."""

from __future__ import annotations

from coschedopt.bench import load_suite
from coschedopt.cli import main

SUITE = """
[suite]
name = "evolving-mini"
family = "evolving"
time_limit = 10

[[instances]]
group = "paper"
generator = "paper"
params = { min_apps = 5, max_apps = 6 }
seeds = [0, 1]

[[methods]]
name = "cbf"

[[methods]]
name = "nos"

[[methods]]
name = "mic+c"

[[methods]]
name = "order-search"
label = "nos, searched order"
options = { iterations = 5 }
"""


def test_the_paper_suite_runs_the_papers_six_methods_on_its_1000_tests():
    suite = load_suite("paper-evolving")
    assert suite.family == "evolving" and len(suite.instances) == 1000 and not suite.store_schedules
    assert {c.method for c in suite.cells} == {"cbf", "nos", "mic", "mic+c", "inf", "inf+c"}


def test_a_suite_report_shows_both_tables_beside_the_papers(tmp_path, capsys):
    toml, db, out = tmp_path / "mini.toml", tmp_path / "r.sqlite", tmp_path / "report"
    toml.write_text(SUITE)
    assert main(["bench", "run", str(toml), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    assert main(["bench", "report", "--db", str(db), "-o", str(out)]) == 0
    text = (out / "report.md").read_text()
    assert "## Klein & Pérez, Tables 1 and 2" in text
    assert "Table 1: system-centric metrics" in text and "Table 2: user-centric metrics" in text
    section = text[text.index("## Klein & Pérez, Tables 1 and 2") :]
    nos_row = next(line for line in section.splitlines() if line.startswith("| nos |"))
    assert "0.46 / 0.58 / 0.69" in nos_row  # the paper's reservation beside ours
    assert any(line.startswith("| nos, searched order |") for line in section.splitlines())


def test_the_optimum_suite_measures_each_heuristic_against_the_optimum_of_its_stretch_limit():
    suite = load_suite("evolving-optimum")
    assert suite.family == "evolving"
    groups = {g: {e.seed for e in suite.instances if e.group == g} for g in ("small", "paper")}
    assert groups == {"small": set(range(200)), "paper": set(range(100))}
    labels = {g: {c.label for c in suite.cells if c.group == g} for g in groups}
    optima = {"cpsat l=1", "cpsat l=2", "cpsat l=inf", "cpsat rigid"}
    # the optima only where cpsat proves them (the small instances), each with one worker and 60 s
    assert optima <= labels["small"] and not optima & labels["paper"]
    limits = {c.label: (c.options.get("stretch_limit"), c.options.get("rigid"), c.time_limit) for c in suite.cells}
    assert limits["cpsat l=1"] == (1.0, None, 60) and limits["cpsat l=inf"][0] == float("inf")
    assert limits["cpsat rigid"][1] is True
    assert all(c.options["workers"] == 1 for c in suite.cells if c.method == "cpsat")
    # the paper's workload: the list orders and their base (submission order), never the other variants
    orders = {lab for lab in labels["small"] if "order" in lab}
    assert len(orders) == 10 and labels["paper"] == orders | {"nos", "inf+c"}
    assert labels["small"] == optima | orders | {"cbf", "nos", "mic", "mic+c", "inf", "inf+c"}
    assert len(suite.cells) == 200 * 20 + 100 * 12
