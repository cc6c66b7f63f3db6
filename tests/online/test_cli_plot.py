"""The command line (generate, solve, validate, plot, methods, table-3-1) and the Gantt chart."""

from __future__ import annotations

import json

import matplotlib

matplotlib.use("Agg")

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.online.generate import figure_3_2, random_instance
from coschedopt.online.plot import draw_online_schedule


def test_figure_3_2_on_the_command_line(tmp_path, capsys):
    """What is online's own: Figure 3.2's example and its one redirection (the generic generate -> solve ->
    validate -> plot path is the family contract kit's)."""
    inst, sol = tmp_path / "i.json", tmp_path / "s.json"
    assert main(["generate", "online", "fig-3-2", "--processors", "2", "-o", str(inst)]) == 0
    assert main(["solve", str(inst), "--method", "spt-rd", "-O", "tau=3", "--json", "-o", str(sol)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["objective"] == 43 and result["stats"]["redirections"] == 1
    assert result["schedule"]["dedicated"] == 1


def test_generate_random_and_solve_exactly(tmp_path, capsys):
    inst = tmp_path / "r.json"
    assert main(["generate", "online", "random", "-n", "6", "-m", "2", "--objective", "l2-flow", "-o", str(inst)]) == 0
    assert main(["solve", str(inst), "--method", "cpsat", "-O", "workers=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "OPTIMAL"


def test_bad_option_on_the_command_line_is_one_message(tmp_path, capsys):
    inst = tmp_path / "i.json"
    main(["generate", "online", "fig-3-2", "--processors", "2", "-o", str(inst)])
    code = main(["solve", str(inst), "--method", "spt-rd", "-O", "dedicated=2"])
    assert code != 0
    err = capsys.readouterr().err
    assert "dedicated" in err and "1 <= m_d < m = 2, got 2" in err and "Traceback" not in err


def test_methods_lists_the_nine_policies_and_the_exact_methods(capsys):
    assert main(["methods", "online"]) == 0
    out = capsys.readouterr().out
    for name in ("fcfs", "gspt", "gsrpt", "gspt-rd", "gspt-rr", "spt", "srpt", "spt-rd", "spt-rr", "milp", "cpsat"):
        assert f"  {name} " in out


def test_the_gantt_chart_shows_killed_runs_and_the_dedicated_pool():
    import matplotlib.pyplot as plt

    inst = figure_3_2(10, 2)
    res = cs.solve(inst, "spt-rd", tau=3)
    fig, ax = plt.subplots()
    draw_online_schedule(inst, res.schedule, ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "killed run (work lost)" in labels and "dedicated pool" in labels and "completed run" in labels
    hatched = [c for c in ax.collections if c.get_hatch()]
    assert len(hatched) == 1  # T0's killed run
    plt.close(fig)


def test_large_schedules_draw_without_labels():
    import matplotlib.pyplot as plt

    inst = random_instance(300, 8, seed=1)
    res = cs.solve(inst, "gsrpt")
    fig, ax = plt.subplots()
    draw_online_schedule(inst, res.schedule, ax)
    assert not ax.texts and "preempted piece" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)
