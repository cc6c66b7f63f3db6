"""Large neighbourhood search with an exact repair: re-solve windows of the incumbent.

A window is a run of packs adjacent in cost (the incumbent's packs sorted by their
level): at least two packs, more while their tasks stay within ``LNS_TASKS``.  Its
tasks form a sub-instance (same p and k) that :func:`.solver.solve` itself solves,
started from the window's current packs, so it returns them unchanged or a strictly
cheaper cover proven optimal for those tasks (or the best found in its time box).
Packs of neighbouring levels are the ones that trade tasks in an optimal schedule:
the local search of :func:`.solver.local_search` moves one or two tasks at a time,
a window re-partitions tens of them at once.  Windows already solved (by their task
set) are not tried again; the search is exhausted when every window of the
incumbent has been.

This is a primal heuristic only: it never touches the bound.  It starts once the
solve is long (``LNS_AFTER``).  With a worker process (``workers=1``, the default
on a machine with two or more cores) the windows are re-solved there while the
tree goes on in the solver's process: the results are collected between tree
nodes, and one is applied only if no pack of the incumbent straddles its window
(the incumbent may have changed meanwhile); which windows are tried then depends
on timing, so two runs may differ.  Without one (``workers=0``) the windows are
re-solved between tree nodes within a share of the time (``LNS_SHARE``),
deterministically.  On Workload-III (260 tasks, p = 32, seed 0, 600 s, in-process)
it took the incumbent from 0.77 % to 0.46 % above the bound at k = 16 and from
0.87 % to 0.67 % at k = 32, where diving, the restricted-master MIP and the local
searches had stopped.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from multiprocessing.pool import AsyncResult

import numpy as np

from ...core import Deadline
from ..instance import PackInstance
from ..schedule import PackSchedule

#: most tasks freed at once (a window holds at least two packs)
LNS_TASKS = 48
#: time box of one sub-problem (seconds)
LNS_SUB_TIME = 10.0
#: the search starts once the solver has run LNS_AFTER seconds and then takes at most
#: LNS_SHARE of the time spent (Workload-II's trees close within about a minute without it)
LNS_AFTER = 60.0
LNS_SHARE = 0.4
#: windows queued in the worker process at once (results are collected between tree
#: nodes, 10-55 s apart on Workload-III, while a window takes a few seconds)
LNS_QUEUED = 4


def solve_window(
    times: np.ndarray, k: int, start: list[list[tuple[int, int]]], time_limit: float, seed: int
) -> tuple[list[list[tuple[int, int]]], str, float]:
    """Re-solve one window: the sub-instance of its tasks (rows of ``times``), started
    from its packs ``start`` (task row, processors); returns the packs found, the status
    and the seconds spent.  Module-level so that a worker process can run it."""
    from .solver import solve

    sub = PackInstance(times, k, name="window")
    t0 = time.perf_counter()
    res = solve(
        sub,
        time_limit=time_limit,
        seed=seed,
        heuristics=False,
        rmp_time=1.0,
        lns=False,
        start=PackSchedule.from_indices(sub, start),
    )
    return res.schedule.indices(sub), str(res.status), time.perf_counter() - t0


class Neighbourhoods:
    """The windows of the incumbent not tried yet, and one exact re-solve per :meth:`step`."""

    def __init__(self, st, workers: int = 0) -> None:
        self.st = st
        self.rng = np.random.default_rng(st.seed)
        self.tried: set[frozenset[int]] = set()
        self.spent = 0.0
        self.steps = 0
        self.improved = 0
        self.stale = 0  # results dropped: the incumbent changed across their window meanwhile
        # a daemonic process (the bench harness's workers) may not start one: search in-process
        self.workers = 0 if multiprocessing.current_process().daemon else int(workers)
        self._pool = None
        self._queued: list[tuple[list[int], AsyncResult]] = []

    def all_windows(self) -> list[tuple[list[tuple[int, ...]], frozenset[int]]]:
        """(packs, task set) of every window of the incumbent."""
        table = self.st.table
        packs = sorted(self.st.best_sets, key=lambda s: (table.min_level(s), s))
        out = []
        for a in range(len(packs) - 1):
            b, size = a, 0
            while b < len(packs) and (b - a < 2 or size + len(packs[b]) <= LNS_TASKS):
                size += len(packs[b])
                b += 1
            if size <= 2 * LNS_TASKS:
                out.append((packs[a:b], frozenset(i for s in packs[a:b] for i in s)))
        return out

    def windows(self) -> list[tuple[list[tuple[int, ...]], frozenset[int]]]:
        """The windows of the incumbent not tried yet."""
        return [w for w in self.all_windows() if w[1] not in self.tried]

    def _next(self, until: Deadline) -> tuple[list[int], tuple] | None:
        """An untried window of the incumbent, marked tried: its tasks and the arguments
        of :func:`solve_window`; None when none is left."""
        from .solver import allocations

        st = self.st
        todo = self.windows()
        if not todo or until.expired():
            return None
        busy = frozenset(i for tasks, _ in self._queued for i in tasks)
        free = [w for w in todo if busy.isdisjoint(w[1])]  # windows queued together should not overlap
        todo = free or todo
        window, key = todo[int(self.rng.integers(len(todo)))]
        self.tried.add(key)
        tasks = sorted(key)
        local = {i: r for r, i in enumerate(tasks)}
        start = [[(local[i], q) for i, q in pack] for pack in allocations(st.table, window)]
        rem = until.remaining()
        limit = min(LNS_SUB_TIME, rem) if math.isfinite(rem) else LNS_SUB_TIME
        return tasks, (st.inst.times[tasks], st.inst.max_pack_size, start, limit, st.seed)

    def _apply(self, tasks: list[int], packs: list[list[tuple[int, int]]], status: str, seconds: float) -> None:
        """Offer the incumbent with the window's tasks re-partitioned as ``packs``, unless
        a pack of the incumbent now straddles the window (it changed meanwhile)."""
        st = self.st
        self.spent += seconds
        self.steps += 1
        key = frozenset(tasks)
        if any(not key.isdisjoint(s) and not key.issuperset(s) for s in st.best_sets):
            self.stale += 1
            return
        new = [tuple(sorted(tasks[r] for r, _ in pack)) for pack in packs]
        rest = [s for s in st.best_sets if not key.issuperset(s)]
        # offer() keeps the result only when it is strictly cheaper than the incumbent
        if st.offer(rest + new, f"neighbourhood search ({len(tasks)} tasks, {status})", improve=False):
            self.improved += 1

    def step(self, until: Deadline) -> bool:
        """Re-solve one random untried window within ``until`` (in this process); False
        when none is left."""
        nxt = self._next(until)
        if nxt is None:
            return False
        tasks, args = nxt
        self._apply(tasks, *solve_window(*args))
        return True

    def _poll(self) -> None:
        """Apply the windows the worker process has finished; keep ``LNS_QUEUED`` queued."""
        st = self.st
        while self._queued and self._queued[0][1].ready():
            tasks, job = self._queued.pop(0)
            self._apply(tasks, *job.get())
        while len(self._queued) < LNS_QUEUED and not st.closed():
            nxt = self._next(st.deadline)
            if nxt is None:
                break
            if self._pool is None:
                # spawn, not fork: the solver's process holds HiGHS threads
                self._pool = multiprocessing.get_context("spawn").Pool(self.workers)
            tasks, args = nxt
            self._queued.append((tasks, self._pool.apply_async(solve_window, args)))

    def close(self) -> None:
        """Stop the worker process (windows still queued are dropped)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
        self._queued.clear()

    def catch_up(self) -> None:
        """With a worker process: apply its finished windows and queue more; without:
        steps while the search is behind its share of the solver's time (``LNS_SHARE``)."""
        st = self.st
        if self.workers > 0:
            if time.perf_counter() - st.t0 >= LNS_AFTER and not st.deadline.expired():
                self._poll()
        else:
            while not st.closed() and not st.deadline.expired():
                elapsed = time.perf_counter() - st.t0
                if elapsed < LNS_AFTER or self.spent >= LNS_SHARE * elapsed or not self.step(st.deadline):
                    break
        st.stats["lns"] = {
            "steps": self.steps,
            "improved": self.improved,
            "seconds": round(self.spent, 3),
            "workers": self.workers,
            "stale": self.stale,
        }
