"""The generators: the literature's distribution, SWDUAL's workload matching the thesis's single workers."""

from __future__ import annotations

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.hybrid import paper
from coschedopt.hybrid.generate import random_hybrid_instance, swdual_instance


def test_random_instances_are_reproducible_and_in_range():
    a = random_hybrid_instance(2000, 8, 2, seed=5)
    assert a.to_dict() == random_hybrid_instance(2000, 8, 2, seed=5).to_dict()
    assert a.to_dict() != random_hybrid_instance(2000, 8, 2, seed=6).to_dict()
    assert a.integral and a.cpu_time.min() >= 10 and a.cpu_time.max() <= 100
    ratio = a.gpu_time / a.cpu_time
    assert ratio.min() >= 0.1 - 0.05 and ratio.max() <= 1.5 + 0.05  # rounding to integers moves it a little
    # CPU time 10 + 90 Beta(3, 5): mean 10 + 90 * 3/8 = 43.75
    assert a.cpu_time.mean() == pytest.approx(43.75, abs=1.5)
    exact = random_hybrid_instance(2000, 8, 2, seed=5, decimals=6)
    r = exact.gpu_time / exact.cpu_time
    assert r.min() >= 0.1 - 1e-4 and r.max() <= 1.5 + 1e-4


@pytest.mark.parametrize(
    ("kwargs", "where"), [({"n": 0}, "--tasks"), ({"m": 0, "k": 0}, "--cpus"), ({"k": -1}, "--gpus")]
)
def test_random_generator_refuses_bad_sizes(kwargs, where):
    args = {"n": 5, "m": 2, "k": 1} | kwargs
    with pytest.raises(cs.InputError) as info:
        random_hybrid_instance(args["n"], args["m"], args["k"])
    assert info.value.where == where


def test_swdual_single_workers_reproduce_table_2_2():
    # times are rounded to 0.01 s: 40 tasks move the sum by at most 0.2 s
    inst = swdual_instance(cpus=1, gpus=0)
    assert inst.n == 40 and inst.cpu_time.sum() == pytest.approx(paper.TABLE_2_2["SWIPE"][0], abs=0.2)
    inst = swdual_instance(cpus=0, gpus=1)
    assert inst.gpu_time.sum() == pytest.approx(paper.TABLE_2_2["CUDASW++"][0], abs=0.2)
    # a throughput model: every task is accelerated by the same factor (the tie rule decides the knapsack)
    exact = swdual_instance(cpus=1, gpus=1, decimals=9)
    assert np.allclose(exact.cpu_time / exact.gpu_time, paper.GPU_RATE / paper.CPU_RATE)


def test_swdual_worker_mix_and_query_sets():
    assert paper.worker_mix(2) == (1, 1) and paper.worker_mix(4) == (1, 3) and paper.worker_mix(8) == (4, 4)
    inst = swdual_instance(8, database="dog", query_set="main", seed=1)
    assert (inst.cpus, inst.gpus) == (4, 4) and inst.meta["cells"] == pytest.approx(paper.total_cells("main", "dog"))
    homo = swdual_instance(4, query_set="homogeneous")
    assert min(homo.meta["query_lengths"]) >= 4500
    with pytest.raises(cs.InputError, match="no figures for query set 'homogeneous' against 'dog'"):
        swdual_instance(4, database="dog", query_set="homogeneous")
    with pytest.raises(cs.InputError, match="2..8"):
        swdual_instance(9)
