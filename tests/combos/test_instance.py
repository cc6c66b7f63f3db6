"""Combos instances: validation errors of the issue, JSON round trip, sparse sets, the generator."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings

import coschedopt as cs
from coschedopt.combos import (
    MAX_TASKS_ALL_COMBINATIONS,
    CombosInstance,
    all_combination_masks,
    combination_masks_up_to,
    repair_monotone,
)
from coschedopt.combos.generate import random_combos_instance
from coschedopt.combos.instance import popcount, subset_min
from coschedopt.core import InputError

from .strategies import arbitrary_monotone_instance, combos_instances


def small_dict() -> dict:
    return {
        "kind": "combos",
        "name": "small",
        "tasks": [{"name": "T1", "work": 150.0}, {"name": "T2", "work": 120.0}, {"name": "T3", "work": 90.0}],
        "combinations": [
            {"tasks": ["T1"], "speeds": [1.0]},
            {"tasks": ["T2"], "speeds": [1.0]},
            {"tasks": ["T3"], "speeds": [1.0]},
            {"tasks": ["T1", "T2"], "speeds": [0.8, 0.7]},
            {"tasks": ["T3", "T1"], "speeds": [0.9, 0.6]},
            {"tasks": ["T1", "T2", "T3"], "speeds": [0.5, 0.6, 0.7]},
        ],
    }


def test_reads_issue_json_in_any_task_order():
    inst = cs.instance_from_dict(small_dict())
    assert inst.n == 3 and inst.m == 6 and not inst.is_full
    j = inst.column(inst.mask_of(["T1", "T3"]))
    assert inst.a[inst.index["T1"], j] == 0.6 and inst.a[inst.index["T3"], j] == 0.9
    assert cs.core.get_family("combos").describe(inst) == {"n": 3, "combinations": 6}


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d["combinations"][3].update(tasks=["T1", "T9"]), ["unknown task 'T9'", "T1, T2, T3"]),
        (lambda d: d["combinations"].pop(1), ["'T2'", "no singleton"]),
        (lambda d: d["combinations"][3].update(speeds=[0.8, 0.0]), ["speed of task 'T2'", "positive", "0.0"]),
        (lambda d: d["combinations"][3].update(speeds=[-0.1, 0.5]), ["speed of task 'T1'", "-0.1"]),
        (lambda d: d["combinations"][3].update(speeds=[float("nan"), 0.5]), ["speed of task 'T1'", "nan"]),
        (lambda d: d["combinations"][3].update(speeds=[0.8]), ["2 tasks but 1 speeds"]),
        (
            lambda d: d["combinations"].append({"tasks": ["T2", "T1"], "speeds": [0.7, 0.8]}),
            ["duplicate combination", "'T1', 'T2'", "combinations[3]", "combinations[6]"],
        ),
        (lambda d: d["combinations"][3].update(tasks=["T1", "T1"]), ["'T1' listed twice"]),
        (lambda d: d["tasks"][0].update(work=0), ["task 'T1'", "work", "positive"]),
        (lambda d: d["tasks"].append({"name": "T1", "work": 3.0}), ["duplicate task name 'T1'"]),
        (lambda d: d.pop("combinations"), ["missing field 'combinations'"]),
    ],
)
def test_bad_input_one_clear_message(mutate, words):
    d = small_dict()
    mutate(d)
    with pytest.raises(InputError) as err:
        cs.instance_from_dict(d)
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_monotonicity_violation_names_task_and_both_combinations():
    d = small_dict()
    d["combinations"][5]["speeds"] = [0.5, 0.75, 0.7]  # T2: 0.75 in {T1,T2,T3} > 0.7 in {T1,T2}
    with pytest.raises(InputError) as err:
        cs.instance_from_dict(d)
    msg = str(err.value)
    assert "task 'T2'" in msg and "['T1', 'T2', 'T3']" in msg and "['T1', 'T2']" in msg and "constraint (1)" in msg


def test_monotonicity_against_a_non_immediate_subset_in_a_sparse_set():
    # only {T1}, {T2}, {T3}, {T1,T2,T3}: T1 faster than alone (normalised 1.25) must be caught
    d = small_dict()
    d["combinations"] = d["combinations"][:3] + [{"tasks": ["T1", "T2", "T3"], "speeds": [1.25, 0.5, 0.5]}]
    with pytest.raises(InputError) as err:
        cs.instance_from_dict(d)
    assert "task 'T1'" in str(err.value) and "['T1']" in str(err.value)


def test_speeds_are_normalised_by_the_singleton_speed():
    d = small_dict()
    for c in d["combinations"]:  # task T1 measured in other units: x 4
        c["speeds"] = [s * 4 if t == "T1" else s for t, s in zip(c["tasks"], c["speeds"], strict=True)]
    d["tasks"][0]["work"] = 600.0
    inst = cs.instance_from_dict(d)
    ref = cs.instance_from_dict(small_dict())
    np.testing.assert_allclose(inst.a, ref.a)
    np.testing.assert_allclose(inst.b, ref.b)
    assert cs.solve(inst, "lp").objective == pytest.approx(cs.solve(ref, "lp").objective, rel=1e-9)


def test_normalised_speed_above_one_is_refused_and_repair_clips_it():
    d = small_dict()
    d["combinations"][3]["speeds"] = [1.1, 0.7]
    with pytest.raises(InputError, match="constraint"):
        cs.instance_from_dict(d)
    fixed = cs.instance_from_dict(d, repair=True)
    assert fixed.a[fixed.index["T1"], fixed.column(fixed.mask_of(["T1", "T2"]))] == 1.0
    assert fixed.a.max() <= 1.0


def test_n_too_large_for_all_combinations_says_how_many_and_suggests_sparse():
    n = MAX_TASKS_ALL_COMBINATIONS + 8
    with pytest.raises(InputError) as err:
        random_combos_instance(n, seed=0)
    msg = str(err.value)
    assert f"{2**n - 1:,}" in msg and "sparse" in msg and "--max-size" in msg
    inst = random_combos_instance(n, seed=0, max_size=2)  # the suggestion works
    assert inst.m == n + n * (n - 1) // 2


def test_more_than_62_tasks_use_unbounded_masks_and_round_trip():
    # combinations above bit 63 (Python integers): sorted, looked up, written and read back
    inst = random_combos_instance(70, seed=3, max_size=2)
    assert inst.masks.dtype == object and inst.m == 70 + 70 * 69 // 2
    top = inst.mask_of(["T69", "T70"])
    assert top >= 2**63 and inst.combination(inst.column(top)) == (68, 69)
    assert list(inst.masks) == sorted(inst.masks)
    back = cs.instance_from_dict(json.loads(json.dumps(inst.to_dict())))
    assert list(back.masks) == list(inst.masks) and back.to_dict() == inst.to_dict()
    np.testing.assert_array_equal(back.speeds, inst.speeds)
    # a missing singleton is still refused past 62 tasks
    with pytest.raises(InputError, match="no singleton"):
        CombosInstance(np.ones(63), np.array([1]), np.eye(63)[:, :1])


@settings(max_examples=60, deadline=None)
@given(combos_instances(max_n=6))
def test_json_round_trip(inst):
    data = json.loads(json.dumps(inst.to_dict()))
    back = cs.instance_from_dict(data)
    assert back.task_names == inst.task_names and back.name == inst.name
    np.testing.assert_array_equal(back.masks, inst.masks)
    np.testing.assert_array_equal(back.speeds, inst.speeds)
    np.testing.assert_array_equal(back.work, inst.work)
    assert back.to_dict() == data


def test_save_and_load_file(tmp_path):
    inst = random_combos_instance(5, seed=3, max_size=3)
    cs.save_instance(inst, tmp_path / "i.json")
    back = cs.load_instance(tmp_path / "i.json")
    np.testing.assert_array_equal(back.speeds, inst.speeds)
    assert back.meta["max_size"] == 3


def test_generator_is_seeded_and_follows_section_7():
    a = random_combos_instance(6, 0.45, 0.55, seed=11)
    b = random_combos_instance(6, 0.45, 0.55, seed=11)
    c = random_combos_instance(6, 0.45, 0.55, seed=12)
    np.testing.assert_array_equal(a.speeds, b.speeds)
    assert not np.array_equal(a.speeds, c.speeds)
    assert np.all((a.work >= 100) & (a.work <= 200))
    assert a.is_full and np.all(a.singleton_speed == 1.0)
    # each speed is its smallest immediate sub-combination's value times a factor in [alpha_i, 1]
    alpha = np.array(a.meta["alpha"])
    assert np.all((alpha >= 0.45) & (alpha <= 0.55))
    for j, mask in enumerate(a.masks):
        for i in range(a.n):
            if not (mask >> i) & 1 or mask == 1 << i:
                continue
            parent = min(a.a[i, a.column(int(mask) & ~(1 << k))] for k in range(a.n) if k != i and (mask >> k) & 1)
            ratio = a.a[i, j] / parent
            assert alpha[i] - 1e-12 <= ratio <= 1 + 1e-12


def test_sparse_masks_up_to_size():
    masks = combination_masks_up_to(7, 3)
    assert masks.size == 7 + 21 + 35 and np.all(np.diff(masks) > 0)
    assert popcount(masks).max() == 3
    np.testing.assert_array_equal(combination_masks_up_to(4, 4), all_combination_masks(4))


def test_subset_min_matches_brute_force():
    rng = np.random.default_rng(0)
    v = rng.uniform(size=32)
    g = subset_min(v, 5)
    for s in range(32):
        assert g[s] == min(v[t] for t in range(32) if t & ~s == 0)


@pytest.mark.parametrize("max_size", [None, 2])
def test_repair_monotone_gives_the_largest_monotone_profile_below(max_size):
    inst = arbitrary_monotone_instance(5, 7, max_size=max_size)
    rng = np.random.default_rng(1)
    noisy = np.where(inst.speeds > 0, inst.speeds * rng.uniform(0.8, 1.2, inst.speeds.shape), 0.0)
    fixed = repair_monotone(noisy, inst.masks)
    assert np.all(fixed <= noisy + 1e-15)
    CombosInstance(inst.work, inst.masks, fixed)  # satisfies constraint (1): no error
    np.testing.assert_array_equal(repair_monotone(inst.speeds, inst.masks), inst.speeds)


def test_speed_outside_the_combination_must_be_zero():
    masks = all_combination_masks(2)
    sp = np.array([[1.0, 0.5, 0.9], [0.0, 1.0, 0.9]])  # T1 has a speed in {T2}
    with pytest.raises(InputError, match="not in combination"):
        CombosInstance(np.ones(2), masks, sp)


def test_max_speed_and_combination_speed():
    inst = cs.instance_from_dict(small_dict())
    assert inst.max_speed == pytest.approx(1.8)
    assert math.isclose(inst.combination_speed.sum(), 3 + 1.5 + 1.5 + 1.8)
