"""Hypothesis strategies for small pack instances satisfying Eq. (1) and (2)."""

from __future__ import annotations

from hypothesis import strategies as st

from coschedopt.pack.generate import random_pack_instance


@st.composite
def pack_instances(draw, max_n: int = 6, max_p: int = 6, min_n: int = 1, k: int | None = None, min_p: int = 1):
    """A random valid instance; about a third have integer times (many ties)."""
    p = draw(st.integers(min_p, max_p))
    n = draw(st.integers(min_n, max_n))
    kk = k if k is not None else draw(st.integers(1, p))
    kk = min(kk, p)
    seed = draw(st.integers(0, 2**31 - 1))
    integer = draw(st.booleans()) and draw(st.booleans())
    return random_pack_instance(n, p, kk, seed=seed, integer=integer)
