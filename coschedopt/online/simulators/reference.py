"""Straightforward reference implementations, for checking the fast ones on small inputs.

:func:`reference_schedule` simulates any of the nine policies the plain way: at
each event time it scans every processor and every queue, takes minima and
maxima by linear search and computes the marginal flow term by term from its
definition (§3.4.4), O(n² m) overall.  It shares no code with the event-driven
simulators beyond the instance, the policy settings (:class:`.PolicyRun`, whose
uniform draws both must consume identically) and the schedule type.

:func:`brute_force_optimum` is the offline non-preemptive optimum by enumeration:
every order of the tasks, each list-scheduled on the processor free earliest (at
the latest of that time and its release).  Taking the tasks in the order of their
start times in an optimal schedule, list scheduling starts each no later (the
sorted processor-free times stay componentwise no later, by induction), so with a
regular objective the best list schedule is optimal.  O(n! n log m): n <= 8.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..instance import OnlineInstance
from ..metrics import objective_value
from ..schedule import COMPLETED, KILLED, PREEMPTED, OnlineSchedule
from .rules import PolicyRun


class _Proc:
    def __init__(self) -> None:
        self.task = -1
        self.start = 0.0
        self.end = 0.0
        self.counter = 0
        self.queue: list[int] = []


def reference_schedule(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of ``run.policy`` on ``instance``, simulated naively (see the module docstring)."""
    run.check(instance)
    return _Naive(instance, run).simulate()


class _Naive:
    """Plain lists scanned at every step; every rule written as the thesis states it."""

    def __init__(self, instance: OnlineInstance, run: PolicyRun) -> None:
        self.instance, self.run = instance, run
        self.r, self.p = instance.release.tolist(), instance.time.tolist()
        self.m, self.main = instance.processors, run.main_pool(instance.processors)
        self.procs = [_Proc() for _ in range(self.m)]
        self.left = list(self.p)  # remaining work of each task (SRPT)
        self.common: list[int] = []
        self.dedicated_common: list[int] = []
        self.draws = run.draws(instance.n).tolist()
        self.pmax = 0.0
        self.runs: list[tuple[int, int, float, float, int]] = []
        self.pending = sorted(range(instance.n), key=lambda j: (self.r[j], j))
        self.arrival_rank = {j: k for k, j in enumerate(self.pending)}

    def simulate(self) -> OnlineSchedule:
        procs, pending = self.procs, self.pending
        while pending or any(pr.task >= 0 for pr in procs):
            t = min([pr.end for pr in procs if pr.task >= 0] + ([self.r[pending[0]]] if pending else []))
            for i, pr in enumerate(procs):
                if pr.task >= 0 and pr.end == t:
                    self.stop(i, t, COMPLETED)
            while pending and self.r[pending[0]] == t:
                self.arrive(pending.pop(0), t)
            self.serve(t)
        dedicated = self.m - self.main
        return OnlineSchedule.from_runs(self.runs, dedicated=dedicated, task_names=self.instance.task_names)

    def size_key(self, j: int) -> tuple:
        return (self.left[j], self.r[j], j)

    def start(self, i: int, j: int, t: float) -> None:
        pr = self.procs[i]
        pr.task, pr.start, pr.end, pr.counter = j, t, t + self.left[j], 0

    def stop(self, i: int, t: float, outcome: int) -> int:
        pr = self.procs[i]
        j = pr.task
        if t > pr.start:
            self.runs.append((j, i, pr.start, t, outcome))
        pr.task = -1
        return j

    def remaining(self, i: int, t: float) -> float:
        pr = self.procs[i]
        return pr.end - t if pr.task >= 0 else 0.0

    def preempts(self, j: int, pk: float) -> bool:
        return self.p[j] < pk if self.run.strict_preemption else self.p[j] <= pk

    def longest(self, t: float) -> int:
        busy = [i for i in range(self.main) if self.procs[i].task >= 0]
        return max(busy, key=lambda i: (self.procs[i].end - t, -i)) if busy else -1

    def marginal_flow(self, i: int, j: int, t: float, variant: str) -> float:
        """ΔF_i of §3.4.4, term by term."""
        pr, p = self.procs[i], self.p[j]
        pk = self.remaining(i, t)
        queued = [self.left[x] for x in pr.queue]
        shorter = sum(q for q in queued if q <= p)
        longer = len([q for q in queued if q > p])
        if variant == "srpt" and pr.task >= 0 and self.preempts(j, pk):
            return p + p * (longer + (1 if pk > p else 0))
        if variant == "rd" and pr.task >= 0 and p < pk and pr.counter == self.run.tau - 1:
            return shorter + p + p * longer - len(queued) * pk
        return pk + shorter + p + p * longer

    def dispatch(self, j: int, t: float, lo: int, hi: int, variant: str) -> int:
        best, best_value = -1, 0.0
        for i in range(lo, hi):
            value = self.marginal_flow(i, j, t, variant)
            if best < 0 or value < best_value:
                best, best_value = i, value
        return best

    def to_dedicated(self, j: int, t: float) -> None:
        self.left[j] = self.p[j]
        if self.run.model == "common":
            self.dedicated_common.append(j)
        else:
            self.procs[self.dispatch(j, t, self.main, self.m, "general")].queue.append(j)

    def arrive(self, j: int, t: float) -> None:
        run = self.run
        if run.redirection == "rr":
            self.pmax = max(self.pmax, self.p[j])
            if self.p[j] >= run.b * self.pmax and self.draws[j] <= run.c:
                self.to_dedicated(j, t)
                return
        if run.model == "common":
            self.arrive_common(j, t)
        else:
            self.arrive_dispatch(j, t)

    def arrive_common(self, j: int, t: float) -> None:
        run = self.run
        free = len([i for i in range(self.main) if self.procs[i].task < 0]) > len(self.common)
        if run.redirection == "rd" and (run.count_when_idle or not free):
            i = self.longest(t)
            if i >= 0 and self.p[j] < self.remaining(i, t):
                self.procs[i].counter += 1
                if self.procs[i].counter == run.tau:
                    self.to_dedicated(self.stop(i, t, KILLED), t)
        elif run.order == "srpt" and not free:
            i = self.longest(t)
            if i >= 0 and self.preempts(j, self.remaining(i, t)):
                self.left[self.procs[i].task] = self.remaining(i, t)
                self.common.append(self.stop(i, t, PREEMPTED))
                self.start(i, j, t)
                return
        self.common.append(j)

    def arrive_dispatch(self, j: int, t: float) -> None:
        run = self.run
        i = self.dispatch(j, t, 0, self.main, run.order if run.order == "srpt" else run.redirection)
        pr = self.procs[i]
        pk = self.remaining(i, t)
        if pr.task >= 0 and run.order == "srpt" and self.preempts(j, pk):
            self.left[pr.task] = pk
            pr.queue.append(self.stop(i, t, PREEMPTED))
            self.start(i, j, t)
            return
        pr.queue.append(j)
        if pr.task >= 0 and run.redirection == "rd" and self.p[j] < pk:
            pr.counter += 1
            if pr.counter == run.tau:
                self.to_dedicated(self.stop(i, t, KILLED), t)

    def serve(self, t: float) -> None:
        for i, pr in enumerate(self.procs):
            if pr.task >= 0:
                continue
            if self.run.model == "dispatch":
                source, key = pr.queue, self.size_key
            elif i < self.main:
                source = self.common
                key = (lambda j: (self.arrival_rank[j],)) if self.run.order == "fcfs" else self.size_key
            else:
                source, key = self.dedicated_common, self.size_key
            if source:
                j = min(source, key=key)
                source.remove(j)
                self.start(i, j, t)


def list_schedule(instance: OnlineInstance, order: tuple[int, ...]) -> np.ndarray:
    """Completion times when the tasks, in ``order``, each start on the processor free earliest."""
    free = [0.0] * instance.processors
    c = np.zeros(instance.n)
    for j in order:
        i = min(range(len(free)), key=free.__getitem__)
        c[j] = max(free[i], instance.release[j]) + instance.time[j]
        free[i] = c[j]
    return c


def brute_force_optimum(instance: OnlineInstance, objective: str | None = None) -> float:
    """The offline non-preemptive optimum of ``objective`` (the instance's by default), by enumeration."""
    if instance.n > 8:
        raise ValueError(f"brute force takes at most 8 tasks, got {instance.n}")
    return min(
        objective_value(instance, list_schedule(instance, order), objective)
        for order in itertools.permutations(range(instance.n))
    )
