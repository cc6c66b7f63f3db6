"""Pack instance families (section 6 of the paper), seeded and reproducible.

(being extended: Workload-II/III, measured profiles, Theorem 2 reduction)
"""

from __future__ import annotations

import numpy as np

from ..core import make_rng
from .instance import PackInstance, repair


def random_profiles(rng: np.random.Generator, n: int, p: int) -> np.ndarray:
    """n random profiles on 1..p processors satisfying Eq. (1) and (2).

    Each task draws t(1) in [1, 100), then at every extra processor a factor
    between the two limits of Eq. (1)-(2): t(j+1) = t(j) x u, u in [j/(j+1), 1].
    Integers-valued ``t(1)`` rounding is avoided so ties are rare but possible.
    """
    t = np.empty((n, p))
    t[:, 0] = rng.uniform(1.0, 100.0, n)
    for j in range(1, p):
        low = j / (j + 1)
        t[:, j] = t[:, j - 1] * rng.uniform(low, 1.0, n)
    return repair(t)


def random_pack_instance(n: int, p: int, k: int, *, seed: int | None = 0, integer: bool = False) -> PackInstance:
    """A random instance with n tasks, p processors, packs of at most k tasks.

    ``integer=True`` rounds times to integers (then repairs): many ties, the hard
    case for tie-breaking bugs.
    """
    rng = make_rng(seed)
    t = random_profiles(rng, n, p)
    if integer:
        t = repair(np.maximum(1.0, np.round(t)))
    return PackInstance(t, k, name=f"random-n{n}-p{p}-k{k}-s{seed}", meta={"generator": "random", "seed": seed})
