"""The paper-locality suite and the family's report section (ratios of paired optima, algorithms)."""

from __future__ import annotations

import pytest

from coschedopt.bench import load_suite, result_table, run_suite, write_report
from coschedopt.locality.report import algorithm_rows, locality_sections, ratio_rows


def test_the_paper_suite_pairs_every_job_set_under_the_four_constraints():
    suite = load_suite("paper-locality")
    assert suite.family == "locality"
    random = [e for e in suite.instances if e.group == "random"]
    assert len(random) == 3 * 4 * 5
    by_set: dict[tuple, set] = {}
    for e in random:
        by_set.setdefault((e.size["n"], e.seed), set()).add(e.size["constraint"])
        assert (e.size["m"], e.size["k"]) == (32, 4)
    assert all(len(c) == 4 for c in by_set.values())
    cells = {(c.method, c.instance_id) for c in suite.cells}
    sizes = {e.instance_id: e.size for e in suite.instances}
    assert all(sizes[i]["constraint"] in ("none", "local") for m, i in cells if m == "rcs-list")
    assert {"cpsat", "milp", "nfdh-ls", "rcs-list", "list"} == {m for m, _ in cells}


def _row(method, constraint, objective, best, seed=0, bound=1.5):
    return {
        "group": "g",
        "n": 4,
        "m": 6,
        "k": 2,
        "instance_seed": seed,
        "instance": f"x-{constraint}",
        "constraint": constraint,
        "method": method,
        "objective": objective,
        "best_known": best,
        "best_known_proven": True,
        "makespan_over_area_bound": bound,
    }


def test_ratios_pair_the_optima_of_one_job_set_and_algorithms_use_their_own_constraint():
    optima = {"none": 2.0, "contiguous": 2.0, "local": 3.0, "contiguous+local": 4.0}
    rows = [_row("cpsat", c, v, v) for c, v in optima.items()]
    rows += [_row("nfdh-ls", c, 5.0, optima[c], bound=2.5) for c in optima]
    rows += [_row("rcs-list", "local", 3.0, 3.0), _row("list", "none", 3.0, 2.0)]
    table = {r[2]: r for r in ratio_rows(rows)}
    assert table["C^L/C"][4:6] == ["1.5000", "1.5000"] and table["C^{C+L}/C"][5] == "2.0000"
    assert table["C^{C+L}/C^C"][6] == "[2, 2]"
    algos = {(r[0], r[2]): r for r in algorithm_rows(rows)}
    assert algos["nfdh-ls", "C^opt of contiguous+local"][3:7] == ["1", "1.2500", "1.2500", "2.5000"]
    assert algos["rcs-list", "C^opt of local"][5] == "1.0000"
    assert algos["list", "C^opt of none"][5] == "1.5000"
    assert locality_sections([], {}, "s") == []


@pytest.mark.slow
def test_a_small_suite_runs_and_the_report_has_the_chapter_4_section(tmp_path):
    suite = tmp_path / "small.toml"
    suite.write_text(
        """
[suite]
family = "locality"
time_limit = 20
[[instances]]
group = "random"
generator = "random"
params = { processors = 8, clusters = 2, max_time = 4, jobs = 5 }
grid = { constraint = ["none", "contiguous", "local", "contiguous+local"] }
seeds = [0, 1]
[[methods]]
name = "cpsat"
options = { workers = 1 }
[[methods]]
name = "nfdh-ls"
[[methods]]
name = "rcs-list"
when = { constraint = ["none", "local"] }
"""
    )
    db = tmp_path / "r.sqlite"
    summary = run_suite(suite, db=db, workers=1, progress=False)
    assert summary.failed == 0 and summary.done == 8 + 8 + 4
    rows = result_table(db).rows
    assert len(ratio_rows(rows)) == 5 and {r[0] for r in algorithm_rows(rows)} == {"nfdh-ls", "rcs-list"}
    out = write_report(db, tmp_path / "rep")
    text = out["markdown"].read_text()
    assert "Chapter 4: the constraints' optima" in text and "| random | 5 | C^L/C | 2 |" in text


def test_a_table_stored_with_the_old_metric_name_reads_under_the_new_one(tmp_path):
    """Cells stored before ``makespan_over_bound`` became ``makespan_over_area_bound`` keep their column, and a
    suite file's ``[report] metrics`` naming the old key still finds it."""
    import json
    import sqlite3

    from coschedopt.bench.figures import metric_info

    suite = tmp_path / "old.toml"
    suite.write_text(
        """
[suite]
family = "locality"
[[instances]]
generator = "tight"
params = { which = "I1" }
[[methods]]
name = "nfdh-ls"
"""
    )
    db = tmp_path / "r.sqlite"
    assert run_suite(suite, db=db, workers=1, progress=False).failed == 0
    conn = sqlite3.connect(db)
    (metrics,) = conn.execute("SELECT metrics FROM cells").fetchone()
    old = {("makespan_over_bound" if k == "makespan_over_area_bound" else k): v for k, v in json.loads(metrics).items()}
    conn.execute("UPDATE cells SET metrics = ?", (json.dumps(old),))
    conn.commit()
    conn.close()
    table = result_table(db)
    assert "makespan_over_area_bound" in table.metric_columns and "makespan_over_bound" not in table.columns
    (row,) = table.rows
    assert row["makespan_over_area_bound"] == pytest.approx(row["objective"] / 1.0)  # I1: A/m = 1 = p_max
    assert metric_info("locality").current("makespan_over_bound") == "makespan_over_area_bound"
