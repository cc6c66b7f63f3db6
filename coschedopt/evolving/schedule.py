"""Schedules of evolving applications, their makespan, and the independent validator.

A schedule gives each application its start and its scheduled stages (the paper's
scheduled EP: delayed by ``start``, stretched), and optionally Algorithm 1's node IDs::

    {"applications": [{"application": "A1", "start": 0,
                       "stages": [{"duration": 600, "nodes": 12}, {"duration": 1800, "nodes": 40}]}],
     "node_ids": [{"application": "A1", "from": 0, "to": 600, "nodes": "0-11"}],
     "rigid": false}

``rigid`` (CBF's schedules) says each application *reserves* its peak node count
from its start to its end, a single block, whatever its stages use: capacity, node
IDs and waste are then counted on that reservation.  Node sets are the Batsim
interval strings of :mod:`coschedopt.workloads.idsets` (``"0-11 15 20-22"``, node IDs
0 .. nodes-1; the former comma form ``"0-11,15"`` is read too).

:func:`validate_schedule` re-derives every condition of section 3.2 from the data,
without any method's code: C1 (each scheduled EP is a delayed and stretched copy of
the request: same node counts in order, durations no shorter, the first and last
stage not stretched, start >= 0), capacity (the reservations never exceed the
cluster at any instant), and with ``node_ids`` C2 (each interval's set has exactly
the count the reservation holds there, and the intervals tile the application's
run), C3 (sets of different applications are disjoint at every instant) and C4 (an
application keeps its nodes: from one interval to the next its set only grows or
only shrinks).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..core import InputError, refuse_unknown
from ..workloads.idsets import format_ids, parse_ids
from .instance import EvolvingInstance, is_number

#: relative tolerance on times and durations (float round-off of fractional stretch limits)
TIME_RTOL = 1e-9

_SCHEDULE_FIELDS = {"applications", "node_ids", "rigid"}
_APP_FIELDS = {"application", "start", "stages"}
_STAGE_FIELDS = {"duration", "nodes"}
_ALLOCATION_FIELDS = {"application", "from", "to", "nodes"}


def number(x: float) -> int | float:
    """``x`` as an int when it is integral (clean JSON), else as a float."""
    return int(x) if float(x).is_integer() else float(x)


@dataclass(frozen=True)
class ScheduledApplication:
    """The scheduled EP of one application: ``start``, then stage k for ``durations[k]`` on ``nodes[k]``."""

    application: str
    start: float
    durations: tuple[float, ...]
    nodes: tuple[int, ...]

    @property
    def end(self) -> float:
        return self.start + sum(self.durations)

    def reserved_stages(self, rigid: bool) -> list[tuple[float, float, int]]:
        """(from, to, nodes) of what the application holds: its stages, or one block of its peak."""
        if rigid:
            return [(self.start, self.end, max(self.nodes))]
        out, t = [], self.start
        for d, n in zip(self.durations, self.nodes, strict=True):
            out.append((t, t + d, n))
            t += d
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "application": self.application,
            "start": number(self.start),
            "stages": [{"duration": number(d), "nodes": n} for d, n in zip(self.durations, self.nodes, strict=True)],
        }


@dataclass(frozen=True)
class NodeAllocation:
    """Algorithm 1's output for one application over [start, end): the node IDs it holds."""

    application: str
    start: float
    end: float
    node_ids: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "application": self.application,
            "from": number(self.start),
            "to": number(self.end),
            "nodes": format_ids(self.node_ids),
        }


@dataclass(frozen=True)
class EvolvingSchedule:
    """The scheduled EPs (any order, each application once), optional node IDs, and the rigid flag."""

    applications: tuple[ScheduledApplication, ...]
    node_ids: tuple[NodeAllocation, ...] | None = None
    rigid: bool = False

    def by_name(self) -> dict[str, ScheduledApplication]:
        return {a.application: a for a in self.applications}

    def with_node_ids(self, allocations: tuple[NodeAllocation, ...]) -> EvolvingSchedule:
        return EvolvingSchedule(self.applications, tuple(allocations), self.rigid)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"applications": [a.to_dict() for a in self.applications]}
        if self.rigid:
            out["rigid"] = True
        if self.node_ids is not None:
            out["node_ids"] = [a.to_dict() for a in self.node_ids]
        return out

    @classmethod
    def from_dict(cls, instance: EvolvingInstance, data: dict[str, Any]) -> EvolvingSchedule:
        """The schedule of a JSON dict; its shape is checked here, its feasibility by :func:`validate_schedule`."""
        if not isinstance(data, dict):
            raise InputError(f"a schedule must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _SCHEDULE_FIELDS)
        apps = data.get("applications")
        if not isinstance(apps, list):
            raise InputError(f"must be a list of scheduled applications, got {apps!r}", where="applications")
        rigid = data.get("rigid", False)
        if not isinstance(rigid, bool):
            raise InputError(f"must be true or false, got {rigid!r}", where="rigid")
        allocations = data.get("node_ids")
        if allocations is not None and not isinstance(allocations, list):
            raise InputError(f"must be a list of node allocations, got {allocations!r}", where="node_ids")
        return cls(
            tuple(_scheduled(i, a) for i, a in enumerate(apps)),
            None if allocations is None else tuple(_allocation(i, a) for i, a in enumerate(allocations)),
            rigid,
        )


def _time(x: Any, where: str) -> float:
    if not is_number(x) or not math.isfinite(x):
        raise InputError(f"must be a finite number of seconds, got {x!r}", where=where)
    return x


def _scheduled(i: int, data: Any) -> ScheduledApplication:
    where = f"applications[{i}]"
    if not isinstance(data, dict):
        raise InputError(f"must be an object with 'application', 'start' and 'stages', got {data!r}", where=where)
    refuse_unknown(data, _APP_FIELDS, where)
    name = data.get("application")
    if not isinstance(name, str):
        raise InputError(f"must be an application name, got {name!r}", where=f"{where}.application")
    stages = data.get("stages")
    if not isinstance(stages, list):
        raise InputError(f"must be a list of stages, got {stages!r}", where=f"{where}.stages")
    durations, nodes = [], []
    for k, s in enumerate(stages):
        at = f"{where}.stages[{k}]"
        if not isinstance(s, dict):
            raise InputError(f"must be an object with 'duration' and 'nodes', got {s!r}", where=at)
        refuse_unknown(s, _STAGE_FIELDS, at)
        durations.append(_time(s.get("duration"), f"{at}.duration"))
        n = s.get("nodes")
        if not is_number(n) or not math.isfinite(n) or not float(n).is_integer():
            raise InputError(f"must be an integer node count, got {n!r}", where=f"{at}.nodes")
        nodes.append(int(n))
    return ScheduledApplication(name, _time(data.get("start"), f"{where}.start"), tuple(durations), tuple(nodes))


def _allocation(i: int, data: Any) -> NodeAllocation:
    where = f"node_ids[{i}]"
    if not isinstance(data, dict):
        raise InputError(f"must be an object with 'application', 'from', 'to' and 'nodes', got {data!r}", where=where)
    refuse_unknown(data, _ALLOCATION_FIELDS, where)
    name = data.get("application")
    if not isinstance(name, str):
        raise InputError(f"must be an application name, got {name!r}", where=f"{where}.application")
    start, end = _time(data.get("from"), f"{where}.from"), _time(data.get("to"), f"{where}.to")
    return NodeAllocation(
        name, start, end, tuple(parse_ids(data.get("nodes"), where=f"{where}.nodes", what="node").tolist())
    )


# --------------------------------------------------------------------------- objective


def makespan(instance: EvolvingInstance, schedule: EvolvingSchedule) -> float:
    """The last completion time (the objective)."""
    return float(max(a.end for a in schedule.applications))


# --------------------------------------------------------------------------- validation


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TIME_RTOL * max(1.0, abs(a), abs(b))


def time_key(t: float) -> float:
    """Event times compared at a microsecond (float round-off of fractional stretches)."""
    return round(t, 6)


def validate_schedule(instance: EvolvingInstance, schedule: EvolvingSchedule) -> None:
    """Raise ``InputError`` (a ``ValueError``) naming the field and the broken condition.

    Checks C1, capacity at every instant, and C2-C4 when ``node_ids`` is given (see the
    module docstring).  Independent of every method.
    """
    seen: dict[str, int] = {}
    for i, sa in enumerate(schedule.applications):
        _check_c1(instance, sa, i, seen)
    missing = [a.name for a in instance.applications if a.name not in seen]
    if missing:
        raise InputError(f"application {missing[0]!r} is not scheduled", where="applications")
    _check_capacity(instance, schedule)
    if schedule.node_ids is not None:
        _check_node_ids(instance, schedule)


def _check_c1(instance: EvolvingInstance, sa: ScheduledApplication, i: int, seen: dict[str, int]) -> None:
    where = f"applications[{i}]"
    if sa.application not in instance.index:
        raise InputError(f"no application {sa.application!r} in the instance", where=f"{where}.application")
    if sa.application in seen:
        raise InputError(
            f"{sa.application!r} is scheduled twice (also applications[{seen[sa.application]}])",
            where=f"{where}.application",
        )
    seen[sa.application] = i
    req = instance.applications[instance.index[sa.application]]
    if sa.start < 0:
        raise InputError(f"C1: must be >= 0, got {sa.start!r}", where=f"{where}.start")
    if len(sa.durations) != req.stages:
        raise InputError(
            f"C1: {sa.application!r} requests {req.stages} stages, the schedule has {len(sa.durations)}",
            where=f"{where}.stages",
        )
    last = req.stages - 1
    for k, (d2, n2, d, n) in enumerate(zip(sa.durations, sa.nodes, req.durations, req.nodes, strict=True)):
        at = f"{where}.stages[{k}]"
        if n2 != n:
            raise InputError(f"C1: {sa.application!r} requests {n} nodes in stage {k}, got {n2}", where=f"{at}.nodes")
        if d2 < d and not _close(d2, d):
            raise InputError(
                f"C1: stage {k} of {sa.application!r} lasts {d} as requested; a schedule may only stretch it, got {d2}",
                where=f"{at}.duration",
            )
        if k in (0, last) and not _close(d2, d):
            which = "first" if k == 0 else "last"
            raise InputError(
                f"C1: the {which} stage of {sa.application!r} is never stretched: must be {d}, got {d2}",
                where=f"{at}.duration",
            )


def _events(intervals: list[tuple[float, float, Any]]) -> list[tuple[float, list, list]]:
    """(time, released, acquired) per distinct event time, in time order."""
    at: dict[float, tuple[list, list]] = defaultdict(lambda: ([], []))
    for start, end, what in intervals:
        at[time_key(end)][0].append(what)
        at[time_key(start)][1].append(what)
    return [(t, *at[t]) for t in sorted(at)]


def _check_capacity(instance: EvolvingInstance, schedule: EvolvingSchedule) -> None:
    intervals = [
        (s, e, (n, sa.application))
        for sa in schedule.applications
        for s, e, n in sa.reserved_stages(schedule.rigid)
        if time_key(e) > time_key(s)
    ]
    used = 0
    for t, released, acquired in _events(intervals):
        used -= sum(n for n, _ in released)
        used += sum(n for n, _ in acquired)
        if used > instance.nodes:
            names = sorted({name for _, name in acquired})
            raise InputError(
                f"capacity: {used} nodes in use at t = {t} on a cluster of {instance.nodes} "
                f"(starting then: {', '.join(names)})",
                where="applications",
            )


def _check_node_ids(instance: EvolvingInstance, schedule: EvolvingSchedule) -> None:
    apps = schedule.by_name()
    per_app: dict[str, list[tuple[int, NodeAllocation]]] = defaultdict(list)
    for j, alloc in enumerate(schedule.node_ids or ()):
        where = f"node_ids[{j}]"
        if alloc.application not in apps:
            raise InputError(f"no scheduled application {alloc.application!r}", where=f"{where}.application")
        if not time_key(alloc.end) > time_key(alloc.start):
            raise InputError(f"must end after 'from' ({alloc.start}), got {alloc.end}", where=f"{where}.to")
        bad = [x for x in alloc.node_ids if x >= instance.nodes]
        if bad:
            raise InputError(f"node {bad[0]} does not exist (nodes 0-{instance.nodes - 1})", where=f"{where}.nodes")
        per_app[alloc.application].append((j, alloc))
    for name, sa in apps.items():
        _check_c2_c4(sa, sorted(per_app.get(name, []), key=lambda x: x[1].start), schedule.rigid)
    _check_c3(schedule.node_ids or ())


def _check_c2_c4(sa: ScheduledApplication, allocs: list[tuple[int, NodeAllocation]], rigid: bool) -> None:
    """C2: the allocations tile [start, end) with the reserved counts; C4: sets only grow or shrink."""
    if not allocs:
        raise InputError(f"C2: {sa.application!r} gets no node IDs", where="node_ids")
    reserved = sa.reserved_stages(rigid)
    t = sa.start
    previous: set[int] | None = None
    for j, alloc in allocs:
        where = f"node_ids[{j}]"
        if time_key(alloc.start) != time_key(t):
            raise InputError(
                f"C2: {sa.application!r} holds no node IDs over [{t}, {alloc.start}) (its run is "
                f"[{sa.start}, {sa.end}))"
                if alloc.start > t
                else f"C2: overlaps another interval of {sa.application!r} (which ends at {t})",
                where=f"{where}.from",
            )
        counts = {
            n for s, e, n in reserved if time_key(s) < time_key(alloc.end) and time_key(e) > time_key(alloc.start)
        }
        if time_key(alloc.end) > time_key(sa.end) or counts != {len(alloc.node_ids)}:
            need = "beyond its end " + str(sa.end) if not counts else f"{sorted(counts)} nodes there"
            raise InputError(
                f"C2: {sa.application!r} holds {len(alloc.node_ids)} nodes over [{alloc.start}, {alloc.end}), "
                f"its schedule needs {need}",
                where=f"{where}.nodes",
            )
        ids = set(alloc.node_ids)
        if previous is not None and not (ids <= previous or ids >= previous):
            raise InputError(
                f"C4: {sa.application!r} may only release or add nodes, but swaps "
                f"{format_ids(previous - ids)} for {format_ids(ids - previous)} at t = {alloc.start}",
                where=f"{where}.nodes",
            )
        previous, t = ids, alloc.end
    if time_key(t) != time_key(sa.end):
        raise InputError(f"C2: {sa.application!r} holds no node IDs over [{t}, {sa.end})", where="node_ids")


def _check_c3(allocations: tuple[NodeAllocation, ...]) -> None:
    """C3: no node is held by two applications at the same instant (releases before acquisitions)."""
    owner: dict[int, str] = {}
    intervals = [(a.start, a.end, a) for a in allocations]
    for t, released, acquired in _events(intervals):
        for a in released:
            for x in a.node_ids:
                if owner.get(x) == a.application:
                    del owner[x]
        for a in acquired:
            for x in a.node_ids:
                if x in owner and owner[x] != a.application:
                    raise InputError(
                        f"C3: node {x} is held by {owner[x]!r} and {a.application!r} at t = {t}", where="node_ids"
                    )
                owner[x] = a.application


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _application_left_out(instance: EvolvingInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["applications"].pop(0)
    return data


def _start_before_zero(instance: EvolvingInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["applications"][0]["start"] = -1
    return data


def _stage_shortened(instance: EvolvingInstance, data: dict[str, Any]) -> dict[str, Any]:
    stage = data["applications"][0]["stages"][0]
    stage["duration"] = stage["duration"] / 2
    return data


def _all_at_once_on_the_whole_cluster(instance: EvolvingInstance, data: dict[str, Any]) -> dict[str, Any]:
    for app in data["applications"]:
        app["start"] = 0
        for stage in app["stages"]:
            stage["nodes"] = instance.nodes
    return data


BREAKERS = {
    "an application left out": _application_left_out,
    "a start before 0": _start_before_zero,
    "a stage shortened": _stage_shortened,
    "every application on the whole cluster at once": _all_at_once_on_the_whole_cluster,
}
