"""Event-driven simulation of the immediate-dispatch policies: SPT, SRPT, SPT-RD, SPT-RR (§3.4).

Each arriving task is dispatched at once, irrevocably, to one processor's queue
by the marginal-flow rule (:mod:`.dispatch`); arrivals of one instant are
dispatched one at a time in trace order, each seeing the queues left by the
previous one.  Events of one instant: completions, then arrivals, then every idle
processor with a non-empty queue (lowest index first) starts the shortest task of
its queue (SPT order (p, r, index); SRPT: shortest remaining).

* SRPT: T_j is dispatched with the SRPT marginal flow; if it goes to a processor
  whose running T_k has p_k(r_j) >= p_j (> with ``strict_preemption``), T_k goes
  back to that processor's queue with its remaining time and T_j starts at once
  (no migration).
* SPT-RD(τ, m_d): main pool of m - m_d processors with the RD marginal flow; when
  T_j joins the queue of a processor running T_k with p_j < p_k(r_j), c_k += 1,
  and at c_k = τ T_k is killed and dispatched, with its full p_k and original r_k,
  to the dedicated pool (SPT with the general marginal flow over its m_d queues,
  no redirection).
* SPT-RR(b, c, m_d): a potentially heavy task (p_j >= b·p_max) whose draw is <= c
  is dispatched to the dedicated pool, any other to the main pool; nothing is killed.

Complexity: O(n (m + log n)) plus the rare exact evaluations of :class:`.QueuePool`.
"""

from __future__ import annotations

import heapq
import math

from .dispatch import QueuePool
from .instance import OnlineInstance
from .rules import PolicyRun
from .schedule import COMPLETED, KILLED, PREEMPTED, OnlineSchedule


def simulate_dispatch(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of an immediate-dispatch policy on ``instance`` (every run recorded)."""
    run.check(instance)
    release, size = instance.release.tolist(), instance.time.tolist()
    n, m = instance.n, instance.processors
    main = run.main_pool(m)
    pools = [QueuePool(0, main)] + ([QueuePool(main, m - main)] if main < m else [])
    srpt, strict = run.order == "srpt", run.strict_preemption
    rd, rr = run.redirection == "rd", run.redirection == "rr"
    tau = run.tau if rd else None
    draws = run.draws(n).tolist() if rr else None
    b, c, pmax = run.b, run.c, 0.0
    running = [-1] * m
    start = [0.0] * m
    token = [0] * m
    events: list[tuple[float, int, int]] = []  # (end, processor, token)
    to_serve: set[int] = set()
    runs: list[tuple[int, int, float, float, int]] = []

    def pool_of(i: int) -> tuple[QueuePool, int]:
        return (pools[0], i) if i < main else (pools[1], i - main)

    def begin(i: int, j: int, work: float, t: float) -> None:
        pool, li = pool_of(i)
        running[i], start[i] = j, t
        pool.end[li] = t + work
        pool.counter[li] = 0
        token[i] += 1
        heapq.heappush(events, (t + work, i, token[i]))

    def stop(i: int, t: float, outcome: int) -> int:
        j = running[i]
        if t > start[i]:
            runs.append((j, i, start[i], t, outcome))
        running[i] = -1
        token[i] += 1
        pool, li = pool_of(i)
        pool.end[li] = t
        return j

    def to_dedicated(j: int, t: float) -> None:
        pool = pools[1]
        li, _ = pool.choose(t, size[j])
        pool.push(li, (size[j], release[j], j))
        if running[main + li] < 0:
            to_serve.add(main + li)

    arrivals = instance.arrival_order.tolist()
    a = 0
    while a < n or events:
        t = release[arrivals[a]] if a < n else math.inf
        if events and events[0][0] <= t:
            t = events[0][0]
        while events and events[0][0] <= t:
            _, i, tok = heapq.heappop(events)
            if tok == token[i]:
                stop(i, t, COMPLETED)
                to_serve.add(i)
        while a < n and release[arrivals[a]] == t:
            j = arrivals[a]
            a += 1
            p = size[j]
            if rr:
                pmax = max(pmax, p)
                if p >= b * pmax and draws[j] <= c:
                    to_dedicated(j, t)
                    continue
            pool = pools[0]
            i, left = pool.choose(t, p, srpt=srpt, strict=strict, tau=tau)
            if running[i] < 0:
                pool.push(i, (p, release[j], j))
                to_serve.add(i)
            elif srpt and (p < left if strict else p <= left):
                k = stop(i, t, PREEMPTED)
                pool.push(i, (left, release[k], k))
                begin(i, j, p, t)
            else:
                pool.push(i, (p, release[j], j))
                if rd and p < left:
                    pool.counter[i] += 1
                    if pool.counter[i] == tau:
                        to_dedicated(stop(i, t, KILLED), t)
                        to_serve.add(i)
        for i in sorted(to_serve):
            pool, li = pool_of(i)
            if running[i] < 0 and pool.keys[li]:
                work, _, j = pool.pop(li)
                begin(i, j, work, t)
        to_serve.clear()
    return OnlineSchedule.from_runs(runs, dedicated=m - main, task_names=instance.task_names)
