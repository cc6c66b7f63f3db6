"""Randomness only through an explicit seed: same seed, same output."""

from __future__ import annotations

import numpy as np


def make_rng(seed: int | None) -> np.random.Generator:
    """A numpy Generator for ``seed`` (``None`` means seed 0, so runs stay reproducible)."""
    return np.random.default_rng(0 if seed is None else seed)
