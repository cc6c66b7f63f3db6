"""Rigid evolving applications on a cluster of identical nodes (Klein & Pérez, RR-7205, section 3).

Each application is *rigid* (the resource manager cannot grow or shrink it) and
*evolving* (it changes its own node needs during the run along a fully known
evolution profile, EP: a list of stages, each a duration and a node count).  All
applications arrive at time 0 (offline scheduling) on ``nodes`` identical nodes.

JSON::

    {"kind": "evolving", "name": "test-0", "nodes": 100,
     "applications": [{"name": "A1", "stages": [{"duration": 600, "nodes": 12},
                                                  {"duration": 1800, "nodes": 40}]}]}

Durations are positive finite numbers (seconds); node counts are integers in
[1, nodes].  The paper's only 0-node stage is the delay (d0, 0) it prepends to a
*scheduled* EP, which a schedule gives as the application's ``start``; a requested
stage of 0 nodes would let the application drop its "driver" node, which condition
C4 exists to protect, so it is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from ..core import InputError, refuse_unknown
from ..core.limits import MAX_TIME, check_count, check_number, check_resolution

_INSTANCE_FIELDS = {"kind", "name", "nodes", "applications"}
_APPLICATION_FIELDS = {"name", "stages"}
_STAGE_FIELDS = {"duration", "nodes"}

#: nodes at most: the node-id assignment keeps a set of free ids (measured: every method under
#: 0.11 GB at 10^6 nodes); the paper's clusters have hundreds
MAX_NODES = 10**6
#: stages over all applications at most: the heuristics rebuild a step profile per placement
#: (quadratic in the stages); a 1 MB file holds ~40,000
MAX_STAGES = 10**5


def is_number(x: Any) -> bool:
    """A JSON number (int or float, not a bool)."""
    return isinstance(x, int | float) and not isinstance(x, bool)


def as_node_count(x: Any, where: str) -> int:
    """``x`` as an int node count: an integer (or an integral float such as 12.0), else InputError."""
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    if isinstance(x, float) and math.isfinite(x) and x.is_integer():
        return int(x)
    raise InputError(f"must be an integer node count, got {x!r}", where=where)


@dataclass(frozen=True)
class Application:
    """A requested EP: stage k runs ``durations[k]`` seconds on ``nodes[k]`` nodes."""

    name: str
    durations: tuple[float, ...]
    nodes: tuple[int, ...]

    @property
    def stages(self) -> int:
        return len(self.durations)

    @cached_property
    def total_duration(self) -> float:
        return float(sum(self.durations))

    @cached_property
    def peak(self) -> int:
        return max(self.nodes)

    @cached_property
    def area(self) -> float:
        """Node-seconds used: sum_k n_k d_k."""
        return float(sum(n * d for d, n in zip(self.durations, self.nodes, strict=True)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "stages": [{"duration": d, "nodes": n} for d, n in zip(self.durations, self.nodes, strict=True)],
        }


@dataclass(frozen=True)
class EvolvingInstance:
    """``nodes`` identical nodes and the applications' requested EPs, checked at construction."""

    kind: ClassVar[str] = "evolving"
    nodes: int
    applications: tuple[Application, ...]
    name: str = "evolving"

    def __post_init__(self) -> None:
        check_count(self.nodes, "nodes", high=MAX_NODES, what="the nodes the methods can take")
        object.__setattr__(self, "applications", tuple(self.applications))
        if not self.applications:
            raise InputError("must list at least one application, got []", where="applications")
        stages = sum(len(a.durations) for a in self.applications)
        check_count(
            stages, "applications", high=MAX_STAGES, what="the stages, over all applications, the methods can take"
        )
        seen: dict[str, int] = {}
        for i, app in enumerate(self.applications):
            self._check_application(i, app, seen)
        horizon = sum(a.total_duration for a in self.applications)
        for i, app in enumerate(self.applications):
            check_resolution(app.durations, horizon, f"applications[{i}].stages[{{}}].duration")

    def _check_application(self, i: int, app: Application, seen: dict[str, int]) -> None:
        where = f"applications[{i}]"
        if not isinstance(app.name, str) or not app.name:
            raise InputError(f"must be a non-empty string, got {app.name!r}", where=f"{where}.name")
        if app.name in seen:
            raise InputError(f"{app.name!r} is also the name of applications[{seen[app.name]}]", where=f"{where}.name")
        seen[app.name] = i
        if not app.durations or len(app.durations) != len(app.nodes):
            raise InputError("must list at least one stage", where=f"{where}.stages")
        for k, (d, n) in enumerate(zip(app.durations, app.nodes, strict=True)):
            at = f"{where}.stages[{k}]"
            check_number(d, f"{at}.duration", high=MAX_TIME, label="a duration in seconds")
            if isinstance(n, bool) or not isinstance(n, int):
                raise InputError(f"must be an integer node count, got {n!r}", where=f"{at}.nodes")
            if n > self.nodes:
                raise InputError(f"needs {n} nodes, more than the cluster's {self.nodes}", where=f"{at}.nodes")
            if n < 1:
                raise InputError(
                    f"must be at least 1, got {n} (a 0-node stage would drop the application's driver node; "
                    "a delay is the schedule's 'start')",
                    where=f"{at}.nodes",
                )

    @property
    def n(self) -> int:
        """Number of applications."""
        return len(self.applications)

    @cached_property
    def index(self) -> dict[str, int]:
        """Application name -> its position."""
        return {a.name: i for i, a in enumerate(self.applications)}

    @property
    def total_stages(self) -> int:
        return sum(a.stages for a in self.applications)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "nodes": self.nodes,
            "applications": [a.to_dict() for a in self.applications],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvolvingInstance:
        """The instance of a JSON dict; every refusal names its field (``applications[2].stages[1].nodes``)."""
        if not isinstance(data, dict):
            raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _INSTANCE_FIELDS)
        if "nodes" not in data:
            raise InputError("missing field 'nodes' (the cluster size)", where="nodes")
        apps = data.get("applications")
        if not isinstance(apps, list):
            raise InputError(f"must be a list of applications, got {apps!r:.80}", where="applications")
        nodes = as_node_count(data["nodes"], "nodes")
        return cls(nodes, tuple(_application(i, a) for i, a in enumerate(apps)), str(data.get("name", "evolving")))


def _application(i: int, data: Any) -> Application:
    where = f"applications[{i}]"
    if not isinstance(data, dict):
        raise InputError(f"must be an object with 'name' and 'stages', got {data!r}", where=where)
    refuse_unknown(data, _APPLICATION_FIELDS, where)
    stages = data.get("stages")
    if not isinstance(stages, list) or not stages:
        raise InputError(f"must be a non-empty list of stages, got {stages!r}", where=f"{where}.stages")
    durations, nodes = [], []
    for k, s in enumerate(stages):
        at = f"{where}.stages[{k}]"
        if not isinstance(s, dict):
            raise InputError(f"must be an object with 'duration' and 'nodes', got {s!r}", where=at)
        refuse_unknown(s, _STAGE_FIELDS, at)
        for key in ("duration", "nodes"):
            if key not in s:
                raise InputError(f"missing field {key!r}", where=f"{at}.{key}")
        durations.append(s["duration"])
        nodes.append(as_node_count(s["nodes"], f"{at}.nodes"))
    return Application(str(data.get("name", f"A{i + 1}")), tuple(durations), tuple(nodes))
