"""The command line end to end: generate, solve, validate, plot, methods; and the suite loads."""

from __future__ import annotations

import json

from coschedopt.cli import main


def test_solve_options_and_an_exact_method_on_the_command_line(tmp_path, capsys):
    """What is hybrid's own: -O options of dual2, the metric printed, colgen's proven optimum in JSON (the generic
    generate -> solve -> validate -> plot path is the family contract kit's)."""
    inst, sol = tmp_path / "i.json", tmp_path / "s.json"
    assert main(["generate", "hybrid", "random", "-n", "12", "-m", "3", "-k", "2", "--seed", "4", "-o", str(inst)]) == 0
    data = json.loads(inst.read_text())
    assert data["kind"] == "hybrid" and len(data["tasks"]) == 12 and (data["cpus"], data["gpus"]) == (3, 2)
    assert main(["solve", str(inst), "-m", "dual2", "-O", "list_order=lpt", "-o", str(sol)]) == 0
    out = capsys.readouterr().out
    assert "makespan" in out and "makespan_over_lambda_bound" in out
    assert main(["solve", str(inst), "-m", "colgen", "--json", "-O", "workers=1"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["status"] == "OPTIMAL" and res["gap"] == 0.0 and len(res["schedule"]["tasks"]) == 12


def test_swdual_generator_and_methods_listing(tmp_path, capsys):
    inst = tmp_path / "sw.json"
    assert main(["generate", "hybrid", "swdual", "--workers", "8", "--database", "rat", "-o", str(inst)]) == 0
    assert json.loads(inst.read_text())["cpus"] == 4
    assert main(["methods", "hybrid", "--options"]) == 0
    listing = capsys.readouterr().out
    for name in ("dual2", "dual32", "milp", "cpsat", "enumerate", "colgen", "heft", "heteroprio"):
        assert name in listing
    assert "-O list_order=" in listing


def test_bad_option_is_named(tmp_path, capsys):
    inst = tmp_path / "i.json"
    assert main(["generate", "hybrid", "random", "-n", "5", "-o", str(inst)]) == 0
    assert main(["solve", str(inst), "-m", "dual2", "-O", "list_order=random"]) != 0
    assert "list_order" in capsys.readouterr().err


def test_the_paper_suite_loads():
    from coschedopt.bench import load_suite

    suite = load_suite("paper-hybrid")
    assert suite.family == "hybrid"
    methods = {c.method for c in suite.cells}
    assert {"dual2", "dual32", "heft", "heteroprio", "colgen"} <= methods


def test_the_exact_and_speed_suites_load():
    from coschedopt.bench import load_suite

    exact = load_suite("hybrid-exact")
    assert exact.family == "hybrid"
    sizes = {(c.method, e.size["n"]) for c in exact.cells for e in exact.instances if e.instance_id == c.instance_id}
    assert sizes == {("colgen", 30), ("colgen", 50), ("cpsat", 30), ("milp", 30)}
    assert len(exact.cells) == 20  # colgen on 10 instances, the generic models on the 5 at n = 30
    speed = load_suite("hybrid-speed")
    assert {c.method for c in speed.cells} == {"dual2"} and len(speed.cells) == 12
    assert [e.size["n"] for e in speed.instances] == [100_000]
