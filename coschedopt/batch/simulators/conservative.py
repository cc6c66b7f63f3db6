"""Conservative backfilling with processor identities and reassignment (thesis §4.5.1, §5.4-5.5).

Each job is reserved at its submission, in FCFS order, at the earliest slice of
the availability profile (:class:`..profile.Profile`, Alg. 1) where the
allocation variant accepts the processors free for its whole requested time;
a reservation is never delayed.  The job then runs for its penalised run time
(:mod:`..penalty`) and frees the unused rest of its reservation when it ends
early.  At one instant, in this order (``event_order="completions-first"``,
the default: what is free at t is free to the jobs submitted at t):

1. completions free the unused part of their reservations;
2. reassignment (``reassign``, after at least one early completion): the
   reserved, unstarted jobs are scanned in FCFS order and a job moves to *now*
   if it can start now for its whole requested time with the variant's rule
   (its own reservation counted as free); jobs never move to a later time.
   ``reassign_test="first-slice"`` (the author's code, :mod:`..readings`)
   offers a move only to a job whose requested time the profile's slice at
   now lasts, its boundaries being every reservation's start and end;
3. submissions are reserved, and their penalty computed from the processors;
4. the jobs whose reservation starts now start.

The author's simulator orders equal-time events by type (submission before
start before completion), so its submissions are reserved before the
completions of the same instant free their processors:
``event_order="submissions-first"`` runs 3, 4, then 1, 2 (a job reserved
later than now may then be moved to now by the reassignment).

A zero-length job frees its processors after the instant it starts in, seen
by the next instant (the convention of :mod:`.queue`).  Cost per job: one
profile search (O(slices × P/64) words) and O(slices) updates; reassignment
adds a pass over the queue of reserved jobs (``profile.reserved_jobs``) at each
instant with an early completion, where a job is tried only if the processors
free now are enough.
"""

from __future__ import annotations

import heapq
import sys
import time
from dataclasses import dataclass

from ...core import Deadline, Result, Status, method, option
from ..instance import BatchInstance
from ..kernels import compiled_profile_applies
from ..profile import Profile, no_limit
from ..simulation import JobRecord, SimOptions
from ..wordprofile import WordProfile

REASSIGN_PENALTIES = ("recompute", "keep")
REASSIGN_TESTS = ("whole-window", "first-slice")
EVENT_ORDERS = ("completions-first", "submissions-first")


@dataclass(frozen=True)
class ConservativeOptions(SimOptions):
    reassign: bool = option(True, "move reserved jobs to now after early completions (thesis §5.5)")
    reassign_test: str | None = option(
        None,
        "which reserved jobs may move: any that fits now for its whole requested time (default), or only those "
        "whose requested time the profile's slice at now lasts (first-slice: the author's reading)",
        choices=REASSIGN_TESTS,
    )
    reassign_penalty: str | None = option(
        None,
        "on a move: recompute the penalty on the new processors (default), or keep it (keep: the author's reading)",
        choices=REASSIGN_PENALTIES,
    )
    event_order: str | None = option(
        None,
        "at one instant: completions free their processors before submissions are reserved (default), "
        "or after them (submissions-first: the author's reading)",
        choices=EVENT_ORDERS,
    )

    def model(self) -> dict[str, object]:
        return {
            **super().model(),
            "reassign": self.reassign,
            "reassign_penalty": self.reassign_penalty,
            "reassign_test": self.reassign_test,
            "event_order": self.event_order,
        }


def simulate_conservative(
    instance: BatchInstance,
    options: ConservativeOptions,
    *,
    verbose: bool = False,
    deadline: Deadline | None = None,
    compiled: bool | None = None,
) -> JobRecord | None:
    """Run conservative backfilling on ``instance``; the record holds every job's start, end and processors
    (``None`` if ``deadline`` expired first).  ``compiled`` picks the word profile (:mod:`..wordprofile`),
    else the big-integer one (:mod:`..profile`): same schedule; by default the word profile when the work
    pays for loading numba (:func:`..kernels.compiled_profile_applies`)."""
    if compiled is None:
        compiled = compiled_profile_applies(instance)
    rec = JobRecord(instance, options)
    m = instance.processors
    order = instance.fcfs_order().tolist()
    submit, req, size = instance.submit.tolist(), instance.requested_time.tolist(), instance.size.tolist()
    profile = (WordProfile if compiled else Profile)(m, now=submit[order[0]])
    choose = profile.chooser(options.allocator(instance))
    bits: dict[int, object] = {}  # job -> processors of its reservation (queued) or run (started)
    res_start: dict[int, int] = {}  # queued job -> reservation start
    duration: dict[int, tuple[int, bool]] = {}
    starts: list[tuple[int, int]] = []
    ends: list[tuple[int, int]] = []
    deferred: list[int] = []  # zero-length jobs started at the last instant
    nxt, n = 0, len(order)

    queue = profile.reserved_jobs(req, size)

    def start(j: int, t: int, ids) -> None:
        del res_start[j]
        queue.remove(j)
        d, failed = duration.pop(j)
        rec.started(j, t, ids, d, failed)
        if d == 0:
            deferred.append(j)
        else:
            heapq.heappush(ends, (t + d, j))

    ids_of: dict[int, object] = {}  # queued job -> ids of its reservation
    submissions_first = options.event_order == "submissions-first"
    first_slice = options.reassign_test == "first-slice"
    # the first-slice test's slice boundaries: every reservation's start and end, never merged (the author's
    # profile), whatever the profile merges
    marks: list[int] = []

    def slice_at_now(t: int) -> int:
        while marks and marks[0] <= t:
            heapq.heappop(marks)
        return marks[0] - t if marks else no_limit()

    def mark(a: int, b: int) -> None:
        if first_slice:
            heapq.heappush(marks, a)
            heapq.heappush(marks, b)

    def complete_now(t: int) -> None:
        nonlocal deferred
        early = False
        done = deferred
        deferred = []
        while ends and ends[0][0] == t:
            done.append(heapq.heappop(ends)[1])
        for j in done:
            reserved_end = int(rec.start[j]) + req[j]
            if rec.end[j] < reserved_end:
                profile.release(t, reserved_end, bits.pop(j), size[j])
                early = True
            else:
                bits.pop(j)
        if early and options.reassign and res_start:
            longest = (lambda: slice_at_now(t)) if first_slice else no_limit
            for j, ids in queue.movable(t, choose, longest):
                s = res_start[j]
                profile.release(s, s + req[j], bits[j], size[j])
                bits[j] = profile.procs(ids)
                profile.occupy(t, t + req[j], bits[j], size[j])
                mark(t, t + req[j])
                if options.reassign_penalty == "recompute":
                    duration[j] = rec.duration(j, ids)
                ids_of.pop(j)
                start(j, t, ids)

    def submit_now(t: int) -> None:
        nonlocal nxt
        while nxt < n and submit[order[nxt]] == t:
            j = order[nxt]
            nxt += 1
            s, ids = profile.find(size[j], req[j], choose)
            bits[j] = profile.procs(ids)
            profile.occupy(s, s + req[j], bits[j], size[j])
            mark(s, s + req[j])
            res_start[j] = s
            queue.add(j, s, bits[j])
            rec.reserved[j] = s
            duration[j] = rec.duration(j, ids)
            ids_of[j] = ids
            heapq.heappush(starts, (s, j))

    def start_now(t: int) -> None:
        while starts and starts[0][0] == t:
            j = heapq.heappop(starts)[1]
            if res_start.get(j) == t:
                start(j, t, ids_of.pop(j))

    instants, started = 0, time.process_time()
    while True:
        upcoming = [x[0][0] for x in (starts, ends) if x]
        if nxt < n:
            upcoming.append(submit[order[nxt]])
        if not upcoming:
            break
        t = min(upcoming)
        instants += 1
        if deadline is not None and instants % 1024 == 0 and deadline.expired():
            return None
        profile.advance(t)
        if submissions_first:
            submit_now(t)
            start_now(t)
            complete_now(t)
        else:
            complete_now(t)
            submit_now(t)
            start_now(t)
        if verbose and instants % 20000 == 0:
            cpu = time.process_time() - started
            print(
                f"conservative: {nxt}/{n} jobs submitted, t={t}, {len(profile.times)} slices, {cpu:.0f} s CPU",
                file=sys.stderr,
                flush=True,
            )
    return rec


@method("batch", "conservative", options=ConservativeOptions, prepare="coschedopt.batch.kernels:prepare_conservative")
def conservative(instance: BatchInstance, *, time_limit, seed, verbose, options: ConservativeOptions) -> Result:
    """Conservative backfilling (every job reserved at submission, never delayed) with the allocation variants."""
    rec = simulate_conservative(instance, options, verbose=verbose, deadline=Deadline(time_limit))
    if rec is None:
        return Result(Status.TIME_LIMIT, message=f"the simulation did not finish within {time_limit} s")
    return Result(Status.FEASIBLE, rec.schedule(with_reservations=True), stats={"failed": int(rec.failed.sum())})
