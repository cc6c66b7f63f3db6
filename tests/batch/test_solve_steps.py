"""``coschedopt solve -v`` on a batch instance reports each step's CPU seconds."""

from __future__ import annotations

import re

from coschedopt.batch.generate import random_workload
from coschedopt.cli import main
from coschedopt.core import save_instance


def test_solve_verbose_reports_the_steps(tmp_path, capsys):
    path = tmp_path / "week.json"
    save_instance(random_workload(60, 32, (1, 2, 32), seed=2), path)
    assert (
        main(
            ["solve", str(path), "-m", "conservative", "-O", "allocation=beplat", "-o", str(tmp_path / "o.json"), "-v"]
        )
        == 0
    )
    line = next(x for x in capsys.readouterr().err.splitlines() if x.startswith("CPU seconds:"))
    for step in ("imports", "reading", "prepare", "simulation", "validation", "writing", "summary", "total"):
        assert re.search(rf"\b{step} \d+\.\d{{3}}", line), (step, line)
