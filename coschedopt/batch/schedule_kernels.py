"""The validator's overlap sweep (:func:`.schedule.validate_schedule`): no processor used by two jobs at once.

The events (every job's end and start, in time order, ends first at equal
times, then by job) are visited with the set of busy processors: a start
whose processors meet the busy set breaks the rule; a zero-length job is
checked at its start and occupies nothing.  A job's processors are read from
the runs of the schedule's table (:class:`.procsets.RunTable`), so an event
costs the words its runs cover, and nothing per job is kept.

Two transcriptions of one loop: :func:`sweep` on ``uint64`` words, compiled by
numba (cached on disk) for traces of hundreds of thousands of jobs, and
:func:`sweep_bitsets` in Python with the busy set as an ``int``, for the small
instances where loading numba would cost more than the whole check.  Both
return the index of the first event that breaks the rule, or -1.  The module
is imported when a schedule is validated; numba is loaded only by
:func:`sweep`'s first call.
"""

from __future__ import annotations

import importlib.util

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; the loop still runs uncompiled

    def njit(**_):
        return lambda fn: fn


def compiled() -> bool:
    """Whether :func:`sweep` runs compiled (numba installed)."""
    return importlib.util.find_spec("numba") is not None


@njit(cache=True, nogil=True)
def sweep(events, n, start, end, offsets, first, last, words):
    """The first event (index into ``events``) starting a job on busy processors, or -1; ``events[i]`` is
    job ``k``'s end for ``k < n``, job ``k - n``'s start otherwise; ``words`` (zeros, ⌈P/64⌉) is the busy set."""
    full = ~np.uint64(0)
    for pos in range(len(events)):
        k = events[pos]
        starting = k >= n
        j = k - n if starting else k
        zero = start[j] == end[j]
        if zero and not starting:
            continue
        for r in range(offsets[j], offsets[j + 1]):
            a, b = first[r], last[r]
            for w in range(a >> 6, (b >> 6) + 1):
                lo = max(a, w * 64) - w * 64
                hi = min(b, w * 64 + 63) - w * 64
                mask = (full >> np.uint64(63 - (hi - lo))) << np.uint64(lo)
                if starting:
                    if words[w] & mask:
                        return pos
                    if not zero:
                        words[w] |= mask
                else:
                    words[w] &= ~mask
    return -1


def sweep_bitsets(events, n, start, end, offsets, first, last, words) -> int:
    """:func:`sweep` in Python, the busy set an ``int`` (``words`` is not used)."""
    starts, ends = start.tolist(), end.tolist()
    offs, firsts, lasts = offsets.tolist(), first.tolist(), last.tolist()

    def bits(j: int) -> int:
        out = 0
        for r in range(offs[j], offs[j + 1]):
            out |= (1 << (lasts[r] + 1)) - (1 << firsts[r])
        return out

    busy = 0
    for pos, k in enumerate(events.tolist()):
        starting = k >= n
        j = k - n if starting else k
        if starts[j] == ends[j]:
            if starting and busy & bits(j):
                return pos
            continue
        if not starting:
            busy &= ~bits(j)
            continue
        b = bits(j)
        if busy & b:
            return pos
        busy |= b
    return -1
