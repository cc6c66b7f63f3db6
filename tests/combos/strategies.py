"""Hypothesis strategies for small combos instances satisfying constraint (1)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from coschedopt.combos import CombosInstance, all_combination_masks, combination_masks_up_to, repair_monotone
from coschedopt.combos.generate import random_combos_instance
from coschedopt.combos.instance import membership


def arbitrary_monotone_instance(
    n: int, seed: int, *, max_size: int | None = None, levels: bool = False, solo_speed: bool = False
) -> CombosInstance:
    """Random speeds in (0, 1], made monotone by :func:`repair_monotone` (unlike the paper's
    generator, combinations may be slower than 1 and ties are common with ``levels``)."""
    rng = np.random.default_rng(seed)
    masks = all_combination_masks(n) if max_size is None or max_size >= n else combination_masks_up_to(n, max_size)
    mem = membership(masks, n)
    raw = rng.choice([0.25, 0.5, 0.75, 1.0], mem.shape) if levels else rng.uniform(0.05, 1.0, mem.shape)
    sp = np.where(mem, raw, 0.0)
    sp[np.arange(n), np.searchsorted(masks, 1 << np.arange(n))] = 1.0
    sp = repair_monotone(sp, masks)
    work = rng.uniform(1.0, 200.0, n) if seed % 2 else rng.uniform(100.0, 200.0, n)
    if solo_speed:  # raw units: solo speeds other than 1 (the instance normalises them)
        s = rng.uniform(0.5, 3.0, n)
        sp = sp * s[:, None]
        work = work * s
    return CombosInstance(work, masks, sp, name=f"arbitrary-n{n}-s{seed}")


@st.composite
def combos_instances(draw, min_n: int = 1, max_n: int = 5, sparse: bool = True):
    """The paper's generator (various alpha ranges) or arbitrary monotone speeds; optionally sparse sets."""
    n = draw(st.integers(min_n, max_n))
    seed = draw(st.integers(0, 2**31 - 1))
    max_size = draw(st.one_of(st.none(), st.integers(1, max(1, n - 1)))) if sparse else None
    if draw(st.booleans()):
        lo = draw(st.sampled_from([0.05, 0.25, 0.45, 0.65, 0.85]))
        return random_combos_instance(n, lo, lo + 0.1, seed=seed, max_size=max_size)
    return arbitrary_monotone_instance(
        n, seed, max_size=max_size, levels=draw(st.booleans()), solo_speed=draw(st.booleans())
    )
