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
