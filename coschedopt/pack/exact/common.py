"""What the exact pack methods share: the fallback schedule and a cheap certified bound."""

from __future__ import annotations

from ..instance import PackInstance
from ..schedule import PackSchedule


def one_task_per_pack_schedule(instance: PackInstance) -> PackSchedule:
    """Every task alone in its own pack on all p processors (always valid; cost sum_i t(i, p)).

    This is the optimal schedule for k = 1 (Theorem 1) and the fallback that the
    exact methods return when stopped by a time limit before holding a better one.
    """
    p = instance.processors
    return PackSchedule.from_indices(instance, [[(i, p)] for i in range(instance.n)])


def simple_lower_bound(instance: PackInstance) -> float:
    """A certified lower bound on the optimal cost, in O(n).

    * every task runs for at least t(i, p) (Eq. 1), so the cost is at least max_i t(i, p);
    * a pack of cost c holds at most p c of work, and task i has work j t(i, j) >= t(i, 1)
      whatever j (Eq. 2), so the cost is at least sum_i t(i, 1) / p.
    """
    t = instance.times
    return float(max(t[:, -1].max(), t[:, 0].sum() / instance.processors))
