"""The report's figures through the tidy table and the data drawn, not pixels."""

from __future__ import annotations

import math

import pytest

from coschedopt.bench import result_table, run_suite, write_report
from coschedopt.bench.figures import MetricInfo, group_series, metric_figure, metric_info

from . import toy_family  # noqa: F401  (registers the test-only family "toy")

#: the issue's suite: the optimum is proven only at k = 2 and k = 8
GAPPED = """
[suite]
name = "gapped"
family = "pack"
[[instances]]
group = "random n=8 p=8"
generator = "random"
params = { tasks = 8, processors = 8 }
grid = { max_pack_size = [2, 4, 6, 8] }
seeds = [0, 1]
[[methods]]
name = "enumerate"
when = { k = [2, 8] }
[[methods]]
name = "pack-approx"
[[methods]]
name = "pack-by-pack-9"
[report]
x = "k"
"""

#: toy: the optimum proven at k = 1 only; toy-limited certifies a bound (half the optimum) everywhere
BOUNDED = """
[suite]
name = "bounded"
family = "toy"
time_limit = 1
plugins = ["tests.bench.toy_family"]
[[instances]]
group = "g"
generator = "toy-gen"
params = { size = 5 }
grid = { k = [1, 2, 3] }
[[methods]]
name = "toy-exact"
when = { k = 1 }
[[methods]]
name = "toy-identity"
[[methods]]
name = "toy-limited"
[report]
x = "k"
"""


@pytest.fixture(scope="module")
def gapped(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gapped")
    (tmp / "gapped.toml").write_text(GAPPED)
    db = tmp / "r.sqlite"
    run_suite(tmp / "gapped.toml", db=db, workers=2, progress=False)
    return db, result_table(db).rows


def _by_role(series):
    return {s.role if s.role != "method" else s.label: s for s in series}


def test_the_optimum_is_drawn_only_where_proven_and_never_across_a_gap(gapped):
    # item 1: the dashed line went from (2, 0.716) to (8, 0.51), above two heuristics at k = 4 and 6
    _, rows = gapped
    labels = ["pack-approx", "pack-by-pack-9"]
    xs, pos, series = group_series(rows, "relative_cost", "k", labels, metric_info("pack"))
    assert xs == [2, 4, 6, 8]
    opt = _by_role(series)["optimum"]
    assert opt.label == "optimum" and opt.x == (2.0, 4.0, 6.0, 8.0)
    assert not math.isnan(opt.y[0]) and not math.isnan(opt.y[3])
    assert math.isnan(opt.y[1]) and math.isnan(opt.y[2])  # nothing drawn at k = 4, 6: no interpolation
    for k_index, k in ((0, 2), (3, 8)):  # the value drawn is the mean optimum's relative cost at that k
        optimal = [r for r in rows if r["k"] == k and r["method"] == "enumerate"]
        assert opt.y[k_index] == pytest.approx(sum(r["relative_cost"] for r in optimal) / len(optimal))
    assert "bound" not in _by_role(series)  # no method certified a bound at k = 4, 6
    # what matplotlib draws is the same data: the line breaks at the NaNs
    fig = metric_figure(rows, ["random n=8 p=8"], "relative_cost", "k", labels, dict.fromkeys(labels, "C0"),
                        metric_info("pack"))  # fmt: skip
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_label() == "optimum"]
    assert [math.isnan(y) for y in line.get_ydata()] == [False, True, True, False]


def test_where_no_optimum_is_proven_the_best_certified_bound_is_drawn_alone(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(BOUNDED), db=db, workers=2, progress=False)
    rows = result_table(db).rows
    info = MetricInfo({}, frozenset({"relative_objective"}), "weighted sum", "min")
    _, _, series = group_series(rows, "relative_objective", "k", ["toy-identity", "toy-limited"], info)
    roles = _by_role(series)
    opt, bound = roles["optimum"], roles["bound"]
    assert [math.isnan(y) for y in opt.y] == [False, True, True]
    assert [math.isnan(y) for y in bound.y] == [True, False, False]  # only where it is all there is
    assert bound.label == "best certified bound" and bound.marker == "v"
    for i, k in ((1, 2), (2, 3)):  # bound / (objective / metric): the bound on the metric's scale
        r = next(r for r in rows if r["k"] == k and r["method"] == "toy-identity")
        assert bound.y[i] == pytest.approx(r["best_bound"] * r["relative_objective"] / r["objective"])
        assert bound.y[i] < r["relative_objective"]
    # a metric the family does not declare objective-scaled gets no bound
    plain = MetricInfo({}, frozenset(), "weighted sum", "min")
    _, _, series = group_series(rows, "relative_objective", "k", ["toy-identity"], plain)
    assert "bound" not in _by_role(series) and _by_role(series)["reference"].label == "weighted sum-optimal schedule"


def test_a_metric_other_than_the_objective_is_labelled_as_the_cost_optimal_schedules_value(gapped):
    # item 2: the dashed "optimum" of relative response time is the response time of the cost-optimal schedule
    _, rows = gapped
    _, _, series = group_series(rows, "relative_response_time", "k", ["pack-approx"], metric_info("pack"))
    ref = _by_role(series)["reference"]
    assert ref.label == "cost-optimal schedule" and "optimum" not in _by_role(series)
    _, _, series = group_series(rows, "packing_ratio", "k", ["pack-approx"], metric_info("pack"))
    assert _by_role(series)["reference"].label == "cost-optimal schedule"


def test_coinciding_methods_stay_visible(gapped):
    # item 3: pack-approx was hidden under pack-by-pack-9 and the optimum
    _, rows = gapped
    labels = ["pack-approx", "pack-by-pack-9", "enumerate"]
    _, _, series = group_series(rows, "relative_cost", "k", labels, metric_info("pack"))
    methods = [s for s in series if s.role == "method"]
    assert len({s.marker for s in methods}) == len(methods) == 3
    at_k2 = [s.x[0] for s in methods]
    assert len(set(at_k2)) == 3 and all(abs(x - 2) < 0.2 for x in at_k2)  # a small offset each
    fig = metric_figure(rows, ["random n=8 p=8"], "relative_cost", "k", labels, dict.fromkeys(labels, "C0"),
                        metric_info("pack"))  # fmt: skip
    drawn = [ln for ln in fig.axes[0].lines if ln.get_label() in labels]
    assert all(ln.get_alpha() is not None and ln.get_alpha() < 1 for ln in drawn)


def test_the_report_defines_its_metrics_from_the_family(gapped, write_suite, tmp_path):
    # item 4: relative cost, packing ratio, relative response time and the gaps were never defined
    db, _ = gapped
    md = write_report(db, tmp_path / "out")["markdown"].read_text()
    defs = md.split("### Definitions", 1)[1].split("###", 1)[0]
    assert "`relative_cost`: cost / sum_i t(i, p)" in defs
    assert "`packing_ratio`: sum_i sigma(i) t(i, sigma(i)) / (p x cost)" in defs
    assert "`relative_response_time`: R-hat / R" in defs
    assert "(objective - optimum) / optimum" in defs and "(objective - best bound) / best bound" in defs
    assert "cost-optimal schedule" in md and "dashed black: the optimum, only at the values" in md
    # a family without the hook: said so, and the harness's own definitions are still there
    toy_db = tmp_path / "t.sqlite"
    run_suite(write_suite(BOUNDED), db=toy_db, workers=1, progress=False)
    toy = write_report(toy_db, tmp_path / "toy")["markdown"].read_text().split("### Definitions", 1)[1]
    assert "`relative_objective`: (family 'toy' gives no definition)" in toy and "gap_to_bound" in toy


def test_the_hook_is_found_in_each_familys_metrics_module():
    pack, combos, toy = metric_info("pack"), metric_info("combos"), metric_info("toy")
    assert pack.scaled == {"relative_cost"} and set(pack.definitions) >= {"relative_cost", "packs"}
    assert combos.scaled == {"makespan", "ratio_to_trivial_bound"} and "mean_speed" in combos.definitions
    assert toy.definitions == {} and toy.scaled == frozenset() and metric_info("nosuch").definitions == {}
