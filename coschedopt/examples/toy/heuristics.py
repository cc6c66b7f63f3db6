"""The toy family's heuristics: two baselines measured against the exact rule.

Options are declared once as a :class:`~coschedopt.core.MethodOptions` dataclass.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import MethodOptions, NoOptions, Result, Status, make_rng, method, option
from .instance import ToyInstance
from .schedule import ToySchedule, toy_objective


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
