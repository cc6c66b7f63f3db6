"""Online schedules: every run of every task (killed and preempted runs included), and the
independent validator.

A run is (task, processor, start, end, outcome) with outcome ``completed``,
``killed`` (redirection: the work is lost, the task restarts from scratch) or
``preempted`` (the preemptive references: the work is kept, the task resumes).
The schedule stores its runs as parallel arrays (70,000-task instances make
hundreds of thousands of runs; arrays keep validation and metrics vectorised).

JSON::

    {"dedicated": 1,
     "tasks": [{"task": "T0", "runs": [{"processor": 0, "start": 0, "end": 3, "outcome": "killed"},
                                        {"processor": 1, "start": 3, "end": 13, "outcome": "completed"}]}]}

``dedicated`` (optional, default 0) is the size of the dedicated pool of a
redirection policy, the last processors; it only labels drawings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import InputError, refuse_unknown
from .instance import OnlineInstance

COMPLETED, KILLED, PREEMPTED = 0, 1, 2
OUTCOMES = ("completed", "killed", "preempted")
#: absolute + relative tolerance on times (absorbs float round-off of JSON files and sums of pieces)
TIME_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class OnlineSchedule:
    """Runs as parallel arrays: ``task`` (index into the instance), ``processor``, ``start``,
    ``end``, ``outcome`` (:data:`COMPLETED`, :data:`KILLED`, :data:`PREEMPTED`)."""

    task: np.ndarray
    processor: np.ndarray
    start: np.ndarray
    end: np.ndarray
    outcome: np.ndarray
    dedicated: int = 0
    #: the instance's task names (for the JSON form); ``T<index>`` when empty
    task_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        arrays = {
            "task": np.asarray(self.task, dtype=np.int64).reshape(-1),
            "processor": np.asarray(self.processor, dtype=np.int64).reshape(-1),
            "start": np.asarray(self.start, dtype=float).reshape(-1),
            "end": np.asarray(self.end, dtype=float).reshape(-1),
            "outcome": np.asarray(self.outcome, dtype=np.int8).reshape(-1),
        }
        lengths = {len(a) for a in arrays.values()}
        if len(lengths) != 1:
            raise ValueError(f"run arrays of different lengths: { {k: len(a) for k, a in arrays.items()} }")
        for key, a in arrays.items():
            a.setflags(write=False)
            object.__setattr__(self, key, a)
        object.__setattr__(self, "dedicated", int(self.dedicated))

    @classmethod
    def from_runs(
        cls, runs: list[tuple[int, int, float, float, int]], dedicated: int = 0, task_names: tuple[str, ...] = ()
    ) -> OnlineSchedule:
        """From ``(task, processor, start, end, outcome)`` tuples (the form simulators record)."""
        if not runs:
            return cls(*(np.zeros(0) for _ in range(5)), dedicated=dedicated, task_names=task_names)
        t, q, s, e, o = zip(*runs, strict=True)
        return cls(np.array(t), np.array(q), np.array(s), np.array(e), np.array(o), dedicated, task_names)

    @property
    def runs(self) -> int:
        return len(self.task)

    def completion_times(self, instance: OnlineInstance) -> np.ndarray:
        """Completion time per task (NaN for a task without a completed run)."""
        c = np.full(instance.n, np.nan)
        done = self.outcome == COMPLETED
        c[self.task[done]] = self.end[done]
        return c

    def redirections(self, processors: int) -> int:
        """Tasks sent to the dedicated pool (the last ``dedicated`` of ``processors``): those RD killed on the
        main pool and restarted there, and those RR sent there on arrival without ever being killed."""
        if not self.dedicated:
            return 0
        on_pool = self.processor >= processors - self.dedicated
        return int(np.unique(self.task[on_pool]).size)

    def killed_runs(self) -> int:
        """Runs killed and restarted from scratch (RD's redirections; RR kills none)."""
        return int(np.count_nonzero(self.outcome == KILLED))

    def preemptions(self) -> int:
        return int(np.count_nonzero(self.outcome == PREEMPTED))

    def wasted_work(self) -> float:
        """Processor time of killed runs: lost work (the thesis does not report it)."""
        killed = self.outcome == KILLED
        return float((self.end[killed] - self.start[killed]).sum())

    def to_dict(self) -> dict[str, Any]:
        order = np.lexsort((self.start, self.task))
        names = self.task_names
        task, proc = self.task[order].tolist(), self.processor[order].tolist()
        start, end, outcome = self.start[order].tolist(), self.end[order].tolist(), self.outcome[order].tolist()
        tasks: list[dict[str, Any]] = []
        current = -1
        for j, q, s, e, o in zip(task, proc, start, end, outcome, strict=True):
            if j != current:
                runs: list[dict[str, Any]] = []
                tasks.append({"task": names[j] if names else f"T{j}", "runs": runs})
                current = j
            runs.append({"processor": q, "start": _plain(s), "end": _plain(e), "outcome": OUTCOMES[o]})
        out: dict[str, Any] = {"tasks": tasks}
        if self.dedicated:
            out["dedicated"] = self.dedicated
        return out

    @classmethod
    def from_dict(cls, instance: OnlineInstance, data: dict[str, Any]) -> OnlineSchedule:
        """Read the JSON form; task names are resolved against ``instance``."""
        if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
            raise InputError(f"an online schedule needs a list 'tasks', got {data!r:.80}", where="schedule.tasks")
        refuse_unknown(data, {"tasks", "dedicated"}, "schedule")
        dedicated = data.get("dedicated", 0)
        if isinstance(dedicated, bool) or not isinstance(dedicated, int) or dedicated < 0:
            raise InputError(f"must be an integer >= 0, got {dedicated!r}", where="schedule.dedicated")
        runs = []
        for i, entry in enumerate(data["tasks"]):
            where = f"schedule.tasks[{i}]"
            if not isinstance(entry, dict) or set(entry) != {"task", "runs"} or not isinstance(entry["runs"], list):
                raise InputError(f"expected {{'task': name, 'runs': [...]}}, got {entry!r:.80}", where=where)
            j = instance.index.get(entry["task"]) if isinstance(entry["task"], str) else None
            if j is None:
                raise InputError(f"unknown task {entry['task']!r}", where=f"{where}.task")
            for k, run in enumerate(entry["runs"]):
                runs.append((j, *_read_run(run, f"{where}.runs[{k}]")))
        return cls.from_runs(runs, dedicated=dedicated, task_names=instance.task_names)


def _read_run(run: Any, where: str) -> tuple[int, float, float, int]:
    keys = {"processor", "start", "end", "outcome"}
    if not isinstance(run, dict) or set(run) != keys:
        raise InputError(f"expected a run with fields {', '.join(sorted(keys))}, got {run!r:.80}", where=where)
    q = run["processor"]
    if isinstance(q, bool) or not isinstance(q, int):
        raise InputError(f"must be an integer, got {q!r}", where=f"{where}.processor")
    for key in ("start", "end"):
        v = run[key]
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise InputError(f"must be a number, got {v!r}", where=f"{where}.{key}")
    if run["outcome"] not in OUTCOMES:
        raise InputError(f"must be one of {', '.join(OUTCOMES)}, got {run['outcome']!r}", where=f"{where}.outcome")
    return q, float(run["start"]), float(run["end"]), OUTCOMES.index(run["outcome"])


def _plain(x: float) -> int | float:
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def _close_enough(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a <= b up to the time tolerance (relative to the magnitude of the times)."""
    return a <= b + TIME_TOL * np.maximum(1.0, np.abs(b))


def validate_schedule(instance: OnlineInstance, schedule: OnlineSchedule) -> None:
    """Raise ``ValueError`` naming the first broken constraint of the problem (§3.2).

    Checked, independently of every method: runs on existing processors with
    positive length, none before its task's release; no two runs overlapping on a
    processor, nor two runs of one task; every task completed exactly once, by its
    last run; after a task's last killed run (a restart from scratch), its
    preempted pieces and its completed run add up to its processing time, and no
    killed run is as long as the task (it would have completed).  O(R log R) for R runs.
    """
    s = schedule
    n, m = instance.n, instance.processors
    if not 0 <= s.dedicated < m:
        raise ValueError(f"dedicated pool of {s.dedicated} processors on a platform of {m}")
    if len(s.task) and (s.task.min() < 0 or s.task.max() >= n):
        raise ValueError(f"run of task index {int(s.task.max())} on an instance of {n} tasks")
    bad = (s.processor < 0) | (s.processor >= m)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"task {_name(instance, s, k)} runs on processor {int(s.processor[k])} of 0..{m - 1}")
    if not (np.isfinite(s.start).all() and np.isfinite(s.end).all()):
        raise ValueError("a run has a non-finite start or end")
    bad = s.end <= s.start
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"task {_name(instance, s, k)}: run [{s.start[k]}, {s.end[k]}] has no positive length")
    bad = ~_close_enough(instance.release[s.task], s.start)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(
            f"task {_name(instance, s, k)} starts at {s.start[k]} before its release {instance.release[s.task[k]]}"
        )
    _check_no_overlap(instance, s, s.processor, "processor")
    _check_no_overlap(instance, s, s.task, "task")
    _check_work(instance, s)


def _name(instance: OnlineInstance, s: OnlineSchedule, k: int) -> str:
    return repr(instance.task_names[int(s.task[k])])


def _check_no_overlap(instance: OnlineInstance, s: OnlineSchedule, key: np.ndarray, what: str) -> None:
    order = np.lexsort((s.start, key))
    same = key[order][1:] == key[order][:-1]
    bad = same & ~_close_enough(s.end[order][:-1], s.start[order][1:])
    if bad.any():
        a, b = order[int(np.argmax(bad))], order[int(np.argmax(bad)) + 1]
        raise ValueError(
            f"runs overlap on {what} {int(key[a]) if what == 'processor' else instance.task_names[int(key[a])]!r}: "
            f"task {_name(instance, s, a)} [{s.start[a]}, {s.end[a]}] and task {_name(instance, s, b)} "
            f"[{s.start[b]}, {s.end[b]}]"
        )


def _check_work(instance: OnlineInstance, s: OnlineSchedule) -> None:
    n = instance.n
    completed = np.bincount(s.task[s.outcome == COMPLETED], minlength=n)
    if (completed != 1).any():
        j = int(np.argmax(completed != 1))
        raise ValueError(f"task {instance.task_names[j]!r} is completed {int(completed[j])} times (once expected)")
    order = np.lexsort((s.start, s.task))
    task, outcome = s.task[order], s.outcome[order]
    length = (s.end - s.start)[order]
    last = np.r_[task[1:] != task[:-1], True]
    bad = last & (outcome != COMPLETED)
    if bad.any():
        j = int(task[np.argmax(bad)])
        raise ValueError(f"task {instance.task_names[j]!r} runs again after its completed run")
    # position of the task's last killed run (-1 if none), spread to all its runs
    pos = np.arange(len(task))
    first = np.r_[True, task[1:] != task[:-1]]
    killed_at = np.where(outcome == KILLED, pos, -1)
    last_kill = np.maximum.reduceat(killed_at, np.flatnonzero(first))
    group = np.cumsum(first) - 1
    final = pos > last_kill[group]
    work = np.bincount(task[final], weights=length[final], minlength=n)
    p = instance.time
    bad = np.abs(work - p) > 1e-6 * np.maximum(1.0, p)
    if bad.any():
        j = int(np.argmax(bad))
        raise ValueError(
            f"task {instance.task_names[j]!r}: its runs since its last restart do {work[j]:.10g} units of work, "
            f"its processing time is {p[j]:.10g}"
        )
    too_long = (outcome == KILLED) & ~(length < p[task] - TIME_TOL * np.maximum(1.0, p[task]))
    if too_long.any():
        j = int(task[np.argmax(too_long)])
        raise ValueError(f"task {instance.task_names[j]!r}: a killed run is as long as the task (it would complete)")


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _task_left_out(instance: OnlineInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["tasks"].pop(0)
    return data


def _processor_beyond_m(instance: OnlineInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["tasks"][0]["runs"][-1]["processor"] = instance.processors
    return data


def _run_before_release(instance: OnlineInstance, data: dict[str, Any]) -> dict[str, Any]:
    run = data["tasks"][0]["runs"][-1]
    run["start"], run["end"] = run["start"] - 10**6, run["end"] - 10**6
    return data


def _run_cut_short(instance: OnlineInstance, data: dict[str, Any]) -> dict[str, Any]:
    run = data["tasks"][0]["runs"][-1]
    run["end"] = run["start"] + (run["end"] - run["start"]) / 2
    return data


BREAKERS = {
    "a task left out": _task_left_out,
    "a run on a processor beyond m": _processor_beyond_m,
    "a run before the release": _run_before_release,
    "a completed run cut short": _run_cut_short,
}
