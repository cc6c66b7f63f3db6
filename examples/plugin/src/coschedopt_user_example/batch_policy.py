"""``sjf``: a user's batch policy, shortest requested time first, without reservations.

At each submission or completion, the waiting jobs are started in order of requested time
(ties: submission order) whenever enough processors are free; each job takes the lowest free
ids.  Unlike EASY, a long wide job may starve.  The schedule is the toolkit's
:class:`~coschedopt.batch.schedule.BatchSchedule`, checked by its independent validator.
An event loop over a heap of completions, O(n log n + n q) with q the queue's length.
"""

from __future__ import annotations

import heapq

import numpy as np

from coschedopt import Result, Status, method
from coschedopt.batch.schedule import BatchSchedule
from coschedopt.workloads.idsets import format_ids


@method("batch", "sjf")
def sjf(instance, *, time_limit, seed, verbose, options) -> Result:
    """Shortest requested time first, no reservation (a user's plug-in policy)."""
    n, m = instance.n, instance.processors
    submit, req, run, size = (
        a.tolist() for a in (instance.submit, instance.requested_time, instance.run_time, instance.size)
    )
    start, end = np.zeros(n, np.int64), np.zeros(n, np.int64)
    procs = [""] * n
    free = list(range(m))
    running: list[tuple[int, int, list[int]]] = []  # (end, job, ids), a heap
    arrivals = sorted(range(n), key=lambda j: (submit[j], j))
    waiting: list[int] = []
    nxt = 0
    while nxt < n or running:
        t = min([*([submit[arrivals[nxt]]] if nxt < n else []), *([running[0][0]] if running else [])])
        while running and running[0][0] <= t:
            free.extend(heapq.heappop(running)[2])
        while nxt < n and submit[arrivals[nxt]] <= t:
            waiting.append(arrivals[nxt])
            nxt += 1
        free.sort()
        for j in sorted(waiting, key=lambda j: (req[j], submit[j], j)):
            if size[j] <= len(free):
                ids, free = free[: size[j]], free[size[j] :]
                start[j], end[j] = t, t + min(run[j], req[j])
                procs[j] = format_ids(ids)
                heapq.heappush(running, (int(end[j]), j, ids))
                waiting.remove(j)
    failed = np.array([r > q for r, q in zip(run, req, strict=True)], dtype=bool)
    return Result(Status.FEASIBLE, schedule=BatchSchedule(tuple(instance.ids), start, end, tuple(procs), failed))
