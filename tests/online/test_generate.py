"""The seeded generators: random small instances and Figure 3.2's example."""

from __future__ import annotations

import numpy as np
import pytest

from coschedopt.core import InputError
from coschedopt.core.commands import get_generator
from coschedopt.online.generate import figure_3_2, random_instance


def test_random_instances_are_seeded_integer_and_at_the_asked_load():
    a, b = random_instance(15, 3, seed=4), random_instance(15, 3, seed=4)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != random_instance(15, 3, seed=5).to_dict()
    assert np.all(a.time == np.round(a.time)) and a.time.min() >= 1 and a.time.max() <= 50
    assert np.all(np.diff(a.release) >= 0)
    big = random_instance(2000, 4, load=0.7, seed=1)
    assert big.offered_load() == pytest.approx(0.7, rel=0.05)


def test_figure_3_2_instance():
    inst = figure_3_2(10, 1)
    assert inst.time.tolist() == [10] + [1] * 10 and inst.release.tolist() == list(range(11))
    assert inst.objective == "sum-flow"


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: random_instance(0, 2), "--tasks"),
        (lambda: random_instance(3, 0), "--processors"),
        (lambda: random_instance(3, 2, max_time=0), "--max-time"),
        (lambda: random_instance(3, 2, load=0), "--load"),
        (lambda: random_instance(3, 2, objective="mean-flow"), "objective"),
        (lambda: figure_3_2(0), "--size"),
    ],
)
def test_bad_arguments(call, where):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.where == where


def test_generators_are_registered_for_suites():
    assert get_generator("online", "random").make(tasks=4, processors=2, seed=1).n == 4
    assert get_generator("online", "fig-3-2").make(size=3).n == 4
