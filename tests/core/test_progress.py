"""core/progress.py: reports reach the listener, none without one, none from a method's preparation."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core import progress
from coschedopt.core.registry import Method, run_preparation


def test_reports_reach_the_listener_and_the_latest_values_are_kept():
    seen = []
    with progress.listen(seen.append) as latest:
        progress.report(bound=80.0)
        progress.report(incumbent=100.0)
        progress.report(gap=0.3)
        progress.report(incumbent=float("inf"), bound=float("nan"))  # not values: ignored
        assert latest() == progress.Progress(100.0, 80.0, 0.3)
    assert [s.incumbent for s in seen] == [None, 100.0, 100.0, 100.0]
    assert seen[-1].gap == pytest.approx(0.2)  # the method's own incumbent and bound first
    assert progress.Progress(None, None, 0.3).gap == 0.3
    assert not progress.listening()
    progress.report(incumbent=1.0)  # no listener: nothing happens


def reporting_preparation() -> None:
    """A preparation that reports an incumbent, as a warm-up solve does."""
    progress.report(incumbent=1.0)


def test_a_methods_preparation_reports_nothing(registry):
    seen = []
    m = Method("pack", "x", None, True, "", prepare=f"{__name__}:reporting_preparation")
    with progress.listen(seen.append):
        run_preparation(m)
        progress.report(incumbent=2.0)
    assert [s.incumbent for s in seen] == [2.0]


def test_an_exact_solvers_gap_is_reported_while_it_runs():
    from coschedopt.pack.generate import random_pack_instance

    seen = []
    with progress.listen(seen.append):
        res = cs.solve(random_pack_instance(6, 4, 2, seed=1), "ilp", time_limit=60)
    assert res.status is cs.Status.OPTIMAL
    assert any(s.solver_gap is not None for s in seen)
