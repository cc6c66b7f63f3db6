"""Local search over schedules: move one task to another pack, or swap two tasks."""

from __future__ import annotations

import math

from ....core import Deadline
from .levels import LevelTable
from .options import BnpOptions


def _price_pack(table: LevelTable, k: int, tasks: list[int]) -> float:
    """The optimal 1-pack cost of ``tasks`` (0 when empty, inf when it fits no level or exceeds k)."""
    if not tasks:
        return 0.0
    if len(tasks) > k:
        return math.inf
    lv = table.min_level(tasks)
    return math.inf if lv < 0 else float(table.tau[lv])


def _improve_task(table: LevelTable, k: int, packs: list[list[int]], cost: list[float], a: int, i: int) -> bool:
    """The first move of task ``i`` (in pack ``a``) to another pack or alone, else the first
    swap with a task of another pack, that lowers the cost; applied in place."""
    rest = [t for t in packs[a] if t != i]
    ca = _price_pack(table, k, rest)
    for b in [*range(len(packs)), -1]:  # move i to another pack (or alone)
        if b == a:
            continue
        target = [] if b == -1 else packs[b]
        cb = _price_pack(table, k, [*target, i])
        old = cost[a] + (cost[b] if b != -1 else 0.0)
        if ca + cb < old - 1e-12 * max(1.0, old):
            packs[a], cost[a] = rest, ca
            if b == -1:
                packs.append([i])
                cost.append(cb)
            else:
                packs[b], cost[b] = [*target, i], cb
            return True
    for b in range(len(packs)):  # swap i with a task j of another pack
        if b == a:
            continue
        for j in list(packs[b]):
            na = [*rest, j]
            nb = [t for t in packs[b] if t != j] + [i]
            old = cost[a] + cost[b]
            pa, pb = _price_pack(table, k, na), _price_pack(table, k, nb)
            if pa + pb < old - 1e-12 * max(1.0, old):
                packs[a], packs[b] = na, nb
                cost[a], cost[b] = pa, pb
                return True
    return False


def local_search(
    table: LevelTable, k: int, sets: list[tuple[int, ...]], deadline: Deadline, max_passes: int | None = None
) -> tuple[list[tuple[int, ...]], float]:
    """Improve a schedule by moving one task to another pack (or to a new one) and by
    swapping two tasks of different packs, first improvement, until no move helps.

    Pack costs are the optimal 1-pack costs (cheapest fitting level, Algorithm 1's
    value), so every accepted move lowers the schedule's cost strictly.  A move
    costs two binary searches over the levels: O(n^2 k log L) per pass; at most
    ``max_passes`` passes (:attr:`.options.BnpOptions.local_search_passes` unless given).
    """
    if max_passes is None:
        max_passes = BnpOptions().local_search_passes
    packs = [list(s) for s in sets]
    cost = [float(table.tau[table.min_level(s)]) for s in sets]
    for _ in range(max_passes):
        improved = False
        for a in range(len(packs)):
            for i in list(packs[a]):
                if deadline.expired():
                    break
                improved |= _improve_task(table, k, packs, cost, a, i)
        keep = [q for q, pk in enumerate(packs) if pk]
        packs = [packs[q] for q in keep]
        cost = [cost[q] for q in keep]
        if not improved or deadline.expired():
            break
    return [tuple(sorted(pk)) for pk in packs], float(sum(cost))
