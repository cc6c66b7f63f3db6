"""The workload generator of section 5.1: the paper's ranges, seeded, and its refusals."""

from __future__ import annotations

import pytest

import coschedopt as cs
from coschedopt.core.commands import get_generator
from coschedopt.evolving.generate import PAPER, SMALL, random_evolving_instance


def test_the_paper_distribution_stays_in_its_ranges_and_covers_them():
    insts = [random_evolving_instance(seed=s) for s in range(200)]
    apps = [a for i in insts for a in i.applications]
    assert {i.n for i in insts} == set(range(15, 21)) and all(i.nodes == 100 for i in insts)
    assert {a.stages for a in apps} == set(range(1, 11))
    durations = [d for a in apps for d in a.durations]
    nodes = [n for a in apps for n in a.nodes]
    assert min(durations) == 500 and max(durations) == 3600 and all(isinstance(d, int) for d in durations)
    assert min(nodes) == 1 and max(nodes) == 75


def test_seeds_reproduce_and_differ():
    assert random_evolving_instance(seed=4) == random_evolving_instance(seed=4)
    assert random_evolving_instance(seed=4) != random_evolving_instance(seed=5)


def test_small_instances_use_coarse_time_units():
    inst = get_generator("evolving", "small").make(seed=1)
    assert 4 <= inst.n <= 6 and all(a.stages <= 4 for a in inst.applications)
    assert all(d % 100 == 0 for a in inst.applications for d in a.durations)
    assert SMALL["time_unit"] == 100 and PAPER["time_unit"] == 1


@pytest.mark.parametrize(
    ("kwargs", "where"),
    [
        ({"min_apps": 0}, "--min-apps"),
        ({"min_stages": 3, "max_stages": 2}, "--max-stages"),
        ({"max_nodes": 120}, "--max-nodes"),
        ({"time_unit": 1000, "min_duration": 500, "max_duration": 900}, "--min-duration/--max-duration"),
        ({"time_unit": 0}, "--time-unit"),
    ],
)
def test_bad_generator_arguments_name_the_option(kwargs, where):
    with pytest.raises(cs.InputError) as info:
        random_evolving_instance(**kwargs)
    assert info.value.where == where
