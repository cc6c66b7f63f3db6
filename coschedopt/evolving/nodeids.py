"""Algorithm 1 of Klein & Pérez: map scheduled node counts to node IDs.

At every change point of the scheduled EPs (each EP's start, stage boundaries and
end, in time order), first every application whose count drops releases nodes
(it chooses which, condition C4: by default the ones it acquired last, so that its
first node, the "driver", stays), then every application whose count grows draws
the missing nodes uniformly at random from the free ones (seeded).  Releasing all
before acquiring any is what makes the mapping exist whenever the counts fit,
sum_i eps_i(t) <= nmax (an induction over the change points the paper omits: after
the releases at t_j the free nodes number nmax - sum_i min(eps_i(t_{j-1}), eps_i(t_j)),
at least the growth sum_i (eps_i(t_j) - eps_i(t_{j-1}))^+).  Rigid schedules (CBF's)
map each application's reservation: its peak count from start to end.

Cost: O(M (napp + nmax log nmax)) for M change points.  The output merges the
intervals over which an application's set does not change.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from ..core import MethodOptions, make_rng, option
from .instance import EvolvingInstance
from .schedule import EvolvingSchedule, NodeAllocation, time_key

#: release(application, held nodes in acquisition order, how many to free) -> the nodes it frees
ReleasePolicy = Callable[[str, list[int], int], list[int]]


def release_latest(application: str, held: list[int], count: int) -> list[int]:
    """C4's default choice: free the ``count`` nodes acquired last (the first, the driver, stays)."""
    return held[len(held) - count :]


def map_node_ids(
    instance: EvolvingInstance,
    schedule: EvolvingSchedule,
    *,
    seed: int | None = 0,
    release: ReleasePolicy = release_latest,
) -> tuple[NodeAllocation, ...]:
    """Algorithm 1: node IDs for every application over its run, as merged intervals.

    Raises ``ValueError`` if the counts exceed the cluster at some instant (then no
    mapping exists; :func:`~coschedopt.evolving.schedule.validate_schedule` says where).
    """
    rng = make_rng(seed)
    changes: dict[float, dict[str, int]] = defaultdict(dict)
    for sa in schedule.applications:
        for s, e, n in sa.reserved_stages(schedule.rigid):
            if time_key(e) > time_key(s):
                changes[time_key(e)].setdefault(sa.application, 0)
                changes[time_key(s)][sa.application] = n
    free = set(range(instance.nodes))
    held: dict[str, list[int]] = {sa.application: [] for sa in schedule.applications}
    since: dict[str, float] = {}
    out: list[NodeAllocation] = []

    def close(name: str, t: float) -> None:
        if held[name]:
            out.append(NodeAllocation(name, since[name], t, tuple(sorted(held[name]))))
        since[name] = t

    for t in sorted(changes):
        targets = changes[t]
        for name, count in targets.items():  # all releases first
            if count < len(held[name]):
                close(name, t)
                freed = release(name, list(held[name]), len(held[name]) - count)
                if len(freed) != len(held[name]) - count or not set(freed) <= set(held[name]):
                    raise ValueError(f"{name!r} must free {len(held[name]) - count} of its nodes, chose {freed}")
                gone = set(freed)
                held[name] = [x for x in held[name] if x not in gone]
                free.update(freed)
        for name, count in targets.items():  # then the acquisitions, drawn at random from the free nodes
            grow = count - len(held[name])
            if grow > 0:
                if grow > len(free):
                    raise ValueError(f"{name!r} needs {grow} more nodes at t = {t}, only {len(free)} are free")
                close(name, t)
                drawn = [int(x) for x in rng.choice(sorted(free), size=grow, replace=False)]
                free.difference_update(drawn)
                held[name] += drawn
    return tuple(sorted(out, key=lambda a: (a.start, a.application)))


@dataclass(frozen=True)
class NodeIdOptions(MethodOptions):
    """The option every evolving method takes: apply Algorithm 1 to its schedule."""

    node_ids: bool = option(False, "map node counts to node IDs (Algorithm 1, seeded); the validator checks C2-C4")


def with_node_ids(
    instance: EvolvingInstance, schedule: EvolvingSchedule, options: NodeIdOptions, seed: int | None
) -> EvolvingSchedule:
    """``schedule`` with Algorithm 1's node IDs when ``options.node_ids``, else unchanged."""
    if not options.node_ids:
        return schedule
    return schedule.with_node_ids(map_node_ids(instance, schedule, seed=seed))
