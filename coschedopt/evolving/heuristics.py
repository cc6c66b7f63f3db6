"""The paper's scheduling methods as registered methods, and a local search over list orders.

* ``cbf`` -- conservative backfilling of rigid reservations (the paper's baseline);
* ``fit`` -- Algorithm 2 with base fit, options ``stretch_limit`` (l >= 1, ``inf``)
  and ``compact``;
* ``nos``, ``mic``, ``mic+c``, ``inf``, ``inf+c`` -- the paper's five variants
  (section 5.1: l = 1, 2, 2, inf, inf; "+c" with compacting);
* ``order-search`` -- Algorithm 2 (with any l and compacting) over a better list
  order: the best of the orders of :data:`~coschedopt.evolving.listsched.ORDERS`,
  then a seeded local search moving one application to another position, keeping a
  move when it does not worsen (makespan, sum of completion times).  Algorithm 2
  never moves an application for a later one, so a move at position p re-runs the
  list from p on the resource EP cached before p: O(iterations x (n - p) fits).

Every method takes ``order`` (a list order of ``ORDERS``) except ``cbf`` (the paper's
submission order) and ``node_ids`` (Algorithm 1).  All return status FEASIBLE and, as
``lower_bound``, :func:`makespan_lower_bound`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core import Deadline, Result, Status, make_rng, method, option
from .evolution import Profile
from .instance import EvolvingInstance
from .listsched import ORDERS, ListSchedule, application_order, cbf_schedule, list_schedule
from .nodeids import NodeIdOptions, with_node_ids

#: the paper's variants of Algorithm 2: name -> (stretch limit, compacting)
VARIANTS: dict[str, tuple[float, bool]] = {
    "nos": (1.0, False),
    "mic": (2.0, False),
    "mic+c": (2.0, True),
    "inf": (math.inf, False),
    "inf+c": (math.inf, True),
}


def makespan_lower_bound(instance: EvolvingInstance) -> float:
    """max(used node-seconds / nodes, the longest application): no schedule ends earlier."""
    area = sum(a.area for a in instance.applications)
    return max(area / instance.nodes, max(a.total_duration for a in instance.applications))


@dataclass(frozen=True)
class ListOptions(NodeIdOptions):
    """Options of the paper's named variants."""

    order: str = option("submission", "list order of Algorithm 2 (the paper's: submission)", choices=tuple(ORDERS))


@dataclass(frozen=True)
class StretchOptions(NodeIdOptions):
    """The stretch limit and compacting of base fit."""

    stretch_limit: float = option(1.0, "l: a middle stage may last up to l times its duration (1: none; inf)", min=1.0)
    compact: bool = option(False, "compacting post-processing (+c): same completion, stages placed right to left")


@dataclass(frozen=True)
class FitOptions(StretchOptions, ListOptions):
    """Options of ``fit``: Algorithm 2 in a list order with base fit (Algorithm 3) and optional compacting."""


@dataclass(frozen=True)
class SearchOptions(StretchOptions):
    """Options of ``order-search`` (it starts from the best of every list order of ``ORDERS``)."""

    iterations: int = option(300, "moves tried by the local search over list orders", min=0)


def _result(instance: EvolvingInstance, ls: ListSchedule, options: NodeIdOptions, seed: int | None, **stats) -> Result:
    schedule = with_node_ids(instance, ls.schedule(instance), options, seed)
    stats = {"compacted": ls.compacted, "compact_kept": ls.compact_kept, **stats}
    return Result(Status.FEASIBLE, schedule, lower_bound=makespan_lower_bound(instance), stats=stats)


def run_list(instance: EvolvingInstance, stretch_limit: float, compact: bool, options: ListOptions, seed) -> Result:
    """Algorithm 2 in ``options.order`` with base fit (l = ``stretch_limit``) and optional compacting."""
    order = application_order(instance, options.order)
    ls = list_schedule(instance, order, stretch_limit=stretch_limit, compact=compact)
    return _result(instance, ls, options, seed, order=options.order)


@method("evolving", "cbf", options=NodeIdOptions)
def cbf(instance: EvolvingInstance, *, time_limit, seed, verbose, options: NodeIdOptions) -> Result:
    """CBF: each application as a rigid job (peak nodes x total duration), backfilled offline."""
    schedule = with_node_ids(instance, cbf_schedule(instance), options, seed)
    return Result(Status.FEASIBLE, schedule, lower_bound=makespan_lower_bound(instance))


@method("evolving", "fit", options=FitOptions)
def fit_method(instance: EvolvingInstance, *, time_limit, seed, verbose, options: FitOptions) -> Result:
    """Algorithm 2 with base fit (Algorithm 3): options stretch_limit (l) and compact (+c)."""
    return run_list(instance, options.stretch_limit, options.compact, options, seed)


def _register_variant(name: str, limit: float, compact: bool) -> None:
    def variant(instance: EvolvingInstance, *, time_limit, seed, verbose, options: ListOptions) -> Result:
        return run_list(instance, limit, compact, options, seed)

    what = "no stretching" if limit == 1 else f"stretch limit {'inf' if math.isinf(limit) else f'{limit:g}'}"
    variant.__doc__ = f"The paper's {name}: Algorithm 2, base fit with {what}{' and compacting' if compact else ''}."
    variant.__name__ = variant.__qualname__ = "variant_" + name.replace("+", "_c")
    method("evolving", name, options=ListOptions)(variant)


for _name, (_limit, _compact) in VARIANTS.items():
    _register_variant(_name, _limit, _compact)


def _score(ls: ListSchedule) -> tuple[float, float]:
    ends = [p.end for p in ls.placements]
    return (max(ends), sum(ends))


def search_order(
    instance: EvolvingInstance, options: SearchOptions, *, seed: int | None, deadline: Deadline
) -> tuple[list[int], ListSchedule, dict]:
    """The best list order found: the best of :data:`ORDERS`, then one-application moves (see the module)."""
    limit, compact = options.stretch_limit, options.compact
    tried = {name: application_order(instance, name) for name in ORDERS}
    results = {name: list_schedule(instance, o, stretch_limit=limit, compact=compact) for name, o in tried.items()}
    start = min(results, key=lambda name: _score(results[name]))
    order, best = tried[start], results[start]
    trace: list[Profile] = []
    list_schedule(instance, order, stretch_limit=limit, compact=compact, trace=trace)
    rng = make_rng(seed)
    n, accepted, done = instance.n, 0, 0
    for _ in range(options.iterations if n > 1 else 0):
        if deadline.expired():
            break
        i, j = (int(x) for x in rng.choice(n, size=2, replace=False))
        moved = order[:i] + order[i + 1 :]
        moved.insert(j, order[i])
        p = min(i, j)
        tail: list[Profile] = []
        suffix = list_schedule(instance, moved[p:], stretch_limit=limit, compact=compact, resource=trace[p], trace=tail)
        again = set(moved[p:])
        placements = [suffix.placements[a] if a in again else best.placements[a] for a in range(n)]
        candidate = ListSchedule(placements, suffix.resource)
        done += 1
        if _score(candidate) <= _score(best):
            accepted += _score(candidate) < _score(best)
            order, best, trace = moved, candidate, trace[:p] + tail
    stats = {"start_order": start, "moves": done, "improving_moves": accepted, "order": order}
    return order, best, stats


@method("evolving", "order-search", options=SearchOptions)
def order_search(instance: EvolvingInstance, *, time_limit, seed, verbose, options: SearchOptions) -> Result:
    """Algorithm 2 over a searched list order: best sorted order, then seeded one-application moves."""
    deadline = Deadline(time_limit)
    _, ls, stats = search_order(instance, options, seed=seed, deadline=deadline)
    return _result(instance, ls, options, seed, **stats)
