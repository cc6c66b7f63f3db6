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

from ..instance import OnlineInstance
from ..schedule import KILLED, PREEMPTED, OnlineSchedule
from .dispatch import QueuePool
from .events import EventLoop
from .rules import PolicyRun


def simulate_dispatch(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of an immediate-dispatch policy on ``instance`` (every run recorded)."""
    run.check(instance)
    return _Dispatch(instance, run).simulate()


class _Dispatch(EventLoop):
    """The state of one simulation: the main pool and the dedicated pool (:class:`.QueuePool`),
    what each processor runs, the completion events, the runs so far."""

    def __init__(self, instance: OnlineInstance, run: PolicyRun) -> None:
        super().__init__(instance, run)
        n, m, main = instance.n, instance.processors, self.main
        self.pools = [QueuePool(0, main)] + ([QueuePool(main, m - main)] if main < m else [])
        self.srpt = run.order == "srpt"
        self.tau = run.tau if run.redirection == "rd" else None
        self.rr = run.redirection == "rr"
        self.draws = run.draws(n).tolist() if self.rr else []
        self.pmax = 0.0
        self.to_serve: set[int] = set()

    def freed(self, i: int) -> None:
        self.to_serve.add(i)

    def arrive(self, j: int, t: float) -> None:
        run, p = self.run, self.size[j]
        if self.rr:
            self.pmax = max(self.pmax, p)
            if p >= run.b * self.pmax and self.draws[j] <= run.c:
                self.to_dedicated(j, t)
                return
        pool = self.pools[0]
        i, left = pool.choose(t, p, srpt=self.srpt, strict=run.strict_preemption, tau=self.tau)
        if self.running[i] < 0:
            pool.push(i, (p, self.release[j], j))
            self.to_serve.add(i)
        elif self.srpt and (p < left if run.strict_preemption else p <= left):
            k = self.stop(i, t, PREEMPTED)
            pool.push(i, (left, self.release[k], k))
            self.begin(i, j, p, t)
        else:
            pool.push(i, (p, self.release[j], j))
            if self.tau is not None and p < left:
                pool.counter[i] += 1
                if pool.counter[i] == self.tau:
                    self.to_dedicated(self.stop(i, t, KILLED), t)
                    self.to_serve.add(i)

    def to_dedicated(self, j: int, t: float) -> None:
        """Dispatch T_j (whole) to the dedicated pool by the general marginal flow."""
        pool = self.pools[1]
        li, _ = pool.choose(t, self.size[j])
        pool.push(li, (self.size[j], self.release[j], j))
        if self.running[self.main + li] < 0:
            self.to_serve.add(self.main + li)

    def serve(self, t: float) -> None:
        """Idle processors with a queue, lowest index first, start its shortest task."""
        for i in sorted(self.to_serve):
            pool, li = self.pool_of(i)
            if self.running[i] < 0 and pool.keys[li]:
                work, _, j = pool.pop(li)
                self.begin(i, j, work, t)
        self.to_serve.clear()

    def pool_of(self, i: int) -> tuple[QueuePool, int]:
        return (self.pools[0], i) if i < self.main else (self.pools[1], i - self.main)

    def begin(self, i: int, j: int, work: float, t: float) -> None:
        pool, li = self.pool_of(i)
        self.running[i], self.start[i] = j, t
        pool.end[li] = t + work
        pool.counter[li] = 0
        self.token[i] += 1
        heapq.heappush(self.events, (t + work, i, self.token[i]))

    def stop(self, i: int, t: float, outcome: int) -> int:
        j = super().stop(i, t, outcome)
        pool, li = self.pool_of(i)
        pool.end[li] = t
        return j
