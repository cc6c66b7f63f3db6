"""The README a new user reads first (issue 39, items 20 and 21)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import coschedopt as cs

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def test_the_papers_are_cited_by_title_and_link_not_by_a_path_outside_the_repository():
    # item 20: a clone has no papers folder beside it
    assert "../shared" not in README
    table = _section("What it solves")
    assert "https://doi.org/10.1007/s10951-015-0445-x" in table and "https://doi.org/10.3390/computers10100122" in table


def test_results_and_method_tables_keep_headlines_not_commit_hashes_or_run_logs():
    # item 20: the details live in benchmarks/results/
    for title in ("Results (measured on this project's 2-core machine)", "Usage"):
        text = _section(title)
        hashes = [h for h in re.findall(r"\b[0-9a-f]{7,40}\b", text) if not h.isdigit()]
        assert hashes == [], (title, hashes)
        assert "earlier run" not in text and "previous run" not in text and "second run" not in text
    assert "benchmarks/results/bnp.md" in _section("Results (measured on this project's 2-core machine)")


@pytest.mark.parametrize(
    ("method", "options", "quoted"),
    [
        ("lp", {}, 811.1),
        ("fcs", {}, 857.6),
        ("search-ucb", {"measure_time": 0.1}, 885.2),
        ("search-ucb", {}, 2351),
        ("search-ucb", {"k": 0.9}, 2388.5),
    ],
)
def test_the_combos_example_says_what_it_shows(method, options, quoted):
    # item 21: `search-ucb -O k=0.9 -O measure_time=10` gave 2,388.5 against the LP's 811.1 without a word
    from coschedopt.combos.generate import random_combos_instance

    inst = random_combos_instance(10, 0.45, 0.55, seed=1)
    res = cs.solve(inst, method, seed=3, **options)
    assert round(res.objective, 1) == pytest.approx(quoted, abs=0.6)
    assert f"{quoted:,}" in README or f"{quoted}" in README
    assert "spends most of the schedule measuring" in README
