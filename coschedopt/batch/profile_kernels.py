"""Compiled loops of the word profile (:mod:`.wordprofile`): slices of free-processor words, searched and updated.

The profile's slices are rows of a ``uint64`` pool (one bit per processor,
``W = ⌈P/64⌉`` words a row), kept in time order by an index array ``rows``
beside ``times`` and ``count`` (free processors per slice); ``state`` holds the
number of slices, of spare rows (a stack in ``spare``) and of the prefix
intersections computed for the reassignment.  Inserting a boundary shifts the
three index arrays (O(slices) integers) and copies one row; no row moves.
:func:`update` removes the boundaries it leaves between equal slices
(:func:`_merge`; why the answers stay the same: :mod:`.wordprofile`).

The functions are plain Python over numpy arrays, compiled by numba at their
first call (cached on disk); without numba they run as they are (same results,
far slower).  This module is imported only when a word profile is built, so
``import coschedopt`` does not load numba.  Where the work goes:

- :func:`update` (reserve or free ``[start, end)``) touches only the words a
  job's processors span: O(slices × ⌈size/64⌉) instead of O(slices × W);
- :func:`find` (Alg. 1) skips every start whose window holds a slice with fewer
  than ``size`` free processors from the counts alone, and intersects the other
  windows on the nonzero words of their first slice only, dropping words as
  they empty and stopping as soon as fewer than ``size`` bits are left;
- :func:`first_movable` (the reassignment's scan of the reserved jobs, one call
  up to the next job that can move) works on the prefix intersections F_k of
  the slices from now, extended lazily: a slice costs the words of its diff
  that are still nonzero in F (:func:`_extend_prefix`), a job is rejected with
  one comparison when its window reaches the first slice too short for its size
  (:func:`_first_short`), a block of 64 jobs with the same test on its least
  size and window (:func:`_summarize`), and only the others get
  :func:`start_now_count`;
- :func:`platform_block`: the beplat / plat rule (lowest ids) on the words.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; the loops still run uncompiled

    def njit(**_):
        return lambda fn: fn


def cached(kernels) -> bool:
    """Whether numba's cache holds machine code for each of ``kernels``, fresh for its source (read from numba's
    cache index; used only to say that compilation is coming)."""
    for kernel in kernels:
        try:
            if not kernel._cache._cache_file._load_index():
                return False
        except AttributeError:  # numba missing or its cache's layout changed: nothing to say
            return True
    return True


N, SPARE, DONE, NLOG = 0, 1, 2, 3  # fields of ``state``
ANY_RULE, CONT_RULE, LOC_RULE = 0, 1, 2  # the tests :func:`find` runs on a window with enough processors


@njit(cache=True, nogil=True)
def popcount(x):
    """The number of set bits of a ``uint64`` (compiled to one ``popcnt``)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def _bisect_left(state, times, t):
    """The index of the first slice starting at or after ``t``."""
    lo, hi = 0, state[N]
    while lo < hi:
        mid = (lo + hi) >> 1
        if times[mid] < t:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, nogil=True)
def slices_before(state, times, t):
    """The number of slices starting before ``t``, at least 1."""
    return max(_bisect_left(state, times, t), 1)


@njit(cache=True, nogil=True)
def boundary(state, times, rows, count, pool, diff, spare, t):
    """The index of the slice starting at ``t`` (``t >= now``), splitting a slice if needed (needs a spare row)."""
    n = state[N]
    lo = _bisect_left(state, times, t)
    if lo < n and times[lo] == t:
        return lo
    for k in range(n, lo, -1):
        times[k] = times[k - 1]
        rows[k] = rows[k - 1]
        count[k] = count[k - 1]
    state[SPARE] -= 1
    r = spare[state[SPARE]]
    pool[r, :] = pool[rows[lo - 1], :]
    diff[r, :] = 0
    times[lo] = t
    rows[lo] = r
    count[lo] = count[lo - 1]
    state[N] = n + 1
    return lo


@njit(cache=True, nogil=True)
def _mark(rows, pool, diff, k, w0, nw):
    """Record in slice ``k``'s diff which of the words ``w0..w0+nw-1`` differ from slice ``k - 1``."""
    r, p = rows[k], rows[k - 1]
    for w in range(w0, w0 + nw):
        bit = np.uint64(1) << np.uint64(w & 63)
        if pool[r, w] != pool[p, w]:
            diff[r, w >> 6] |= bit
        else:
            diff[r, w >> 6] &= ~bit


@njit(cache=True, nogil=True)
def update(state, times, rows, count, pool, diff, spare, start, end, w0, words, size, free):
    """Reserve (``free=False``) or free the processors ``words`` (from word ``w0`` on) on ``[start, end)``."""
    if end <= start:
        return
    i = boundary(state, times, rows, count, pool, diff, spare, start)
    j = boundary(state, times, rows, count, pool, diff, spare, end)
    nw = words.shape[0]
    for k in range(i, j):
        r = rows[k]
        if free:
            for q in range(nw):
                pool[r, w0 + q] |= words[q]
            count[k] += size
        else:
            for q in range(nw):
                pool[r, w0 + q] &= ~words[q]
            count[k] -= size
    if i > 0:
        _mark(rows, pool, diff, i, w0, nw)
    if j < state[N]:
        _mark(rows, pool, diff, j, w0, nw)
        _merge(state, times, rows, count, diff, spare, j)
    if i > 0:
        _merge(state, times, rows, count, diff, spare, i)


@njit(cache=True, nogil=True)
def _merge(state, times, rows, count, diff, spare, k):
    """Remove the boundary of slice ``k >= 1`` when the slice holds the same processors as slice ``k - 1`` (its
    diff is empty); its row becomes spare.  The slices' diffs stay exact: the next slice differs from ``k - 1``
    where it differed from ``k``."""
    r = rows[k]
    for b in range(diff.shape[1]):
        if diff[r, b] != 0:
            return
    n = state[N]
    spare[state[SPARE]] = r
    state[SPARE] += 1
    for q in range(k, n - 1):
        times[q] = times[q + 1]
        rows[q] = rows[q + 1]
        count[q] = count[q + 1]
    state[N] = n - 1


@njit(cache=True, nogil=True)
def advance(state, times, rows, count, spare, now):
    """Forget the slices that ended by ``now`` (their rows become spare); the profile starts at ``now``."""
    n = state[N]
    lo, hi = 0, n
    while lo < hi:  # bisect_right
        mid = (lo + hi) >> 1
        if times[mid] <= now:
            lo = mid + 1
        else:
            hi = mid
    i = lo - 1
    if i > 0:
        for k in range(i):
            spare[state[SPARE]] = rows[k]
            state[SPARE] += 1
        for k in range(n - i):
            times[k] = times[k + i]
            rows[k] = rows[k + i]
            count[k] = count[k + i]
        state[N] = n - i
    times[0] = now


@njit(cache=True, nogil=True)
def _popcount_and(a, b):
    c = 0
    for w in range(a.shape[0]):
        c += popcount(a[w] & b[w])
    return c


@njit(cache=True, nogil=True)
def _changed_words(diff, r, out):
    """The words flagged in row ``r``'s diff, into ``out``; returns how many."""
    m = 0
    for b in range(diff.shape[1]):
        x = diff[r, b]
        while x != 0:
            low = x & (~x + np.uint64(1))
            out[m] = b * 64 + popcount(low - np.uint64(1))
            m += 1
            x ^= low
    return m


@njit(cache=True, nogil=True)
def find(state, times, rows, count, pool, diff, first, size, duration, out, front, back, rule, ell, cum, hist):
    """The first slice ``i >= first`` whose window ``[times[i], times[i] + duration)`` has ``size`` processors free
    throughout and passes ``rule``, with their words in ``out``; -1 if none.  ``rule`` is a forced variant's test,
    run here so that a rejected window does not end the search and its successor reuses the stacks:
    :data:`ANY_RULE` (none), :data:`CONT_RULE` (:func:`first_run`) or :data:`LOC_RULE`
    (:func:`fewest_clusters_hold` with ``ell``, ``cum`` and ``hist``).

    Alg. 1 with the windows of successive starts kept as a two-stack queue
    (``front``: the intersection of slices ``lo..mid-1``, rebuilt from the back
    when it empties, each rebuilt step logged so it can be undone; ``back``: that
    of ``mid..hi-1``) and the number of processors in their intersection
    updated word by word.  A slice differs from the one before it only in the
    words of its diff, so adding one to a stack costs those words, and each
    slice is added at most twice per search: O(slices × changed words + W per
    rebuild).
    """
    n = state[N]
    ones = ~np.uint64(0)
    words = np.empty(pool.shape[1], dtype=np.int64)
    log_w = np.empty(1024, dtype=np.int64)
    log_v = np.empty(1024, dtype=np.uint64)
    log_end = np.empty(n + 1, dtype=np.int64)
    i = lo = mid = hi = first
    c = 0  # processors in the intersection of slices lo..hi-1
    # loc on clusters that divide a word: ``out`` and the histogram of its clusters' free counts follow the stacks
    # word by word (valid: they hold the window lo..hi-1), so a window costs O(ℓ) to test, not O(W)
    track = rule == LOC_RULE and 64 % ell == 0
    valid = False
    while i < n:
        if count[i] < size:
            i += 1
            continue
        if i >= hi:  # nothing of the last window is reused
            lo = mid = hi = i
            valid = False
        end = times[i] + duration
        small = False
        while hi < n and (hi == i or times[hi] < end):
            if count[hi] < size:
                small = True
                break
            r = rows[hi]
            if mid == hi:
                back[:] = pool[r, :]
                c = _popcount_and(front, back) if lo < mid else count[hi]
                valid = False
            else:
                for q in range(_changed_words(diff, r, words)):
                    w = words[q]
                    v = back[w]
                    nv = v & pool[r, w]
                    if nv != v:
                        c -= popcount((front[w] if lo < mid else ones) & (v ^ nv))
                        back[w] = nv
                        if valid:
                            _hist_word(out, hist, w, (front[w] if lo < mid else ones) & nv, ell)
            hi += 1
        if small:  # slice hi is inside every window up to it
            i = hi + 1
            continue
        while lo < i:  # drop slice lo from the front, rebuilding the front from the back when it is empty
            if lo == mid:
                front[:] = pool[rows[hi - 1], :]
                nlog = 0
                log_end[hi - 1] = 0
                for k in range(hi - 2, lo - 1, -1):
                    r = rows[k]
                    for q in range(_changed_words(diff, rows[k + 1], words)):
                        w = words[q]
                        v = front[w]
                        nv = v & pool[r, w]
                        if nv != v:
                            if nlog == log_w.shape[0]:
                                log_w = np.concatenate((log_w, np.empty_like(log_w)))
                                log_v = np.concatenate((log_v, np.empty_like(log_v)))
                            log_w[nlog] = w
                            log_v[nlog] = v
                            nlog += 1
                            front[w] = nv
                    log_end[k] = nlog
                mid = hi
                c = 0
                for w in range(front.shape[0]):
                    c += popcount(front[w])
                valid = False
            if lo + 1 < mid:
                for e in range(log_end[lo + 1], log_end[lo]):
                    w = log_w[e]
                    c += popcount((back[w] if mid < hi else ones) & (log_v[e] ^ front[w]))
                    front[w] = log_v[e]
                    if valid:
                        _hist_word(out, hist, w, log_v[e] & (back[w] if mid < hi else ones), ell)
            else:
                c = 0
                for w in range(back.shape[0]):
                    c += popcount(back[w])
                valid = False
            lo += 1
        if c >= size:
            if track:
                if not valid:
                    for w in range(out.shape[0]):
                        out[w] = (front[w] if lo < mid else ones) & (back[w] if mid < hi else ones)
                    _hist_of(out, hist, ell)
                    valid = True
                if _hist_holds(hist, ell, size):
                    return i
            else:
                for w in range(out.shape[0]):
                    out[w] = (front[w] if lo < mid else ones) & (back[w] if mid < hi else ones)
                if (
                    rule == ANY_RULE
                    or (rule == CONT_RULE and first_run(out, size) >= 0)
                    or (rule == LOC_RULE and fewest_clusters_hold(out, out.shape[0] * 64, ell, size, cum, hist))
                ):
                    return i
        i += 1
    return -1


@njit(cache=True, nogil=True)
def _cluster_mask(ell):
    return (np.uint64(1) << np.uint64(ell)) - np.uint64(1) if ell < 64 else ~np.uint64(0)


@njit(cache=True, nogil=True)
def _hist_of(words, hist, ell):
    """``hist[c]``: the clusters of ``ℓ`` processors (ℓ divides 64) with ``c`` set bits in ``words``."""
    per = 64 // ell
    mask = _cluster_mask(ell)
    hist[:] = 0
    for w in range(words.shape[0]):
        x = words[w]
        if x == 0:
            hist[0] += per
        elif x == ~np.uint64(0):
            hist[ell] += per
        else:
            for q in range(per):
                hist[popcount((x >> np.uint64(q * ell)) & mask)] += 1


@njit(cache=True, nogil=True)
def _hist_word(words, hist, w, value, ell):
    """Set ``words[w]`` to ``value``, moving its clusters between the counters of ``hist`` (:func:`_hist_of`)."""
    old = words[w]
    if old == value:
        return
    mask = _cluster_mask(ell)
    for q in range(64 // ell):
        shift = np.uint64(q * ell)
        hist[popcount((old >> shift) & mask)] -= 1
        hist[popcount((value >> shift) & mask)] += 1
    words[w] = value


@njit(cache=True, nogil=True)
def _hist_holds(hist, ell, size):
    """Whether the ⌈size/ℓ⌉ fullest clusters counted in ``hist`` hold ``size`` free processors."""
    k = (size + ell - 1) // ell
    held = 0
    for c in range(ell, 0, -1):
        take = min(hist[c], k)
        held += take * c
        k -= take
        if k == 0:
            break
    return held >= size


HEAD, TAIL, SLICE, NEXT = 0, 1, 2, 3  # rows of ``pix``


@njit(cache=True, nogil=True)
def _extend_prefix(state, rows, pool, diff, pix, pval, pref_count, upto):
    """Prefix intersections F_0..F_upto of the slices from now.

    F_k = F_{k-1} & S_k differs from F_{k-1} only in the words of slice k's
    diff that are still nonzero in F (a bitmap of them, ``pval[W:W + A]``, A =
    ⌈W/64⌉), so a slice costs those words, not the platform's.  F of the last
    slice done is kept in ``pval[:W]``; each change is logged (its slice in
    ``pix[SLICE]``, the word's value before it in ``pval[W + A + e]``) and
    chained to the word's other changes (``pix[HEAD]``, ``pix[TAIL]``,
    ``pix[NEXT]``) for :func:`_prefix_word`.  A change clears at least one bit of
    F_0, so there are at most P of them.
    """
    width, alive = pool.shape[1], pool.shape[1]
    logged = width + diff.shape[1]
    if state[DONE] == 0:
        r = rows[0]
        c = 0
        pval[alive:logged] = 0
        for w in range(width):
            pval[w] = pool[r, w]
            if pval[w] != 0:
                c += popcount(pval[w])
                pval[alive + (w >> 6)] |= np.uint64(1) << np.uint64(w & 63)
            pix[HEAD, w] = -1
        pref_count[0] = c
        state[DONE] = 1
        state[NLOG] = 0
    c = pref_count[state[DONE] - 1]
    nlog = state[NLOG]
    for k in range(state[DONE], upto + 1):
        r = rows[k]
        for b in range(diff.shape[1] if c > 0 else 0):
            x = diff[r, b] & pval[alive + b]
            while x != 0:
                low = x & (~x + np.uint64(1))
                x ^= low
                w = b * 64 + popcount(low - np.uint64(1))
                v = pval[w]
                nv = v & pool[r, w]
                if nv != v:
                    c -= popcount(v ^ nv)
                    pix[SLICE, nlog], pix[NEXT, nlog], pval[logged + nlog] = k, -1, v
                    if pix[HEAD, w] < 0:
                        pix[HEAD, w] = nlog
                    else:
                        pix[NEXT, pix[TAIL, w]] = nlog
                    pix[TAIL, w] = nlog
                    pval[w] = nv
                    if nv == 0:
                        pval[alive + b] &= ~low
                    nlog += 1
        pref_count[k] = c
    state[NLOG] = nlog
    if upto + 1 > state[DONE]:
        state[DONE] = upto + 1


@njit(cache=True, nogil=True)
def _prefix_word(pix, pval, logged, k, w):
    """Word ``w`` of F_k (``k`` among the prefixes done): its value before its first change after slice ``k``
    (``logged``: where the log's values start in ``pval``)."""
    e = pix[HEAD, w]
    while e >= 0 and pix[SLICE, e] <= k:
        e = pix[NEXT, e]
    return pval[logged + e] if e >= 0 else pval[w]


@njit(cache=True, nogil=True)
def start_now_count(state, times, rows, pool, diff, pix, pval, pref_count, end, own_start, w0, words, size, out):
    """The number of processors free on ``[now, end)`` when ``words`` (from word ``w0``) are counted as free
    from ``own_start`` on: |F_{e-1} | (F_{a-1} & own)|, with e, a the slices before ``end`` and ``own_start``
    (intersection distributes over the union with ``own``); ``out`` gets them if there are ``size`` or more.
    That set lies in F_{min(e, a)-1}: when this has fewer than ``size``, its size is returned instead (the
    prefixes are then extended no further); when a >= e, F_{a-1} lies in F_{e-1} and the set is F_{e-1}."""
    width = pool.shape[1]
    logged = width + diff.shape[1]
    inner = slices_before(state, times, min(end, own_start)) - 1  # min(e, a) - 1
    _extend_prefix(state, rows, pool, diff, pix, pval, pref_count, inner)
    if pref_count[inner] < size:
        return pref_count[inner]
    e = slices_before(state, times, end)
    a = slices_before(state, times, own_start)
    _extend_prefix(state, rows, pool, diff, pix, pval, pref_count, e - 1)
    c = pref_count[e - 1]
    nw = words.shape[0] if a < e else 0
    for q in range(nw):
        own = _prefix_word(pix, pval, logged, a - 1, w0 + q) & words[q]
        c += popcount(own & ~_prefix_word(pix, pval, logged, e - 1, w0 + q))
    if c >= size:
        for w in range(width):
            out[w] = _prefix_word(pix, pval, logged, e - 1, w)
        for q in range(nw):
            out[w0 + q] |= _prefix_word(pix, pval, logged, a - 1, w0 + q) & words[q]
    return c


@njit(cache=True, nogil=True)
def span(ids, w0, words):
    """Set the bits of the sorted ``ids`` in ``words`` (zeroed; word 0 of it is word ``w0`` of the platform)."""
    words[:] = 0
    for p in ids:
        q = (p >> 6) - w0
        words[q] |= np.uint64(1) << np.uint64(p & 63)


QJOB, QSTART, QREQ, QSIZE, QW0, QNW, QOFF = 0, 1, 2, 3, 4, 5, 6  # rows of ``entries`` (one column a queued job)
GONE = 1 << 62  # the size of a job that left the queue


@njit(cache=True, nogil=True)
def _first_short(state, times, rows, pool, diff, pix, pval, pref_count, size, until):
    """The first slice k with |F_k| < ``size``, extending the prefixes while their slices start before ``until``;
    -1 if there is none up to there (a job whose window ends by ``until`` then passes this filter)."""
    if state[DONE] == 0:
        _extend_prefix(state, rows, pool, diff, pix, pval, pref_count, 0)
    while state[DONE] < state[N] and pref_count[state[DONE] - 1] >= size and times[state[DONE]] < until:
        _extend_prefix(state, rows, pool, diff, pix, pval, pref_count, state[DONE])
    if pref_count[state[DONE] - 1] >= size:
        return -1
    lo, hi = 0, state[DONE] - 1
    while lo < hi:  # pref_count is non-increasing
        mid = (lo + hi) >> 1
        if pref_count[mid] >= size:
            lo = mid + 1
        else:
            hi = mid
    return lo


BSIZE, BSTART, BREQ, BDIRTY = 0, 1, 2, 3  # rows of ``blocks``, per 64 columns of ``entries``
BLOCK = 64


@njit(cache=True, nogil=True)
def _summarize(entries, last, blocks, b):
    """Block ``b``'s least size, reservation start and requested time over its queued jobs (a size of ``GONE``
    when it has none), made again when its columns changed (``blocks[BDIRTY, b]``: a job was added or left)."""
    if blocks[BDIRTY, b] == 0:
        return
    big = np.iinfo(np.int64).max
    blocks[BSIZE, b], blocks[BSTART, b], blocks[BREQ, b], blocks[BDIRTY, b] = GONE, big, big, 0
    for q in range(b * BLOCK, min((b + 1) * BLOCK, last)):
        if entries[QSIZE, q] != GONE:
            blocks[BSIZE, b] = min(blocks[BSIZE, b], entries[QSIZE, q])
            blocks[BSTART, b] = min(blocks[BSTART, b], entries[QSTART, q])
            blocks[BREQ, b] = min(blocks[BREQ, b], entries[QREQ, q])


@njit(cache=True, nogil=True)
def _find_limit(state, times, rows, pool, diff, pix, pval, pref_count, limit, known, h, s, x):
    """Fill entry ``h`` of the scan's table for size ``s`` up to ``x``: the start of the first slice where fewer than
    ``s`` processors stay free from now on (``limit[h]``) or, while there is none, the time up to which there
    is none (``known[h]``)."""
    k = _first_short(state, times, rows, pool, diff, pix, pval, pref_count, s, x)
    if k >= 0:
        limit[h] = times[k]
    else:
        known[h] = x if state[DONE] < state[N] else np.iinfo(np.int64).max


@njit(cache=True, nogil=True)
def first_movable(
    state, times, rows, count, pool, diff, pix, pval, pref_count, now, entries, first, last, store, out, blocks, longest
):
    """The first column ``q`` in ``first..last-1`` of ``entries`` (the reserved jobs in FCFS order) whose job could
    start now (:func:`start_now_count`: its own reservation, ``entries[QNW, q]`` words of ``store`` from
    ``entries[QOFF, q]``, counted as free), with the processors it could get in ``out``; -1 if none.

    The reassignment's scan in one call.  A job reserved to start now or larger than the processors free now (or
    gone, its size ``GONE``) is passed over; so is a job whose window ``[now, min(now + req, start))`` reaches the
    first slice where fewer than its size stay free from now on (:func:`_first_short`; a small hash table keeps
    that slice's start per size, or while it is not found the time up to which there is none), with one comparison
    instead of a search of the slices.  That slice comes no later for a larger size, so a whole block of
    ``BLOCK`` columns is passed over with the same tests on its least size and the least window end its least
    start and requested time allow (``blocks``, :func:`_summarize`; ``blocks[BDIRTY]`` is set by the caller for a
    block whose columns changed): a queue of thousands of jobs costs a test per block, and a test per job only in
    the blocks that may hold a movable one.  A job none of whose own processors is free now can use only
    the processors free throughout its whole window ``[now, now + req)``: the same comparison at that window's
    end rejects it without :func:`start_now_count`.  A job whose requested time exceeds ``longest`` is passed
    over too (the author's pre-test, ``reassign_test="first-slice"``; a block by its least requested time).
    """
    start, req, size = entries[QSTART], entries[QREQ], entries[QSIZE]
    keys = np.full(1024, -1, dtype=np.int64)  # open addressing by size (512 sizes at most, the others unfiltered)
    limit = np.empty(1024, dtype=np.int64)
    known = np.empty(1024, dtype=np.int64)
    filled = 0
    q, passed = first, -1
    while q < last:
        if q % BLOCK == 0 and passed != q:  # the block's test, then (if it may hold a movable job) its columns'
            b = q // BLOCK
            if blocks[BDIRTY, b]:
                _summarize(entries, last, blocks, b)
            s, x, step = blocks[BSIZE, b], min(now + blocks[BREQ, b], blocks[BSTART, b]), BLOCK
            too_long = blocks[BREQ, b] > longest
        else:
            if start[q] == now:
                q += 1
                continue
            s, x, step = size[q], min(now + req[q], start[q]), 1
            too_long = req[q] > longest
        if s > count[0] or too_long:
            q += step
            continue
        h = s & 1023
        while keys[h] != -1 and keys[h] != s:
            h = (h + 1) & 1023
        if keys[h] == -1 and filled < 512:
            keys[h], limit[h], known[h] = s, -1, -1
            filled += 1
        if keys[h] == s:
            if limit[h] < 0 and x > known[h]:
                _find_limit(state, times, rows, pool, diff, pix, pval, pref_count, limit, known, h, s, x)
            if limit[h] >= 0 and x > limit[h]:
                q += step
                continue
        if step > 1:
            passed = q
            continue
        own = store[entries[QOFF, q] : entries[QOFF, q] + entries[QNW, q]]
        if keys[h] == s and start[q] < now + req[q]:  # the window passes the job's reservation start
            free_own = np.uint64(0)
            for w in range(own.shape[0]):
                free_own |= own[w] & pool[rows[0], entries[QW0, q] + w]
            if free_own == 0:  # none of its processors is free now: it needs size processors free throughout
                x = now + req[q]
                if limit[h] < 0 and x > known[h]:
                    _find_limit(state, times, rows, pool, diff, pix, pval, pref_count, limit, known, h, s, x)
                if limit[h] >= 0 and x > limit[h]:
                    q += 1
                    continue
        c = start_now_count(
            state, times, rows, pool, diff, pix, pval, pref_count, now + req[q], start[q], entries[QW0, q], own, s, out
        )
        if c >= s:
            return q
        q += 1
    return -1


@njit(cache=True, nogil=True)
def _bits_below(words, cum, p):
    """The set bits of ``words`` below bit ``p`` (``cum[w]``: those of words ``0..w-1``)."""
    c = cum[p >> 6]
    if p & 63:
        c += popcount(words[p >> 6] & ((np.uint64(1) << np.uint64(p & 63)) - np.uint64(1)))
    return c


@njit(cache=True, nogil=True)
def platform_block(words, m, blocks, size, forced, cum, ids):
    """The platform-level rules (beplat, plat) taking the lowest ids, on a free set given as words: for each block
    size of ``blocks`` (from the deepest depth whose blocks hold ``size`` processors up to the root), the first block
    ``[k b, (k+1) b)`` with ``size`` free processors gives its ``size`` lowest free ids (into ``ids``; returns
    ``size``); 0 if none, or (``forced``: plat) if none at the deepest depth."""
    cum[0] = 0
    for w in range(words.shape[0]):
        cum[w + 1] = cum[w] + popcount(words[w])
    for i in range(blocks.shape[0]):
        b = blocks[i]
        below = 0
        for lo in range(0, m, b):
            above = _bits_below(words, cum, lo + b)
            if above - below >= size:
                n = 0
                for w in range(lo >> 6, words.shape[0]):
                    x = words[w]
                    if w == lo >> 6:
                        x &= ~np.uint64(0) << np.uint64(lo & 63)
                    while x != 0 and n < size:
                        low = x & (~x + np.uint64(1))
                        ids[n] = w * 64 + popcount(low - np.uint64(1))
                        n += 1
                        x ^= low
                    if n == size:
                        return n
            below = above
        if forced:
            return 0
    return 0


@njit(cache=True, nogil=True)
def first_run(words, size):
    """cont's first-fit rule on a line, on a free set given as words: the lowest id starting a run of ``size``
    consecutive free ids inside a maximal run (the first maximal run, in id order, at least ``size`` long, as
    :func:`.allocation.contiguous_ranges` lists them), or -1.  Whole words of ones or zeros cost one test, a
    mixed word one step per run boundary (trailing-bit counts)."""
    ones = ~np.uint64(0)
    start = 0
    run = 0
    for w in range(words.shape[0]):
        x = words[w]
        if x == ones:
            if run == 0:
                start = w * 64
            run += 64
            if run >= size:
                return start
            continue
        if x == 0:
            run = 0
            continue
        pos = 0
        while pos < 64:
            y = x >> np.uint64(pos)
            if y & np.uint64(1):
                inv = ~y
                k = popcount((inv & (~inv + np.uint64(1))) - np.uint64(1))  # trailing ones of y
                k = min(k, 64 - pos)
                if run == 0:
                    start = w * 64 + pos
                run += k
                if run >= size:
                    return start
                pos += k
            else:
                run = 0
                if y == 0:
                    break
                pos += popcount((y & (~y + np.uint64(1))) - np.uint64(1))  # trailing zeros of y
    return -1


@njit(cache=True, nogil=True)
def fewest_clusters_hold(words, m, ell, size, cum, hist):
    """loc's test on a free set given as words: whether the ⌈size/ℓ⌉ fullest clusters of ``ℓ`` processors hold
    ``size`` free processors (the fewest clusters the job can use).  The clusters' free counts go into a histogram
    (``hist``: ℓ + 1 counters), read from the fullest down: O(W + clusters + ℓ), no sort.  When ℓ divides 64 (every
    thesis platform) a word holds whole clusters: an empty or full word counts its 64/ℓ clusters at once."""
    if 64 % ell == 0:
        _hist_of(words, hist, ell)
        return _hist_holds(hist, ell, size)
    cum[0] = 0
    for w in range(words.shape[0]):
        cum[w + 1] = cum[w] + popcount(words[w])
    if cum[words.shape[0]] < size:
        return False
    hist[:] = 0
    below = 0
    for lo in range(0, m, ell):
        above = _bits_below(words, cum, min(lo + ell, m))
        hist[above - below] += 1
        below = above
    return _hist_holds(hist, ell, size)
