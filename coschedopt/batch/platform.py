"""The platform: processors numbered 0..P-1 under a fat tree given by its number of nodes per depth.

Thesis §5.3.1 and the author's configuration files: ``levels = [1, n_1, ...,
n_{D-1}, P]`` lists the nodes at each depth, the root (depth 0) first and the
processors (depth D) last; depth D-1 holds the clusters, so a cluster has
ℓ = P / n_{D-1} processors.  Every node of depth d covers a contiguous block of
P / n_d processor ids (Fig. 5.1: ``[1, 2, 4, 8]``).  Without ``levels`` the
platform is one cluster (``[1, P]``).

A job's **platform level** L is 1 when its processors lie in one cluster, and
otherwise D − depth(lowest common ancestor of its clusters); the **minimum
level** of a job of ``size`` processors is L_min = D − max{d ≤ D−1 : P/n_d ≥
size}, and the penalty of §5.3.4 depends on R = L − L_min.  Because blocks are
id ranges, the lowest common ancestor of a set is found from its smallest and
largest ids alone: O(D) per job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core import InputError
from ..core.limits import check_count

#: processors at most: the allocation profiles keep a bit per processor and per step, and
#: conservative backfilling took 0.22 GB on 12 jobs at 10^6 (measured); the largest platform
#: of the archive's traces has a few hundred thousand
MAX_PROCESSORS = 10**6
#: depths of the fat tree at most (each level divides the next, so a real tree of 10^6
#: processors has at most 21); the penalty walks the levels for every job
MAX_LEVELS = 64


@dataclass(frozen=True)
class Platform:
    """``processors`` ids 0..P-1 and the fat tree ``levels`` (see the module docstring)."""

    processors: int
    levels: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        p = self.processors
        check_count(p, "platform.processors", high=MAX_PROCESSORS, what="the processors the allocators can take")
        levels = tuple(self.levels) if self.levels else (1, p)
        object.__setattr__(self, "levels", levels)
        check_count(len(levels), "platform.levels", low=2, high=MAX_LEVELS, what="the depths of a fat tree")
        for i, n in enumerate(levels):
            check_count(n, f"platform.levels[{i}]", high=p, what="at most the processors")
        if len(levels) < 2 or levels[0] != 1 or levels[-1] != p:
            raise InputError(
                f"must start with 1 (the root) and end with the {p} processors, got {list(levels)}",
                where="platform.levels",
            )
        for i in range(1, len(levels)):
            if levels[i] % levels[i - 1]:
                raise InputError(
                    f"{levels[i]} nodes at depth {i} do not divide among the {levels[i - 1]} nodes above them "
                    f"(levels {list(levels)}: each must divide the next, and the processors)",
                    where=f"platform.levels[{i}]",
                )

    @property
    def depth(self) -> int:
        """D: the depth of the processors (the root is depth 0)."""
        return len(self.levels) - 1

    @property
    def clusters(self) -> int:
        return self.levels[-2]

    @property
    def cluster_size(self) -> int:
        """ℓ = P / n_{D-1}."""
        return self.processors // self.clusters

    def block_size(self, depth: int) -> int:
        """Processors under one node of ``depth`` (P / n_depth)."""
        return self.processors // self.levels[depth]

    def min_level(self, size: int) -> int:
        """L_min: D − the deepest depth (≤ D−1) whose blocks hold ``size`` processors."""
        for d in range(self.depth - 1, -1, -1):
            if self.block_size(d) >= size:
                return self.depth - d
        raise InputError(f"a job of {size} processors does not fit on {self.processors}", where="size")

    def level_of(self, lowest: int, highest: int) -> int:
        """L of a processor set from its smallest and largest ids."""
        for d in range(self.depth - 1, -1, -1):
            b = self.block_size(d)
            if lowest // b == highest // b:
                return self.depth - d
        raise AssertionError("the root holds every processor")

    def min_clusters(self, size: int) -> int:
        """⌈size / ℓ⌉: the fewest clusters a job of ``size`` can use."""
        return math.ceil(size / self.cluster_size)

    def to_dict(self) -> dict[str, Any]:
        return {"processors": self.processors, "levels": list(self.levels)}
