"""The level table (:mod:`coschedopt.pack.exact.bnp.levels`): the processor order of the tasks."""

from __future__ import annotations

import numpy as np
import pytest

from coschedopt.pack.exact.bnp.levels import LevelTable
from coschedopt.pack.generate import random_pack_instance


@pytest.mark.parametrize("seed", range(12))
def test_dominance_pairs_are_the_covering_pairs_of_the_processor_order(seed: int) -> None:
    # (i, j) listed iff m_i <= m_j at every level (ties by index), with nothing in between
    inst = random_pack_instance(9 + seed, 4 + seed % 5, 3, seed=2600 + seed, integer=seed % 3 == 0)
    table = LevelTable(inst.times)
    m = table.table.astype(np.int64)
    n = inst.n
    le = np.array([[bool((m[:, i] <= m[:, j]).all()) for j in range(n)] for i in range(n)])
    for i in range(n):
        assert (table.above(i) == le[i]).all()
    strict = {(i, j) for i in range(n) for j in range(n) if i != j and le[i, j] and (not le[j, i] or i < j)}
    cover = {(i, j) for i, j in strict if not any((i, h) in strict and (h, j) in strict for h in range(n))}
    assert {tuple(p) for p in table.dominance().tolist()} == cover
