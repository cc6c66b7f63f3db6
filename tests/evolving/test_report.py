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
