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

This is a primal heuristic only: it never touches the bound.  It runs interleaved
with the tree once the solve is long (``LNS_AFTER``), within a share of the time
(``LNS_SHARE``): on Workload-III (260 tasks, p = 32, seed 0, 600 s) it took the
incumbent from 0.77 % to 0.46 % above the bound at k = 16 and from 0.87 % to 0.67 %
at k = 32, where diving, the restricted-master MIP and the local searches had stopped.
"""

from __future__ import annotations

import math
import time

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


class Neighbourhoods:
    """The windows of the incumbent not tried yet, and one exact re-solve per :meth:`step`."""

    def __init__(self, st) -> None:
        self.st = st
        self.rng = np.random.default_rng(st.seed)
        self.tried: set[frozenset[int]] = set()
        self.spent = 0.0
        self.steps = 0
        self.improved = 0

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

    def step(self, until: Deadline) -> bool:
        """Re-solve one random untried window within ``until``; False when none is left."""
        from .solver import allocations, solve

        st = self.st
        todo = self.windows()
        if not todo or until.expired():
            return False
        window, key = todo[int(self.rng.integers(len(todo)))]
        self.tried.add(key)
        tasks = sorted(key)
        local = {i: r for r, i in enumerate(tasks)}
        sub = PackInstance(st.inst.times[tasks], st.inst.max_pack_size, name="window")
        start = PackSchedule.from_indices(
            sub, [[(local[i], q) for i, q in pack] for pack in allocations(st.table, window)]
        )
        rem = until.remaining()
        t0 = time.perf_counter()
        res = solve(
            sub,
            time_limit=min(LNS_SUB_TIME, rem) if math.isfinite(rem) else LNS_SUB_TIME,
            seed=st.seed,
            heuristics=False,
            rmp_time=1.0,
            lns=False,
            start=start,
        )
        self.spent += time.perf_counter() - t0
        self.steps += 1
        new = [tuple(sorted(tasks[r] for r, _ in pack)) for pack in res.schedule.indices(sub)]
        rest = [s for s in st.best_sets if not key.issuperset(s)]
        # offer() keeps the result only when it is strictly cheaper than the incumbent
        if st.offer(rest + new, f"neighbourhood search ({len(tasks)} tasks, {res.status})", improve=False):
            self.improved += 1
        return True

    def catch_up(self) -> None:
        """Steps while the search is behind its share of the solver's time (see ``LNS_SHARE``)."""
        st = self.st
        while not st.closed() and not st.deadline.expired():
            elapsed = time.perf_counter() - st.t0
            if elapsed < LNS_AFTER or self.spent >= LNS_SHARE * elapsed or not self.step(st.deadline):
                break
        st.stats["lns"] = {"steps": self.steps, "improved": self.improved, "seconds": round(self.spent, 3)}
