"""The toy methods: the exact rule, and two baselines measured against it.

Each is a function ``f(instance, *, time_limit, seed, verbose, options) -> Result``
registered with :func:`coschedopt.core.method`; options are declared once as a
:class:`~coschedopt.core.MethodOptions` dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import MethodOptions, NoOptions, Result, Status, make_rng, method, option
from .instance import ToyInstance
from .schedule import ToySchedule, toy_objective


def optimal_order(instance: ToyInstance) -> ToySchedule:
    """Non-increasing values (ties by index): optimal by an adjacent-exchange argument, O(n log n)."""
    return ToySchedule(tuple(sorted(range(instance.n), key=lambda j: -instance.values[j])))


@method("toy", "toy-exact", exact=True)
def toy_exact(instance: ToyInstance, *, time_limit, seed, verbose, options: NoOptions) -> Result:
    """Sort by non-increasing value (optimal)."""
    return Result(Status.OPTIMAL, optimal_order(instance))


@method("toy", "toy-identity")
def toy_identity(instance: ToyInstance, *, time_limit, seed, verbose, options: NoOptions) -> Result:
    """The given order."""
    return Result(Status.FEASIBLE, ToySchedule(tuple(range(instance.n))))


@dataclass(frozen=True)
class RandomOptions(MethodOptions):
    tries: int = option(1, "random orders drawn, best kept", min=1)


@method("toy", "toy-random", options=RandomOptions)
def toy_random(instance: ToyInstance, *, time_limit, seed, verbose, options: RandomOptions) -> Result:
    """Best of ``tries`` seeded random orders."""
    rng = make_rng(seed)
    # drawn one at a time: memory O(n) whatever ``tries`` is (-O tries=10**9 only takes long)
    orders = (ToySchedule(tuple(int(x) for x in rng.permutation(instance.n))) for _ in range(options.tries))
    return Result(Status.FEASIBLE, min(orders, key=lambda s: toy_objective(instance, s)))
