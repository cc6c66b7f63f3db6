"""FCFS and EASY backfilling with processor identities (thesis §4.5.1's background; Lifka 1995).

Both keep the jobs waiting in FCFS order and run one scheduling pass at each
instant where a job is submitted or ends (completions first, then
submissions, then the pass):

- ``fcfs``: start the queue's head while the allocation variant accepts the
  processors free now; the first job that cannot start blocks the others.
- ``easy`` (textbook EASY, Mu'alem and Feitelson 2001): the same, then the
  blocked head gets a reservation: its *shadow time*, the earliest requested
  end of a running job at which the variant accepts the processors then free
  (those free now and those the running jobs have freed by then), and a set
  of ``size`` of those processors.  Every later job starts now if the variant
  accepts processors free now that keep the head's reserved processors
  untouched past the shadow time (a job ending by the shadow time may use any
  processor free now).  The reservation is recomputed at each pass.

Which processors the head reserves (option ``reservation``) decides how many
processors idle now are left to the jobs that run past the shadow time:

- ``busy-first`` (default): the processors busy now but free at the shadow
  time are reserved first, so that as many processors idle now as possible
  stay outside the reservation.  A best-effort variant (basic, becont, beloc,
  beplat) reserves its choice among them when they are at least ``size``,
  else all of them plus its own choice of the rest among the processors idle
  now (basic: their lowest ids).  A forced variant (cont, loc, plat), whose
  reservation must have the shape the variant requires, keeps the
  ``lowest-ids`` reservation when it holds no idle processor, else takes its
  choice among the busy-now ones if they are at least ``size`` and it accepts
  them, else keeps the ``lowest-ids`` one.  With basic, the jobs that run past
  the shadow time then get exactly the textbook's "extra" processors (free at
  the shadow time minus the head's size), and a job that ends by it takes the
  lowest free ids, the reserved idle ones first, so leaves the extra ones to
  the others: the backfilling decisions are those of count-based EASY.  The
  other variants choose by shape, so theirs may differ from the counts.
- ``lowest-ids``: the variant's own choice among all processors free at the
  shadow time (basic: their lowest ids), which often reserves processors idle
  now and so backfills fewer jobs than the textbook.

A job runs for its penalised run time (:mod:`..penalty`) and is killed at its
requested time.  Zero-length jobs follow AccaSim's convention, so that our
``fcfs`` reproduces its FIFO start times job by job: such a job's processors
are freed after the pass in which it started, without a second pass at that
instant; the next pass comes at the next submission or completion, or one
second later if there is none while jobs wait.

Cost: a pass is O(1) bitset operations per waiting job that could fit by
count, plus the allocation rule for those that do; EASY sorts the running jobs
by requested end when the head is blocked (a forced variant's rule is tried at
each of these ends until it accepts) and chooses the reservation with at most
two more calls of the rule.

Two loops compute the same schedule (start, end, processors, failure of every
job).  With allocation ``basic`` (any penalty, both reservation rules; the
topology does not change basic's choice, the lowest free ids), numba
installed and more work than a few thousand jobs (below, the Python loop
costs less than loading numba: :mod:`..kernels`), :func:`simulate_queue`
runs the compiled transcription of this
module's loop in :mod:`..queue_kernels`: sets as ``uint64`` words and every
queue in arrays, so an instant creates no Python object (the objects were
most of the Python loop's time per job).  The other variants
choose by shape (ranges, clusters, tree blocks) and stay on the Python loop
below, which is also the reference the compiled one is tested against
(``compiled=False`` selects it).  The compiled loop's kernels are compiled
once per install (``coschedopt batch warmup``, or the methods' ``prepare``
hook before their first compiled run, :func:`..kernels.prepare_queue`).
"""

from __future__ import annotations

import heapq
import sys
import time
from bisect import insort
from dataclasses import dataclass

import numpy as np

from ...core import Deadline, Result, Status, method, option
from .. import kernels
from ..allocation import Allocator
from ..instance import BatchInstance
from ..procsets import bits_from_ids, full_bits
from ..simulation import JobRecord, SimOptions

RESERVATIONS = ("busy-first", "lowest-ids")


@dataclass(frozen=True)
class EasyOptions(SimOptions):
    """Options of ``easy``: every simulator's, plus how the blocked head's processors are reserved."""

    reservation: str = option(
        "busy-first",
        "the blocked head's reserved processors: those busy now first, keeping idle ones for backfilling "
        "(textbook EASY with basic), or the variant's choice among all free at the shadow time",
        choices=RESERVATIONS,
    )

    def model(self) -> dict[str, object]:
        return {**super().model(), "reservation": self.reservation}


def compiled_loop_applies(options: SimOptions, instance: BatchInstance | None = None) -> bool:
    """Whether :func:`simulate_queue` runs the compiled loop for ``options``: basic allocation (whose choice,
    the lowest free ids, no topology changes), numba installed and, given ``instance``, enough work to pay
    for loading numba (:func:`..kernels.compiled_loop_applies`)."""
    if instance is not None:
        return kernels.compiled_loop_applies(instance, options)
    return options.allocation == "basic" and kernels.numba_installed()


def simulate_queue(
    instance: BatchInstance,
    options: SimOptions,
    *,
    backfill: bool,
    verbose: bool = False,
    deadline: Deadline | None = None,
    compiled: bool | None = None,
) -> JobRecord | None:
    """FCFS (``backfill=False``) or EASY (``True``, ``options`` an :class:`EasyOptions`); ``None`` if
    ``deadline`` expired first.  ``compiled``: run the compiled loop (:mod:`..queue_kernels`, same schedule)
    or this module's Python loop (``False``, the reference); by default the compiled one when
    :func:`compiled_loop_applies`."""
    if compiled is None:
        compiled = compiled_loop_applies(options, instance)
    elif compiled and options.allocation != "basic":
        raise ValueError(f"the compiled loop takes basic allocation only, not {options.allocation!r}")
    if compiled:
        return simulate_compiled(instance, options, backfill=backfill, verbose=verbose, deadline=deadline)
    rec = JobRecord(instance, options)
    allocator = options.allocator(instance)
    choose = allocator.from_bits
    m = instance.processors
    order = instance.fcfs_order().tolist()
    submit, req, size = instance.submit.tolist(), instance.requested_time.tolist(), instance.size.tolist()
    free, free_count = full_bits(m), m
    running: list[tuple[int, int]] = []  # (requested end, job), sorted
    bits: dict[int, int] = {}
    ends: list[tuple[int, int]] = []
    deferred: list[int] = []
    queue: list[int] = []
    nxt, n, instants = 0, len(order), 0
    t = submit[order[0]]

    def start(j: int, ids) -> None:
        nonlocal free, free_count
        d, failed = rec.duration(j, ids)
        rec.started(j, t, ids, d, failed)
        b = bits_from_ids(ids, m)
        bits[j] = b
        free ^= b
        free_count -= size[j]
        insort(running, (t + req[j], j))
        if d == 0:
            deferred.append(j)
        else:
            heapq.heappush(ends, (t + d, j))

    while True:
        upcoming = [ends[0][0]] if ends else []
        if nxt < n:
            upcoming.append(submit[order[nxt]])
        if not upcoming and not (deferred and queue):
            break
        t = min(upcoming) if upcoming else t + 1
        instants += 1
        if deadline is not None and instants % 1024 == 0 and deadline.expired():
            return None
        done, deferred = deferred, []
        while ends and ends[0][0] == t:
            done.append(heapq.heappop(ends)[1])
        for j in done:
            free |= bits.pop(j)
            free_count += size[j]
            running.remove((int(rec.start[j]) + req[j], j))
        while nxt < n and submit[order[nxt]] == t:
            queue.append(order[nxt])
            nxt += 1
        while queue and size[queue[0]] <= free_count:
            ids = choose(free, size[queue[0]])
            if ids is None:
                break
            start(queue.pop(0), ids)
        if backfill and len(queue) > 1 and free:  # with no processor idle, nothing can backfill
            queue = _backfill(t, queue, allocator, options.reservation, running, bits, free, req, size, start)
        if verbose and instants % 20000 == 0:
            print(f"{'easy' if backfill else 'fcfs'}: {nxt}/{n} jobs submitted, t={t}", file=sys.stderr)
    return rec


def simulate_compiled(
    instance: BatchInstance,
    options: SimOptions,
    *,
    backfill: bool,
    verbose: bool = False,
    deadline: Deadline | None = None,
    timings: dict[str, float] | None = None,
) -> JobRecord | None:
    """:func:`simulate_queue` with basic allocation through the compiled loop (:func:`.queue_kernels.run_queue`;
    ``timings``, if given, receives the CPU seconds of its parts: ``arrays``, ``loop``, ``strings``, ``record``)."""
    from .. import queue_kernels

    name = "easy" if backfill else "fcfs"
    shown = 0

    def go_on(instants: int, submitted: int, t: int) -> bool:
        nonlocal shown
        if verbose and instants // 20000 > shown:
            shown = instants // 20000
            print(f"{name}: {submitted}/{instance.n} jobs submitted, t={t} (compiled)", file=sys.stderr)
        return deadline is None or not deadline.expired()

    plat = instance.platform
    out = queue_kernels.run_queue(
        instance.submit, instance.requested_time, instance.size, instance.run_time, instance.fcfs_order(),
        np.array([plat.block_size(d) for d in range(plat.depth)], dtype=np.int64),
        queue_kernels.penalty_table(options.penalty, options.factor, plat.depth),
        backfill=backfill, busy_first=backfill and options.reservation == "busy-first",
        go_on=go_on, timings=timings,
    )  # fmt: skip
    if out is None:
        return None
    began = time.process_time()
    rec = JobRecord(instance, options)
    rec.start, rec.end, rec.failed, rec.processors = out
    if timings is not None:
        timings["record"] = time.process_time() - began
    return rec


def _head_reservation(head_size: int, free: int, running, bits, allocator: Allocator, rule: str) -> tuple[int, int]:
    """The shadow time (the earliest requested end at which the processors then free are accepted for
    the head) and the head's reserved processors there, chosen by ``rule`` (module docstring)."""
    choose_mask, forced = allocator.mask_from_bits, allocator.forced
    available, reserved = free, None
    k = 0
    while True:
        when = running[k][0]
        while k < len(running) and running[k][0] == when:
            available |= bits[running[k][1]]
            k += 1
        if available.bit_count() >= head_size:
            if not forced:  # a best-effort variant accepts any set holding enough processors
                break
            reserved = choose_mask(available, head_size)
            if reserved is not None:
                break
    if rule == "busy-first" and not (forced and (reserved & free) == 0):
        freed = available & ~free
        count = freed.bit_count()
        if count >= head_size:
            among_freed = choose_mask(freed, head_size)
            if among_freed is not None:
                return when, among_freed
        elif not forced:
            return when, freed | choose_mask(free, head_size - count)
    return when, reserved if reserved is not None else choose_mask(available, head_size)


def _backfill(t, queue, allocator, rule, running, bits, free, req, size, start) -> list[int]:
    """EASY: jobs after the blocked head start now if they leave the head's reservation untouched."""
    shadow, reserved = _head_reservation(size[queue[0]], free, running, bits, allocator, rule)
    choose = allocator.from_bits
    waiting = [queue[0]]
    outside = free & ~reserved
    count, count_outside = free.bit_count(), outside.bit_count()
    for j in queue[1:]:
        before_shadow = t + req[j] <= shadow
        if size[j] > (count if before_shadow else count_outside):
            waiting.append(j)
            continue
        ids = choose(free if before_shadow else outside, size[j])
        if ids is None:
            waiting.append(j)
            continue
        start(j, ids)
        free &= ~bits[j]
        outside &= ~bits[j]
        count, count_outside = free.bit_count(), outside.bit_count()
    return waiting


@method("batch", "fcfs", options=SimOptions, prepare="coschedopt.batch.kernels:prepare_queue")
def fcfs(instance: BatchInstance, *, time_limit, seed, verbose, options: SimOptions) -> Result:
    """First come, first served: the queue's head blocks the jobs behind it (allocation variants apply)."""
    rec = simulate_queue(instance, options, backfill=False, verbose=verbose, deadline=Deadline(time_limit))
    return _result(rec, time_limit)


@method("batch", "easy", options=EasyOptions, prepare="coschedopt.batch.kernels:prepare_queue")
def easy(instance: BatchInstance, *, time_limit, seed, verbose, options: EasyOptions) -> Result:
    """EASY backfilling: a job jumps the queue when it does not delay the head's reservation."""
    rec = simulate_queue(instance, options, backfill=True, verbose=verbose, deadline=Deadline(time_limit))
    return _result(rec, time_limit)


def _result(rec: JobRecord | None, time_limit) -> Result:
    if rec is None:
        return Result(Status.TIME_LIMIT, message=f"the simulation did not finish within {time_limit} s")
    return Result(Status.FEASIBLE, rec.schedule(), stats={"failed": int(rec.failed.sum())})
