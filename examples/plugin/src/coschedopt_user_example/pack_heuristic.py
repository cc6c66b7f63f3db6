"""``pairs-first``: a user's pack heuristic for k-in-p co-scheduling (Aupy et al. 2016).

Sort the tasks by their sequential time, longest first, and group consecutive tasks in packs
of at most ``size`` (default min(2, k)); the processors inside each pack are shared by the
toolkit's Algorithm 1 (:func:`coschedopt.pack.single_pack.optimal_single_pack`), so the
plug-in writes only its grouping rule.  O(n log n + n p log k).
"""

from __future__ import annotations

from dataclasses import dataclass

from coschedopt import Result, Status, method
from coschedopt.core import MethodOptions, option
from coschedopt.pack.schedule import schedule_from_assignment
from coschedopt.pack.single_pack import optimal_single_pack


@dataclass(frozen=True)
class PairsOptions(MethodOptions):
    size: int = option(0, "tasks per pack (0: min(2, k))", min=0)


@method("pack", "pairs-first", options=PairsOptions)
def pairs_first(instance, *, time_limit, seed, verbose, options: PairsOptions) -> Result:
    """Longest tasks first, in packs of two (a user's plug-in heuristic)."""
    size = min(options.size or 2, instance.k)
    order = sorted(range(instance.n), key=lambda i: -float(instance.times[i, 0]))
    packs = [order[i : i + size] for i in range(0, instance.n, size)]
    return Result(Status.FEASIBLE, schedule=schedule_from_assignment(instance, packs, optimal_single_pack))
