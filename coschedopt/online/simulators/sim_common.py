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

from ..instance import OnlineInstance
from ..schedule import KILLED, PREEMPTED, OnlineSchedule
from .events import EventLoop
from .rules import PolicyRun


def simulate_common_queue(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of a common-queue policy on ``instance`` (every run recorded)."""
    run.check(instance)
    return _CommonQueue(instance, run).simulate()


class _CommonQueue(EventLoop):
    """The state of one simulation: processors, the two queues, the event heaps, the runs so far."""

    def __init__(self, instance: OnlineInstance, run: PolicyRun) -> None:
        super().__init__(instance, run)
        n, m = instance.n, instance.processors
        self.rank = [0] * n
        for k, j in enumerate(instance.arrival_order.tolist()):
            self.rank[j] = k
        self.draws = run.draws(n).tolist() if run.redirection == "rr" else []
        self.pmax = 0.0
        self.queue: list[tuple] = []  # main pool: (key..., task)
        self.dqueue: list[tuple] = []  # dedicated pool: (p, r, task)
        self.idle = list(range(self.main))
        self.didle = list(range(self.main, m))
        self.end = [0.0] * m
        self.counter = [0] * m
        self.remaining = list(self.size)
        self.longest: list[tuple[float, int, int]] = []  # main pool: (-end, processor, token)
        self.track_longest = run.order == "srpt" or run.redirection == "rd"

    def freed(self, i: int) -> None:
        heapq.heappush(self.idle if i < self.main else self.didle, i)

    def key(self, j: int, work: float) -> tuple:
        return (self.rank[j], j) if self.run.order == "fcfs" else (work, self.release[j], j, j)

    def arrive(self, j: int, t: float) -> None:
        run, p = self.run, self.size[j]
        if run.redirection == "rr":
            self.pmax = max(self.pmax, p)
            if p >= run.b * self.pmax and self.draws[j] <= run.c:
                heapq.heappush(self.dqueue, (p, self.release[j], j))
                return
        elif run.redirection == "rd" and (run.count_when_idle or len(self.idle) <= len(self.queue)):
            i = self.longest_running()
            if i >= 0 and p < self.end[i] - t:
                self.counter[i] += 1
                if self.counter[i] == run.tau:
                    k = self.stop(i, t, KILLED)
                    heapq.heappush(self.dqueue, (self.size[k], self.release[k], k))
                    heapq.heappush(self.idle, i)
        elif run.order == "srpt" and len(self.idle) <= len(self.queue):
            i = self.longest_running()
            left = self.end[i] - t if i >= 0 else 0.0
            if i >= 0 and (p < left if run.strict_preemption else p <= left):
                k = self.stop(i, t, PREEMPTED)
                self.remaining[k] = left
                heapq.heappush(self.queue, self.key(k, left))
                self.begin(i, j, t)
                return
        heapq.heappush(self.queue, self.key(j, p))

    def serve(self, t: float) -> None:
        """Idle processors, lowest index first, take the head of their pool's queue."""
        while self.idle and self.queue:
            self.begin(heapq.heappop(self.idle), heapq.heappop(self.queue)[-1], t)
        while self.didle and self.dqueue:
            j = heapq.heappop(self.dqueue)[-1]
            self.remaining[j] = self.size[j]
            self.begin(heapq.heappop(self.didle), j, t)

    def begin(self, i: int, j: int, t: float) -> None:
        self.running[i], self.start[i] = j, t
        end = self.end[i] = t + self.remaining[j]
        self.token[i] += 1
        self.counter[i] = 0
        heapq.heappush(self.events, (end, i, self.token[i]))
        if self.track_longest and i < self.main:
            heapq.heappush(self.longest, (-end, i, self.token[i]))

    def longest_running(self) -> int:
        """The main-pool processor whose task ends last (lowest index on ties), -1 if none runs."""
        longest, token = self.longest, self.token
        while longest and longest[0][2] != token[longest[0][1]]:
            heapq.heappop(longest)
        return longest[0][1] if longest else -1
