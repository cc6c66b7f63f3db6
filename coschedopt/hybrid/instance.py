"""The CPU/GPU assignment instance, (Pm, Pk) || C_max (thesis chapter 2): a frozen dataclass with its JSON form.

n independent tasks; task j runs for ``cpu_time[j]`` (p_j) on any of ``cpus`` (m)
identical CPUs or for ``gpu_time[j]`` (p̄_j) on any of ``gpus`` (k) identical GPUs.

JSON::

    {"kind": "hybrid", "name": "example", "cpus": 4, "gpus": 2,
     "tasks": [{"name": "T1", "cpu_time": 10.0, "gpu_time": 2.5},
               {"name": "T2", "cpu_time": 3.0, "gpu_time": 4.0}]}

``cpus`` and ``gpus`` are integers >= 0 with at least one machine; times are
positive finite numbers; task names are unique (``T1``, ``T2``, ... when omitted).
Every refusal is one :class:`~coschedopt.core.InputError` naming the field and value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError, refuse_unknown
from ..core.limits import MAX_TIME, check_count, check_number, check_numbers, check_resolution

_FIELDS = ("kind", "name", "cpus", "gpus", "tasks")
_TASK_FIELDS = ("name", "cpu_time", "gpu_time")
#: largest denominator :meth:`HybridInstance.time_scale` tries (times with up to 6 decimals)
_MAX_SCALE = 10**6

#: CPUs (and, separately, GPUs) at most: the list heuristics keep one heap entry per unit and
#: the exact models one capacity per type; measured with 20 tasks, heft, dual2, heteroprio,
#: cpsat, milp and colgen stay under 0.7 GB at 10^6 CPUs + 10^6 GPUs (heft took 1 GB at 10^7)
MAX_UNITS = 10**6
#: tasks at most: dual2 runs 10^5 tasks in 0.3 s; ten times that is still a few hundred MB
MAX_TASKS = 10**6


def _count(value: Any, where: str) -> int:
    return check_count(value, where, low=0, high=MAX_UNITS, what="the units the methods can take")


def _times(values: Any, where: str) -> np.ndarray:
    """Positive finite times (at most MAX_TIME) as a read-only float array; the first bad one is named."""
    arr = np.array(check_numbers(values, where, high=MAX_TIME), dtype=float)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class HybridInstance:
    """n tasks with a CPU time and a GPU time, on ``cpus`` CPUs and ``gpus`` GPUs.

    Build it as ``HybridInstance(cpu_time, gpu_time, cpus=4, gpus=2)``; the times
    become read-only float arrays (the methods compute on them with numpy).
    """

    kind: ClassVar[str] = "hybrid"
    cpu_time: np.ndarray
    gpu_time: np.ndarray
    cpus: int
    gpus: int
    names: tuple[str, ...] = ()
    name: str = "hybrid"
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cpus", _count(self.cpus, "cpus"))
        object.__setattr__(self, "gpus", _count(self.gpus, "gpus"))
        if self.cpus + self.gpus == 0:
            raise InputError("at least one machine is needed, got cpus = 0 and gpus = 0", where="cpus")
        p = _times(self.cpu_time, "tasks[{}].cpu_time")
        q = _times(self.gpu_time, "tasks[{}].gpu_time")
        if p.ndim != 1 or q.shape != p.shape:
            raise InputError(f"cpu_time and gpu_time must be lists of equal length, got {p.shape} and {q.shape}")
        if p.size == 0:
            raise InputError("must be a non-empty list of tasks, got []", where="tasks")
        check_count(p.size, "tasks", high=MAX_TASKS, what="the tasks the methods can take")
        check_resolution(p, float(p.sum() + q.sum()), "tasks[{}].cpu_time")
        check_resolution(q, float(p.sum() + q.sum()), "tasks[{}].gpu_time")
        object.__setattr__(self, "cpu_time", p)
        object.__setattr__(self, "gpu_time", q)
        names = tuple(self.names) if self.names else tuple(f"T{j + 1}" for j in range(p.size))
        if len(names) != p.size:
            raise InputError(f"{len(names)} names for {p.size} tasks", where="tasks")
        seen: dict[str, int] = {}
        for j, nm in enumerate(names):
            if not isinstance(nm, str) or not nm:
                raise InputError(f"must be a non-empty string, got {nm!r}", where=f"tasks[{j}].name")
            if nm in seen:
                raise InputError(f"duplicate task name {nm!r} (also tasks[{seen[nm]}])", where=f"tasks[{j}].name")
            seen[nm] = j
        object.__setattr__(self, "names", names)

    @property
    def n(self) -> int:
        return int(self.cpu_time.size)

    @cached_property
    def index(self) -> dict[str, int]:
        """Task name -> index."""
        return {nm: j for j, nm in enumerate(self.names)}

    @cached_property
    def min_time(self) -> np.ndarray:
        """min(p_j, p̄_j) for each task, or the time on the only machine type there is."""
        if self.cpus == 0:
            return self.gpu_time
        if self.gpus == 0:
            return self.cpu_time
        return np.minimum(self.cpu_time, self.gpu_time)

    @cached_property
    def time_scale(self) -> int | None:
        """The least s <= 10^6 (a power of ten, times 1, 2 or 5) making every time x s an integer, else None.

        Exact methods that need integer data (CP-SAT, the split search, the 3/2 knapsack DP,
        the exact bisection stop) compute on the times scaled by it.
        """
        both = np.concatenate([self.cpu_time, self.gpu_time])
        for s in (1, 2, 4, 5, 10, 20, 25, 50, 100, 1000, 10_000, 100_000, _MAX_SCALE):
            x = both * s
            if np.all(np.abs(x - np.round(x)) <= 1e-9 * np.maximum(1.0, x)) and x.max() < 2**40:
                return s
        return None

    @property
    def integral(self) -> bool:
        """Whether every time is an integer."""
        return self.time_scale == 1

    def to_dict(self) -> dict[str, Any]:
        tasks = [
            {"name": nm, "cpu_time": float(p), "gpu_time": float(q)}
            for nm, p, q in zip(self.names, self.cpu_time.tolist(), self.gpu_time.tolist(), strict=True)
        ]
        return {"kind": "hybrid", "name": self.name, "cpus": self.cpus, "gpus": self.gpus, "tasks": tasks}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HybridInstance:
        """Read the JSON form; unknown fields (top level or in a task) are refused."""
        if not isinstance(data, dict):
            raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
        refuse_unknown(data, _FIELDS)
        for key in ("cpus", "gpus", "tasks"):
            if key not in data:
                raise InputError(f"missing field {key!r}", where=key)
        tasks = data["tasks"]
        if not isinstance(tasks, list):
            raise InputError(f"must be a list of tasks, got {tasks!r:.80}", where="tasks")
        names, cpu, gpu = [], [], []
        for j, task in enumerate(tasks):
            if not isinstance(task, dict):
                raise InputError(f"a task must be an object, got {task!r}", where=f"tasks[{j}]")
            refuse_unknown(task, _TASK_FIELDS, f"tasks[{j}]", label="task fields")
            for key in ("cpu_time", "gpu_time"):
                if key not in task:
                    raise InputError(f"missing field {key!r}", where=f"tasks[{j}].{key}")
                check_number(task[key], f"tasks[{j}].{key}", high=MAX_TIME)
            names.append(task.get("name", f"T{j + 1}"))
            cpu.append(float(task["cpu_time"]))
            gpu.append(float(task["gpu_time"]))
        name = data.get("name", "hybrid")
        if not isinstance(name, str):
            raise InputError(f"must be a string, got {name!r}", where="name")
        return cls(np.array(cpu), np.array(gpu), data["cpus"], data["gpus"], tuple(names), name)


def describe(instance: HybridInstance) -> dict[str, int]:
    """Size keys of result tables and suite filters: n, m (CPUs), k (GPUs)."""
    return {"n": instance.n, "m": instance.cpus, "k": instance.gpus}
