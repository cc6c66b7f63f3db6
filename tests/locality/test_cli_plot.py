"""The locality family on the command line (generate, solve, validate, plot) and its Gantt chart."""

from __future__ import annotations

import json

import matplotlib
import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.locality import make_instance
from coschedopt.locality.generate import random_locality_instance, tight_instance
from coschedopt.viz import plot_schedule

matplotlib.use("Agg")


def test_the_constraint_on_the_command_line_and_cpsat_in_json(tmp_path, capsys):
    """What is locality's own: the generator's constraint and its Python twin, cpsat's result in JSON (the generic
    generate -> solve -> validate -> plot path is the family contract kit's)."""
    inst_path, sol_path = tmp_path / "i.json", tmp_path / "s.json"
    argv = ["generate", "locality", "random", "-n", "8", "-m", "16", "-k", "2", "--constraint", "contiguous+local"]
    assert main([*argv, "--seed", "3", "-o", str(inst_path)]) == 0
    inst = cs.load_instance(inst_path)
    assert (inst.n, inst.processors, inst.clusters, inst.constraint) == (8, 16, 2, "contiguous+local")
    assert inst == random_locality_instance(8, 16, 2, constraint="contiguous+local", seed=3)
    capsys.readouterr()
    assert main(["solve", str(inst_path), "-m", "cpsat", "-O", "workers=1", "--json", "-o", str(sol_path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "OPTIMAL" and result["family"] == "locality"
    assert main(["validate", str(inst_path), str(sol_path)]) == 0
    assert f"valid: makespan = {result['objective']:g}" in capsys.readouterr().out


def test_the_same_seed_gives_the_same_jobs_under_every_constraint():
    a = random_locality_instance(10, 32, 4, seed=7, constraint="none")
    b = random_locality_instance(10, 32, 4, seed=7, constraint="local")
    assert a.jobs == b.jobs and a != b


def test_generators_refuse_bad_parameters(capsys):
    assert main(["generate", "locality", "random", "-m", "10", "-k", "4"]) == 2
    assert "--clusters: processors = 10 must be a positive multiple of clusters = 4" in capsys.readouterr().err
    assert main(["generate", "locality", "tight", "-k", "1"]) == 2
    assert "I1 needs at least 2 clusters" in capsys.readouterr().err
    assert main(["generate", "locality", "record", "--name", "nothing"]) == 2
    assert "no record 'nothing'" in capsys.readouterr().err


def test_solve_refusal_is_one_clear_line(tmp_path, capsys):
    path = tmp_path / "big.json"
    cs.save_instance(make_instance([(1.0, 4), (2.0, 1)], 6, 2), path)
    assert main(["solve", str(path), "-m", "nfdh-ls"]) == 2
    assert "size <= ell = 3" in capsys.readouterr().err


def test_a_bad_instance_file_names_file_field_and_value(tmp_path, capsys):
    path = tmp_path / "bad.json"
    data = tight_instance().to_dict()
    data["jobs"][2]["size"] = 0
    path.write_text(json.dumps(data))
    assert main(["solve", str(path), "-m", "list"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: jobs[2].size" in err and "got 0" in err


def test_gantt_has_processor_ids_up_and_the_cluster_boundaries():
    inst = tight_instance("I1", 3)
    res = cs.solve(inst, "cpsat", workers=1)
    fig = plot_schedule(inst, res.schedule)
    ax = fig.axes[0]
    assert ax.get_ylabel() == "processor id" and ax.get_xlabel() == "time"
    boundaries = sorted(line.get_ydata()[0] for line in ax.get_lines())
    assert boundaries == [3, 6]  # between clusters 0 | 1 | 2 of 3 ids
    assert len(ax.patches) >= inst.n


@pytest.mark.parametrize("which", ["I1", "rcs-note"])
def test_tight_generator_on_the_command_line(which, capsys):
    assert main(["generate", "locality", "tight", "--which", which]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == which
