"""Sets of processor ids: bitsets for the profile, sorted id arrays for the allocation rules, interval strings for files.

Three forms of one set, each where it is cheapest:

- **bitset** (a Python ``int``, bit ``p`` set when processor ``p`` is in the
  set): intersection, union and difference of two sets of 80,640 processors are
  one machine-word loop in C (about a microsecond), and ``int.bit_count`` gives
  the size; the availability profile (:mod:`.profile`) stores one per time slice;
- **ids** (a sorted ``numpy`` array of ``int64``): what the allocation rules
  (:mod:`.allocation`) read, with ranges and per-cluster counts vectorised;
- **interval string** (``"0-3 8 10-11"``, ids 0-based, ranges inclusive): the
  schedule's JSON and the Batsim/evalys ``allocated_resources`` column.
"""

from __future__ import annotations

import numpy as np

from ..core import InputError


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


def ranges_of(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximal runs of consecutive ids: ``(starts, ends)`` with ``ends`` exclusive, in id order."""
    if len(ids) == 0:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty
    breaks = np.flatnonzero(np.diff(ids) != 1)
    starts = ids[np.concatenate(([0], breaks + 1))]
    ends = ids[np.concatenate((breaks, [len(ids) - 1]))] + 1
    return starts, ends


def range_count(ids: np.ndarray, m: int, *, ring: bool = False) -> int:
    """Number of maximal contiguous ranges of ``ids``; on a ring, a run through ``m-1`` and ``0`` is one."""
    if len(ids) == 0:
        return 0
    count = int(np.count_nonzero(np.diff(ids) != 1)) + 1
    if ring and count > 1 and ids[0] == 0 and ids[-1] == m - 1:
        count -= 1
    return count


def format_ids(ids: np.ndarray | list[int]) -> str:
    """The interval string of sorted ids: ``[0, 1, 2, 3, 8]`` -> ``"0-3 8"``."""
    if isinstance(ids, list):
        return " ".join(f"{s}" if s == e else f"{s}-{e}" for s, e in _runs(ids))
    if len(ids) and int(ids[-1]) - int(ids[0]) == len(ids) - 1:  # one run (the common case), without numpy
        return f"{ids[0]}" if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"
    starts, ends = ranges_of(np.asarray(ids, dtype=np.int64))
    return " ".join(
        f"{s}" if e - s == 1 else f"{s}-{e - 1}" for s, e in zip(starts.tolist(), ends.tolist(), strict=True)
    )


def _runs(ids: list[int]) -> list[tuple[int, int]]:
    """Inclusive (first, last) of each run of consecutive sorted ids."""
    runs: list[tuple[int, int]] = []
    for i in ids:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def parse_ids(text: str, *, where: str = "processors") -> np.ndarray:
    """The sorted ids of an interval string (``"0-3 8"``); a malformed or overlapping one raises InputError."""
    if not isinstance(text, str):
        raise InputError(f"must be an interval-set string such as '0-3 8', got {text!r}", where=where)
    parts: list[np.ndarray] = []
    for token in text.split():
        lo, sep, hi = token.partition("-")
        try:
            a, b = int(lo), int(hi) if sep else int(lo)
        except ValueError:
            raise InputError(f"malformed interval {token!r} in {text!r}", where=where) from None
        if a < 0 or b < a:
            raise InputError(f"interval {token!r} must be 'a' or 'a-b' with 0 <= a <= b", where=where)
        parts.append(np.arange(a, b + 1, dtype=np.int64))
    ids = np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
    ids.sort()
    if len(ids) > 1 and (np.diff(ids) == 0).any():
        raise InputError(f"processor ids repeat in {text!r}", where=where)
    return ids
