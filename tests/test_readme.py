"""The README a new user reads first: its papers, headlines, examples and contents."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import coschedopt as cs

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
RESULTS = (Path(__file__).resolve().parents[1] / "docs" / "results.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return README.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def test_the_papers_are_cited_by_title_and_link_not_by_a_path_outside_the_repository():
    # item 20: a clone has no papers folder beside it
    assert "../shared" not in README
    table = _section("What it solves")
    assert "https://doi.org/10.1007/s10951-015-0445-x" in table and "https://doi.org/10.3390/computers10100122" in table


def test_results_and_method_tables_keep_headlines_not_commit_hashes_or_run_logs():
    # item 20: the details live in benchmarks/results/
    for text in (RESULTS, _section("Usage"), _section("Families")):
        hashes = [h for h in re.findall(r"\b[0-9a-f]{7,40}\b", text) if not h.isdigit()]
        assert hashes == [], hashes
        assert "earlier run" not in text and "previous run" not in text and "second run" not in text
    assert "benchmarks/results/bnp.md" in RESULTS


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


def test_the_pack_examples_exact_solves_reach_the_optimum_they_claim():
    # an example runs in seconds and shows what its comment says: no exact solve left at its time limit
    from coschedopt.core import get_method
    from coschedopt.pack.generate import random_pack_instance

    block = _section("Families").split("### Pack", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    assert "coschedopt generate pack random --tasks 10 --processors 16 -k 4 -o small.json" in block
    solves = re.findall(r"coschedopt solve small\.json --method (\S+)(.*)", block)
    inst = random_pack_instance(10, 16, 4, seed=0)
    exact = [(m, rest) for m, rest in solves if get_method("pack", m).exact]
    assert len(exact) >= 2
    for name, rest in exact:
        assert "--time-limit" not in rest and "-t " not in rest
        res = cs.solve(inst, name, time_limit=60)
        assert res.status is cs.Status.OPTIMAL and f"{res.objective:.6g}" == "87.9621", name
    assert "(87.9621)" in block


def test_the_readme_opens_with_its_two_commands_then_a_table_of_contents_of_every_section():
    head = README.split("\n## ", 1)[0]
    assert head.count("```bash") == 2  # the main job and the tests, nothing else before the contents
    contents = _section("Contents")
    for title in re.findall(r"^## (.+)$", README, flags=re.MULTILINE):
        if title != "Contents":
            anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            assert f"(#{anchor})" in contents, title
    families = _section("Families")
    assert re.findall(r"^### (\w+)$", families, flags=re.MULTILINE) == [
        "Pack",
        "Combos",
        "Hybrid",
        "Evolving",
        "Locality",
        "Batch",
        "Online",
    ]
    # every measured figure but the exact methods' frontier lives on the results page
    assert [b for b in re.findall(r"<!-- figures:([\w.-]+) -->", README) if b != "NAME"] == ["frontier"]
    assert "<!-- figures:pack-table1 -->" in RESULTS
