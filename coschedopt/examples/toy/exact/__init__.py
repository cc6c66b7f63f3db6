"""The toy family's exact method: the order every schedule is measured against.

Each method is a function ``f(instance, *, time_limit, seed, verbose, options) -> Result``
registered with :func:`coschedopt.core.method`; an exact one says ``exact=True`` and returns
``Status.OPTIMAL`` (here the rule is optimal outright; a solver-backed method hands its model
to :mod:`coschedopt.core.backends`).
"""

from __future__ import annotations

from ....core import NoOptions, Result, Status, method
from ..instance import ToyInstance
from ..schedule import ToySchedule


def optimal_order(instance: ToyInstance) -> ToySchedule:
    """Non-increasing values (ties by index): optimal by an adjacent-exchange argument, O(n log n)."""
    return ToySchedule(tuple(sorted(range(instance.n), key=lambda j: -instance.values[j])))


@method("toy", "toy-exact", exact=True)
def toy_exact(instance: ToyInstance, *, time_limit, seed, verbose, options: NoOptions) -> Result:
    """Sort by non-increasing value (optimal)."""
    return Result(Status.OPTIMAL, optimal_order(instance))
