"""Issue 44: bad input is one InputError, never another exception, a huge allocation or a nan.

For every family, random small mutations of a valid instance dict (a field set to a huge,
negative, NaN, infinite or ill-typed value, a field or item removed, a list emptied) give
either an instance that a cheap heuristic solves, validates and writes as strict JSON, or
one :class:`~coschedopt.core.InputError` on one line.  The reported command-line cases run
in a subprocess under a 1 GiB address-space limit, so a regression fails instead of eating
the machine.
"""

from __future__ import annotations

import copy
import json
import math
import resource
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import coschedopt as cs
from coschedopt.core import InputError, instance_from_dict
from coschedopt.core.limits import MAX_TIME, check_count, check_number, check_numbers


def _valid(family: str) -> dict:
    """A small valid instance of ``family`` as its JSON dict."""
    if family == "pack":
        from coschedopt.pack.generate import random_pack_instance

        return random_pack_instance(4, 3, 2, seed=1).to_dict()
    if family == "combos":
        from coschedopt.combos.generate import random_combos_instance

        return random_combos_instance(3, seed=1).to_dict()
    if family == "hybrid":
        from coschedopt.hybrid.generate import random_hybrid_instance

        return random_hybrid_instance(4, 2, 1, seed=1).to_dict()
    if family == "locality":
        from coschedopt.locality.generate import random_locality_instance

        return random_locality_instance(4, 8, 2, seed=1).to_dict()
    if family == "batch":
        from coschedopt.batch.generate import random_workload

        return random_workload(4, 8, seed=1).to_dict()
    if family == "online":
        from coschedopt.online.generate import random_instance

        return random_instance(4, 2, seed=1).to_dict()
    if family == "evolving":
        from coschedopt.evolving.generate import SMALL, random_evolving_instance

        return random_evolving_instance(**{**SMALL, "min_apps": 2, "max_apps": 3, "max_stages": 3}, seed=1).to_dict()
    import coschedopt.examples.toy  # noqa: F401  (registers the family)

    return {"kind": "toy", "name": "t", "k": 1, "values": [3.0, 1.0, 2.0]}


#: a cheap heuristic of each family (``coschedopt methods FAMILY``)
CHEAP = {
    "pack": "random-pack-1",
    "combos": "fcs",
    "hybrid": "heft",
    "locality": "list",
    "batch": "easy",
    "online": "fcfs",
    "evolving": "nos",
    "toy": "toy-identity",
}

BAD_VALUES = [
    1e30,
    10**30,
    2**63,
    10**7,
    1e308,
    -1,
    0,
    0.5,
    1e-300,
    math.nan,
    math.inf,
    -math.inf,
    "x",
    None,
    True,
    [],
    {},
]


def _paths(node, prefix=()):
    """Every path (tuple of keys and indices) to a value inside ``node``, ``kind`` excluded."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        if prefix == () and key == "kind":
            continue
        yield (*prefix, key)
        yield from _paths(value, (*prefix, key))


def _mutate(data: dict, path: tuple, how: str, value) -> None:
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if how == "delete":
        del parent[path[-1]]
    elif how == "empty" and isinstance(parent[path[-1]], list):
        parent[path[-1]] = []
    else:
        parent[path[-1]] = value


def _check_outcome(family: str, data: dict) -> None:
    try:
        inst = instance_from_dict(data)
    except InputError as exc:
        assert "\n" not in str(exc), str(exc)
        return
    res = cs.solve(inst, method=CHEAP[family], seed=0)
    cs.validate(inst, res.schedule)
    json.dumps(res.to_dict(), allow_nan=False)  # no inf or nan reaches a written result
    json.dumps(inst.to_dict(), allow_nan=False)


@pytest.mark.parametrize("family", sorted(CHEAP))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_instance_is_valid_or_one_input_error(family, data):
    base = _valid(family)
    mutated = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        paths = list(_paths(mutated))
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="path")
        how = data.draw(st.sampled_from(["set", "set", "delete", "empty"]), label="how")
        value = copy.deepcopy(data.draw(st.sampled_from(BAD_VALUES), label="value"))
        _mutate(mutated, path, how, value)
    _check_outcome(family, mutated)


@pytest.mark.parametrize("family", sorted(CHEAP))
def test_the_valid_instances_solve(family):
    _check_outcome(family, _valid(family))


def test_the_shared_checks_name_field_and_value():
    assert check_count(3, "n", high=5) == 3
    assert check_number(2, "t") == 2.0
    assert list(check_numbers([1, 2.5], "t[{}]")) == [1.0, 2.5]
    for bad in (True, 1.0, "3", 6, 0, 10**400):
        with pytest.raises(InputError, match=f"^n: must be a positive integer <= 5, got {bad!r:.60}"):
            check_count(bad, "n", high=5)
    for bad in (True, "1", math.nan, math.inf, 0, -1, MAX_TIME * 10, 10**400):
        with pytest.raises(InputError, match="^t: must be a positive finite number <= 1e\\+15, got "):
            check_number(bad, "t")
    with pytest.raises(InputError, match="^t\\[1\\]: must be a finite number >= 0"):
        check_numbers([0, -1], "t[{}]", allow_low=True)
    with pytest.raises(InputError, match="^t\\[1\\]: .* got True"):
        check_numbers([1.0, True], "t[{}]")


# --------------------------------------------------------------------------- the command line

#: the reported cases: (family dict, method); each must end in one line on stderr and exit 2
REPORTED = [
    ({"kind": "hybrid", "cpus": 1e30, "gpus": 1, "tasks": [{"cpu_time": 3, "gpu_time": 1}]}, "heft"),
    ({"kind": "hybrid", "cpus": 10**30, "gpus": 1, "tasks": [{"cpu_time": 3, "gpu_time": 1}]}, "heft"),
    ({"kind": "online", "processors": 1e30, "tasks": [{"release": 0, "time": 3}]}, "fcfs"),
    ({"kind": "online", "processors": 10**30, "tasks": [{"release": 0, "time": 3}]}, "fcfs"),
    ({"kind": "online", "processors": 2, "tasks": [{"release": 0, "time": 1e308}]}, "fcfs"),
    ({"kind": "locality", "processors": 1e30, "clusters": 1, "jobs": [{"time": 3, "size": 1}]}, "list"),
    ({"kind": "locality", "processors": 10**30, "clusters": 1, "jobs": [{"time": 3, "size": 1}]}, "list"),
    ({"kind": "evolving", "nodes": 10, "applications": [{"stages": [{"duration": 1e308, "nodes": 2}]}]}, "nos"),
    ({"kind": "hybrid", "cpus": 2, "gpus": 1, "tasks": [{"cpu_time": 1e308, "gpu_time": 1}]}, "heft"),
    # the placement MILP counts its placements before listing any (it listed 3 GB of ranges at 10^4 ids)
    (
        {
            "kind": "locality",
            "processors": 30000,
            "clusters": 3,
            "constraint": "contiguous",
            "jobs": [{"time": 1 + j % 3, "size": 15000} for j in range(6)],
        },
        "milp",
    ),
]


def _one_gib() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


_MAIN = "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"


def _cli(*argv: str) -> subprocess.CompletedProcess:
    """``coschedopt ARGV`` in a fresh interpreter limited to 1 GiB of address space."""
    return subprocess.run(
        [sys.executable, "-c", _MAIN, *argv], capture_output=True, text=True, preexec_fn=_one_gib, timeout=300
    )


@pytest.mark.parametrize(("data", "method"), REPORTED)
def test_reported_cases_are_one_line_and_exit_2_under_1_gib(tmp_path, data, method):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    run = _cli("solve", str(path), "-m", method, "-o", str(tmp_path / "sol.json"))
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("coschedopt: error: ") and "bad.json" in lines[0], run.stderr
    assert not (tmp_path / "sol.json").exists()


def test_an_integer_of_5000_digits_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "digits.json"
    path.write_text('{"kind": "online", "processors": 1' + "0" * 5000 + ', "tasks": [{"release": 0, "time": 3}]}')
    run = _cli("solve", str(path), "-m", "fcfs")
    assert run.returncode == 2 and run.stderr.strip().splitlines() == [
        f"coschedopt: error: {path}: malformed JSON: an integer of more than 4300 digits"
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["hybrid", "random", "--cpus", "1000000000000"],
        ["batch", "random", "--jobs", "1000000000000"],
        ["combos", "random", "--tasks", "1000000000000"],
        ["online", "fig-3-2", "--size", "1000000000000"],
        ["evolving", "paper", "--max-apps", "1000000000000"],
    ],
)
def test_generators_refuse_huge_counts_in_one_line_under_1_gib(tmp_path, argv):
    run = _cli("generate", *argv, "-o", str(tmp_path / "g.json"))
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
