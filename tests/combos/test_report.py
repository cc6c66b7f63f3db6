"""combos/report.py: the paper's Figures 6-7 and their table, from a suite run through the harness."""

from __future__ import annotations

import tomllib

import pytest

import coschedopt as cs
from coschedopt.bench import result_table, run_suite, write_report
from coschedopt.bench.suite import parse_suite, resolve_suite_path
from coschedopt.combos.generate import random_combos_instance
from coschedopt.combos.report import competitive_ratio_sections, competitive_ratio_summary, competitive_ratio_table
from coschedopt.viz.report import Figure, Table

SUITE = """
[suite]
name = "combos-small"
family = "combos"
time_limit = 30

[[instances]]
generator = "combos"                  # the old flat name of `combos random` still works in suites
group = "5 tasks"
params = { tasks = 5, alpha_low = 0.1, alpha_high = 0.3 }
seeds = [0, 1]

[[instances]]
generator = "random"
group = "5 tasks"
params = { tasks = 5, alpha_low = 0.6, alpha_high = 0.8 }
seeds = [0, 1]

[[methods]]
name = "lp"

[[methods]]
name = "fcs"
label = "FCS"

[[methods]]
name = "search-ucb"
label = "UCB k=0.6"
options = { k = 0.6, measure_time = 5 }

[[methods]]
name = "search-ucb"
label = "UCB k=0.9"
options = { k = 0.9, measure_time = 5 }

[report]
x = "alpha"
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    d = tmp_path_factory.mktemp("combos")
    (d / "s.toml").write_text(SUITE)
    summary = run_suite(d / "s.toml", db=d / "r.sqlite", workers=1, progress=False)
    assert summary.done == summary.planned == 16
    return d / "r.sqlite"


def test_ratios_are_makespan_over_the_lp_optimum_of_the_same_system(db):
    rows = result_table(db).rows
    assert {r["alpha"] for r in rows} == {0.2, 0.7}
    (section,) = competitive_ratio_sections(rows, {}, "s")
    table = next(b for b in section.blocks if isinstance(b, Table))
    assert table.headers == ["method", "alpha 0.2", "alpha 0.7"]
    assert [r[0] for r in table.rows] == ["FCS", "UCB k=0.6", "UCB k=0.9"]
    # recompute FCS at alpha 0.2 by hand
    expected = []
    for seed in (0, 1):
        inst = random_combos_instance(5, 0.1, 0.3, seed=seed)
        expected.append(cs.solve(inst, "fcs").objective / cs.solve(inst, "lp").objective)
    mean, worst = sum(expected) / 2, max(expected)
    assert table.rows[0][1] == f"{mean:.3f} ({worst:.3f})"
    assert sum(isinstance(b, Figure) for b in section.blocks) == 2


def test_the_docs_table_is_the_reports_and_the_summary_reads_the_rows(db):
    """Block combos-competitive prints competitive_ratio_table, the report's table; the summary's largest
    ratios agree with the table's maxima, FCS stays under Theorem 1's bound, and a search spends part of
    its makespan measuring."""
    rows = result_table(db).rows
    (section,) = competitive_ratio_sections(rows, {}, "s")
    table = next(b for b in section.blocks if isinstance(b, Table))
    assert competitive_ratio_table(rows) == (table.headers, table.rows)
    summary = competitive_ratio_summary(rows)
    assert set(summary["max_ratio"]) == {"FCS", "UCB"}
    fcs_maxima = [float(cell.split("(")[1].rstrip(")")) for cell in table.rows[0][1:]]
    assert f"{summary['max_ratio']['FCS']:.3f}" == f"{max(fcs_maxima):.3f}"
    assert 0 < summary["fcs_over_theorem1_max"] <= 1
    assert 0 < summary["measuring_share_mean"] < 1


def test_the_report_carries_the_family_section(db, tmp_path):
    paths = write_report(db, tmp_path / "report")
    text = paths["markdown"].read_text()
    assert "Competitive ratios (the paper's Figures 6-7)" in text
    assert (tmp_path / "report" / "figures" / "combos-small-figure6.png").stat().st_size > 0


def test_the_paper_suite_expands_to_the_papers_experiment():
    path = resolve_suite_path("paper-combos")
    config = tomllib.loads(path.read_text())
    # 50 systems per alpha range, seeds 1000 r + s (the former combos_competitive.py's): no two ranges share a seed
    assert [block["seeds"] for block in config["instances"]] == [{"first": 1000 * r, "count": 50} for r in range(9)]
    for block in config["instances"]:  # one system per range is enough to check the expansion
        block["seeds"] = [0]
    suite = parse_suite(config, path=path)
    assert len(suite.instances) == 9 and len(suite.cells) == 9 * 14
    assert sorted({e.size["alpha"] for e in suite.instances}) == pytest.approx([0.1 * i for i in range(1, 10)])


def test_the_colgen_suite_lists_the_combinations_only_where_they_fit():
    """colgen-combos: the column generation and FCS on every (K, n) of the scaling grid, and the LP over the
    listed combinations where listing fits (at most 1.1e6 combinations and 2.5e7 speeds, and n <= 22 or K = 2:
    above 22 tasks the explicit instance checks constraint (1) pair by pair)."""
    from coschedopt.bench import load_suite

    suite = load_suite("colgen-combos")
    size = {e.instance_id: e.size for e in suite.instances}
    grid = {(s["k"], s["n"]) for s in size.values()}
    assert {(2, 5000), (4, 500), (5, 200), (6, 60), (6, 100), (20, 20)} <= grid and len(grid) == 19
    planned: dict[str, set] = {}
    for c in suite.cells:
        planned.setdefault(c.label, set()).add((size[c.instance_id]["k"], size[c.instance_id]["n"]))
    assert planned["LP by column generation"] == planned["FCS"] == grid

    def fits(s: dict) -> bool:
        return (
            s["combinations"] <= 1_100_000
            and s["n"] * s["combinations"] <= 25_000_000
            and (s["n"] <= 22 or s["k"] == 2)
        )

    assert planned["LP over the listed combinations"] == {(s["k"], s["n"]) for s in size.values() if fits(s)}
