"""The seven allocation variants of thesis chapters 4-5: which ``size`` processors a job gets from a free set.

Backfilling (Alg. 1) finds a time slice and the set P of processors free for
the whole reservation; the variant *reduces* P to ``size`` processors, or
returns ``None`` to reject the slice (the forced variants) so the search goes
on at the next one.  Every rule takes the lowest ids on ties.

=========  ==================================================================
basic      the ``size`` lowest ids (Alg. 2)
becont     best-effort contiguous: ``becont_rule="largest-first"`` (ch. 5 text
           and the author's code: free ranges by length, longest first, taken
           until ``size``) or ``"first-fit"`` (ch. 4 Alg. 3: the first range of
           length >= size, else basic)
cont       forced contiguous: ``cont_rule="first-fit"`` (code: the first range
           of length >= size) or ``"largest"`` (ch. 5 text: the largest range
           must hold the job); else reject
beloc      best-effort local: clusters by free count, most first, ids taken
           cluster by cluster (Alg. 4)
loc        forced local: as beloc, but reject unless the ⌈size/ℓ⌉ fullest
           clusters hold the job (so the job uses the fewest clusters)
beplat     best-effort platform level: the lowest tree level with a block of
           >= size free ids; its first such block; ``beplat_rule="lowest-ids"``
           (code) takes its lowest ids, ``"clusters"`` (Alg. 5) takes them
           cluster by cluster, fullest first
plat       forced platform level: as beplat at the level of L_min only, else
           reject (so L = L_min)
=========  ==================================================================

``topology="ring"`` makes a run through the last and the first id one range
for becont and cont; the theory's line (default) does not.  The author's
published simulator allocates on a line and treats ids as a ring only in its
contiguity metric: ``topology="line"`` with ``metric_topology="ring"``
(:class:`.model.SimOptions`, read by :mod:`.metrics`).
Cost: O(|P|) numpy work per call.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .platform import Platform
from .procsets import bits_from_ids, bytes_of, ids_from_bytes

VARIANTS = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")
BECONT_RULES = ("largest-first", "first-fit")
CONT_RULES = ("first-fit", "largest")
BEPLAT_RULES = ("lowest-ids", "clusters")
TOPOLOGIES = ("line", "ring")


@dataclass(frozen=True)
class Allocator:
    """One variant with its readings, for one platform: ``allocator(free_ids, size) -> ids | None``."""

    platform: Platform
    variant: str = "basic"
    topology: str = "line"
    becont_rule: str = "largest-first"
    cont_rule: str = "first-fit"
    beplat_rule: str = "lowest-ids"

    def __post_init__(self) -> None:
        for name, allowed in (
            ("variant", VARIANTS),
            ("topology", TOPOLOGIES),
            ("becont_rule", BECONT_RULES),
            ("cont_rule", CONT_RULES),
            ("beplat_rule", BEPLAT_RULES),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")

    @property
    def forced(self) -> bool:
        """Whether the variant may reject a free set holding enough processors."""
        return self.variant in ("cont", "loc", "plat")

    def from_bits(self, bits: int | np.ndarray, size: int) -> np.ndarray | None:
        """The same choice from a bitset of free processors (an ``int``, or its little-endian ``uint64`` words),
        decoding only the bytes the rule needs when clusters are whole bytes (every platform of the thesis
        but KTH): on 80,640 processors a job of 32 then costs a few hundred bytes of decoding instead of
        80,640 bits."""
        m = self.platform.processors
        ell = self.platform.cluster_size
        if self.variant == "basic" and m < 4096 and isinstance(bits, int):
            return lowest_bits(bits, size)
        raw = bytes_of(bits, m)
        if m < 4096 or self.variant in ("becont", "cont") or (self.variant != "basic" and ell % 8):
            return self(ids_from_bytes(raw, m), size)
        if self.variant == "basic":
            cum = np.cumsum(POPCOUNT[raw])
            if cum[-1] < size:
                return None
            k = int(np.searchsorted(cum, size)) + 1
            return _bytes_ids(raw[:k], 0)[:size]
        counts = POPCOUNT[raw].reshape(self.platform.clusters, ell // 8).sum(axis=1, dtype=np.int64)
        if self.variant in ("beloc", "loc"):
            order = np.argsort(-counts, kind="stable")
            need = int(np.searchsorted(np.cumsum(counts[order]), size)) + 1
            if need > len(order) or (self.variant == "loc" and need > self.platform.min_clusters(size)):
                return None
            step = ell // 8
            parts = [_bytes_ids(raw[c * step : (c + 1) * step], c * ell) for c in order[:need].tolist()]
            return np.sort(np.concatenate(parts)[:size])
        plat = self.platform
        for d in range(plat.depth - plat.min_level(size), -1, -1):
            blocks = counts.reshape(plat.levels[d], -1).sum(axis=1)
            fits = np.flatnonzero(blocks >= size)
            if len(fits):
                b = plat.block_size(d)
                first = int(fits[0]) * b
                block = _bytes_ids(raw[first // 8 : (first + b) // 8], first)
                if self.beplat_rule == "lowest-ids":
                    return block[:size]
                return by_fullest_cluster(block, size, ell)
            if self.variant == "plat":
                return None
        return None

    def mask_from_bits(self, bits: int, size: int) -> int | None:
        """The chosen processors as a bitset (basic: the lowest ``size`` bits, found by bisection)."""
        if self.variant == "basic":
            return lowest_bits_mask(bits, size)
        ids = self.from_bits(bits, size)
        return None if ids is None else bits_from_ids(ids, self.platform.processors)

    def __call__(self, free: np.ndarray, size: int) -> np.ndarray | None:
        """``size`` sorted ids taken from the sorted ``free`` ids, or ``None`` (rejected)."""
        if len(free) < size:
            return None
        if self.variant == "basic":
            return free[:size]
        if self.variant in ("becont", "cont"):
            return self._contiguous(free, size)
        if self.variant in ("beloc", "loc"):
            if self.variant == "loc" and not self._fewest_clusters_hold(free, size):
                return None
            return by_fullest_cluster(free, size, self.platform.cluster_size)
        return self._platform_level(free, size)

    def _contiguous(self, free: np.ndarray, size: int) -> np.ndarray | None:
        m = self.platform.processors
        starts, lengths = contiguous_ranges(free, m, ring=self.topology == "ring")
        forced = self.variant == "cont"
        rule = self.cont_rule if forced else self.becont_rule
        if rule == "largest":
            r = int(np.argmax(lengths))
            return take_range(int(starts[r]), size, m) if lengths[r] >= size else None
        if rule == "first-fit":
            fits = np.flatnonzero(lengths >= size)
            if len(fits):
                return take_range(int(starts[fits[0]]), size, m)
            return None if forced else free[:size]
        order = np.argsort(-lengths, kind="stable")
        taken, parts = 0, []
        for r in order:
            k = min(int(lengths[r]), size - taken)
            parts.append(take_range(int(starts[r]), k, m))
            taken += k
            if taken == size:
                break
        return np.sort(np.concatenate(parts))

    def _fewest_clusters_hold(self, free: np.ndarray, size: int) -> bool:
        counts = np.bincount(free // self.platform.cluster_size, minlength=self.platform.clusters)
        k = self.platform.min_clusters(size)
        return int(np.sort(counts)[::-1][:k].sum()) >= size

    def _platform_level(self, free: np.ndarray, size: int) -> np.ndarray | None:
        plat = self.platform
        lowest = plat.depth - plat.min_level(size)  # the deepest depth whose blocks hold the job
        for d in range(lowest, -1, -1):
            b = plat.block_size(d)
            counts = np.bincount(free // b, minlength=plat.levels[d])
            fits = np.flatnonzero(counts >= size)
            if len(fits):
                block = free[(free // b) == fits[0]]
                if self.beplat_rule == "lowest-ids":
                    return block[:size]
                return by_fullest_cluster(block, size, plat.cluster_size)
            if self.variant == "plat":
                return None
        raise AssertionError("the root block holds every free processor")


def lowest_bits(bits: int, size: int) -> list[int] | None:
    """The ``size`` lowest ids of a (small) bitset, by clearing the lowest set bit ``size`` times."""
    if bits.bit_count() < size:
        return None
    ids = []
    for _ in range(size):
        low = bits & -bits
        ids.append(low.bit_length() - 1)
        bits ^= low
    return ids


def lowest_bits_mask(bits: int, size: int) -> int | None:
    """The bitset of the ``size`` lowest set bits of ``bits``: the shortest prefix holding ``size``,
    by bisection on its length (O(log P) word loops)."""
    if bits.bit_count() < size:
        return None
    lo, hi = size, bits.bit_length()  # the prefix of hi bits holds them all
    while lo < hi:
        mid = (lo + hi) // 2
        if (bits & ((1 << mid) - 1)).bit_count() >= size:
            hi = mid
        else:
            lo = mid + 1
    return bits & ((1 << lo) - 1)


#: number of set bits of each byte value
POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _bytes_ids(raw: np.ndarray, offset: int) -> np.ndarray:
    """The ids of the set bits of little-endian bytes ``raw`` whose first bit is processor ``offset``."""
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).astype(np.int64) + offset


def contiguous_ranges(free: np.ndarray, m: int, *, ring: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Maximal runs of consecutive free ids as ``(starts, lengths)`` in id order.

    On a ring a run ending at ``m-1`` and one starting at 0 are one run, kept
    at the place (and start) of the last one.
    """
    breaks = np.flatnonzero(np.diff(free) != 1)
    starts = free[np.concatenate(([0], breaks + 1))]
    ends = free[np.concatenate((breaks, [len(free) - 1]))] + 1
    lengths = ends - starts
    if ring and len(starts) > 1 and starts[0] == 0 and ends[-1] == m:
        lengths[-1] += lengths[0]
        starts, lengths = starts[1:], lengths[1:]
    return starts, lengths


def take_range(start: int, k: int, m: int) -> np.ndarray:
    """``k`` consecutive ids from ``start`` (wrapping past ``m-1`` to 0 on a ring), sorted."""
    ids = np.arange(start, start + k, dtype=np.int64)
    return np.sort(ids % m) if start + k > m else ids


def by_fullest_cluster(free: np.ndarray, size: int, cluster_size: int) -> np.ndarray:
    """Alg. 4: clusters by free count (most first, lowest cluster on ties), ids taken cluster by cluster."""
    cluster = free // cluster_size
    counts = np.bincount(cluster)
    rank = np.empty(len(counts), dtype=np.int64)
    rank[np.argsort(-counts, kind="stable")] = np.arange(len(counts))
    chosen = free[np.argsort(rank[cluster], kind="stable")[:size]]
    return np.sort(chosen)
