"""The compiled loop of ``fcfs`` and ``easy`` with basic allocation: the same schedule as :mod:`.queue`'s, job by job.

:func:`.queue.simulate_queue` runs this loop when the allocation is ``basic``
(any penalty, both reservation rules; the topology does not change basic's
choice) and numba is installed; the Python loop of :mod:`.queue` stays the
reference and the path of the other variants.  The loop is that loop
transcribed, with every set and queue kept in arrays:

- a processor set is ``uint64`` words (one bit per processor, ``⌈P/64⌉``
  words); basic takes the lowest set bits word by word, so a job costs the
  words up to its last id and the runs of its ids;
- a job's processors are kept as runs of consecutive ids (``firsts``,
  ``lasts`` from ``first_run[j]``, ``nruns[j]`` of them): freeing them and
  adding them to the head's reservation cost one masked word operation per
  word a run covers, and they give the schedule's interval strings, written
  as ASCII by :func:`format_runs` for all jobs in one call;
- the running jobs sorted by requested end are an array kept sorted by
  insertion (the head's shadow time reads them in order), the completions a
  binary heap, the queue a slice of an array compacted in place by the
  backfilling pass.

The loop runs until a number of instants (``stop``) and returns, so that the
caller checks its deadline between calls, and when the run store may not hold
the next instant's jobs (a pass starts jobs of at most ``P`` processors in
all, hence at most ``P`` runs), so that the caller enlarges it.  Every
variable that outlives an instant is in the arrays, so a call resumes exactly
where the last one returned.

The penalty's multipliers ``1 + R F`` (linear) or ``F^R`` (exponential) are
computed in Python for each R (:func:`penalty_table`), so the compiled
``ceil(T x - 1e-9)`` rounds exactly as :func:`.penalty.penalised_duration`.
This module imports numba; :mod:`.queue` imports it only when the compiled
loop runs, so ``import coschedopt`` does not load numba.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable

import numpy as np

from .profile_kernels import cached, njit, popcount

# fields of ``state``: the current instant, the next job to submit (index into ``order``), instants so far,
# free processors, the queue (``queue[QHEAD:QTAIL]``), running jobs, pending completions, zero-length jobs
# started in the last pass, runs stored
T, NXT, INSTANTS, FREE, QHEAD, QTAIL, NRUNNING, NENDS, NDEFERRED, USED = range(10)
STATE_FIELDS = 10
DONE, STOPPED, GROW = 0, 1, 2  # what :func:`simulate` returns


def penalty_table(penalty: str, factor: float, depth: int) -> np.ndarray:
    """The duration multiplier of each number R = 0..D of extra levels, computed as
    :func:`.penalty.penalised_duration` computes it (``1.0 + R * F`` or ``F ** R``)."""
    if penalty == "linear":
        return np.array([1.0 + r * factor for r in range(depth + 1)], dtype=np.float64)
    if penalty == "exponential":
        return np.array([factor**r for r in range(depth + 1)], dtype=np.float64)
    return np.ones(depth + 1, dtype=np.float64)


@njit(cache=True, nogil=True)
def _word_mask(w, a, b):
    """The bits of word ``w`` that lie in the ids ``a..b``."""
    lo = max(a, w * 64) - w * 64
    hi = min(b, w * 64 + 63) - w * 64
    return (~np.uint64(0) >> np.uint64(63 - (hi - lo))) << np.uint64(lo)


@njit(cache=True, nogil=True)
def _set_runs(words, firsts, lasts, r0, nr):
    for r in range(r0, r0 + nr):
        a, b = firsts[r], lasts[r]
        for w in range(a >> 6, (b >> 6) + 1):
            words[w] |= _word_mask(w, a, b)


@njit(cache=True, nogil=True)
def _clear_runs(words, firsts, lasts, r0, nr):
    """Clear the runs' bits in ``words``; returns how many of them were set."""
    c = 0
    for r in range(r0, r0 + nr):
        a, b = firsts[r], lasts[r]
        for w in range(a >> 6, (b >> 6) + 1):
            x = _word_mask(w, a, b)
            c += popcount(words[w] & x)
            words[w] &= ~x
    return c


@njit(cache=True, nogil=True)
def _take_lowest(src, size, firsts, lasts, pos):
    """basic's rule: the ``size`` lowest set bits of ``src`` (it holds that many), written as maximal runs of
    consecutive ids from ``firsts[pos]``, ``lasts[pos]`` on; returns the number of runs."""
    k = pos
    left = size
    one = np.uint64(1)
    for w in range(src.shape[0]):
        x = src[w]
        while x != 0 and left > 0:
            low = popcount((x & (~x + one)) - one)  # trailing zeros
            y = ~(x >> np.uint64(low))
            ones = popcount((y & (~y + one)) - one)  # the run of ones from bit low
            take = min(ones, left)
            a = w * 64 + low
            if k > pos and lasts[k - 1] == a - 1:  # the run goes on from the word before
                lasts[k - 1] = a + take - 1
            else:
                firsts[k] = a
                lasts[k] = a + take - 1
                k += 1
            left -= take
            x &= ~((~np.uint64(0) >> np.uint64(64 - take)) << np.uint64(low))
        if left == 0:
            break
    return k - pos


@njit(cache=True, nogil=True)
def _lowest_mask(src, size, out):
    """``out``: the ``size`` lowest set bits of ``src`` (basic's reservation, as a mask)."""
    left = size
    one = np.uint64(1)
    for w in range(src.shape[0]):
        x = src[w]
        c = popcount(x)
        if left == 0:
            out[w] = 0
        elif c <= left:
            out[w] = x
            left -= c
        else:
            y = np.uint64(0)
            for _ in range(left):
                low = x & (~x + one)
                y |= low
                x ^= low
            out[w] = y
            left = 0


@njit(cache=True, nogil=True)
def _level(blocks, lowest, highest):
    """:meth:`.platform.Platform.level_of` (``blocks[d]``: processors under a node of depth d < D)."""
    depth = blocks.shape[0]
    for d in range(depth - 1, -1, -1):
        if lowest // blocks[d] == highest // blocks[d]:
            return depth - d
    return depth


@njit(cache=True, nogil=True)
def _min_level(blocks, size):
    """:meth:`.platform.Platform.min_level`."""
    depth = blocks.shape[0]
    for d in range(depth - 1, -1, -1):
        if blocks[d] >= size:
            return depth - d
    return depth


@njit(cache=True, nogil=True)
def _insert_running(state, run_end, run_job, e, j):
    """Insert ``(e, j)`` into the running jobs sorted by (requested end, job)."""
    n = state[NRUNNING]
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if run_end[mid] < e or (run_end[mid] == e and run_job[mid] < j):
            lo = mid + 1
        else:
            hi = mid
    for k in range(n, lo, -1):
        run_end[k] = run_end[k - 1]
        run_job[k] = run_job[k - 1]
    run_end[lo] = e
    run_job[lo] = j
    state[NRUNNING] = n + 1


@njit(cache=True, nogil=True)
def _remove_running(state, run_end, run_job, e, j):
    n = state[NRUNNING]
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if run_end[mid] < e or (run_end[mid] == e and run_job[mid] < j):
            lo = mid + 1
        else:
            hi = mid
    for k in range(lo, n - 1):
        run_end[k] = run_end[k + 1]
        run_job[k] = run_job[k + 1]
    state[NRUNNING] = n - 1


@njit(cache=True, nogil=True)
def _push_end(state, heap_end, heap_job, e, j):
    """Push the completion ``(e, j)`` on the binary heap (ordered as heapq orders the tuples)."""
    k = state[NENDS]
    state[NENDS] = k + 1
    while k > 0:
        parent = (k - 1) >> 1
        if heap_end[parent] < e or (heap_end[parent] == e and heap_job[parent] < j):
            break
        heap_end[k] = heap_end[parent]
        heap_job[k] = heap_job[parent]
        k = parent
    heap_end[k] = e
    heap_job[k] = j


@njit(cache=True, nogil=True)
def _pop_end(state, heap_end, heap_job):
    """Pop the earliest completion; returns its job."""
    top = heap_job[0]
    n = state[NENDS] - 1
    state[NENDS] = n
    e, j = heap_end[n], heap_job[n]
    k = 0
    while True:
        c = 2 * k + 1
        if c >= n:
            break
        if c + 1 < n and (
            heap_end[c + 1] < heap_end[c] or (heap_end[c + 1] == heap_end[c] and heap_job[c + 1] < heap_job[c])
        ):
            c += 1
        if e < heap_end[c] or (e == heap_end[c] and j < heap_job[c]):
            break
        heap_end[k] = heap_end[c]
        heap_job[k] = heap_job[c]
        k = c
    heap_end[k] = e
    heap_job[k] = j
    return top


@njit(cache=True, nogil=True)
def _start(state, j, t, src, size, req, run, blocks, mult, penalised, free, run_end, run_job, heap_end, heap_job,
           deferred, start, end, failed, first_run, nruns, firsts, lasts):  # fmt: skip
    """Start job ``j`` now on the lowest ``size[j]`` ids of ``src``, for its penalised duration (killed at its
    requested time); returns the run index of its processors."""
    pos = state[USED]
    nr = _take_lowest(src, size[j], firsts, lasts, pos)
    state[USED] = pos + nr
    first_run[j] = pos
    nruns[j] = nr
    d = run[j]
    if penalised:
        extra = _level(blocks, firsts[pos], lasts[pos + nr - 1]) - _min_level(blocks, size[j])
        if extra > 0:
            d = math.ceil(run[j] * mult[extra] - 1e-9)
    start[j] = t
    if d > req[j]:
        d = req[j]
        failed[j] = True
    end[j] = t + d
    _clear_runs(free, firsts, lasts, pos, nr)
    state[FREE] -= size[j]
    _insert_running(state, run_end, run_job, t + req[j], j)
    if d == 0:
        deferred[state[NDEFERRED]] = j
        state[NDEFERRED] += 1
    else:
        _push_end(state, heap_end, heap_job, t + d, j)
    return pos


@njit(cache=True, nogil=True)
def simulate(state, stop, backfill, busy_first, submit, req, size, run, order, blocks, mult, penalised, free,
             run_end, run_job, heap_end, heap_job, deferred, done, queue, avail, reserved, outside,
             start, end, failed, first_run, nruns, firsts, lasts):  # fmt: skip
    """Run :func:`.queue.simulate_queue`'s loop (``backfill``: EASY, ``busy_first``: its reservation rule) from
    ``state`` until the simulation ends (returns :data:`DONE`), ``state[INSTANTS]`` reaches ``stop``
    (:data:`STOPPED`) or the run store has room for fewer than ``P`` runs (:data:`GROW`)."""
    n = order.shape[0]
    m = blocks[0]
    while True:
        if state[INSTANTS] >= stop:
            return STOPPED
        if firsts.shape[0] - state[USED] < m:
            return GROW
        has_next = state[NENDS] > 0 or state[NXT] < n
        if not has_next and not (state[NDEFERRED] > 0 and state[QTAIL] > state[QHEAD]):
            return DONE
        if has_next:
            t = heap_end[0] if state[NENDS] > 0 else submit[order[state[NXT]]]
            if state[NXT] < n:
                t = min(t, submit[order[state[NXT]]])
        else:
            t = state[T] + 1
        state[T] = t
        state[INSTANTS] += 1
        nd = state[NDEFERRED]
        for k in range(nd):
            done[k] = deferred[k]
        state[NDEFERRED] = 0
        while state[NENDS] > 0 and heap_end[0] == t:
            done[nd] = _pop_end(state, heap_end, heap_job)
            nd += 1
        for k in range(nd):
            j = done[k]
            _set_runs(free, firsts, lasts, first_run[j], nruns[j])
            state[FREE] += size[j]
            _remove_running(state, run_end, run_job, start[j] + req[j], j)
        while state[NXT] < n and submit[order[state[NXT]]] == t:
            queue[state[QTAIL]] = order[state[NXT]]
            state[QTAIL] += 1
            state[NXT] += 1
        while state[QTAIL] > state[QHEAD] and size[queue[state[QHEAD]]] <= state[FREE]:
            j = queue[state[QHEAD]]
            state[QHEAD] += 1
            _start(state, j, t, free, size, req, run, blocks, mult, penalised, free, run_end, run_job, heap_end,
                   heap_job, deferred, start, end, failed, first_run, nruns, firsts, lasts)  # fmt: skip
        if backfill and state[QTAIL] - state[QHEAD] > 1 and state[FREE] > 0:
            _backfill(state, t, busy_first, size, req, run, blocks, mult, penalised, free, run_end, run_job,
                      heap_end, heap_job, deferred, queue, avail, reserved, outside, start, end, failed,
                      first_run, nruns, firsts, lasts)  # fmt: skip


@njit(cache=True, nogil=True)
def _backfill(state, t, busy_first, size, req, run, blocks, mult, penalised, free, run_end, run_job, heap_end,
              heap_job, deferred, queue, avail, reserved, outside, start, end, failed, first_run, nruns, firsts,
              lasts):  # fmt: skip
    """EASY's pass behind the blocked head (:func:`.queue._head_reservation` and :func:`.queue._backfill` with
    basic): the shadow time from the running jobs by requested end, the reservation, then every later job
    that fits now, the waiting ones compacted in place."""
    head = queue[state[QHEAD]]
    need = size[head]
    avail[:] = free
    count = state[FREE]
    k = 0
    shadow = t
    while k < state[NRUNNING]:
        shadow = run_end[k]
        while k < state[NRUNNING] and run_end[k] == shadow:
            j = run_job[k]
            _set_runs(avail, firsts, lasts, first_run[j], nruns[j])
            count += size[j]
            k += 1
        if count >= need:
            break
    if busy_first:
        freed = count - state[FREE]
        for w in range(avail.shape[0]):
            avail[w] &= ~free[w]  # the processors busy now and free at the shadow time
        if freed >= need:
            _lowest_mask(avail, need, reserved)
        else:
            _lowest_mask(free, need - freed, reserved)
            for w in range(avail.shape[0]):
                reserved[w] |= avail[w]
    else:
        _lowest_mask(avail, need, reserved)
    count_outside = 0
    for w in range(free.shape[0]):
        outside[w] = free[w] & ~reserved[w]
        count_outside += popcount(outside[w])
    kept = state[QHEAD] + 1
    for q in range(state[QHEAD] + 1, state[QTAIL]):
        j = queue[q]
        before_shadow = t + req[j] <= shadow
        if size[j] > (state[FREE] if before_shadow else count_outside):
            queue[kept] = j
            kept += 1
            continue
        pos = _start(state, j, t, free if before_shadow else outside, size, req, run, blocks, mult, penalised, free,
                     run_end, run_job, heap_end, heap_job, deferred, start, end, failed, first_run, nruns, firsts,
                     lasts)  # fmt: skip
        count_outside -= _clear_runs(outside, firsts, lasts, pos, nruns[j])
    state[QTAIL] = kept


@njit(cache=True, nogil=True)
def _write_int(out, pos, x):
    if x == 0:
        out[pos] = 48
        return pos + 1
    k = 0
    y = x
    while y > 0:
        k += 1
        y //= 10
    for i in range(k - 1, -1, -1):
        out[pos + i] = 48 + x % 10
        x //= 10
    return pos + k


@njit(cache=True, nogil=True)
def format_runs(first_run, nruns, firsts, lasts, out):
    """Every job's processors as the interval string of :func:`coschedopt.workloads.idsets.format_ids`
    (``"0-3 8"``), one line per job in ASCII into ``out`` (16 bytes per run and one per job suffice);
    returns the bytes written."""
    pos = 0
    for j in range(first_run.shape[0]):
        if j > 0:
            out[pos] = 10
            pos += 1
        r0 = first_run[j]
        for r in range(r0, r0 + nruns[j]):
            if r > r0:
                out[pos] = 32
                pos += 1
            pos = _write_int(out, pos, firsts[r])
            if lasts[r] != firsts[r]:
                out[pos] = 45
                pos = _write_int(out, pos + 1, lasts[r])
    return pos


KERNELS = (simulate, format_runs)  # what a warm-up compiles (the helpers are compiled into them)
#: instants :func:`simulate` runs per call: ``go_on`` is asked between calls
CHUNK = 4096


def _first_store(n: int, m: int) -> int:
    """The runs the store holds at first (it doubles when an instant may not fit): two a job, and one instant's."""
    return 2 * n + m + 64


def run_queue(
    submit: np.ndarray,
    req: np.ndarray,
    size: np.ndarray,
    run: np.ndarray,
    order: np.ndarray,
    blocks: np.ndarray,
    mult: np.ndarray,
    *,
    backfill: bool,
    busy_first: bool,
    go_on: Callable[[int, int, int], bool] | None = None,
    timings: dict[str, float] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]] | None:
    """Every job's start, end, failure and processors (interval strings) under FCFS or EASY with basic allocation:
    the jobs' columns (``int64``), their FCFS ``order``, the platform's ``blocks`` (processors under a node of
    each depth, the root first) and the penalty's multipliers (:func:`penalty_table`; all ones: no penalty).
    ``go_on(instants, submitted, t)`` is asked every :data:`CHUNK` instants; ``None`` if it said no.
    ``timings``, if given, receives the CPU seconds of the parts: ``arrays``, ``loop``, ``strings``."""
    clock = time.process_time
    began = clock()
    n, m = order.shape[0], int(blocks[0])
    width = (m + 63) // 64
    state = np.zeros(STATE_FIELDS, dtype=np.int64)
    state[T], state[FREE] = submit[order[0]], m
    free = np.zeros(width, dtype=np.uint64)
    free.view(np.uint8)[: (m + 7) // 8] = 255
    if m % 8:
        free.view(np.uint8)[m // 8] = (1 << (m % 8)) - 1
    run_end, run_job, heap_end, heap_job, deferred, done = np.zeros((6, m + 1), dtype=np.int64)
    queue = np.zeros(n, dtype=np.int64)
    avail, reserved, outside = np.zeros((3, width), dtype=np.uint64)
    start, end = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
    failed = np.zeros(n, dtype=np.bool_)
    first_run, nruns = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    firsts, lasts = np.zeros((2, _first_store(n, m)), dtype=np.int64)
    penalised = bool((mult != 1.0).any())
    loop = clock()
    stop = CHUNK
    while True:
        status = simulate(
            state, stop, backfill, busy_first, submit, req, size, run, order, blocks, mult, penalised, free,
            run_end, run_job, heap_end, heap_job, deferred, done, queue, avail, reserved, outside,
            start, end, failed, first_run, nruns, firsts, lasts,
        )  # fmt: skip
        if status == DONE:
            break
        if status == GROW:
            firsts, lasts = (np.concatenate((a, np.zeros_like(a))) for a in (firsts, lasts))
            continue
        stop += CHUNK
        if go_on is not None and not go_on(int(state[INSTANTS]), int(state[NXT]), int(state[T])):
            return None
    strings = clock()
    text = np.zeros(16 * int(state[USED]) + n, dtype=np.uint8)
    length = format_runs(first_run, nruns, firsts, lasts, text)
    processors = text[:length].tobytes().decode("ascii").split("\n")
    if timings is not None:
        timings.update(arrays=loop - began, loop=strings - loop, strings=clock() - strings)
    return start, end, failed, processors


def compile_kernels(*, announce: bool = True) -> None:
    """Compile :data:`KERNELS` (or load them from numba's cache) by running the loop on a few jobs, with the
    argument types a :class:`.instance.BatchInstance` gives (read-only columns); with ``announce``, say
    "compiling batch kernels" on stderr first when they are not cached (as :func:`.wordprofile.compile_kernels`)."""
    if announce and not cached(KERNELS):
        print("compiling batch kernels (once per install)...", file=sys.stderr, flush=True)
    columns = [np.array(c, dtype=np.int64) for c in ([0, 0, 1], [5, 5, 0], [70, 60, 130], [3, 9, 0])]
    for c in columns:
        c.setflags(write=False)
    blocks = np.array([130, 65], dtype=np.int64)
    order = np.argsort(columns[0], kind="stable")
    for backfill in (False, True):
        run_queue(*columns, order, blocks, penalty_table("linear", 2.0, 2), backfill=backfill, busy_first=backfill)
