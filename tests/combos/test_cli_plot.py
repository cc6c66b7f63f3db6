"""The combos generator on the command line, and the Gantt chart."""

from __future__ import annotations

import json

import matplotlib
import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.combos.generate import random_combos_instance
from coschedopt.core.commands import get_generator
from coschedopt.viz import plot_schedule

matplotlib.use("Agg")


def test_the_legacy_generator_name_and_search_options_on_the_command_line(tmp_path, capsys):
    """What is combos' own: ``generate combos`` without a generator name, the search's -O options echoed in its
    stats (the generic generate -> solve -> validate -> plot path is the family contract kit's)."""
    inst_path, sol_path = tmp_path / "i.json", tmp_path / "s.json"
    argv = ["generate", "combos", "--tasks", "5", "--alpha-low", "0.45", "--alpha-high", "0.55", "--seed", "4"]
    assert main([*argv, "-o", str(inst_path)]) == 0
    inst = cs.load_instance(inst_path)
    assert inst.n == 5 and inst.m == 31 and inst.meta["seed"] == 4
    capsys.readouterr()
    argv = ["solve", str(inst_path), "-m", "search-ucb", "-O", "k=0.8", "-O", "measure_time=5", "--json"]
    assert main([*argv, "-o", str(sol_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "FEASIBLE" and data["stats"]["k"] == 0.8


def test_generator_make_matches_the_function():
    inst = get_generator("combos", "random").make(tasks=4, alpha_low=0.2, alpha_high=0.3, max_size=None, seed=7)
    ref = random_combos_instance(4, 0.2, 0.3, seed=7)
    assert (inst.speeds == ref.speeds).all()


def test_generate_refuses_bad_alpha_and_too_many_tasks(capsys):
    assert main(["generate", "combos", "--tasks", "4", "--alpha-low", "0.9", "--alpha-high", "0.5"]) == 2
    assert "alpha_low" in capsys.readouterr().err
    assert main(["generate", "combos", "--tasks", "40"]) == 2
    err = capsys.readouterr().err
    assert "1,099,511,627,775" in err and "sparse" in err


@pytest.mark.parametrize("method", ["lp", "search-pi"])
def test_plot_combos_schedule_to_file_and_axes(tmp_path, method):
    import matplotlib.pyplot as plt

    inst = random_combos_instance(4, seed=1)
    res = cs.solve(inst, method, seed=0)
    plot_schedule(inst, res.schedule, tmp_path / "g.png", title=method)
    assert (tmp_path / "g.png").stat().st_size > 1000
    fig, ax = plt.subplots()
    plot_schedule(inst, res.schedule, ax)
    # one bar per (segment, task) pair
    assert len(ax.patches) == sum(len(t) for t, _ in res.schedule.segments)
    plt.close(fig)
