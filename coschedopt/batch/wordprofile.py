"""The availability profile of :mod:`.profile`, with its slices as rows of machine words and compiled loops.

Same model and same answers as :class:`.profile.Profile` (Alg. 1 of thesis
§4.5.1: time slices, each with its set of idle processors, a boundary at every
reservation's start and end), built for platforms of tens of thousands of
processors, where every operation of the big-integer profile costs a pass over
all P/64 words of every slice it touches.  Here the slices are rows of a
``uint64`` array worked on by the numba loops of :mod:`.profile_kernels`:

- a boundary whose slice holds the same processors as the slice before it
  (left by a reservation freed early or moved) is merged away, so the profile
  has one slice per change of the free set.  The answers stay the reference's:
  a window starting at such a boundary covers at least the slices of the
  window starting one slice earlier, so its free set is a subset of that one's,
  and every allocation variant that rejects a set rejects its subsets (each
  accepts a set when some range, cluster group or block of it holds enough
  free processors); the search therefore never needed those starts, and the
  other operations read the free set as a function of time;
- a processor set is a *span* ``(w0, words)``: the words from ``w0`` covering
  its ids, so reserving and freeing cost O(slices × ⌈size/64⌉);
- the search filters the starts by the slices' free counts before any
  intersection, and intersects only the nonzero words of a window's first slice;
- the reassignment's test (can a reserved job start now?) reads prefix
  intersections kept as changes word by word, and the scan of the queue of
  reserved jobs (:class:`WordReservedJobs`) is one compiled call up to the next
  job that can move.

An allocation rule receives the free processors as an array of words
(:meth:`.allocation.Allocator.from_bits` takes either form; :meth:`WordProfile.chooser`
runs beplat and plat compiled).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator

import numpy as np

from .allocation import Allocator
from .platform import Platform
from .profile import Choose, ReservedJobs, no_limit

#: a processor set as the profile stores it: its first word and the words from there to its last id
Span = tuple[int, np.ndarray]


class WordProfile:
    """Free processor sets of the time slices from ``now`` on (``m`` processors, all free at first)."""

    def __init__(self, m: int, now: int = 0, capacity: int = 64) -> None:
        from . import profile_kernels

        self._k = profile_kernels
        self.m = m
        width = (m + 63) // 64
        self.width = width
        self._allocate(capacity)
        first = np.zeros(width * 64, dtype=bool)
        first[:m] = True
        self.pool[0] = np.packbits(first, bitorder="little").view(np.uint64)
        self._times[0], self._rows[0], self._count[0] = now, 0, m
        self.spare[: capacity - 1] = np.arange(capacity - 1, 0, -1)
        self.state = np.array([1, capacity - 1, 0, 0], dtype=np.int64)  # profile_kernels.N, SPARE, DONE, NLOG
        self.out = np.zeros(width, dtype=np.uint64)
        # the test find runs on a window with enough processors, and its arguments (a chooser's ``prefilter``, see :meth:`chooser`)
        self._no_prefilter = (profile_kernels.ANY_RULE, 1, np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64))
        self._front = np.zeros(width, dtype=np.uint64)
        self._back = np.zeros(width, dtype=np.uint64)
        # the reassignment's prefix intersections and their log of changes (profile_kernels._extend_prefix)
        self._pix = np.zeros((4, m + 1), dtype=np.int64)
        self._pval = np.zeros(width + (width + 63) // 64 + m + 1, dtype=np.uint64)

    def _allocate(self, capacity: int) -> None:
        self.pool = np.zeros((capacity, self.width), dtype=np.uint64)
        # one bit per word: the words of a slice that differ from the slice before it
        self._diff = np.zeros((capacity, (self.width + 63) // 64), dtype=np.uint64)
        self._times = np.zeros(capacity, dtype=np.int64)
        self._rows = np.zeros(capacity, dtype=np.int64)
        self._count = np.zeros(capacity, dtype=np.int64)
        self.spare = np.zeros(capacity, dtype=np.int64)
        self._pref_count = np.zeros(capacity, dtype=np.int64)

    def _reserve_rows(self) -> None:
        """Make room for the two boundaries an update may add (doubling the arrays when the spare rows run out)."""
        if self.state[1] >= 2:
            return
        kept = (self.pool, self._diff, self._times, self._rows, self._count, self.spare)
        cap = len(self._times)
        self._allocate(2 * cap)
        for new, old in zip(
            (self.pool, self._diff, self._times, self._rows, self._count, self.spare), kept, strict=True
        ):
            new[:cap] = old
        spare = int(self.state[1])
        self.spare[spare : spare + cap] = np.arange(2 * cap - 1, cap - 1, -1)
        self.state[1] += cap
        self.state[2] = 0

    @property
    def now(self) -> int:
        return int(self._times[0])

    @property
    def times(self) -> np.ndarray:
        """The slices' start times (a view, valid until the profile changes)."""
        return self._times[: self.state[0]]

    @property
    def count(self) -> np.ndarray:
        """The slices' numbers of free processors (a view, valid until the profile changes)."""
        return self._count[: self.state[0]]

    @property
    def free_now(self) -> int:
        return int(self._count[0])

    def words(self, k: int) -> np.ndarray:
        """The free processors of slice ``k`` as words (a view)."""
        return self.pool[self._rows[k]]

    def procs(self, ids: np.ndarray | list[int]) -> Span:
        """The span of the sorted ``ids``, the form :meth:`occupy` and :meth:`release` take."""
        ids = np.asarray(ids, dtype=np.int64)
        w0 = int(ids[0]) >> 6
        words = np.zeros((int(ids[-1]) >> 6) - w0 + 1, dtype=np.uint64)
        self._k.span(ids, w0, words)
        return w0, words

    def advance(self, now: int) -> None:
        """Forget the slices that ended by ``now``; the profile starts at ``now``."""
        self._k.advance(self.state, self._times, self._rows, self._count, self.spare, now)
        self.state[2] = 0

    def _update(self, start: int, end: int, procs: Span, size: int, free: bool) -> None:
        self._reserve_rows()
        k = self._k
        k.update(
            self.state, self._times, self._rows, self._count, self.pool, self._diff, self.spare,
            start, end, *procs, size, free,
        )  # fmt: skip
        self.state[2] = 0

    def occupy(self, start: int, end: int, procs: Span, size: int) -> None:
        """Reserve the processors ``procs`` (free over the whole window) on ``[start, end)``."""
        if end > start:
            self._update(start, end, procs, size, False)

    def release(self, start: int, end: int, procs: Span, size: int) -> None:
        """Free the processors ``procs`` on ``[max(start, now), end)`` (they were reserved there)."""
        start = max(start, self.now)
        if end > start:
            self._update(start, end, procs, size, True)

    def find(self, size: int, duration: int, choose: Choose) -> tuple[int, np.ndarray]:
        """Alg. 1: the earliest slice start from which ``size`` processors are free for ``duration``
        and accepted by ``choose``, with the chosen ids (as :meth:`.profile.Profile.find`)."""
        rule = getattr(choose, "prefilter", self._no_prefilter)
        i = 0
        while True:
            i = self._k.find(
                self.state, self._times, self._rows, self._count, self.pool, self._diff, i, size, duration,
                self.out, self._front, self._back, *rule,
            )  # fmt: skip
            if i < 0:
                raise AssertionError(f"no slot for a job of {size} processors on {self.m}")
            ids = choose(self.out, size)
            if ids is not None:
                return int(self._times[i]), ids
            i += 1

    def start_now_ids(self, own_start: int, duration: int, own: Span, size: int, choose: Choose) -> np.ndarray | None:
        """The ids a job reserved on ``own`` from ``own_start`` could get starting now for ``duration``,
        its own reservation counted as free, or ``None`` (as :meth:`.profile.Profile.start_now_ids`)."""
        c = self._k.start_now_count(
            self.state, self._times, self._rows, self.pool, self._diff, self._pix, self._pval, self._pref_count,
            self.now + duration, own_start, *own, size, self.out,
        )  # fmt: skip
        return choose(self.out, size) if c >= size else None

    def chooser(self, allocator: Allocator) -> Choose:
        """``allocator.from_bits``, but the forced rules, which a search may call (and see reject) at many slices,
        run compiled on the words: cont's first fit on a line (:func:`.profile_kernels.first_run`), loc's test
        that the fewest clusters hold the job (:func:`.profile_kernels.fewest_clusters_hold`, before the rule
        itself runs on an accepted set) and the platform-level rules taking the lowest ids (beplat, plat: the
        benchmarks' and the author's reading; :func:`.profile_kernels.platform_block`).  Decoding 80,640 ids at
        each rejected slice was most of a Curie window's time.  The cont and loc choosers carry a ``prefilter``
        (a rule of :func:`.profile_kernels.find` and its arguments) that :meth:`find` hands to the compiled
        search, so a window they reject costs no return to Python and the next window reuses the search's
        intersections."""
        if allocator.variant == "cont" and allocator.cont_rule == "first-fit" and allocator.topology == "line":
            first_run = self._k.first_run

            def first_fit(words: np.ndarray, size: int) -> np.ndarray | None:
                start = first_run(words, size)
                return np.arange(start, start + size, dtype=np.int64) if start >= 0 else None

            first_fit.prefilter = (self._k.CONT_RULE, *self._no_prefilter[1:])  # type: ignore[attr-defined]
            return first_fit
        if allocator.variant == "loc":
            holds, plat = self._k.fewest_clusters_hold, allocator.platform
            ell = plat.cluster_size
            cum, hist = np.zeros(self.width + 1, dtype=np.int64), np.zeros(ell + 1, dtype=np.int64)

            def fewest_clusters(words: np.ndarray, size: int) -> np.ndarray | None:
                return allocator.from_bits(words, size) if holds(words, plat.processors, ell, size, cum, hist) else None

            fewest_clusters.prefilter = (self._k.LOC_RULE, ell, cum, hist)  # type: ignore[attr-defined]
            return fewest_clusters
        if allocator.variant not in ("beplat", "plat") or allocator.beplat_rule != "lowest-ids":
            return allocator.from_bits
        plat, kernel = allocator.platform, self._k.platform_block
        forced = allocator.variant == "plat"
        cum, ids = np.zeros(self.width + 1, dtype=np.int64), np.zeros(plat.processors, dtype=np.int64)
        blocks: dict[int, np.ndarray] = {}  # size -> the block sizes from the deepest that holds it to the root

        def choose(words: np.ndarray, size: int) -> np.ndarray | None:
            if size not in blocks:
                lowest = plat.depth - plat.min_level(size)
                blocks[size] = np.array([plat.block_size(d) for d in range(lowest, -1, -1)], dtype=np.int64)
            n = kernel(words, plat.processors, blocks[size], size, forced, cum, ids)
            return ids[:n].copy() if n else None

        return choose

    def reserved_jobs(self, req: list[int], size: list[int]) -> WordReservedJobs:
        """An empty queue of reserved jobs on this profile (``req``, ``size``: every job's requested time and size)."""
        return WordReservedJobs(self, req, size)


class WordReservedJobs(ReservedJobs):
    """:class:`.profile.ReservedJobs` on a word profile, kept in the arrays that the compiled scan reads: one
    column of ``entries`` per queued job in FCFS order (its id, reservation start, requested time, size, and its
    processors as a first word, a number of words and their offset in ``store``), so the scan reads memory in
    order.  A started job's column stays, with a size no platform has, until the array is compacted.  ``blocks``
    summarises the columns by 64 for the scan to pass over blocks (made again by the scan after a change here)."""

    def __init__(self, profile: WordProfile, req: list[int], size: list[int]) -> None:
        self.profile, self.req, self.size = profile, req, size
        self._k = profile._k  # the kernels' module (numba is loaded only when a word profile is built)
        self.entries = np.zeros((7, 64), dtype=np.int64)
        self.last = 0  # columns in use
        self._blocks()
        self.where = np.zeros(len(req), dtype=np.int64)  # job -> its column
        self.store = np.zeros(1024, dtype=np.uint64)
        self.used = 0  # words of store in use

    def add(self, j: int, start: int, procs: Span) -> None:
        w0, words = procs
        if self.last == self.entries.shape[1]:
            self._compact_entries()
        if self.used + len(words) > len(self.store):
            self._compact_store(len(words))
        self.entries[:, self.last] = j, start, self.req[j], self.size[j], w0, len(words), self.used
        self.where[j] = self.last
        self.blocks[self._k.BDIRTY, self.last // self._k.BLOCK] = 1
        self.last += 1
        self.store[self.used : self.used + len(words)] = words
        self.used += len(words)

    def _blocks(self) -> None:
        """Room for the summaries of the columns by blocks (profile_kernels.first_movable), none made yet."""
        self.blocks = np.zeros((4, -(-self.entries.shape[1] // self._k.BLOCK)), dtype=np.int64)
        self.blocks[self._k.BDIRTY] = 1

    def remove(self, j: int) -> None:
        self.entries[self._k.QSIZE, self.where[j]] = self._k.GONE
        self.blocks[self._k.BDIRTY, self.where[j] // self._k.BLOCK] = 1

    def _live(self) -> np.ndarray:
        return self.entries[:, : self.last][:, self.entries[self._k.QSIZE, : self.last] != self._k.GONE]

    def _compact_entries(self) -> None:
        """Drop the started jobs' columns; the array doubles when it stays more than half full."""
        live = self._live()
        self.entries = np.zeros((7, max(64, 2 * live.shape[1])), dtype=np.int64)
        self.entries[:, : live.shape[1]] = live
        self.where[live[self._k.QJOB]] = np.arange(live.shape[1])
        self.last = live.shape[1]
        self._blocks()

    def _compact_store(self, more: int) -> None:
        """Keep the queued jobs' words only, with room for ``more`` and as many again."""
        self._compact_entries()
        old, offsets, lengths = (
            self.store,
            self.entries[self._k.QOFF, : self.last],
            self.entries[self._k.QNW, : self.last],
        )
        self.store = np.zeros(max(1024, 2 * (int(lengths.sum()) + more)), dtype=np.uint64)
        self.used = 0
        for q, (off, nw) in enumerate(zip(offsets.tolist(), lengths.tolist(), strict=True)):
            self.store[self.used : self.used + nw] = old[off : off + nw]
            offsets[q] = self.used
            self.used += nw

    def movable(
        self, now: int, choose: Choose, longest: Callable[[], int] = no_limit
    ) -> Iterator[tuple[int, np.ndarray]]:
        p = self.profile
        q = 0
        while True:
            q = p._k.first_movable(
                p.state, p._times, p._rows, p._count, p.pool, p._diff, p._pix, p._pval, p._pref_count, now,
                self.entries, q, self.last, self.store, p.out, self.blocks, longest(),
            )  # fmt: skip
            if q < 0:
                return
            j, size = int(self.entries[self._k.QJOB, q]), int(self.entries[self._k.QSIZE, q])
            q += 1
            ids = choose(p.out, size)
            if ids is not None:
                yield j, ids


#: the word profile's kernels by what needs them: every run, a variant's rule, the reassignment
KERNEL_GROUPS = {
    "profile": ("span", "update", "advance", "find"),
    "platform": ("platform_block",),
    "cont": ("first_run",),
    "loc": ("fewest_clusters_hold",),
    "reassign": ("start_now_count", "first_movable"),
}


def kernels_cached(groups: tuple[str, ...] | None = None) -> bool:
    """Whether numba's cache holds machine code, fresh for its source, for the kernels of ``groups``
    (:data:`KERNEL_GROUPS`), or for every batch kernel when ``None`` (these, the compiled loop of ``fcfs`` and
    ``easy`` in :mod:`.queue_kernels`, and the validator's sweep in :mod:`.schedule_kernels`)."""
    from . import profile_kernels as k

    names = [name for g in (groups or KERNEL_GROUPS) for name in KERNEL_GROUPS[g]]
    kernels = tuple(getattr(k, name) for name in names)
    if groups is None:
        from .queue_kernels import KERNELS
        from .schedule_kernels import sweep

        kernels += (*KERNELS, sweep)
    return k.cached(kernels)


def compile_kernels(groups: tuple[str, ...] | None = None) -> None:
    """Compile the kernels of ``groups`` (:data:`KERNEL_GROUPS`; every batch kernel when ``None``, as
    :func:`kernels_cached` counts them), or load them from the cache, by calling each on a small word profile;
    when they are not in the cache yet, say so on stderr first (compiling takes a while, once per install)."""
    if not kernels_cached(groups):
        print("compiling batch kernels (once per install)...", file=sys.stderr, flush=True)
    groups = tuple(KERNEL_GROUPS) if groups is None else groups
    plat = Platform(130, (1, 2, 10, 130))
    p = WordProfile(130)
    ids = np.arange(60, 70, dtype=np.int64)
    procs = p.procs(ids)
    p.occupy(0, 10, procs, 10)
    p.find(5, 20, p.chooser(Allocator(plat, "basic")))
    for group, variant in (("platform", "beplat"), ("cont", "cont"), ("loc", "loc")):
        if group in groups:
            p.find(5, 20, p.chooser(Allocator(plat, variant)))
    if "reassign" in groups:
        p.start_now_ids(5, 10, procs, 10, lambda words, size: None)
        p.start_now_ids(5, 10, procs, 200, lambda words, size: None)
        jobs = p.reserved_jobs([10, 10], [10, 10])
        jobs.add(0, 5, procs)
        list(jobs.movable(0, lambda words, size: None))
    p.release(0, 10, procs, 10)
    p.advance(5)
    if len(groups) == len(KERNEL_GROUPS):
        from . import queue_kernels, schedule_kernels

        queue_kernels.compile_kernels(announce=False)
        schedule_kernels.compile_kernel()
