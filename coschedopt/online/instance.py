"""Online instances: n sequential tasks released over time on m identical processors (thesis ch. 3, §3.2).

Task T_j has a release time r_j and a processing time p_j, both known at r_j
(clairvoyant).  Flow F_j = C_j - r_j; bounded stretch S_j = F_j / max(p_j, B) with
B = ``stretch_bound`` (10 seconds in the thesis); ``clamp_stretch`` applies the
max(S_j, 1) floor of the author's later simulator (off by default: the thesis's
text has no clamp).  ``objective`` is one of :data:`OBJECTIVES`.

JSON::

    {"kind": "online", "name": "fig-3-2", "processors": 2, "objective": "sum-stretch",
     "stretch_bound": 10,
     "tasks": [{"name": "T0", "release": 0, "time": 10}, {"name": "T1", "release": 1, "time": 1}]}

``name`` of a task is optional (default ``T<index>``); ``source`` is an optional
table of where the instance came from (trace, window, Method C's Q), carried as is.
Tasks keep the order of the file: at equal release times, the earlier task in the
file arrives first (the trace order of the thesis's simulator).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError, refuse_unknown
from ..core.limits import MAX_TIME, check_count, check_number, check_numbers, check_resolution, check_table

#: the six objectives of §3.2: sum, max and L2 norm of bounded stretch and of flow
OBJECTIVES = ("sum-stretch", "max-stretch", "l2-stretch", "sum-flow", "max-flow", "l2-flow")

_FIELDS = {"kind", "name", "processors", "objective", "stretch_bound", "clamp_stretch", "tasks", "source"}
_TASK_FIELDS = {"name", "release", "time"}

#: processors at most: the dispatch policies keep per-processor Python lists (spt and srpt
#: took 0.33 GB at 10^6 processors, measured; 10^7 would take several GB)
MAX_PROCESSORS = 10**6
#: tasks at most: the simulators are event loops in Python, O(n log n) memory and time
MAX_TASKS = 10**6


@dataclass(frozen=True, eq=False)
class OnlineInstance:
    """An online scheduling instance, validated at construction.

    ``release`` and ``time`` are read-only float arrays of length n (tasks in
    file order).  Every refusal is one :class:`~coschedopt.core.InputError` naming
    the field (``tasks[3].time``) and the value.
    """

    kind: ClassVar[str] = "online"

    release: np.ndarray
    time: np.ndarray
    processors: int
    objective: str = "sum-stretch"
    stretch_bound: float = 10.0
    clamp_stretch: bool = False
    task_names: tuple[str, ...] = ()
    name: str = "online"
    source: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r = np.array(self.release, dtype=float).reshape(-1)
        p = np.array(self.time, dtype=float).reshape(-1)
        if len(r) != len(p):
            raise InputError(f"{len(r)} release times for {len(p)} processing times", where="tasks")
        if len(p) == 0:
            raise InputError("must hold at least one task, got []", where="tasks")
        check_count(len(p), "tasks", high=MAX_TASKS, what="the tasks the simulators can take")
        check_numbers(r, "tasks[{}].release", allow_low=True)
        check_numbers(p, "tasks[{}].time")
        check_resolution(p, float(r.max() + p.sum()), "tasks[{}].time")
        m = check_count(self.processors, "processors", high=MAX_PROCESSORS, what="the processors the policies can take")
        if self.objective not in OBJECTIVES:
            raise InputError(f"unknown objective {self.objective!r}; one of {', '.join(OBJECTIVES)}", where="objective")
        b = check_number(self.stretch_bound, "stretch_bound", high=MAX_TIME)
        if not isinstance(self.clamp_stretch, bool):
            raise InputError(f"must be true or false, got {self.clamp_stretch!r}", where="clamp_stretch")
        names = tuple(self.task_names) if self.task_names else tuple(f"T{i}" for i in range(len(p)))
        if len(names) != len(p):
            raise InputError(f"{len(names)} task names for {len(p)} tasks", where="tasks")
        if len(set(names)) != len(names):
            seen: set[str] = set()
            i = next(i for i, x in enumerate(names) if x in seen or seen.add(x))
            raise InputError(f"duplicate task name {names[i]!r}", where=f"tasks[{i}].name")
        if not isinstance(self.source, dict):
            raise InputError(f"must be a table, got {self.source!r}", where="source")
        r.setflags(write=False)
        p.setflags(write=False)
        object.__setattr__(self, "release", r)
        object.__setattr__(self, "time", p)
        object.__setattr__(self, "processors", int(m))
        object.__setattr__(self, "stretch_bound", float(b))
        object.__setattr__(self, "task_names", names)

    @property
    def n(self) -> int:
        return len(self.time)

    @cached_property
    def index(self) -> dict[str, int]:
        """Task name -> position in the file."""
        return {name: i for i, name in enumerate(self.task_names)}

    @cached_property
    def arrival_order(self) -> np.ndarray:
        """Task indices in arrival order: by release, ties in file order (a stable sort)."""
        return np.argsort(self.release, kind="stable")

    @cached_property
    def stretch_denominator(self) -> np.ndarray:
        """max(p_j, B) per task: the denominator of the bounded stretch."""
        return np.maximum(self.time, self.stretch_bound)

    def offered_load(self) -> float:
        """Total work over m times the release span (the utilisation the instance asks for)."""
        span = float(self.release.max() - self.release.min())
        return float(self.time.sum()) / (self.processors * span) if span > 0 else math.inf

    def with_objective(self, objective: str) -> OnlineInstance:
        """The same tasks and platform, measured by another objective."""
        return self.replace(objective=objective)

    def replace(self, **changes: Any) -> OnlineInstance:
        fields = {
            "release": self.release,
            "time": self.time,
            "processors": self.processors,
            "objective": self.objective,
            "stretch_bound": self.stretch_bound,
            "clamp_stretch": self.clamp_stretch,
            "task_names": self.task_names,
            "name": self.name,
            "source": dict(self.source),
        }
        fields.update(changes)
        return OnlineInstance(**fields)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "processors": self.processors,
            "objective": self.objective,
            "stretch_bound": _plain(self.stretch_bound),
        }
        if self.clamp_stretch:
            out["clamp_stretch"] = True
        if self.source:
            out["source"] = dict(self.source)
        out["tasks"] = [
            {"name": name, "release": _plain(r), "time": _plain(p)}
            for name, r, p in zip(self.task_names, self.release.tolist(), self.time.tolist(), strict=True)
        ]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OnlineInstance:
        """Build from the JSON form; unknown or missing fields raise one located ``InputError``."""
        if not isinstance(data, dict):
            raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _FIELDS, show_value=True)
        for key in ("processors", "tasks"):
            if key not in data:
                raise InputError(f"missing field {key!r}", where=key)
        tasks = data["tasks"]
        if not isinstance(tasks, list):
            raise InputError(f"must be a list of tasks, got {tasks!r:.80}", where="tasks")
        names, release, time = [], [], []
        for i, t in enumerate(tasks):
            if not isinstance(t, dict):
                raise InputError(f"must be a table with release and time, got {t!r}", where=f"tasks[{i}]")
            refuse_unknown(t, _TASK_FIELDS, f"tasks[{i}]", show_value=True)
            for key in ("release", "time"):
                if key not in t:
                    raise InputError(f"missing field {key!r}", where=f"tasks[{i}].{key}")
                check_number(t[key], f"tasks[{i}].{key}", allow_low=key == "release")
            name = t.get("name", f"T{i}")
            if not isinstance(name, str) or not name:
                raise InputError(f"must be a non-empty string, got {name!r}", where=f"tasks[{i}].name")
            names.append(name)
            release.append(t["release"])
            time.append(t["time"])
        for key, kinds in (("objective", str), ("name", str), ("clamp_stretch", bool)):
            if key in data and not isinstance(data[key], kinds):
                raise InputError(f"must be a {kinds.__name__}, got {data[key]!r}", where=key)
        if "stretch_bound" in data:
            check_number(data["stretch_bound"], "stretch_bound", high=MAX_TIME)
        return cls(
            release=np.array(release, dtype=float),
            time=np.array(time, dtype=float),
            processors=data["processors"],
            objective=data.get("objective", "sum-stretch"),
            stretch_bound=data.get("stretch_bound", 10.0),
            clamp_stretch=data.get("clamp_stretch", False),
            task_names=tuple(names),
            name=data.get("name", "online"),
            source=check_table(data.get("source", {}), "source"),
        )


def _plain(x: float) -> int | float:
    """Integral floats as ints in JSON (``10`` rather than ``10.0``)."""
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)
