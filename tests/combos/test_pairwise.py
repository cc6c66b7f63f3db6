"""The pairwise interference model: its exact pricing, LP (2) by column generation against the
full enumeration and explicit sparse lists, FCS by pricing, the searches, files and fitting."""

from __future__ import annotations

import itertools
import json
import shlex
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.combos.exact.colgen import solve_colgen
from coschedopt.combos.pairwise import (
    PairwiseInstance,
    count_combinations,
    fit_pairwise,
    random_pairwise_instance,
    search_domain,
)
from coschedopt.combos.pricing import price_exact, price_greedy
from coschedopt.core import Deadline, InputError, Status


def brute_values(d: np.ndarray, y: np.ndarray, k: int) -> list[float]:
    """f(S) of every combination of at most k tasks with y > 0, largest first (independent path)."""
    pos = [i for i in range(len(y)) if y[i] > 0]
    vals = []
    for s in range(1, k + 1):
        for c in itertools.combinations(pos, s):
            rows = list(c)
            vals.append(float(y[rows] @ np.prod(d[np.ix_(rows, rows)], axis=1)))
    return sorted(vals, reverse=True)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 8),
    seed=st.integers(0, 2**31 - 1),
    keep=st.integers(1, 6),
    threshold=st.floats(-0.5, 2.0),
    data=st.data(),
)
def test_exact_pricing_returns_the_best_sets_above_the_threshold(n, seed, keep, threshold, data):
    k = data.draw(st.integers(1, n))
    rng = np.random.default_rng(seed)
    d = rng.uniform(0.2, 1.0, (n, n))
    np.fill_diagonal(d, 1.0)
    y = rng.normal(0.4, 0.5, n)
    want = [v for v in brute_values(d, y, k) if v > threshold][:keep]
    got = price_exact(d, y, k, threshold=threshold, keep=keep)
    assert got.values == pytest.approx(want, rel=1e-12, abs=1e-12)
    for s, v in zip(got.sets, got.values, strict=True):  # each set's value is its own
        assert len(s) <= k and list(s) == sorted(set(s))
        assert float(y[list(s)] @ np.prod(d[np.ix_(s, s)], axis=1)) == pytest.approx(v, rel=1e-12)
    greedy = price_greedy(d, y, k)  # a heuristic: never above the exact maximum
    if greedy.values and want:
        assert max(greedy.values) <= want[0] * (1 + 1e-12) + 1e-12


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_colgen_equals_the_full_enumeration(n, seed, data):
    k = data.draw(st.integers(1, n))
    lo = data.draw(st.sampled_from([0.05, 0.3, 0.6, 0.85]))
    inst = random_pairwise_instance(n, k, lo, lo + 0.1, seed=seed)
    full = cs.solve(inst, "lp", backend="highspy")  # every combination of at most k tasks, listed
    assert full.status is Status.OPTIMAL
    for pricing in ("greedy-first", "exact"):
        cg = cs.solve(inst, "lp", pricing=pricing)
        assert cg.status is Status.OPTIMAL
        assert cg.objective == pytest.approx(full.objective, rel=1e-7)
        assert cg.lower_bound <= full.objective * (1 + 1e-9)
        assert cg.lower_bound == pytest.approx(cg.objective, rel=1e-7)  # the dual bound closes the gap
        cs.validate(inst, cg.schedule)


@pytest.mark.parametrize(("n", "k", "seed"), [(14, 3, 0), (14, 5, 1), (14, 14, 2), (18, 4, 3), (20, 3, 4), (20, 5, 5)])
def test_colgen_equals_the_listed_combinations_up_to_20_tasks(n, k, seed):
    inst = random_pairwise_instance(n, k, 0.5, 0.9, seed=seed)
    cg = cs.solve(inst, "lp")
    full = cs.solve(inst, "lp", backend="highspy")
    assert cg.objective == pytest.approx(full.objective, rel=1e-8)
    assert cg.stats["columns_generated"] < inst.m or inst.m < 200


def test_colgen_equals_the_explicit_sparse_list_past_64_tasks():
    inst = random_pairwise_instance(70, 2, seed=5)
    listed = inst.to_explicit()
    assert listed.masks.dtype == object and listed.m == count_combinations(70, 2)
    cg = cs.solve(inst, "lp")
    ex = cs.solve(listed, "lp")
    assert cg.objective == pytest.approx(ex.objective, rel=1e-8)
    cs.validate(listed, cg.schedule)  # the schedule is one of the explicit instance too
    # FCS over the listed combinations (Python-integer masks) and by pricing over the model agree
    assert cs.solve(listed, "fcs").objective == pytest.approx(cs.solve(inst, "fcs").objective, rel=1e-9)


def test_farley_bound_is_below_the_optimum_for_any_duals():
    inst = random_pairwise_instance(9, 4, seed=2)
    opt = cs.solve(inst, "lp", backend="highspy").objective
    rng = np.random.default_rng(0)
    for _ in range(30):
        y = rng.uniform(-0.2, 1.0, inst.n)
        top = price_exact(inst.factors, y, inst.max_size, threshold=0.0, keep=1)
        if top.values and float(inst.b @ y) > 0:
            assert float(inst.b @ y) / top.values[0] <= opt * (1 + 1e-12)


def test_time_limit_returns_a_valid_schedule_and_a_certified_bound():
    inst = random_pairwise_instance(30, 3, seed=1)
    opt = cs.solve(inst, "lp").objective
    out = solve_colgen(inst, deadline=Deadline(1e-9))
    assert out["status"] == "time_limit" and out["bound"] <= opt
    res = cs.solve(inst, "lp", time_limit=1e-9)
    assert res.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    cs.validate(inst, res.schedule)
    assert res.lower_bound <= opt * (1 + 1e-9) and res.objective >= opt * (1 - 1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_fcs_by_pricing_equals_fcs_on_the_listed_combinations(seed):
    inst = random_pairwise_instance(11, [2, 4, 11][seed % 3], 0.3, 0.9, seed=seed)
    model = cs.solve(inst, "fcs")
    listed = cs.solve(inst.to_explicit(), "fcs")
    assert model.objective == pytest.approx(listed.objective, rel=1e-9)
    assert inst.max_speed == pytest.approx(inst.to_explicit().max_speed, rel=1e-12)
    opt = cs.solve(inst, "lp").objective
    assert model.objective <= (2 - 1 / inst.max_speed) * opt * (1 + 1e-9)  # Theorem 1


def test_searches_run_on_a_model_instance():
    inst = random_pairwise_instance(8, 3, seed=4)
    opt = cs.solve(inst, "lp").objective
    for name in ("search-pi", "search-ei", "search-ucb"):
        res = cs.solve(inst, name, seed=1)
        cs.validate(inst, res.schedule)
        assert res.objective >= opt * (1 - 1e-9) and res.stats["domain_max_size"] == 3
    big = random_pairwise_instance(200, 4, seed=0)
    assert int(search_domain(big).sizes.max()) == 2  # every pair fits, triples do not


def test_validator_refuses_a_combination_above_max_size_and_reads_model_speeds():
    inst = random_pairwise_instance(6, 2, seed=0)
    sched = cs.combos.CombosSchedule(((("T1", "T2", "T3"), 1.0),))
    with pytest.raises(InputError, match="not an allowed combination"):
        cs.validate(inst, sched)
    listed = inst.to_explicit()
    j = listed.column(listed.mask_of(["T2", "T5"]))
    np.testing.assert_allclose(inst.speeds_in((1, 4)), listed.speeds[[1, 4], j], rtol=1e-14)
    np.testing.assert_allclose(inst.speeds_in((1, 4)), [inst.factors[1, 4], inst.factors[4, 1]])


def test_json_round_trip_and_bad_factors(tmp_path):
    inst = random_pairwise_instance(12, 3, seed=7)
    data = json.loads(json.dumps(inst.to_dict()))
    back = cs.instance_from_dict(data)
    assert isinstance(back, PairwiseInstance) and back.max_size == 3 and back.to_dict() == data
    np.testing.assert_array_equal(back.factors, inst.factors)
    assert cs.solve(back, "lp").objective == pytest.approx(cs.solve(inst, "lp").objective, rel=1e-12)
    data["model"]["factors"][0][1] = 1.5
    with pytest.raises(InputError, match="never speeds a task up"):
        cs.instance_from_dict(data)
    fixed = cs.core.get_family("combos").repair(data)  # --repair clips the factor to 1
    assert fixed.factors[0, 1] == 1.0 and fixed.factors[1, 0] == inst.factors[1, 0]
    data["model"]["factors"][0][1] = 0.5
    data["model"]["max_size"] = 13
    with pytest.raises(InputError, match="max_size"):
        cs.instance_from_dict(data)


def test_solo_speeds_scale_work_and_speeds_alike():
    base = random_pairwise_instance(10, 3, seed=3)
    s = np.linspace(0.5, 2.0, 10)
    scaled = PairwiseInstance(base.work * s, base.factors, 3, s)
    assert cs.solve(scaled, "lp").objective == pytest.approx(cs.solve(base, "lp").objective, rel=1e-9)
    assert cs.solve(scaled, "lp").objective == pytest.approx(
        cs.solve(scaled, "lp", backend="highspy").objective, rel=1e-8
    )


def test_fit_recovers_the_factors_from_the_pairs():
    inst = random_pairwise_instance(9, 4, seed=11)
    fitted = fit_pairwise(inst.to_explicit(2), 4)
    np.testing.assert_allclose(fitted.factors, inst.factors, rtol=1e-12)
    assert cs.solve(fitted, "lp").objective == pytest.approx(cs.solve(inst, "lp").objective, rel=1e-9)
    with pytest.raises(InputError, match="every pair"):
        fit_pairwise(inst.to_explicit(1), 4)


def test_generate_and_measure_commands_write_model_instances(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["generate", "combos", "pairwise", "--tasks", "80", "--max-size", "3", "-o", str(path)]) == 0
    inst = cs.load_instance(path)
    assert isinstance(inst, PairwiseInstance) and inst.n == 80 and inst.m == count_combinations(80, 3)
    py = shlex.quote(sys.executable)
    cpu = f"{py} -c " + shlex.quote("import time\nt = time.time()\nwhile time.time() - t < 0.3: pass")
    out = tmp_path / "m.json"
    code = main(
        ["combos", "measure", cpu, cpu, cpu, "--combinations", "pairs", "--model", "pairwise", "--max-size", "3"]
        + ["--warmup", "0.05", "--sample", "0.15", "--no-perf", "-o", str(out)]
    )
    assert code == 0
    fitted = cs.load_instance(out)
    assert isinstance(fitted, PairwiseInstance) and fitted.max_size == 3 and fitted.n == 3
    assert np.all(fitted.factors <= 1.0)
    assert cs.solve(fitted, "lp").objective <= fitted.work.sum() * (1 + 1e-9)


def test_plot_a_column_generated_schedule_past_62_tasks(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from coschedopt.viz import plot_schedule

    inst = random_pairwise_instance(70, 3, seed=2)
    res = cs.solve(inst, "lp")
    fig, ax = plt.subplots()
    plot_schedule(inst, res.schedule, ax)
    assert len(ax.patches) == sum(len(t) for t, _ in res.schedule.segments)  # one bar per (segment, task)
    plt.close(fig)
    plot_schedule(inst, res.schedule, tmp_path / "g.png")
    assert (tmp_path / "g.png").stat().st_size > 1000


def test_a_node_budget_marks_the_exact_pricing_incomplete_and_its_sets_stay_valid():
    inst = random_pairwise_instance(60, 5, seed=3)
    y = np.full(inst.n, 0.3)
    full = price_exact(inst.factors, y, 5, threshold=1.0, keep=5)
    cut = price_exact(inst.factors, y, 5, threshold=1.0, keep=5, max_nodes=50)
    assert full.complete and not cut.complete and cut.nodes <= 51 < full.nodes
    for s, v in zip(cut.sets, cut.values, strict=True):  # what it found is real, and no better than the best
        assert inst.combination_value(s, y) == pytest.approx(v, rel=1e-12) and v <= full.values[0] * (1 + 1e-12)
