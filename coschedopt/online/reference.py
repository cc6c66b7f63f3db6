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

from .instance import OnlineInstance
from .metrics import objective_value
from .rules import PolicyRun
from .schedule import COMPLETED, KILLED, PREEMPTED, OnlineSchedule


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
    r, p = instance.release.tolist(), instance.time.tolist()
    n, m = instance.n, instance.processors
    main = run.main_pool(m)
    procs = [_Proc() for _ in range(m)]
    left = list(p)  # remaining work of each task (SRPT)
    common: list[int] = []
    dedicated_common: list[int] = []
    draws = run.draws(n).tolist()
    pmax = 0.0
    runs: list[tuple[int, int, float, float, int]] = []
    pending = sorted(range(n), key=lambda j: (r[j], j))

    def size_key(j: int) -> tuple:
        return (left[j], r[j], j)

    def key(j: int) -> tuple:
        return (pending_rank[j],) if run.order == "fcfs" else size_key(j)

    pending_rank = {j: k for k, j in enumerate(pending)}

    def start(i: int, j: int, t: float) -> None:
        procs[i].task, procs[i].start, procs[i].end, procs[i].counter = j, t, t + left[j], 0

    def stop(i: int, t: float, outcome: int) -> int:
        j = procs[i].task
        if t > procs[i].start:
            runs.append((j, i, procs[i].start, t, outcome))
        procs[i].task = -1
        return j

    def longest(t: float) -> int:
        busy = [i for i in range(main) if procs[i].task >= 0]
        return max(busy, key=lambda i: (procs[i].end - t, -i)) if busy else -1

    def marginal_flow(i: int, j: int, t: float, variant: str) -> float:
        pr = procs[i]
        pk = pr.end - t if pr.task >= 0 else 0.0
        queued = [left[x] for x in pr.queue]
        shorter = sum(q for q in queued if q <= p[j])
        longer = len([q for q in queued if q > p[j]])
        if variant == "srpt" and pr.task >= 0 and (p[j] < pk if run.strict_preemption else p[j] <= pk):
            return p[j] + p[j] * (longer + (1 if pk > p[j] else 0))
        if variant == "rd" and pr.task >= 0 and p[j] < pk and pr.counter == run.tau - 1:
            return shorter + p[j] + p[j] * longer - len(queued) * pk
        return pk + shorter + p[j] + p[j] * longer

    def dispatch(j: int, t: float, lo: int, hi: int, variant: str) -> int:
        best, best_value = -1, 0.0
        for i in range(lo, hi):
            value = marginal_flow(i, j, t, variant)
            if best < 0 or value < best_value:
                best, best_value = i, value
        return best

    def to_dedicated(j: int, t: float) -> None:
        left[j] = p[j]
        if run.model == "common":
            dedicated_common.append(j)
        else:
            procs[dispatch(j, t, main, m, "general")].queue.append(j)

    def arrive(j: int, t: float) -> None:
        nonlocal pmax
        if run.redirection == "rr":
            pmax = max(pmax, p[j])
            if p[j] >= run.b * pmax and draws[j] <= run.c:
                to_dedicated(j, t)
                return
        if run.model == "common":
            arrive_common(j, t)
        else:
            arrive_dispatch(j, t)

    def arrive_common(j: int, t: float) -> None:
        free = len([i for i in range(main) if procs[i].task < 0]) > len(common)
        if run.redirection == "rd" and (run.count_when_idle or not free):
            i = longest(t)
            if i >= 0 and p[j] < procs[i].end - t:
                procs[i].counter += 1
                if procs[i].counter == run.tau:
                    to_dedicated(stop(i, t, KILLED), t)
        elif run.order == "srpt" and not free:
            i = longest(t)
            pk = procs[i].end - t if i >= 0 else 0.0
            if i >= 0 and (p[j] < pk if run.strict_preemption else p[j] <= pk):
                k = stop(i, t, PREEMPTED)
                left[k] = pk
                common.append(k)
                start(i, j, t)
                return
        common.append(j)

    def arrive_dispatch(j: int, t: float) -> None:
        variant = run.order if run.order == "srpt" else run.redirection
        i = dispatch(j, t, 0, main, variant)
        pr = procs[i]
        pk = pr.end - t if pr.task >= 0 else 0.0
        if pr.task >= 0 and run.order == "srpt" and (p[j] < pk if run.strict_preemption else p[j] <= pk):
            k = stop(i, t, PREEMPTED)
            left[k] = pk
            pr.queue.append(k)
            start(i, j, t)
            return
        pr.queue.append(j)
        if pr.task >= 0 and run.redirection == "rd" and p[j] < pk:
            pr.counter += 1
            if pr.counter == run.tau:
                to_dedicated(stop(i, t, KILLED), t)

    def serve(t: float) -> None:
        for i in range(m):
            pr = procs[i]
            if pr.task >= 0:
                continue
            source = pr.queue if run.model == "dispatch" else (common if i < main else dedicated_common)
            if source:
                j = min(source, key=key if (run.model == "common" and i < main) else size_key)
                source.remove(j)
                start(i, j, t)

    while pending or any(pr.task >= 0 for pr in procs):
        t = min([pr.end for pr in procs if pr.task >= 0] + ([r[pending[0]]] if pending else []))
        for i, pr in enumerate(procs):
            if pr.task >= 0 and pr.end == t:
                stop(i, t, COMPLETED)
        while pending and r[pending[0]] == t:
            arrive(pending.pop(0), t)
        serve(t)
    return OnlineSchedule.from_runs(runs, dedicated=m - main, task_names=instance.task_names)


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
