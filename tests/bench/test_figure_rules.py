"""The report's figures read true: one test per rule of :mod:`coschedopt.viz.axes`,
:mod:`coschedopt.viz.colors` and the running-time table, on synthetic tables, through the
matplotlib Axes (scale, limits, tick labels, artists), never pixels."""

from __future__ import annotations

import math
import sqlite3

import pytest

from coschedopt.bench import result_table
from coschedopt.bench.cell import count_call, run_cell
from coschedopt.bench.figures import MetricInfo, metric_figure, metric_info
from coschedopt.bench.report import runtime_section, suite_view
from coschedopt.bench.store import ResultStore
from coschedopt.bench.table import ResultTable, method_calls
from coschedopt.viz.axes import (
    BREAK_GID,
    OUTLIER_GID,
    axis_label,
    choose_scale,
    fit_tick_labels,
    set_x_axis,
    x_layout,
)
from coschedopt.viz.colors import current_colors, report_colors

INFO = MetricInfo({}, frozenset())


def _row(group, label, x, value, metric="m", *, xname="n", instance="i", **extra):
    return {
        "suite": "s",
        "family": "toy",
        "group": group,
        "method_label": label,
        "method": label,
        xname: x,
        metric: value,
        "exact": False,
        "status": "FEASIBLE",
        "objective": value,
        "best_known_proven": False,
        "best_known": None,
        "best_bound": None,
        "instance_id": instance,
        **extra,
    }


def _figure(rows, labels, metric="m", groups=("g",), info=INFO, colors=None):
    colors = colors if colors is not None else current_colors()
    return metric_figure(rows, list(groups), metric, "n", labels, colors, info)


def _method_lines(ax, labels):
    return {ln.get_label(): ln for ln in ax.lines if ln.get_label() in labels}


# --------------------------------------------------------------------------- rule 1: x axis


def test_a_single_x_value_gets_a_categorical_axis_not_a_dodged_numeric_one():
    labels = ["a", "b", "c"]
    rows = [_row("g", lb, 40, 1.0 + i / 10) for i, lb in enumerate(labels)]
    ax = _figure(rows, labels).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["40"]  # not 39.955 39.970 40.000 ...
    assert ax.get_xlim() == (-0.5, 0.5)
    xs = [ln.get_xdata()[0] for ln in _method_lines(ax, labels).values()]
    assert all(abs(x) < 0.1 for x in xs) and len(set(xs)) == 3  # dodged inside the one slot, apart
    assert x_layout(["KTH", "Curie"]) == (True, {"KTH": 0.0, "Curie": 1.0})  # not numbers: categorical
    assert x_layout([2, 4]) == (False, {2: 2.0, 4: 4.0})


def test_x_tick_labels_never_overlap():
    from matplotlib.figure import Figure

    names = [f"a long platform name {i}" for i in range(14)]
    fig = Figure(figsize=(5, 3), layout="constrained")
    ax = fig.subplots()
    ax.plot(range(len(names)), range(len(names)))
    set_x_axis(ax, names, categorical=True)
    fit_tick_labels(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()
    shown = [t for t in ax.xaxis.get_major_ticks() if t.label1.get_text()]
    assert 1 < len(shown) < len(names)  # thinned, the first kept
    assert shown[0].label1.get_text() == names[0]
    for a, b in zip(shown, shown[1:], strict=False):  # rotated labels are parallel strips: their
        angle = math.radians(a.label1.get_rotation())  # anchors must be a label height apart across them
        assert angle > 0
        a.label1.set_rotation(0)
        height = a.label1.get_window_extent(renderer).height
        a.label1.set_rotation(math.degrees(angle))
        dist = ax.transData.transform((b.get_loc(), 0))[0] - ax.transData.transform((a.get_loc(), 0))[0]
        assert dist * math.sin(angle) >= height
    # unevenly spaced numbers: their ticks crowd, so the axis falls back to evenly spaced ticks, unrotated
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    values = [1, 2, 3, 5, 10, 50]
    ax.plot(values, values)
    set_x_axis(ax, values, categorical=False)
    fit_tick_labels(fig)
    boxes = [t.label1.get_window_extent(renderer) for t in ax.xaxis.get_major_ticks() if t.label1.get_text()]
    lo, hi = ax.get_xlim()
    assert all(not a.overlaps(b) for a, b in zip(boxes, boxes[1:], strict=False))
    assert all(t.label1.get_rotation() == 0 for t in ax.xaxis.get_major_ticks())
    assert hi > 50 and lo < 1


# --------------------------------------------------------------------------- rule 2: zero or a marked break


def test_the_y_axis_starts_at_zero_unless_that_squashes_the_data_and_then_says_so():
    labels = ["a", "b", "c", "d"]
    wide = [_row("g", lb, n, v) for n in (1, 2) for lb, v in zip(labels, (0.5, 0.7, 0.9, 1.0), strict=True)]
    ax = _figure(wide, labels).axes[0]
    assert ax.get_ylim()[0] == 0 and ax.get_yscale() == "linear"
    assert "does not start at 0" not in ax.get_ylabel()
    assert not [ln for ln in ax.lines if ln.get_gid() == BREAK_GID]
    # the batch makespans: 567k-576k
    tight = [_row("g", lb, 300, v) for lb, v in zip(labels, (567_000, 569_000, 571_000, 576_000), strict=True)]
    ax = _figure(tight, labels).axes[0]
    low, high = ax.get_ylim()
    assert 560_000 < low < 567_000 and 576_000 < high < 580_000
    assert "axis does not start at 0" in ax.get_ylabel()
    assert len([ln for ln in ax.lines if ln.get_gid() == BREAK_GID]) == 2  # the two slanted strokes


# --------------------------------------------------------------------------- rule 3: log past a decade


def test_positive_values_over_more_than_a_decade_get_a_log_scale():
    labels = ["a", "b", "c", "d", "e"]
    rows = [_row("g", lb, n, v * n) for n in (1, 2, 3) for lb, v in zip(labels, (1, 3, 10, 30, 100), strict=True)]
    ax = _figure(rows, labels).axes[0]
    assert ax.get_yscale() == "log" and "log scale" in ax.get_ylabel()
    low, high = ax.get_ylim()
    assert low <= 1 and high >= 300
    assert choose_scale([1.0, 5.0, 9.0]).log is False  # a spread under 10: linear
    assert choose_scale([0.0, 1.0, 100.0]).log is False  # not all positive: no log


# --------------------------------------------------------------------------- rule 4: outliers


def test_one_outlier_is_marked_at_the_edge_and_does_not_flatten_the_others():
    labels = ["FCFS", "SPT", "GSPT", "SRPT", "GSRPT"]
    values = {"FCFS": 20_000.0, "SPT": 250.0, "GSPT": 290.0, "SRPT": 330.0, "GSRPT": 410.0}
    rows = [_row("g", lb, n, values[lb] + n / 100) for n in (1000, 2000) for lb in labels]
    ax = _figure(rows, labels).axes[0]
    low, high = ax.get_ylim()
    assert ax.get_yscale() == "linear" and 430 <= high < 20_000  # the axis is cut below the outlier
    others = [v + n / 100 for lb, v in values.items() if lb != "FCFS" for n in (1000, 2000)]
    assert (max(others) - min(others)) / (high - low) > 0.5  # the others fill most of the panel
    marks = [a for a in ax.lines if a.get_gid() == OUTLIER_GID]
    texts = [t.get_text() for t in ax.texts if t.get_gid() == OUTLIER_GID]
    assert len(marks) == 2 and all(m.get_ydata()[0] == high for m in marks)  # one triangle per x, at the top
    assert texts == ["20,000", "20,000"]  # 20,010 and 20,020 to 3 significant digits
    # the rule itself: far out (Tukey's 3 IQR, on log10 of positive values) AND the rest would be flattened
    assert choose_scale([10, 11, 12, 13, 1000]).outliers == (1000.0,)
    assert choose_scale([1, 2, 3, 4, 1000]).outliers == ()  # far out, but 1-4 fill 18 % of the log axis
    assert choose_scale([1, 2, 3, 4, 5, 6, 7, 8, 30]).outliers == ()  # within the fences
    assert choose_scale([567_000, 567_500, 568_000, 569_000, 576_000]).outliers == ()  # the rest fill > 15 %


# --------------------------------------------------------------------------- rule 5: labels


def test_axis_labels_come_from_the_metric_labels_with_units_and_fall_back_to_the_name():
    batch = metric_info("batch")
    assert axis_label("makespan", batch.labels) == "Makespan (s)"
    assert axis_label("makespan_rel", batch.labels) == "Makespan rel"  # unknown: humanised, no crash
    assert axis_label("packing_ratio", metric_info("pack").labels) == "Packing ratio"  # a pure number
    rows = [_row("g", lb, 1, v, metric="makespan") for lb, v in (("a", 1.0), ("b", 2.0))]
    ax = _figure(rows, ["a", "b"], metric="makespan", info=batch).axes[0]
    assert ax.get_ylabel().startswith("Makespan (s)")


def test_every_shipped_family_labels_its_metrics():
    for kind in ("pack", "combos", "hybrid", "evolving", "locality", "batch", "online"):
        info = metric_info(kind)
        assert info.labels, kind
        assert all(isinstance(lab, str) and lab and isinstance(unit, str) for lab, unit in info.labels.values())


# --------------------------------------------------------------------------- rule 6: colours


def _suite_table(rows):
    return ResultTable(columns=list(rows[0]), rows=rows, size_columns=["n"], metric_columns=["m"])


def test_a_method_has_the_same_colour_in_every_figure_of_one_report():
    from coschedopt.online.report import _curie_figure  # noqa: F401  (family figures ask the same map)

    rows = [_row("g", lb, n, 1.0 + i, suite="one") for n in (1, 2) for i, lb in enumerate(("a", "b", "c"))]
    rows += [_row("g", lb, n, 1.0 + i, suite="two") for n in (1, 2) for i, lb in enumerate(("c", "a"))]
    table = _suite_table(rows)
    with report_colors(()) as colors:
        one = suite_view(table, "one", {}, [], "one")
        two = suite_view(table, "two", {}, [], "two")  # another order, a subset
        fig1 = _figure([r for r in rows if r["suite"] == "one"], ["a", "b", "c"], colors=one.colors)
        fig2 = _figure([r for r in rows if r["suite"] == "two"], ["c", "a"], colors=two.colors)
        assert current_colors() is colors
    lines1, lines2 = _method_lines(fig1.axes[0], "abc"), _method_lines(fig2.axes[0], "abc")
    for label in ("a", "c"):
        assert lines1[label].get_color() == lines2[label].get_color() == colors[label]
    assert len({ln.get_color() for ln in lines1.values()}) == 3
    assert current_colors() is not colors  # outside the report: a fresh map


# --------------------------------------------------------------------------- rule 7: running times


def test_the_running_time_table_gives_the_median_without_each_workers_first_call():
    rows = []
    for i, seconds in enumerate((0.983, 0.002, 0.0021, 0.0019, 0.5)):  # 0.983: the first call pays the imports
        rows.append(_row("g", "matching", 5, 1.0, instance=f"i{i}", runtime_s=seconds, method_call=i + 1))
    rows[-1]["method_call"] = None  # recorded by the harness (a killed cell): not a first call
    view = suite_view(_suite_table(rows), "s", {}, [], "s")
    (table,) = runtime_section(view).blocks
    assert table.headers == ["method", "exact", "g", "first call in a worker"]
    assert table.rows == [["matching", "no", "2.05", "983"]]  # median of 2, 2.1, 1.9 and 500 ms; the first apart


def test_each_cell_records_its_methods_call_number_in_its_worker():
    payload = {"key": "k", "family": "nosuch", "instance": {}, "method": "test-only-method"}
    first, second = run_cell(payload), run_cell(payload)  # failing cells count as calls too
    assert (first["method_call"], second["method_call"]) == (1, 2)
    assert count_call("another-test-method") == 1


def test_an_older_store_stays_readable_and_orders_its_calls_as_stored(tmp_path):
    db = tmp_path / "old.sqlite"
    ResultStore(db).close()
    conn = sqlite3.connect(db)  # make it a schema-2 store: no method_call column
    conn.execute("ALTER TABLE cells DROP COLUMN method_call")
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO instances VALUES ('i', 'toy', 'i', '{\"n\": 3}', '{}')")
    conn.execute("INSERT INTO runs (suite, suite_path, suite_sha256, suite_config, executor, started_at, status) "
                 "VALUES ('s', 's.toml', 'x', '{}', 'processes:1', 't', 'finished')")  # fmt: skip
    conn.execute("INSERT INTO plan VALUES ('s', 'c1', 'g', 'm'), ('s', 'c2', 'g', 'm'), ('s', 'c3', 'g', 'm')")
    for key, worker in (("c2", "h:1"), ("c1", "h:1"), ("c3", "h:2")):
        conn.execute(
            "INSERT INTO cells (cell_key, suite, family, instance_group, instance_id, method, method_label, exact, "
            "seed, options, status, runtime_s, metrics, stats, worker, finished_at, run_id) "
            "VALUES (?, 's', 'toy', 'g', 'i', 'm', 'm', 0, 0, '{}', 'FEASIBLE', 0.1, '{}', '{}', ?, 't', 1)",
            (key, worker),
        )
    conn.commit()
    conn.close()
    table = result_table(db)  # opening upgrades it: the column is added, the rows kept
    calls = {r["cell_key"]: r["method_call"] for r in table.rows}
    assert calls == {"c2": 1, "c1": 2, "c3": 1}  # per worker, in the order stored
    with ResultStore(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] >= 3
    # a run that records the calls keeps them; its harness-made records (no call) stay empty
    rows = [
        {"cell_key": "x", "run_id": 2, "worker": "h:3", "method": "m", "method_call": 1, "stored_order": 1},
        {"cell_key": "y", "run_id": 2, "worker": "h:0", "method": "m", "method_call": None, "stored_order": 2},
    ]
    assert method_calls(rows) == {"x": 1}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")
