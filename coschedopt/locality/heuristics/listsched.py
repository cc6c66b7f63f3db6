"""Greedy list scheduling of rigid jobs with processor ids: ``list`` (Graham) and ``rcs-list`` (Theorem 2).

Both run the same event loop (:func:`list_schedule`): at time 0 and at every completion,
scan the waiting jobs in list order and start every one for which the allocation rule
finds processors (a later job may pass an earlier one that does not fit).

``list`` -- Graham's list scheduling [Graham 1969] with the lowest free ids.  Under the
instance's constraint the rule is the first fit of :func:`~.placement.first_fit` (the
lowest allowed range, the lowest cluster with room), so the baseline exists for every
constraint; under ``none`` it is the textbook algorithm.  Guarantee under ``none``, for
any list order: C <= 2A/m + p_max.  (Times when at most m/2 processors are busy all lie
inside one job's run: a job running at such a time t' and started after an earlier such
time t would have fitted at t, since m - busy(t) >= m/2 >= busy(t').  The other times have
more than m/2 busy processors, so they last less than 2A/m.)

``rcs-list`` -- Resource Constrained Scheduling with the k clusters as RCS processors of
capacity ell and job weights w_j = size_j [Remy 2004, used by Theorem 2]: list scheduling
in non-increasing size (ties: longer first), each job in the lowest cluster with room, on
its lowest free ids.  Local by construction (one cluster per job), needs size_j <= ell.

The thesis quotes Remy's result as C <= 2 * sum_j p_j w_j / sum_i c_i, which one long job
refutes; the reading note corrects it to C <= 2 max(A/m, p_max), which is false too, even
for the local optimum (:data:`~.generate.NOTE_RCS_COUNTEREXAMPLE`: five jobs of size 6 on
two clusters of 11 ids need three rounds, C^L = 3 > 2 * 30/22).  What this algorithm
guarantees is :func:`rcs_list_bound`, C <= max_j (2 (A - p_j size_j)/m + p_j) <= 2A/m + p_max:
let j finish last.  Before S_j every cluster holds more than ell - size_j busy ids (j did
not fit), which is more than ell/2 when size_j <= ell/2.  When size_j > ell/2, every job
listed before j is bigger than ell/2, and every cluster runs one of them at every time
before S_j (at time 0 j found no room after them; when a cluster's big job ends, the small
jobs left there hold at most ell - size_j ids, so j fits unless another big job takes the
cluster), so more than m/2 ids are busy then too.  Hence S_j (m/2) < A - p_j size_j.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...core import MethodOptions, MethodRefused, Result, Status, method, option
from ..instance import LocalityInstance, is_contiguous_constraint
from ..placement import first_fit
from ..schedule import LocalitySchedule, makespan

#: list orders of ``list``: the instance's order, or a sort (ties keep the instance's order)
ORDERS = ("given", "size", "time", "area")

Allocate = Callable[[np.ndarray, int], list[int] | None]


def list_order(instance: LocalityInstance, order: str) -> list[int]:
    """Job indices in list order: ``given``, or non-increasing ``size`` / ``time`` / ``area``.

    Ties: the other key (time for ``size``, size for ``time``) non-increasing, then the index.
    """
    t, s = instance.times, instance.sizes
    keys = {
        "given": lambda j: (j,),
        "size": lambda j: (-s[j], -t[j], j),
        "time": lambda j: (-t[j], -s[j], j),
        "area": lambda j: (-t[j] * s[j], j),
    }
    return sorted(range(instance.n), key=keys[order])


def list_schedule(instance: LocalityInstance, order: Sequence[int], allocate: Allocate) -> LocalitySchedule:
    """Greedy list scheduling: at 0 and at each completion, start every waiting job that ``allocate`` places.

    ``allocate(free, size)`` returns ids among the free ones (a boolean array) or None; it
    must place any job on an idle machine.  O(n^2 * cost of allocate).
    """
    m = instance.processors
    free = np.ones(m, dtype=bool)
    starts = [0.0] * instance.n
    procs: list[list[int]] = [[] for _ in range(instance.n)]
    waiting, running = list(order), []  # running: heap of (end, job)
    now = 0.0
    while waiting:
        still = []
        for j in waiting:
            ids = allocate(free, int(instance.sizes[j]))
            if ids is None:
                still.append(j)
                continue
            free[ids] = False
            starts[j], procs[j] = now, ids
            heapq.heappush(running, (now + float(instance.times[j]), j))
        waiting = still
        if not waiting:
            break
        if not running:
            raise RuntimeError(
                f"the allocation rule cannot place job {instance.jobs[waiting[0]].name!r} on an idle machine"
            )
        now = running[0][0]
        while running and running[0][0] <= now:
            _, j = heapq.heappop(running)
            free[procs[j]] = True
    return LocalitySchedule.from_lists(instance, starts, procs)


def best_list_schedule(instance: LocalityInstance) -> LocalitySchedule:
    """The shortest first-fit list schedule under the instance's constraint over the orders of :data:`ORDERS`
    (the exact models' horizon and hint)."""
    allocate = constraint_allocator(instance)
    schedules = [list_schedule(instance, list_order(instance, order), allocate) for order in ORDERS]
    return min(schedules, key=lambda s: makespan(instance, s))


def constraint_allocator(instance: LocalityInstance, constraint: str | None = None) -> Allocate:
    """The first-fit rule of ``constraint`` (default: the instance's) on this platform."""
    rule = instance.constraint if constraint is None else constraint
    ell, ring = instance.cluster_size, instance.ring
    return lambda free, size: first_fit(free, size, rule, ell, ring)


def graham_bound(instance: LocalityInstance) -> float:
    """2A/m + p_max: the guarantee of ``list`` under constraint ``none`` (any order)."""
    return 2 * instance.area / instance.processors + float(instance.times.max())


def rcs_list_bound(instance: LocalityInstance) -> float:
    """max_j (2 (A - p_j size_j)/m + p_j): the guarantee of ``rcs-list`` (module docstring), <= 2A/m + p_max."""
    t, s = instance.times, instance.sizes
    return float(np.max(2 * (instance.area - t * s) / instance.processors + t))


@dataclass(frozen=True)
class ListOptions(MethodOptions):
    order: str = option("given", "the list: the instance's order, or non-increasing size, time or area", choices=ORDERS)


@method("locality", "list", options=ListOptions)
def solve_list(instance: LocalityInstance, *, time_limit, seed, verbose, options: ListOptions) -> Result:
    """Graham's list scheduling with the lowest free ids (first fit under the instance's constraint)."""
    schedule = list_schedule(instance, list_order(instance, options.order), constraint_allocator(instance))
    return Result(Status.FEASIBLE, schedule, stats={"order": options.order})


@method("locality", "rcs-list")
def solve_rcs_list(instance: LocalityInstance, *, time_limit, seed, verbose, options) -> Result:
    """RCS list scheduling over the clusters (Theorem 2's construction): local, sizes <= ell."""
    if is_contiguous_constraint(instance.constraint):
        raise MethodRefused(
            f"rcs-list builds local schedules, not contiguous ones; constraint {instance.constraint!r} "
            "asks for contiguity (use nfdh-ls, list or cpsat)",
            where="constraint",
        )
    refuse_above_cluster("rcs-list", instance)
    schedule = list_schedule(instance, list_order(instance, "size"), constraint_allocator(instance, "local"))
    return Result(Status.FEASIBLE, schedule, stats={"bound": rcs_list_bound(instance)})


def refuse_above_cluster(name: str, instance: LocalityInstance) -> None:
    """Refuse an instance with a job larger than a cluster (the hypothesis of Theorems 2-5)."""
    if not instance.fits_clusters:
        j = int(np.argmax(instance.sizes))
        raise MethodRefused(
            f"{name} needs every job to fit in a cluster (size <= ell = {instance.cluster_size}, Theorems 2-5); "
            f"job {instance.jobs[j].name!r} has size {int(instance.sizes[j])}",
            where=f"jobs[{j}].size",
        )
