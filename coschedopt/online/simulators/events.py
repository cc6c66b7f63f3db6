"""The event loop the online simulators share (§3.4): completions, then arrivals, then service.

At each instant t (the next release or the next completion, whichever is first)
the loop applies, in this fixed order: every completion at t (a completion event
whose token is stale belongs to a run that was preempted or killed, and is
skipped), every arrival at t in trace order, then one service step.  A subclass
says what a freed processor does (:meth:`EventLoop.freed`), what an arrival does
and how idle processors serve; :meth:`EventLoop.stop` records a run.
"""

from __future__ import annotations

import heapq
import math

from ..instance import OnlineInstance
from ..schedule import COMPLETED, OnlineSchedule
from .rules import PolicyRun


class EventLoop:
    """Processors 0..m-1 (the first ``main`` of them the main pool), what each runs since when,
    the completion events (end, processor, token) and the runs recorded so far."""

    def __init__(self, instance: OnlineInstance, run: PolicyRun) -> None:
        self.instance, self.run = instance, run
        self.release, self.size = instance.release.tolist(), instance.time.tolist()
        m = instance.processors
        self.main = run.main_pool(m)
        self.running = [-1] * m
        self.start = [0.0] * m
        self.token = [0] * m
        self.events: list[tuple[float, int, int]] = []  # (end, processor, token)
        self.runs: list[tuple[int, int, float, float, int]] = []

    def simulate(self) -> OnlineSchedule:
        release, events, n = self.release, self.events, self.instance.n
        arrivals = self.instance.arrival_order.tolist()
        a = 0
        while a < n or events:
            t = release[arrivals[a]] if a < n else math.inf
            if events and events[0][0] <= t:
                t = events[0][0]
            while events and events[0][0] <= t:
                _, i, tok = heapq.heappop(events)
                if tok == self.token[i]:
                    self.stop(i, t, COMPLETED)
                    self.freed(i)
            while a < n and release[arrivals[a]] == t:
                self.arrive(arrivals[a], t)
                a += 1
            self.serve(t)
        m = self.instance.processors
        return OnlineSchedule.from_runs(self.runs, dedicated=m - self.main, task_names=self.instance.task_names)

    def stop(self, i: int, t: float, outcome: int) -> int:
        """End the run on processor ``i`` at ``t`` with ``outcome``; the task it ran."""
        j = self.running[i]
        if t > self.start[i]:
            self.runs.append((j, i, self.start[i], t, outcome))
        self.running[i] = -1
        self.token[i] += 1
        return j

    def freed(self, i: int) -> None:
        """Processor ``i`` has just completed its task."""
        raise NotImplementedError

    def arrive(self, j: int, t: float) -> None:
        """Task ``j`` is released at ``t``."""
        raise NotImplementedError

    def serve(self, t: float) -> None:
        """Idle processors take work at ``t``."""
        raise NotImplementedError
