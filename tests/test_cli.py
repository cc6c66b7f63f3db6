"""The ``coschedopt`` command, end to end through ``main(argv)`` (no subprocess needed)."""

from __future__ import annotations

import json

import pytest

from coschedopt.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def inst_file(tmp_path, capsys):
    f = tmp_path / "inst.json"
    code, _, err = run(
        capsys, "generate", "random", "--tasks", "6", "--processors", "5", "-k", "3", "--seed", "4", "-o", str(f)
    )
    assert code == 0 and "wrote" in err
    return f


def test_generate_to_stdout_is_an_instance(capsys):
    code, out, _ = run(capsys, "generate", "workload-ii", "--max-pack-size", "4", "--seed", "1")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "pack" and len(data["tasks"]) == 65 and data["max_pack_size"] == 4


def test_solve_json_prints_exactly_one_result(inst_file, capsys):
    code, out, _ = run(capsys, "solve", str(inst_file), "--method", "enumerate", "--json")
    data = json.loads(out)  # exactly one JSON document on stdout
    assert code == 0 and data["status"] == "OPTIMAL" and data["gap"] == 0.0
    assert len({e["task"] for p in data["schedule"]["packs"] for e in p["tasks"]}) == 6


def test_solve_writes_solution_that_validates_and_plots(inst_file, tmp_path, capsys):
    sol, png = tmp_path / "sol.json", tmp_path / "packs.png"
    code, out, _ = run(capsys, "solve", str(inst_file), "-m", "pack-by-pack-9", "-o", str(sol))
    assert code == 0 and "FEASIBLE" in out and "relative_cost" in out
    code, out, _ = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 0 and out.startswith("valid: cost = ")
    code, _, _ = run(capsys, "plot", str(sol), "-o", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


def test_validate_rejects_a_solution_of_another_instance(inst_file, tmp_path, capsys):
    other, sol = tmp_path / "other.json", tmp_path / "sol.json"
    run(capsys, "generate", "random", "--tasks", "4", "--processors", "5", "-k", "3", "-o", str(other))
    run(capsys, "solve", str(other), "-m", "pack-approx", "-o", str(sol))
    code, _, err = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 1 and "not scheduled" in err and "sol.json" in err


def test_validate_rejects_a_malformed_solution(inst_file, tmp_path, capsys):
    sol = tmp_path / "sol.json"
    sol.write_text(json.dumps({"packs": [{"tasks": [{"task": "T1", "processors": "two"}]}]}))
    code, _, err = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 2 and "sol.json: schedule.packs[0].tasks[0].processors: processors must be an integer" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--method", "nope"], "unknown method 'nope' for kind 'pack'"),
        (["--method", "matching"], "matching solves k = 1 or 2"),
        (["--method", "enumerate", "--option", "bogus=1"], "unknown option 'bogus' of method 'enumerate'"),
    ],
)
def test_solve_errors_are_one_clear_line(inst_file, capsys, argv, message):
    code, out, err = run(capsys, "solve", str(inst_file), *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_malformed_json_instance(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    code, _, err = run(capsys, "solve", str(f), "-m", "enumerate")
    assert code == 2 and "bad.json:1:2: malformed JSON" in err


def test_profile_breaking_eq1_needs_repair(tmp_path, capsys):
    f = tmp_path / "inst.json"
    f.write_text(
        json.dumps({"kind": "pack", "processors": 2, "max_pack_size": 2, "tasks": [{"name": "A", "times": [1.0, 2.0]}]})
    )
    code, _, err = run(capsys, "solve", str(f), "-m", "enumerate")
    assert code == 2 and "task 'A' breaks Eq. (1)" in err
    code, out, _ = run(capsys, "solve", str(f), "-m", "enumerate", "--repair", "--json")
    assert code == 0 and json.loads(out)["objective"] == 1.0


def test_methods_lists_exact_and_heuristics(capsys):
    code, out, _ = run(capsys, "methods", "pack")
    assert code == 0
    for name in ("ilp", "ilp-cbc", "enumerate", "matching", "pack-approx", "random-proc-9"):
        assert name in out


@pytest.mark.parametrize(
    ("generate", "method", "options"),
    [
        (["random", "--tasks", "4", "--processors", "3", "-k", "2"], "branch-and-price", []),
        (["random", "--tasks", "3", "--processors", "2", "-k", "2"], "ilp", []),
        (["combos", "--tasks", "3"], "lp", ["-O", 'backend="pyomo"']),
        (["combos", "--tasks", "3"], "lp", ["-O", 'backend="highspy"']),
    ],
)
def test_solve_json_stdout_holds_only_the_result_in_a_fresh_process(tmp_path, generate, method, options):
    # HiGHS >= 1.16 writes a banner on file descriptor 1 when a process builds its first
    # solver object: capsys does not see it, a fresh process's stdout does
    import subprocess
    import sys

    f = tmp_path / "inst.json"
    cli = [sys.executable, "-c", "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"]
    subprocess.run([*cli, "generate", *generate, "-o", str(f)], check=True, capture_output=True)
    out = subprocess.run(
        [*cli, "solve", str(f), "-m", method, *options, "--json"], check=True, capture_output=True, text=True
    )
    data = json.loads(out.stdout)  # fails on anything printed around the JSON document
    assert data["method"] == method and data["status"] == "OPTIMAL"
