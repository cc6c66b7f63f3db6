"""``matching``: Theorem 1, the polynomial cases k = 1 and k = 2.

* k = 1: every task alone on all p processors (Eq. 1: more processors never hurt),
  cost sum_i t(i, p).
* k = 2: a minimum-weight perfect matching in the graph whose loop on task i weighs
  t(i, p) (i alone) and whose edge {i, i'} weighs
  w(i, i') = min_{j=1..p-1} max(t(i, p-j), t(i', j))  (i and i' share the p processors).

networkx matches no loops, so the graph is doubled (the standard reduction): every
task i has a copy i*, the loop becomes the edge {i, i*} of weight t(i, p), pairs keep
their weight w(i, i') and copies are joined by edges {i*, i'*} of weight 0.  In a
perfect matching of the doubled graph the tasks matched to a task have their copies
matched among themselves at no cost, so perfect matchings of equal weight correspond
to co-schedules.  ``networkx.min_weight_matching`` returns a minimum-weight matching
among the maximum-cardinality ones, here the perfect ones (the edges {i, i*} always
form one).  Complexity O(n^2 p) for the weights and O(n^3) for the blossom algorithm.
"""

from __future__ import annotations

import sys

import numpy as np

from ...core import MethodRefused, NoOptions, Result, Status, method
from ..instance import PackInstance
from ..schedule import PackSchedule, pack_cost
from .common import one_task_per_pack_schedule


def pair_costs(times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """w(i, i') = min_{j=1..p-1} max(t(i, p-j), t(i', j)) for all pairs, and the best j (processors of i').

    Returns ``(w, j)`` as n x n arrays (diagonal ``inf``); O(n^2 p) with numpy.
    Requires p >= 2 (two tasks need two processors).
    """
    n, p = times.shape
    if p < 2:
        raise ValueError("two tasks cannot share a pack of fewer than 2 processors")
    # option j = 1..p-1: task i on p - j processors, task i' on j processors
    first = times[:, p - 2 :: -1]  # first[i, j-1] = t(i, p-j)
    second = times[:, : p - 1]  # second[i', j-1] = t(i', j)
    both = np.maximum(first[:, None, :], second[None, :, :])  # n x n x (p-1)
    best = both.argmin(axis=2)
    w = np.take_along_axis(both, best[:, :, None], axis=2)[:, :, 0]
    np.fill_diagonal(w, np.inf)
    return w, best + 1


@method("pack", "matching", exact=True)
def solve_matching(
    instance: PackInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: NoOptions
) -> Result:
    """Theorem 1: k = 1 trivially, k = 2 by minimum-weight perfect matching (O(n^3)).

    Refuses (``MethodRefused``) any other k.  ``time_limit`` and ``seed`` are unused:
    the method is polynomial and deterministic.
    """
    n, p, k = instance.n, instance.processors, instance.max_pack_size
    if k not in (1, 2):
        raise MethodRefused(
            f"matching solves k = 1 or 2 (Theorem 1); this instance has k = {k} (n={n}, p={p})", where="max_pack_size"
        )
    t = instance.times
    if k == 1 or n == 1:
        schedule = one_task_per_pack_schedule(instance)
        return Result(Status.OPTIMAL, schedule, lower_bound=pack_cost(instance, schedule), stats={"k": k})
    import networkx as nx  # imported here: `coschedopt --help` does not pay for it

    w, j_best = pair_costs(t)
    g = nx.Graph()
    for i in range(n):
        g.add_edge(("task", i), ("copy", i), weight=float(t[i, -1]))
        for i2 in range(i + 1, n):
            g.add_edge(("task", i), ("task", i2), weight=float(w[i, i2]))
            g.add_edge(("copy", i), ("copy", i2), weight=0.0)
    matching = nx.min_weight_matching(g)
    packs = []
    for a, b in matching:
        if a[0] == "copy" and b[0] == "copy":
            continue
        if a[0] != b[0]:  # {i, i*}: i alone on p processors
            packs.append([(a[1], p)])
        else:
            i, i2 = a[1], b[1]
            j = int(j_best[i, i2])
            packs.append([(i, p - j), (i2, j)])
    if len(packs) + sum(len(pk) == 2 for pk in packs) != n:
        raise RuntimeError("matching: the matching returned by networkx is not perfect")
    schedule = PackSchedule.from_indices(instance, sorted(packs))
    cost = pack_cost(instance, schedule)
    if verbose:
        print(f"[matching] n={n} p={p}: {sum(len(pk) == 2 for pk in packs)} pairs, cost {cost}", file=sys.stderr)
    return Result(
        Status.OPTIMAL, schedule, lower_bound=cost, stats={"k": k, "pairs": sum(len(pk) == 2 for pk in packs)}
    )
