"""Algorithm 2 of Klein & Pérez (offline list scheduling) and the CBF baseline.

Algorithm 2 takes the applications one by one in a list order, fits each over the
resource EP of those before it (:mod:`~coschedopt.evolving.fit`) and adds its scheduled
EP to the resource EP.  An application is never delayed or stretched by a later one.
The paper's order is submission order (the instance's order); :data:`ORDERS` adds
orders by decreasing area, peak, length and stage count, the classic list orders of
strip packing, measured against the optimum by the suite ``evolving-optimum``.

CBF (the baseline of section 5.1): each application becomes one rigid job of its
peak node count for its total duration, placed by conservative backfilling with
exact walltimes, offline: Algorithm 2 over those single-stage EPs, each job at the
earliest hole that holds it.  Its schedule gives each application its requested
stages unstretched, and says ``rigid`` so that capacity, node IDs and waste count
the reservation.

Cost: napp fits plus napp profile updates, O(napp K) with K stages in the resource EP.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .evolution import Profile
from .fit import Placement, base_fit, compact_fit
from .instance import Application, EvolvingInstance
from .schedule import EvolvingSchedule, ScheduledApplication

#: list orders: a sort key per application (ties keep submission order)
ORDERS: dict[str, Callable[[Application], float] | None] = {
    "submission": None,
    "area": lambda a: -a.area,
    "peak": lambda a: -a.peak,
    "length": lambda a: -a.total_duration,
    "stages": lambda a: -a.stages,
}


def application_order(instance: EvolvingInstance, order: str) -> list[int]:
    """Positions of the applications in list order ``order`` (a key of :data:`ORDERS`)."""
    key = ORDERS[order]
    positions = list(range(instance.n))
    if key is None:
        return positions
    return sorted(positions, key=lambda i: key(instance.applications[i]))


@dataclass
class ListSchedule:
    """Algorithm 2's output: a placement per application (instance order) and the resource EP."""

    placements: list[Placement]
    resource: Profile
    compacted: int = 0
    compact_kept: int = 0

    def schedule(self, instance: EvolvingInstance) -> EvolvingSchedule:
        return EvolvingSchedule(
            tuple(
                ScheduledApplication(a.name, p.start, p.durations, a.nodes)
                for a, p in zip(instance.applications, self.placements, strict=True)
            )
        )


def list_schedule(
    instance: EvolvingInstance,
    order: Sequence[int] | None = None,
    *,
    stretch_limit: float = 1.0,
    compact: bool = False,
    resource: Profile | None = None,
    trace: list[Profile] | None = None,
) -> ListSchedule:
    """Algorithm 2 with base fit (Algorithm 3, stretch limit l) and optional compacting.

    ``resource`` is the occupation already there (default: none); ``order`` the list
    order (default: submission order), possibly only some applications (the others'
    placements stay None); ``trace``, if given, receives the resource EP before each fit.  ``compacted`` counts the fits compacting moved,
    ``compact_kept`` those whose mirrored fit could not map back (base fit kept).
    """
    nmax = instance.nodes
    epr = resource if resource is not None else Profile()
    placements: list[Placement | None] = [None] * instance.n
    compacted = kept = 0
    may_compact = compact and stretch_limit > 1
    for i in range(instance.n) if order is None else order:
        app = instance.applications[i]
        durations, nodes = app.durations, app.nodes
        if trace is not None:
            trace.append(epr)
        placed = base_fit(durations, nodes, epr, nmax, stretch_limit)
        if may_compact and len(durations) > 2:
            better, ok = compact_fit(durations, nodes, epr, nmax, stretch_limit, placed)
            compacted += ok and better != placed
            kept += not ok
            placed = better
        placements[i] = placed
        epr = epr.plus_stages(placed.start, placed.durations, nodes)
    return ListSchedule(placements, epr, compacted, kept)  # type: ignore[arg-type]


def cbf_schedule(instance: EvolvingInstance, order: Sequence[int] | None = None) -> EvolvingSchedule:
    """Offline conservative backfilling of the rigid reservations (peak nodes x total duration)."""
    nmax = instance.nodes
    epr = Profile()
    starts = [0.0] * instance.n
    for i in range(instance.n) if order is None else order:
        app = instance.applications[i]
        length = app.total_duration
        start = base_fit((length,), (app.peak,), epr, nmax).start
        starts[i] = start
        epr = epr.plus_stages(start, (length,), (app.peak,))
    return EvolvingSchedule(
        tuple(
            ScheduledApplication(a.name, s, a.durations, a.nodes)
            for a, s in zip(instance.applications, starts, strict=True)
        ),
        rigid=True,
    )
