"""core/registry.py: families, methods, solve()."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core import InputError, Result, Status, get_method, method
from coschedopt.pack import PackSchedule
from coschedopt.pack.generate import random_pack_instance

BUILT_IN = ("pack", "combos", "hybrid", "locality", "batch", "online", "evolving")


def test_solve_recomputes_objective_and_rejects_invalid_schedules(registry):
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

    res = cs.solve(inst, "test-liar", clock=iter([10.0, 12.5]).__next__)  # read as the method starts and ends
    assert res.objective == pytest.approx(float(inst.times[:, 1].sum()))
    assert res.method == "test-liar" and res.family == "pack" and res.runtime == 2.5
    with pytest.raises(RuntimeError, match="returned an invalid schedule: .*not scheduled"):
        cs.solve(inst, "test-broken")


def test_only_a_probe_may_return_a_result_without_a_schedule(registry):
    inst = random_pack_instance(3, 2, 2, seed=1)

    def figures(status):
        return lambda instance, **_: Result(status, stats={"seconds": 1.0})

    method("pack", "test-no-schedule")(figures(Status.FEASIBLE))
    method("pack", "test-probe", probe=True)(figures(Status.FEASIBLE))
    method("pack", "test-probe-optimal", probe=True)(figures(Status.OPTIMAL))
    with pytest.raises(RuntimeError, match="without a schedule"):
        cs.solve(inst, "test-no-schedule")
    res = cs.solve(inst, "test-probe")
    assert res.status is Status.FEASIBLE and res.objective is None and res.stats["seconds"] == 1.0
    with pytest.raises(RuntimeError, match="without a schedule"):  # nothing is proven optimal without a schedule
        cs.solve(inst, "test-probe-optimal")


def test_unknown_method_and_bad_time_limit():
    inst = random_pack_instance(3, 2, 2, seed=1)
    with pytest.raises(InputError, match="unknown method 'nope' for kind 'pack'; known: .*enumerate"):
        cs.solve(inst, "nope")
    with pytest.raises(InputError, match="time_limit must be a positive number"):
        cs.solve(inst, "enumerate", time_limit=-1)
    assert get_method("pack", "enumerate").exact


def test_registering_a_name_twice_raises():
    fam = cs.core.get_family("pack")
    with pytest.raises(ValueError, match="family 'pack' is already registered"):
        cs.core.register_family(fam)
    with pytest.raises(ValueError, match="method 'enumerate' of family 'pack' is already registered"):
        method("pack", "enumerate")(lambda instance, **_: None)
    with pytest.raises(ValueError, match="already registered"):
        method("pack", "test-unique-name", aliases=("ilp",))(lambda instance, **_: None)


def test_an_alias_stands_for_its_method(registry):
    @method("toy-alias-family-free", "test-new-name", aliases=("test-old-name",))
    def new(instance, **_):
        """A method known by two names."""

    assert cs.core.registry._METHOD_ALIASES["toy-alias-family-free"] == {"test-old-name": "test-new-name"}


def test_options_are_checked_once_whichever_way_they_come():
    inst = random_pack_instance(5, 4, 2, seed=0)
    m = get_method("pack", "pack-by-pack-1")
    by_keyword = cs.solve(inst, "pack-by-pack-1", eps=0.3)
    by_mapping = cs.solve(inst, "pack-by-pack-1", options={"eps": 0.3})
    by_object = cs.solve(inst, "pack-by-pack-1", options=m.options(eps=0.3))
    direct = m.func(inst, eps=0.3)
    assert by_keyword.objective == by_mapping.objective == by_object.objective == cs.objective(inst, direct.schedule)
    for bad in ({"eps": 1.5}, {"eps": "0.3"}, {"epsilon": 0.3}):
        with pytest.raises(InputError):
            cs.solve(inst, "pack-by-pack-1", **bad)
        with pytest.raises(InputError):
            m.func(inst, **bad)
    with pytest.raises(InputError, match="unknown option 'eps' of method 'enumerate'.*none"):
        cs.solve(inst, "enumerate", eps=0.3)
    with pytest.raises(InputError, match="takes EpsOptions, got RunsOptions"):
        cs.solve(inst, "pack-by-pack-1", options=get_method("pack", "random-pack-9").options())


PREPARED: list[int] = []
CLOCK = [0.0]


def slow_preparation() -> None:
    """A stand-in for compiling kernels: 100 s on the test's clock; counts its calls."""
    CLOCK[0] += 100.0
    PREPARED.append(1)


def test_a_preparation_runs_once_per_process_outside_the_timed_call(registry):
    @method("pack", "test-prepared", prepare=f"{__name__}:slow_preparation")
    def prepared(instance, **_):
        """Every task alone on 2 processors."""
        return Result(
            Status.FEASIBLE, schedule=PackSchedule.from_indices(instance, [[(i, 2)] for i in range(instance.n)])
        )

    inst = random_pack_instance(3, 2, 2, seed=1)
    first = cs.solve(inst, "test-prepared", clock=lambda: CLOCK[0])
    second = cs.solve(inst, "test-prepared", clock=lambda: CLOCK[0])
    assert PREPARED == [1]  # once per process
    assert first.stats["prepare_seconds"] == 100.0 and first.runtime == 0.0  # reported apart, not in the runtime
    assert "prepare_seconds" not in second.stats


def test_every_shipped_family_defines_its_metrics_for_the_report():
    for kind in BUILT_IN:
        fam = cs.core.get_family(kind)
        assert fam.metric_definitions, kind
        assert set(fam.objective_scaled_metrics) <= set(fam.metric_definitions), kind


def test_a_methods_description_is_its_docstrings_first_line_without_rest_markup(registry, capsys):
    @method("pack", "test-marked-up")
    def marked_up(instance, **_):
        """Like ``ilp`` in :mod:`coschedopt.pack.exact`, see :func:`~coschedopt.core.solve`.

        More ``text`` below the first line."""

    assert get_method("pack", "test-marked-up").description == (
        "Like ilp in coschedopt.pack.exact, see coschedopt.core.solve."
    )
    from coschedopt.cli import main

    assert main(["methods"]) == 0
    listing = capsys.readouterr().out
    assert "``" not in listing and ":mod:`" not in listing and ":func:`" not in listing
