"""The family contract kit: what every registered family promises, checked the same way for each.

Parametrised over the registry, not over a list: the seven built-in families, the toy family
(the template), and whatever the installed plug-ins add (examples/plugin's pack heuristic and
batch policy in the development install) are covered with no test edited.  Each family declares
its small instances (``Family.examples``: a generator and small arguments) and the ways to break a
schedule that its validator must refuse (``Family.breakers``); the rest is the registry's.

Checked per family: instance and schedule JSON round trips; every method's schedule on the small
instances is valid with the objective recomputed; the exact methods agree and beat (or tie) every
heuristic (but the relaxations, e.g. preemptive references), and no certified bound passes an objective; the validator refuses every declared
breakage; the plotter and exporters run; the shipped suites load with checked options;
``describe`` speaks the one vocabulary; and the command line's generate -> solve -> validate ->
plot -> export path works.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import math

import pytest

import coschedopt as cs
import coschedopt.examples.toy  # noqa: F401  (the template family is covered like the others)
from coschedopt.cli import main
from coschedopt.core import InputError, MethodRefused, get_family, get_method, resolve
from coschedopt.core.commands import get_generator

FAMILIES = cs.families()


def contracted(kind: str) -> list[str]:
    """The family's methods the contract covers: all but the throw-away ones the tests register on purpose
    (a method that always raises, say, for the harness's failure paths) and the probes, which measure code
    instead of solving (a suite may have loaded them in this process)."""
    return [
        m
        for m in cs.methods(kind)
        if not get_method(kind, m).func.__module__.startswith("tests.") and not get_method(kind, m).probe
    ]


METHODS = [(f, m) for f in FAMILIES for m in contracted(f)]
#: one vocabulary for sizes: ``n`` jobs/tasks/applications, ``m`` processors/nodes; never these synonyms
SYNONYMS = {"p", "P", "tasks", "jobs", "applications", "processors", "nodes", "cpus"}
SEEDS = (0, 1, 2)
TIME_LIMIT = 60.0


def _tol(a: float, b: float) -> float:
    return 1e-6 * max(1.0, abs(a), abs(b))


@functools.cache
def examples(kind: str) -> tuple:
    fam = get_family(kind)
    assert fam.examples is not None, f"family {kind!r} declares no small instances (Family.examples)"
    name, kwargs = fam.examples
    return tuple(get_generator(kind, name).make(**kwargs, seed=s) for s in SEEDS)


@functools.cache
def result(kind: str, method: str, index: int):
    """The method's Result on example ``index``, or None when the method refuses that instance's size."""
    try:
        return cs.solve(examples(kind)[index], method, time_limit=TIME_LIMIT, seed=0)
    except MethodRefused:
        return None


def a_valid_schedule(kind: str, index: int):
    for m in sorted(contracted(kind), key=lambda m: get_method(kind, m).exact):  # heuristics first: cheap
        res = result(kind, m, index)
        if res is not None and res.schedule is not None:
            return res.schedule
    pytest.fail(f"no method of {kind!r} schedules example {index}")


@pytest.mark.parametrize("kind", FAMILIES)
def test_instances_round_trip_through_json(kind, tmp_path):
    fam = get_family(kind)
    for i, inst in enumerate(examples(kind)):
        data = json.loads(json.dumps(inst.to_dict()))
        assert fam.instance_from_dict(data).to_dict() == inst.to_dict()
        path = tmp_path / f"{i}.json"
        cs.save_instance(inst, path)
        assert cs.load_instance(path).to_dict() == inst.to_dict()


@pytest.mark.parametrize(("kind", "method"), METHODS, ids=[f"{f}-{m}" for f, m in METHODS])
def test_every_method_gives_a_valid_schedule_with_its_objective_recomputed(kind, method):
    fam = get_family(kind)
    solved = 0
    for i, inst in enumerate(examples(kind)):
        res = result(kind, method, i)
        if res is None:
            continue
        assert res.status in (cs.Status.OPTIMAL, cs.Status.FEASIBLE, cs.Status.TIME_LIMIT), res.message
        if res.schedule is None:
            continue
        solved += 1
        fam.validate(inst, res.schedule)
        assert res.objective == pytest.approx(fam.objective(inst, res.schedule), rel=1e-9, abs=1e-9)
        again = fam.schedule_from_dict(inst, json.loads(json.dumps(res.schedule.to_dict())))
        fam.validate(inst, again)
        assert fam.objective(inst, again) == pytest.approx(res.objective, rel=1e-9, abs=1e-9)
        if res.lower_bound is not None:
            bound_ok = res.lower_bound <= res.objective + _tol(res.lower_bound, res.objective)
            if fam.sense == "max":
                bound_ok = res.lower_bound >= res.objective - _tol(res.lower_bound, res.objective)
            assert bound_ok, (res.lower_bound, res.objective)
    assert solved, f"{method} scheduled none of {kind}'s small instances"


@pytest.mark.parametrize("kind", FAMILIES)
def test_exact_methods_agree_and_no_heuristic_beats_them(kind):
    fam = get_family(kind)
    exact = [m for m in contracted(kind) if get_method(kind, m).exact]
    for i in range(len(SEEDS)):
        optima = {m: r.objective for m in exact if (r := result(kind, m, i)) and r.status is cs.Status.OPTIMAL}
        if not optima:
            continue
        best = fam.best(list(optima.values()))
        for m, value in optima.items():
            assert value == pytest.approx(best, rel=1e-6, abs=1e-6), (i, m, optima)
        for m in contracted(kind):
            r = result(kind, m, i)
            if r is not None and r.schedule is not None and not get_method(kind, m).relaxation:
                assert not fam.better(r.objective, best) or math.isclose(r.objective, best, rel_tol=1e-6), (i, m)


@pytest.mark.parametrize("kind", FAMILIES)
def test_the_validator_refuses_every_declared_breakage(kind):
    fam = get_family(kind)
    assert fam.breakers, f"family {kind!r} declares no breakers"
    breakers = resolve(fam.breakers)
    assert len(breakers) >= 2
    for i, inst in enumerate(examples(kind)):
        valid = a_valid_schedule(kind, i).to_dict()
        fam.validate(inst, fam.schedule_from_dict(inst, copy.deepcopy(valid)))
        for what, breaks in breakers.items():
            broken = breaks(inst, copy.deepcopy(valid))
            with pytest.raises(ValueError):
                fam.validate(inst, fam.schedule_from_dict(inst, broken))
                pytest.fail(f"{kind}: the validator accepted {what!r} on example {i}")


@pytest.mark.parametrize("kind", FAMILIES)
def test_plotter_and_exporters_run(kind, tmp_path):
    from coschedopt.viz import plot_schedule

    fam = get_family(kind)
    inst, schedule = examples(kind)[0], a_valid_schedule(kind, 0)
    assert fam.plotter is not None, f"family {kind!r} has no plotter"
    out = tmp_path / "s.png"
    plot_schedule(inst, schedule, out)
    assert out.stat().st_size > 1000
    for name, export in fam.exporters.items():
        target = tmp_path / f"export-{name}"
        export(inst, schedule, target)
        assert target.exists() and target.stat().st_size > 0, name
    if fam.report is not None:
        assert callable(resolve(fam.report))


SUITES = [
    (kind, path)
    for kind in FAMILIES
    if (folder := get_family(kind).directory("suites"))
    for path in sorted(folder.glob("*.toml"))
]


@pytest.mark.parametrize(("kind", "path"), SUITES, ids=[f"{k}-{p.stem}" for k, p in SUITES])
def test_shipped_suites_load_with_checked_options(kind, path):
    from coschedopt.bench.suite import load_suite

    try:
        suite = load_suite(path)
    except InputError as exc:
        if "coschedopt traces fetch" not in str(exc):
            raise
        how = str(exc)[str(exc).index("fetch it with") :].split(";")[0]
        pytest.skip(f"the suite cuts whole traces, not here: {how}")
    assert suite.family == kind and suite.methods and suite.cells, path.name


@pytest.mark.parametrize("kind", FAMILIES)
def test_describe_speaks_the_one_vocabulary(kind):
    fam = get_family(kind)
    sizes = fam.describe(examples(kind)[0])
    assert sizes["n"] >= 1 and not (set(sizes) & SYNONYMS), sizes


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAMILIES)
def test_the_command_line_generates_solves_validates_plots_and_exports(kind, tmp_path, capsys):
    fam = get_family(kind)
    name, kwargs = fam.examples
    inst_path, sol = tmp_path / "inst.json", tmp_path / "sol.json"
    assert main(["generate", kind, name, *generator_argv(kind, name, kwargs), "--seed", "1", "-o", str(inst_path)]) == 0
    heuristic = next((m for m in contracted(kind) if not get_method(kind, m).exact), contracted(kind)[0])
    assert main(["solve", str(inst_path), "-m", heuristic, "--time-limit", "60", "-o", str(sol)]) == 0
    assert main(["validate", str(inst_path), str(sol)]) == 0
    assert "valid" in capsys.readouterr().out
    assert main(["plot", str(sol), "-o", str(tmp_path / "s.png")]) == 0
    for fmt in fam.exporters:
        assert main(["export", str(sol), "-f", fmt, "-o", str(tmp_path / f"out-{fmt}")]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAMILIES)
def test_a_suite_of_the_small_instances_runs_and_reports(kind, tmp_path):
    """The harness end to end: a suite of the family's small instances, a heuristic and an exact method, run,
    stored and reported (the generic sections and the family's own, Family.report)."""
    from coschedopt.bench import run_suite, write_report

    fam = get_family(kind)
    name, kwargs = fam.examples
    params = ", ".join(f"{k} = {json.dumps(v)}" for k, v in kwargs.items() if v is not None and v is not False)
    picked = [m for m in contracted(kind) if not get_method(kind, m).exact][:1]
    picked += [m for m in contracted(kind) if get_method(kind, m).exact][:1]
    suite = tmp_path / "contract.toml"
    suite.write_text(
        f'[suite]\nname = "contract-{kind}"\nfamily = "{kind}"\ndescription = "the contract kit"\n'
        f'time_limit = 60\nplugins = ["{fam.package}"]\n\n'
        f'[[instances]]\ngroup = "small"\ngenerator = "{name}"\nparams = {{ {params} }}\nseeds = [0, 1]\n\n'
        + "".join(f'[[methods]]\nname = "{m}"\n\n' for m in picked)
    )
    summary = run_suite(suite, db=tmp_path / "r.sqlite", workers=1, progress=False)
    assert summary.failed == 0, summary
    paths = write_report(tmp_path / "r.sqlite", tmp_path / "report")
    text = paths["markdown"].read_text()
    assert f"contract-{kind}" in text and all(m in text for m in picked)


def generator_argv(kind: str, name: str, kwargs: dict) -> list[str]:
    """The command-line words giving generator ``name`` the keyword arguments ``kwargs``."""
    parser = argparse.ArgumentParser()
    get_generator(kind, name).add_arguments(parser)
    flag = {a.dest: a for a in parser._actions}
    argv: list[str] = []
    for dest, value in kwargs.items():
        action = flag[dest]
        if value is None or value == [] or value is False:
            continue
        if value is True:
            argv.append(action.option_strings[-1])
        else:
            argv += [action.option_strings[-1], *(str(v) for v in (value if isinstance(value, list) else [value]))]
    return argv


def test_every_family_declares_what_the_kit_needs():
    for kind in FAMILIES:
        fam = get_family(kind)
        assert fam.examples and fam.breakers and fam.describe and fam.metrics, kind
    assert {"pack", "combos", "hybrid", "locality", "batch", "online", "evolving", "toy"} <= set(FAMILIES)


def test_a_broken_input_is_an_input_error():
    """The readers raise InputError (a ValueError) on a schedule of the wrong shape."""
    for kind in FAMILIES:
        with pytest.raises(InputError):
            get_family(kind).schedule_from_dict(examples(kind)[0], {"nothing": []})
