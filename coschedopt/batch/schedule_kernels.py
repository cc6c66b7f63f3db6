"""The validator's overlap sweep (:func:`.schedule.validate_schedule`): no processor used by two jobs at once.

The events (every job's end and start, in time order, ends first at equal
times, then by job) are visited with the set of busy processors: a start
whose processors meet the busy set breaks the rule; a zero-length job is
checked at its start and occupies nothing.  A job's processors are read from
the runs of the schedule's table (:class:`.procsets.RunTable`), so an event
costs the words its runs cover, and nothing per job is kept.

:func:`sweep` is this loop on ``uint64`` words, compiled by numba (cached on
disk), for traces of tens of thousands of jobs and more;
:func:`.schedule.sweep_bitsets` is the same loop in Python with the busy set as
an ``int``, for the small instances where loading numba would cost more than
the whole check.  Both return the index of the first event that breaks the
rule, or -1.  This module imports numba: it is imported only when the compiled
sweep runs.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is a dependency; the loop still runs uncompiled

    def njit(**_):
        return lambda fn: fn


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


def compile_kernel() -> None:
    """Compile :func:`sweep` (or load it from numba's cache) for the argument types the validator gives it."""
    ints = np.zeros(2, dtype=np.int64)
    sweep(ints, 1, ints, ints + 1, np.array([0, 1], dtype=np.int64), ints[:1], ints[:1], np.zeros(1, np.uint64))
