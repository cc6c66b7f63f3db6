"""The command line: generate, solve (every method, with node IDs), validate, plot; bad input in one line."""

from __future__ import annotations

import json

import pytest

from coschedopt.cli import main

METHODS = ("cbf", "nos", "mic", "mic+c", "inf", "inf+c", "fit", "order-search", "cpsat", "milp")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("evolving") / "small.json"
    assert (
        main(["generate", "evolving", "small", "--seed", "1", "--min-apps", "3", "--max-apps", "3", "-o", str(path)])
        == 0
    )
    return path


@pytest.mark.parametrize("name", METHODS)
def test_every_method_solves_with_node_ids_validates_and_plots(name, small, tmp_path):
    sol, png = tmp_path / "sol.json", tmp_path / "sol.png"
    options = ["-O", "node_ids=true"] + (["-O", "workers=1", "-O", "stretch_limit=inf"] if name == "cpsat" else [])
    assert main(["solve", str(small), "-m", name, *options, "-o", str(sol)]) == 0
    data = json.loads(sol.read_text())
    assert data["schedule"]["node_ids"] and data["instance"]["kind"] == "evolving"
    assert main(["validate", str(small), str(sol)]) == 0
    assert main(["plot", str(sol), "-o", str(png)]) == 0 and png.stat().st_size > 0


def test_generate_the_paper_workload_to_stdout(capsys):
    assert main(["generate", "evolving", "paper", "--seed", "7"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nodes"] == 100 and 15 <= len(data["applications"]) <= 20


def test_methods_lists_the_stretch_limit(capsys):
    assert main(["methods", "evolving", "--options"]) == 0
    out = capsys.readouterr().out
    assert "-O stretch_limit=" in out and "mic+c" in out and "-O node_ids=" in out


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


INSTANCE = {
    "kind": "evolving",
    "nodes": 10,
    "applications": [{"name": "A", "stages": [{"duration": 2, "nodes": 3}, {"duration": 2, "nodes": 6}]}],
}


@pytest.mark.parametrize(
    ("stage", "words"),
    [
        ({"duration": 2, "nodes": 11}, "applications[0].stages[1].nodes: needs 11 nodes, more than the cluster's 10"),
        (
            {"duration": 0, "nodes": 6},
            "applications[0].stages[1].duration: a duration in seconds must be a positive finite number <= 1e+15, got 0",
        ),
        (
            {"duration": -3, "nodes": 6},
            "applications[0].stages[1].duration: a duration in seconds must be a positive finite number <= 1e+15, got -3",
        ),
        ({"duration": 2, "nodes": 5.5}, "applications[0].stages[1].nodes: must be an integer node count, got 5.5"),
    ],
)
def test_a_bad_instance_file_gets_one_line_naming_file_field_and_value(stage, words, tmp_path, capsys):
    data = json.loads(json.dumps(INSTANCE))
    data["applications"][0]["stages"][1] = stage
    path = write(tmp_path, "bad.json", data)
    assert main(["solve", path, "-m", "nos"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"coschedopt: error: {path}: {words}"


def test_a_stretch_limit_below_one_is_refused_before_any_work(tmp_path, capsys):
    path = write(tmp_path, "inst.json", INSTANCE)
    assert main(["solve", path, "-m", "fit", "-O", "stretch_limit=0.5"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "coschedopt: error: --option stretch_limit: option 'stretch_limit' must be a number >= 1.0, got 0.5"


@pytest.mark.parametrize(
    ("stage", "words"),
    [
        ({"duration": 2, "nodes": 7}, "applications[0].stages[1].nodes: C1: 'A' requests 6 nodes in stage 1, got 7"),
        (
            {"duration": 3, "nodes": 6},
            "applications[0].stages[1].duration: C1: the last stage of 'A' is never stretched",
        ),
    ],
)
def test_validate_names_the_broken_field_of_a_schedule(stage, words, tmp_path, capsys):
    inst = write(tmp_path, "inst.json", INSTANCE)
    schedule = {"applications": [{"application": "A", "start": 0, "stages": [{"duration": 2, "nodes": 3}, stage]}]}
    sol = write(tmp_path, "sol.json", schedule)
    assert main(["validate", inst, sol]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"coschedopt: invalid: {sol}: {words}")
