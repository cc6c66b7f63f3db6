"""Sets of processor ids: bitsets for the profile, sorted id arrays for the allocation rules, interval strings for files.

Three forms of one set, each where it is cheapest:

- **bitset** (a Python ``int``, bit ``p`` set when processor ``p`` is in the
  set): intersection, union and difference of two sets of 80,640 processors are
  one machine-word loop in C (about a microsecond), and ``int.bit_count`` gives
  the size; the availability profile (:mod:`.profile`) stores one per time slice;
- **ids** (a sorted ``numpy`` array of ``int64``): what the allocation rules
  (:mod:`.allocation`) read, with ranges and per-cluster counts vectorised;
- **interval string** (``"0-3 8 10-11"``, ids 0-based, ranges inclusive): the
  schedule's JSON and the Batsim/evalys ``allocated_resources`` column, written and read by
  :mod:`coschedopt.workloads.idsets` (shared with the evolving and locality families).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np


def bits_from_ids(ids: np.ndarray | list[int], m: int) -> int:
    """The bitset of ``ids`` (each in ``[0, m)``); a short list is summed in Python, an array packed by numpy."""
    if isinstance(ids, list) and len(ids) < 256:
        bits = 0
        for i in ids:
            bits |= 1 << i
        return bits
    mask = np.zeros(m, dtype=bool)
    mask[np.asarray(ids, dtype=np.int64)] = True
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def ids_from_bits(bits: int, m: int) -> np.ndarray:
    """The sorted ids of the bitset ``bits`` (processors ``0..m-1``)."""
    return ids_from_bytes(bytes_of(bits, m), m)


def ids_from_bytes(raw: np.ndarray, m: int) -> np.ndarray:
    """The sorted ids of the set whose little-endian bytes are ``raw`` (processors ``0..m-1``)."""
    return np.flatnonzero(np.unpackbits(raw, bitorder="little", count=m)).astype(np.int64)


def bytes_of(bits: int | np.ndarray, m: int) -> np.ndarray:
    """The ⌈m/8⌉ little-endian bytes of a bitset given as an ``int`` or as ``uint64`` words (not copied)."""
    if isinstance(bits, np.ndarray):
        return bits.view(np.uint8)[: (m + 7) // 8]
    return np.frombuffer(bits.to_bytes((m + 7) // 8, "little"), dtype=np.uint8)


def full_bits(m: int) -> int:
    """The bitset of every processor ``0..m-1``."""
    return (1 << m) - 1


# --------------------------------------------------------------------------- every job's set at once

#: bytes an interval string may hold on the vectorised path: digits, ``-``, space, comma (and the newline
#: joining the strings); anything else (tabs, other characters) goes through :func:`parse_ids` job by job
_DIGIT0, _DIGIT9, _DASH, _SPACE, _COMMA, _NEWLINE = 48, 57, 45, 32, 44, 10
#: digits of an id at most on the vectorised path (ids are below 10**6): longer numbers go job by job
_MAX_DIGITS = 9


@dataclass(frozen=True, eq=False)
class RunTable:
    """The processors of ``n`` jobs as one table of runs of consecutive ids, sorted by job then first id.

    Row ``k`` is the run ``first[k]..last[k]`` (inclusive) of job ``job[k]``; the runs of one job are disjoint
    (a job's string lists no id twice) but two of them may touch (``"0-3 4"``).  A trace's schedule (280,000
    jobs on 80,640 processors) fits in a few megabytes this way, where a bitset per job costs up to 10 kB."""

    n: int
    job: np.ndarray
    first: np.ndarray
    last: np.ndarray

    @cached_property
    def offsets(self) -> np.ndarray:
        """Job ``j``'s runs are rows ``offsets[j]:offsets[j + 1]``."""
        return np.searchsorted(self.job, np.arange(self.n + 1))

    @cached_property
    def sizes(self) -> np.ndarray:
        """Processors per job."""
        return np.bincount(self.job, weights=self.last - self.first + 1, minlength=self.n).astype(np.int64)

    def lowest(self) -> np.ndarray:
        """Each job's smallest id (``-1`` for a job without processors)."""
        has = self.offsets[1:] > self.offsets[:-1]
        return np.where(has, self.first[np.minimum(self.offsets[:-1], len(self.first) - 1)], -1)

    def highest(self) -> np.ndarray:
        """Each job's largest id (``-1`` for a job without processors)."""
        has = self.offsets[1:] > self.offsets[:-1]
        return np.where(has, self.last[np.maximum(self.offsets[1:] - 1, 0)], -1)

    def maximal(self) -> RunTable:
        """The same sets with touching runs merged: one row per maximal run (what :func:`..idsets.runs` gives)."""
        if len(self.job) == 0:
            return self
        new = np.ones(len(self.job), dtype=bool)
        new[1:] = (self.job[1:] != self.job[:-1]) | (self.first[1:] > self.last[:-1] + 1)
        starts = np.flatnonzero(new)
        ends = np.append(starts[1:], len(self.job)) - 1
        return RunTable(self.n, self.job[starts], self.first[starts], self.last[ends])

    @classmethod
    def from_ids(cls, sets: list[np.ndarray]) -> RunTable:
        """The table of sorted id arrays, one per job."""
        jobs, firsts, lasts = [], [], []
        for j, ids in enumerate(sets):
            if len(ids) == 0:
                continue
            breaks = np.flatnonzero(np.diff(ids) != 1)
            firsts.append(ids[np.concatenate(([0], breaks + 1))])
            lasts.append(ids[np.concatenate((breaks, [len(ids) - 1]))])
            jobs.append(np.full(len(firsts[-1]), j, dtype=np.int64))
        if not jobs:
            empty = np.zeros(0, dtype=np.int64)
            return cls(len(sets), empty, empty, empty)
        return cls(len(sets), np.concatenate(jobs), np.concatenate(firsts), np.concatenate(lasts))


def parse_interval_strings(texts: tuple[str, ...] | list[str]) -> RunTable | None:
    """Every job's interval string (``"0-3 8"``, as :func:`..idsets.parse_ids` reads it) in one vectorised
    pass over their bytes: O(total length), no Python object per id or per run.  ``None`` when a string is
    not plain (not a string, a character other than digits, ``-``, space and comma, a malformed or reversed
    range, an id listed twice, a number of more than nine digits): the caller then reads the strings one by
    one with :func:`..idsets.parse_ids`, which names what is wrong."""
    n = len(texts)
    try:
        text = "\n".join(texts)
    except TypeError:
        return None
    if not text.isascii():
        return None
    b = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    newline = b == _NEWLINE
    if int(newline.sum()) != n - 1:  # a string holding a newline itself
        return None
    digit = (b >= _DIGIT0) & (b <= _DIGIT9)
    dash = b == _DASH
    if not (digit | dash | newline | (b == _SPACE) | (b == _COMMA)).all():
        return None
    # a dash sits between two digits, inside one token: a token is then digits or digits-digits unless it holds
    # two dashes (``1-2-3``), which shows as a digit run preceded and followed by dashes
    where = np.flatnonzero(dash)
    if len(where) and (
        where[0] == 0 or where[-1] == len(b) - 1 or not (digit[where - 1].all() and digit[where + 1].all())
    ):
        return None
    before = np.zeros(len(b), dtype=bool)
    before[1:] = digit[:-1]
    after = np.zeros(len(b), dtype=bool)
    after[:-1] = digit[1:]
    run_start = np.flatnonzero(digit & ~before)
    run_end = np.flatnonzero(digit & ~after) + 1
    if len(run_start) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return RunTable(n, empty, empty, empty)
    length = run_end - run_start
    if int(length.max()) > _MAX_DIGITS:
        return None
    preceded = np.zeros(len(run_start), dtype=bool)  # the run is the second number of a range
    preceded[run_start > 0] = dash[run_start[run_start > 0] - 1]
    followed = np.zeros(len(run_start), dtype=bool)  # the run is the first number of a range
    inside = run_end < len(b)
    followed[inside] = dash[run_end[inside]]
    if (preceded & followed).any():  # 1-2-3
        return None
    # each number's value: its digits weighted by 10 ** (places to its end), summed per run
    chars = np.flatnonzero(digit)
    run_of = np.repeat(np.arange(len(run_start)), length)
    place = run_end[run_of] - 1 - chars
    values = np.add.reduceat((b[chars] - _DIGIT0).astype(np.int64) * 10**place, np.cumsum(length) - length)
    lows = np.flatnonzero(~preceded)
    first = values[lows]
    last = np.where(followed[lows], values[np.minimum(lows + 1, len(values) - 1)], first)
    if (last < first).any():
        return None
    job = np.cumsum(newline)[run_start[lows]]
    order = np.lexsort((first, job))
    job, first, last = job[order], first[order], last[order]
    same = job[1:] == job[:-1]
    if (same & (first[1:] <= last[:-1])).any():  # an id listed twice
        return None
    return RunTable(n, job.astype(np.int64), first, last)
