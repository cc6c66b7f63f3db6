"""Certified lower bounds on the six objectives, valid for every schedule (preemptive, with
migration or restarts included), as plain functions.

* Work: F_j >= p_j, so S_j >= p_j / max(p_j, B); the sum, max and L2 norm follow.
* One fast machine: any m-machine schedule can be replayed on a single machine of
  speed m (run, at every instant, the total work the m machines do), which
  completes every task no later.  On that machine SRPT minimises ΣF_j and FCFS
  minimises max F_j, even among preemptive schedules (Schrage 1968; the FCFS
  exchange argument), so their values bound ΣF and F_max of any m-machine
  schedule from below; ΣF_j / √n then bounds the L2 norm (Cauchy-Schwarz).

The thesis calls SRPT and GSRPT "lower bounds"; for m >= 2 they are not (the
preemptive m-machine problem P|r_j,pmtn|ΣF_j is NP-hard and immediate-dispatch
SRPT can be worse than the non-preemptive optimum): they are preemptive
references.  These are the valid bounds.  O(n log n).
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from .instance import OnlineInstance


def work_bound(instance: OnlineInstance, objective: str | None = None) -> float:
    """The objective of the flows F_j = p_j (every task alone, started at release)."""
    objective = objective or instance.objective
    kind, what = objective.split("-")
    values = instance.time.copy()
    if what == "stretch":
        values = values / instance.stretch_denominator
        if instance.clamp_stretch:
            values = np.maximum(values, 1.0)
    if kind == "sum":
        return float(math.fsum(values))
    if kind == "max":
        return float(values.max())
    return math.sqrt(math.fsum(values * values))


def fast_machine_srpt_flow(instance: OnlineInstance) -> float:
    """ΣF_j of preemptive SRPT on one machine of speed m: a lower bound on ΣF_j on m machines."""
    speed = float(instance.processors)
    release, size = instance.release.tolist(), (instance.time / speed).tolist()
    order = instance.arrival_order.tolist()
    heap: list[tuple[float, int]] = []  # (remaining work in time units of the fast machine, task)
    t, a, total = 0.0, 0, 0.0
    while a < len(order) or heap:
        if not heap:
            t = max(t, release[order[a]])
        while a < len(order) and release[order[a]] <= t:
            j = order[a]
            heapq.heappush(heap, (size[j], j))
            a += 1
        rem, j = heapq.heappop(heap)
        horizon = release[order[a]] if a < len(order) else math.inf
        if t + rem <= horizon:
            t += rem
            total += t - release[j]
        else:
            heapq.heappush(heap, (rem - (horizon - t), j))
            t = horizon
    return total


def fast_machine_fcfs_max_flow(instance: OnlineInstance) -> float:
    """max F_j of FCFS on one machine of speed m: a lower bound on F_max on m machines."""
    speed = float(instance.processors)
    t, worst = -math.inf, 0.0
    for j in instance.arrival_order.tolist():
        r = float(instance.release[j])
        t = max(t, r) + float(instance.time[j]) / speed
        worst = max(worst, t - r)
    return worst


def lower_bound(instance: OnlineInstance, objective: str | None = None) -> float:
    """The best of the bounds above that holds for ``objective`` (the instance's by default)."""
    objective = objective or instance.objective
    bound = work_bound(instance, objective)
    if objective == "sum-flow":
        bound = max(bound, fast_machine_srpt_flow(instance))
    elif objective == "l2-flow":  # (ΣF_j²)^½ >= ΣF_j / √n (Cauchy-Schwarz)
        bound = max(bound, fast_machine_srpt_flow(instance) / math.sqrt(instance.n))
    elif objective == "max-flow":
        bound = max(bound, fast_machine_fcfs_max_flow(instance))
    return bound
