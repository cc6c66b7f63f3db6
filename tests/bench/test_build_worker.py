"""``build = "worker"``: a generated instance travels as its recipe and each cell's worker rebuilds it."""

from __future__ import annotations

import json

import pytest

from coschedopt.bench import load_suite, run_suite
from coschedopt.bench.suite import digest, instance_from_data, is_recipe
from coschedopt.core import InputError

from .conftest import query

COMBOS_SUITE = """
[suite]
name = "{name}"
family = "combos"

[[instances]]
group = "all combinations"
generator = "random"
params = {{ alpha_low = 0.75, alpha_high = 0.85 }}
grid = {{ tasks = {tasks} }}
seeds = [1]
{build}

[[methods]]
name = "lp"
options = {{ backend = "highspy" }}

[[methods]]
name = "fcs"
"""


def combos_suite(write_suite, name: str, build: str = "", tasks: str = "[5, 6]"):
    return write_suite(COMBOS_SUITE.format(name=name, build=build, tasks=tasks), name=name)


def test_a_worker_built_suite_gives_the_parent_built_suites_objectives(write_suite, tmp_path):
    worker, parent = tmp_path / "w.sqlite", tmp_path / "p.sqlite"
    # one suite name for both: the same cells but for the instance's id (its recipe's hash, or its JSON's)
    run_suite(combos_suite(write_suite, "lp", 'build = "worker"'), db=worker, workers=1, progress=False)
    run_suite(combos_suite(write_suite, "lp"), db=parent, workers=1, progress=False)
    sql = "SELECT instance_name, method_label, status, objective FROM cells ORDER BY 1, 2"
    rows = query(worker, sql)
    assert len(rows) == 4 and all(r[2] in ("OPTIMAL", "FEASIBLE") for r in rows)
    assert rows == query(parent, sql)
    # the worker's rebuild is in the cell's stats; a parent-built cell has none
    assert all("build_seconds" in json.loads(s) for (s,) in query(worker, "SELECT stats FROM cells"))
    assert not any("build_seconds" in json.loads(s) for (s,) in query(parent, "SELECT stats FROM cells"))


def test_the_store_keeps_the_recipe_as_the_instances_data(write_suite, tmp_path):
    db = tmp_path / "w.sqlite"
    path = combos_suite(write_suite, "lp", 'build = "worker"', tasks="[5]")
    run_suite(path, db=db, workers=1, progress=False)
    [(instance_id, name, size, data)] = query(db, "SELECT instance_id, name, size, data FROM instances")
    recipe = json.loads(data)
    assert recipe == {
        "generator": "combos random",
        "params": {"tasks": 5, "alpha_low": 0.75, "alpha_high": 0.85, "max_size": None},
        "seed": 1,
    }
    assert is_recipe(recipe) and instance_id == digest(recipe)
    assert name == "random-n5-a0.75-0.85-s1" and json.loads(size)["n"] == 5
    # the cells name the instance as the parent-built suite does
    assert {r[0] for r in query(db, "SELECT instance_name FROM cells")} == {name}
    # rebuilt from the recipe, it is the instance a parent-built suite stores as JSON
    [parent] = load_suite(combos_suite(write_suite, "p", tasks="[5]")).instances
    assert not is_recipe(parent.data)
    assert instance_from_data(recipe).to_dict() == instance_from_data(parent.data).to_dict()


def test_a_worker_built_entry_keeps_its_size_and_name_but_not_the_instance(write_suite):
    suite = load_suite(combos_suite(write_suite, "big", 'build = "worker"', tasks="[18]"))
    [entry] = suite.instances
    assert entry.instance is None and entry.build == "worker" and is_recipe(entry.data)
    assert entry.size["n"] == 18 and entry.size["combinations"] == 2**18 - 1
    assert entry.name == "random-n18-a0.75-0.85-s1"
    assert {c.instance_name for c in suite.cells} == {entry.name}


def test_a_parent_built_combos_entry_above_2_17_combinations_is_refused_with_the_hint(write_suite):
    path = combos_suite(write_suite, "big", tasks="[17, 18]")
    with pytest.raises(InputError) as err:
        load_suite(path)
    message = str(err.value)
    assert "\n" not in message
    assert str(path) in message and "instances[0]" in message and "tasks = 18" in message
    assert "262,143 combinations to write" in message and 'build = "worker"' in message


def test_the_command_line_still_refuses_to_write_more_than_2_17_combinations(tmp_path, capsys):
    from coschedopt.cli import main

    out = tmp_path / "big.json"
    assert main(["generate", "combos", "random", "--tasks", "18", "-o", str(out)]) == 2
    assert "262,143 combinations to write" in capsys.readouterr().err and not out.exists()
