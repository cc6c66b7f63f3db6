"""The availability profile: which processors are free when, by identity, from now on.

Thesis §4.5.1 (Fig. 4.6, Alg. 1): the future is cut into time slices
``[times[i], times[i+1])`` (the last one open-ended), each with the set S[i] of
its idle processors.  A slice boundary is put at each reservation's start and
end and is never merged away, so a reservation's slices are always exactly the
ones starting in ``[start, end)``; slices in the past are dropped as time
advances, so the profile holds at most two boundaries per running or reserved
job.

Each S[i] is a bitset (:mod:`.procsets`) with its size cached: with 80,640
processors an intersection is one pass over 1,260 machine words in C, so the
search of Alg. 1 costs O(slices scanned × words) and the ids are decoded only
for the slices whose intersection is large enough to be offered to the
allocation rule.  The author's simulator used range lists in a treap; bitsets
need no balancing and their cost does not grow with fragmentation.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator

import numpy as np

from .allocation import Allocator
from .procsets import bits_from_ids, full_bits

#: an allocation rule: a bitset of free processors and a size -> the chosen sorted ids, or None to reject
Choose = Callable[[int, int], "np.ndarray | None"]


def no_limit() -> int:
    """The reassignment's bound on a movable job's requested time when there is none (the whole-window test)."""
    return np.iinfo(np.int64).max


class Profile:
    """Free processor sets of the time slices from ``now`` on (``m`` processors, all free at first)."""

    def __init__(self, m: int, now: int = 0) -> None:
        self.m = m
        self.times: list[int] = [now]
        self.free: list[int] = [full_bits(m)]
        self.count: list[int] = [m]
        self._prefix: PrefixFree | None = None  # of the reassignment's tests, until the profile changes

    @property
    def now(self) -> int:
        return self.times[0]

    def advance(self, now: int) -> None:
        """Forget the slices that ended by ``now``; the profile starts at ``now``."""
        self._prefix = None
        i = bisect_right(self.times, now) - 1
        if i > 0:
            del self.times[:i], self.free[:i], self.count[:i]
        self.times[0] = now

    def _boundary(self, t: int) -> int:
        """The index of the slice starting at ``t`` (``t >= now``), splitting a slice if needed."""
        i = bisect_left(self.times, t)
        if i < len(self.times) and self.times[i] == t:
            return i
        self.times.insert(i, t)
        self.free.insert(i, self.free[i - 1])
        self.count.insert(i, self.count[i - 1])
        return i

    def occupy(self, start: int, end: int, bits: int, size: int) -> None:
        """Reserve the processors ``bits`` (free over the whole window) on ``[start, end)``."""
        if end <= start:
            return
        self._prefix = None
        i, j = self._boundary(start), self._boundary(end)
        free, count = self.free, self.count
        for k in range(i, j):
            free[k] ^= bits
            count[k] -= size

    def release(self, start: int, end: int, bits: int, size: int) -> None:
        """Free the processors ``bits`` on ``[max(start, now), end)`` (they were reserved there)."""
        start = max(start, self.times[0])
        if end <= start:
            return
        self._prefix = None
        i, j = self._boundary(start), self._boundary(end)
        free, count = self.free, self.count
        for k in range(i, j):
            free[k] |= bits
            count[k] += size

    @property
    def free_now(self) -> int:
        return self.count[0]

    def procs(self, ids: np.ndarray | list[int]) -> int:
        """The bitset of ``ids``, the form :meth:`occupy` and :meth:`release` take."""
        return bits_from_ids(ids, self.m)

    def start_now_ids(self, own_start: int, duration: int, own: int, size: int, choose: Choose) -> np.ndarray | None:
        """The ids a job reserved on ``own`` from ``own_start`` could get starting now for ``duration``,
        its own reservation counted as free, or ``None`` (thesis §5.5's reassignment test).

        With the prefix intersections F_k of the slices from now on, these are
        F_{e-1} | (F_{a-1} & own) with e, a the slices before ``now + duration``
        and ``own_start``: intersection distributes over the union with ``own``.
        So a test costs a few bitset operations, and the prefixes are computed
        again only after the profile changes.
        """
        if self._prefix is None:
            self._prefix = PrefixFree(self.free)
        prefix = self._prefix
        e = self.slices_before(self.now + duration)
        a = self.slices_before(own_start)
        window = prefix[e - 1] | (prefix[a - 1] & own)
        return choose(window, size) if window.bit_count() >= size else None

    def chooser(self, allocator: Allocator) -> Choose:
        """The allocation rule as this profile's searches call it: ``allocator.from_bits``."""
        return allocator.from_bits

    def reserved_jobs(self, req: list[int], size: list[int]) -> ReservedJobs:
        """An empty queue of reserved jobs on this profile (``req``, ``size``: every job's requested time and size)."""
        return ReservedJobs(self, req, size)

    def slices_before(self, t: int) -> int:
        """The number of slices starting before ``t`` (at least 1: the window of a job starting now)."""
        return max(bisect_left(self.times, t), 1)

    def window(self, start_index: int, duration: int, size: int, extra: tuple[int, int, int] | None = None) -> int:
        """The processors free on the whole window ``[times[i], times[i] + duration)``, or 0 if fewer than ``size``.

        ``extra = (bits, start, end)`` counts ``bits`` as free on ``[start, end)``
        (a job's own reservation, when the reassignment asks whether it could
        start now instead).
        """
        times, free = self.times, self.free
        n = len(times)
        end = times[start_index] + duration
        result = -1
        j = start_index
        while True:
            s = free[j]
            if extra is not None and extra[1] <= times[j] < extra[2]:
                s |= extra[0]
            result &= s
            j += 1
            if j >= n or times[j] >= end:
                break
        return result if result.bit_count() >= size else 0

    def find(self, size: int, duration: int, choose: Choose) -> tuple[int, np.ndarray]:
        """Alg. 1: the earliest slice start from which ``size`` processors are free for ``duration``
        and accepted by ``choose``, with the chosen ids.

        A slice with fewer than ``size`` free processors is skipped, and so is
        every start whose window covers it.  The last slice is open-ended and
        wholly free, so a job no larger than the platform always gets a slot.
        """
        times, free, count = self.times, self.free, self.count
        n = len(times)
        # The windows of successive starts slide right: their intersections come from a two-stack queue
        # (suffix intersections of [lo, mid) and the intersection of [mid, hi)), so each slice is
        # intersected at most twice per search however many starts are tried.
        i = lo = mid = hi = 0
        suffix: dict[int, int] = {}
        back = -1
        while i < n:
            if count[i] < size:
                i += 1
                continue
            if i >= hi:  # nothing of the last window is reused
                lo = mid = hi = i
                back = -1
            end = times[i] + duration
            while hi < n and (hi == i or times[hi] < end):
                if count[hi] < size:
                    break
                back &= free[hi]
                hi += 1
            if hi < n and (hi == i or times[hi] < end):  # slice hi is too small, inside every window up to it
                i = hi + 1
                continue
            while lo < i:  # drop slice lo from the front, refilling the front from the back when empty
                if lo == mid:
                    agg = -1
                    for k in range(hi - 1, lo - 1, -1):
                        agg &= free[k]
                        suffix[k] = agg
                    mid, back = hi, -1
                lo += 1
            bits = suffix[lo] & back if lo < mid else back
            if bits.bit_count() >= size:
                ids = choose(bits, size)
                if ids is not None:
                    return times[i], ids
            i += 1
        raise AssertionError(f"no slot for a job of {size} processors on {self.m}")

    def start_now(
        self, size: int, duration: int, choose: Choose, extra: tuple[int, int, int] | None = None
    ) -> np.ndarray | None:
        """The ids a job could get starting now (Alg. 1 at the first slice only), or ``None``."""
        if self.count[0] < size and extra is None:
            return None
        bits = self.window(0, duration, size, extra)
        return choose(bits, size) if bits else None


class PrefixFree:
    """``self[k]``: the processors free on every slice ``0..k``, extended on demand (valid until the profile changes)."""

    def __init__(self, free: list[int]) -> None:
        self.free = free
        self.done: list[int] = []

    def __getitem__(self, k: int) -> int:
        done, free = self.done, self.free
        agg = done[-1] if done else -1
        while len(done) <= k:
            agg &= free[len(done)]
            done.append(agg)
        return done[k]


class ReservedJobs:
    """The reserved, unstarted jobs of conservative backfilling in FCFS order, and which of them could start now
    (thesis §5.5's reassignment), one :meth:`Profile.start_now_ids` test per job."""

    def __init__(self, profile: Profile, req: list[int], size: list[int]) -> None:
        self.profile, self.req, self.size = profile, req, size
        self.start: dict[int, int] = {}
        self.procs: dict[int, object] = {}

    def add(self, j: int, start: int, procs: object) -> None:
        """Job ``j`` (after every job added before it in FCFS order) is reserved from ``start`` on ``procs``."""
        self.start[j], self.procs[j] = start, procs

    def remove(self, j: int) -> None:
        """Job ``j`` starts."""
        del self.start[j], self.procs[j]

    def movable(
        self, now: int, choose: Choose, longest: Callable[[], int] = no_limit
    ) -> Iterator[tuple[int, np.ndarray]]:
        """Each job, in FCFS order, that could start now for its whole requested time (its own reservation counted
        as free) with the ids ``choose`` gives it; a job reserved to start now is passed over, and so is a job whose
        requested time exceeds ``longest()`` (read before each job: the author's pre-test).  The scan goes on
        after the caller has moved the job, on the profile as it is then."""
        p = self.profile
        for j in list(self.start):
            s = self.start[j]
            if s == now or self.size[j] > p.free_now or self.req[j] > longest():
                continue
            ids = p.start_now_ids(s, self.req[j], self.procs[j], self.size[j], choose)
            if ids is not None:
                yield j, ids
