"""The ratio metric names the bound it divides by, and ``coschedopt solve`` prints that bound under that name."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.hybrid.bounds import best_lower_bound
from coschedopt.hybrid.generate import random_hybrid_instance
from coschedopt.hybrid.metrics import hybrid_metrics


def _rows(out: str) -> dict[str, str]:
    """``key  value`` lines of the solve output (the key may hold single spaces)."""
    rows = {}
    for line in out.splitlines():
        key, _, value = line.partition("  ")
        rows[key.strip()] = value.strip()
    return rows


def test_the_ratio_divides_by_the_lambda_bound_printed_beside_it(tmp_path, capsys):
    inst = random_hybrid_instance(10, 3, 2, seed=2)
    res = cs.solve(inst, "heft")
    ratio = hybrid_metrics(inst, res.schedule)["makespan_over_lambda_bound"]
    assert ratio == pytest.approx(res.objective / best_lower_bound(inst))
    path = tmp_path / "i.json"
    cs.save_instance(inst, path)
    assert main(["solve", str(path), "-m", "heft"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert float(rows["lambda_bound"]) == pytest.approx(best_lower_bound(inst), rel=1e-5)
    assert float(rows["makespan_over_lambda_bound"]) == pytest.approx(
        float(rows["makespan"]) / float(rows["lambda_bound"]), rel=1e-3
    )
    # the method's own bound has its own line and name (every hybrid method certifies at least LB_λ)
    assert float(rows["lower bound certified by heft"]) >= float(rows["lambda_bound"])
    assert "ratio_to_lower_bound" not in rows
