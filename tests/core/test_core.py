"""core/: Result, the registry and solve(), deadlines, atomic JSON writing."""

from __future__ import annotations

import json
import math
import time

import pytest

import coschedopt as cs
from coschedopt.core import Deadline, InputError, Result, Status, get_method, method, write_json
from coschedopt.pack import PackSchedule
from coschedopt.pack.generate import random_pack_instance


def test_result_gap_and_dict():
    r = Result(Status.TIME_LIMIT, objective=110.0, lower_bound=100.0)
    assert r.gap == pytest.approx(10 / 110)
    assert Result(Status.FEASIBLE, objective=5.0).gap is None
    d = Result(Status.OPTIMAL, objective=1.0, lower_bound=math.inf).to_dict()
    assert d["lower_bound"] is None and d["status"] == "OPTIMAL"
    json.dumps(d, allow_nan=False)


def test_solve_recomputes_objective_and_rejects_invalid_schedules():
    inst = random_pack_instance(3, 2, 2, seed=1)

    @method("pack", "test-liar")
    def liar(instance, **_):
        """Claims cost 0 for a valid schedule."""
        s = PackSchedule.from_indices(instance, [[(i, 2)] for i in range(instance.n)])
        return Result(Status.FEASIBLE, schedule=s, objective=0.0)

    @method("pack", "test-broken")
    def broken(instance, **_):
        """Returns a schedule that forgets a task."""
        return Result(Status.FEASIBLE, schedule=PackSchedule.from_indices(instance, [[(0, 1)]]))

    res = cs.solve(inst, "test-liar")
    assert res.objective == pytest.approx(float(inst.times[:, 1].sum()))
    assert res.method == "test-liar" and res.family == "pack" and res.runtime >= 0
    with pytest.raises(RuntimeError, match="returned an invalid schedule: .*not scheduled"):
        cs.solve(inst, "test-broken")


def test_unknown_method_and_bad_time_limit():
    inst = random_pack_instance(3, 2, 2, seed=1)
    with pytest.raises(InputError, match="unknown method 'nope' for kind 'pack'; known: .*enumerate"):
        cs.solve(inst, "nope")
    with pytest.raises(InputError, match="time_limit must be a positive number"):
        cs.solve(inst, "enumerate", time_limit=-1)
    assert get_method("pack", "enumerate").exact


def test_deadline():
    d = Deadline(None)
    assert not d.expired() and d.remaining() == math.inf
    d = Deadline(0.01)
    time.sleep(0.02)
    assert d.expired() and d.remaining() == 0.0


def test_deadline_share():
    # a sub-task's box: a share of the time left, capped; 1 ms once the parent has expired
    # (Deadline(0.0) raises); without a limit, the cap alone
    d = Deadline(100.0)
    assert 19.0 < d.share(0.2).remaining() <= 20.0
    assert d.share(0.2, cap=5.0).remaining() <= 5.0
    expired = Deadline(0.01)
    time.sleep(0.02)
    assert 0 < expired.share(0.5).time_limit <= 1e-3
    assert Deadline(None).share(0.5).remaining() == math.inf
    assert Deadline(None).share(0.5, cap=3.0).time_limit == 3.0


def test_write_json_is_atomic(tmp_path):
    f = tmp_path / "out.json"
    write_json(f, {"a": 1})
    with pytest.raises(ValueError):
        write_json(f, {"a": float("nan")})  # refused before replacing the old file
    assert json.loads(f.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
