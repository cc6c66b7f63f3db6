"""The example family ``toy`` (the template of docs/adding-a-family.md) works end to end."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.examples.toy import ToyInstance, ToySchedule, toy_objective, validate_schedule
from coschedopt.examples.toy.generate import random_toy_instance


def brute_force(instance: ToyInstance) -> float:
    return min(toy_objective(instance, ToySchedule(p)) for p in itertools.permutations(range(instance.n)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=1, max_size=6))
def test_exact_equals_brute_force_and_baselines_are_never_better(values):
    inst = ToyInstance(tuple(float(v) for v in values))
    opt = cs.solve(inst, "toy-exact")
    assert opt.status is cs.Status.OPTIMAL and opt.objective == pytest.approx(brute_force(inst))
    for name in ("toy-identity", "toy-random"):
        assert cs.solve(inst, name, seed=1).objective >= opt.objective - 1e-9


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"kind": "toy", "values": []}, "values"),
        ({"kind": "toy", "values": [1, -2]}, "values[1]"),
        ({"kind": "toy", "values": [1, float("nan")]}, "values[1]"),
        ({"kind": "toy", "values": [1], "k": 0}, "k"),
        ({"kind": "toy", "values": [1], "colour": "red"}, "colour"),
    ],
)
def test_bad_instances_name_the_field(data, where):
    with pytest.raises(cs.InputError) as info:
        cs.instance_from_dict(data)
    assert info.value.where == where


def test_validator_refuses_a_non_permutation():
    inst = random_toy_instance(4, seed=0)
    with pytest.raises(ValueError, match="not a permutation"):
        validate_schedule(inst, ToySchedule((0, 1, 1, 3)))


def test_cli_generate_solve_plot(tmp_path, capsys):
    inst, sol, png = tmp_path / "t.json", tmp_path / "s.json", tmp_path / "s.png"
    assert main(["generate", "toy", "random", "--size", "4", "-o", str(inst)]) == 0
    assert main(["solve", str(inst), "-m", "toy-random", "-O", "tries=5", "-o", str(sol)]) == 0
    assert json.loads(sol.read_text())["instance"]["kind"] == "toy"
    assert main(["plot", str(sol), "-o", str(png)]) == 0 and png.stat().st_size > 0
    assert main(["methods", "toy", "--options"]) == 0
    assert "-O tries=" in capsys.readouterr().out


def test_the_example_suite_loads():
    from coschedopt.bench import load_suite

    suite = load_suite("toy-quick")
    assert suite.family == "toy" and len(suite.instances) == 6
    assert {c.method for c in suite.cells} == {"toy-exact", "toy-identity", "toy-random"}
