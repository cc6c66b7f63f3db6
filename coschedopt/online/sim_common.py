"""Event-driven simulation of the common-queue policies: FCFS, GSPT, GSRPT, GSPT-RD, GSPT-RR (§3.4).

An idle processor pulls from one queue Q: FCFS takes the earliest released task,
GSPT the shortest, GSRPT the shortest remaining.  Events of one instant are
applied in a fixed order: completions, then arrivals in trace order, then idle
processors (lowest index first) serve the queues, so every task released at t is
in Q before a processor picks (with all releases at 0, GSPT is then P||ΣC_j's
optimal SPT list schedule).

* GSRPT, on arrival of T_j: if a processor is free for it (more idle processors
  than queued tasks) T_j joins Q; else T_k, the running task of longest remaining
  time (latest end, lowest processor), is preempted if p_j <= p_k(r_j) (< with
  ``strict_preemption``) and goes back to Q with p_k(r_j); T_j starts in its place.
  Migration is allowed, so this is the m-machine preemptive SRPT.
* GSPT-RD(τ, m_d): the main pool (m - m_d processors) runs GSPT.  On arrival of T_j,
  T_k = the main-pool running task of longest remaining time; if p_j < p_k(r_j),
  c_k += 1, and at c_k = τ T_k is killed and sent, with its full p_k and its
  original r_k, to the dedicated pool's own queue (GSPT, never redirected).
  c_k restarts at 0 whenever T_k starts on the main pool.
* GSPT-RR(b, c, m_d): T_j goes to the dedicated pool's queue if p_j >= b·p_max and
  its draw u_j <= c (see :mod:`.rules`), else to Q; nothing is killed.

Complexity O(n log n): binary heaps for the events, the queues, the idle
processors and (GSRPT, GSPT-RD) the running tasks by end time, the last with lazy
deletion (a token per processor invalidates the entries of an interrupted run).
"""

from __future__ import annotations

import heapq
import math

from .instance import OnlineInstance
from .rules import PolicyRun
from .schedule import COMPLETED, KILLED, PREEMPTED, OnlineSchedule


def simulate_common_queue(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of a common-queue policy on ``instance`` (every run recorded)."""
    run.check(instance)
    release, size = instance.release.tolist(), instance.time.tolist()
    n, m = instance.n, instance.processors
    main = run.main_pool(m)
    order, redirection = run.order, run.redirection
    strict, tau = run.strict_preemption, run.tau
    draws = run.draws(n).tolist() if redirection == "rr" else None
    b, c, pmax = run.b, run.c, 0.0

    def key(j: int, work: float) -> tuple:
        if order == "fcfs":
            return (rank[j],)
        return (work, release[j], j)

    rank = [0] * n
    arrivals = instance.arrival_order.tolist()
    for k, j in enumerate(arrivals):
        rank[j] = k
    queue: list[tuple] = []  # main pool: (key..., task) via tuples ending with the task's work
    dqueue: list[tuple] = []  # dedicated pool: (p, r, task)
    idle = list(range(main))
    didle = list(range(main, m))
    running = [-1] * m
    start = [0.0] * m
    end = [0.0] * m
    token = [0] * m
    counter = [0] * m
    remaining = list(size)
    events: list[tuple[float, int, int]] = []  # (end, processor, token)
    longest: list[tuple[float, int, int]] = []  # main pool: (-end, processor, token)
    track_longest = order == "srpt" or redirection == "rd"
    runs: list[tuple[int, int, float, float, int]] = []

    def begin(i: int, j: int, t: float) -> None:
        running[i], start[i] = j, t
        end[i] = t + remaining[j]
        token[i] += 1
        counter[i] = 0
        heapq.heappush(events, (end[i], i, token[i]))
        if track_longest and i < main:
            heapq.heappush(longest, (-end[i], i, token[i]))

    def stop(i: int, t: float, outcome: int) -> int:
        j = running[i]
        if t > start[i]:
            runs.append((j, i, start[i], t, outcome))
        running[i] = -1
        token[i] += 1
        return j

    def longest_running() -> int:
        while longest and longest[0][2] != token[longest[0][1]]:
            heapq.heappop(longest)
        return longest[0][1] if longest else -1

    a = 0
    while a < n or events:
        t = release[arrivals[a]] if a < n else math.inf
        if events and events[0][0] <= t:
            t = events[0][0]
        while events and events[0][0] <= t:
            _, i, tok = heapq.heappop(events)
            if tok == token[i]:
                stop(i, t, COMPLETED)
                heapq.heappush(idle if i < main else didle, i)
        while a < n and release[arrivals[a]] == t:
            j = arrivals[a]
            a += 1
            p = size[j]
            if redirection == "rr":
                pmax = max(pmax, p)
                if p >= b * pmax and draws[j] <= c:
                    heapq.heappush(dqueue, (p, release[j], j))
                    continue
            elif redirection == "rd" and (run.count_when_idle or len(idle) <= len(queue)):
                i = longest_running()
                if i >= 0 and p < end[i] - t:
                    counter[i] += 1
                    if counter[i] == tau:
                        k = stop(i, t, KILLED)
                        heapq.heappush(dqueue, (size[k], release[k], k))
                        heapq.heappush(idle, i)
            elif order == "srpt" and len(idle) <= len(queue):
                i = longest_running()
                if i >= 0 and (p < end[i] - t if strict else p <= end[i] - t):
                    k = stop(i, t, PREEMPTED)
                    remaining[k] = end[i] - t
                    heapq.heappush(queue, (*key(k, remaining[k]), k))
                    begin(i, j, t)
                    continue
            heapq.heappush(queue, (*key(j, p), j))
        while idle and queue:
            begin(heapq.heappop(idle), heapq.heappop(queue)[-1], t)
        while didle and dqueue:
            j = heapq.heappop(dqueue)[-1]
            remaining[j] = size[j]
            begin(heapq.heappop(didle), j, t)
    return OnlineSchedule.from_runs(runs, dedicated=m - main, task_names=instance.task_names)
