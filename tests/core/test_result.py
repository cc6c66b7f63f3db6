"""core/result.py: the one Result type."""

from __future__ import annotations

import json
import math

import pytest

from coschedopt.core import Result, Status


def test_result_gap_and_dict():
    r = Result(Status.TIME_LIMIT, objective=110.0, lower_bound=100.0)
    assert r.gap == pytest.approx(10 / 110)
    assert Result(Status.FEASIBLE, objective=5.0).gap is None
    d = Result(Status.OPTIMAL, objective=1.0, lower_bound=math.inf).to_dict()
    assert d["lower_bound"] is None and d["status"] == "OPTIMAL"
    json.dumps(d, allow_nan=False)
