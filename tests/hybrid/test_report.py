"""The family's report sections: SWDUAL beside the thesis, and the ratio table (optimum vs bound reference)."""

from __future__ import annotations

from coschedopt.hybrid.report import hybrid_sections, ratio_rows, speed_rows, swdual_rows


def _row(group, instance, label, objective, best_known, proven, bound, exact=False):
    return {
        "group": group,
        "instance": instance,
        "method_label": label,
        "objective": objective,
        "best_known": best_known,
        "best_known_proven": proven,
        "best_bound": bound,
        "status": "OPTIMAL" if exact else "FEASIBLE",
        "exact": exact,
    }


ROWS = [
    _row("SWDUAL-uniprot", "swdual-uniprot-main-m1-k1-s0", "dual2", 600.0, 590.0, False, 589.0),
    _row("SWDUAL-uniprot", "swdual-uniprot-main-m1-k1-s1", "dual2", 610.0, 595.0, False, 591.0),
    _row("SWDUAL-databases", "swdual-dog-main-m4-k4-s0", "dual2", 12.0, 11.5, False, 11.0),
    _row("random-small", "random-n10-m4-k1-s0", "colgen", 50.0, 50.0, True, 50.0, exact=True),
    _row("random-small", "random-n10-m4-k1-s0", "dual2", 60.0, 50.0, True, 50.0),
    _row("random-small", "random-n10-m4-k1-s1", "dual2", 55.0, 50.0, True, 50.0),
]


def test_swdual_table_puts_the_thesis_beside_the_simulation():
    headers, body = swdual_rows(ROWS)
    assert headers == ["database", "workers", "thesis (s)", "dual2 (s)", "lower bound (s)"]
    assert body[0] == ["uniprot", "2", "543.28", "605.00", "590.00"]
    assert body[1] == ["dog", "8", "20.45", "12.00", "11.00"]


def test_ratio_table_uses_the_optimum_where_proven_and_the_bound_elsewhere():
    _, body = ratio_rows(ROWS)
    by = {(r[0], r[2]): r for r in body}
    assert by[("random-small", "dual2")][1] == "optimum" and by[("random-small", "dual2")][4:] == ["1.1500", "1.2000"]
    assert by[("SWDUAL-uniprot", "dual2")][1] == "lower bound"
    assert ("random-small", "colgen") not in by  # exact methods are the reference, not rows


def test_sections_are_built():
    titles = [s.title for s in hybrid_sections(ROWS, {}, "paper-hybrid")]
    assert titles == ["SWDUAL beside the thesis (Tables 2.2 and 2.4)", "Ratios of the approximations and heuristics"]


def test_speed_table_takes_the_median_of_the_repeated_calls_without_each_workers_first():
    def row(label, call, seconds):
        return {
            "exact": False,
            "instance_id": "i",
            "n": 100000,
            "method_label": label,
            "method_call": call,
            "runtime_s": seconds,
            "objective": 7.0,
            "lower_bound": 6.5,
            "status": "FEASIBLE",
        }

    rows = [row("dual2", 1, 9.0), row("dual2", 2, 0.3), row("dual2", 3, 0.1), row("dual2", 4, 0.2), row("heft", 1, 1.0)]
    headers, body = speed_rows(rows)
    assert headers == ["method", "n", "calls", "median s", "min s", "makespan", "lower bound"]
    assert body == [["dual2", "100,000", "3", "0.200", "0.100", "7", "6.5"]]  # heft ran once: nothing to time
