"""Hypothesis strategies for small CPU/GPU instances (integer times, many ties, the edge cases)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from coschedopt.hybrid import HybridInstance


@st.composite
def hybrid_instances(draw, max_n: int = 7, max_m: int = 3, max_k: int = 3, max_time: int = 30, min_n: int = 1):
    """m CPUs, k GPUs (one of them possibly 0), n tasks with integer times; a fifth have one ratio for all
    tasks (the SWDUAL throughput model: every tie decided by the tie rule), some a task far faster on one side."""
    m = draw(st.integers(0, max_m))
    k = draw(st.integers(0 if m else 1, max_k))
    n = draw(st.integers(min_n, max_n))
    cpu = draw(st.lists(st.integers(1, max_time), min_size=n, max_size=n))
    shape = draw(st.sampled_from(["random", "random", "random", "equal-ratio", "extreme"]))
    if shape == "equal-ratio":
        factor = draw(st.sampled_from([1, 2, 3]))
        gpu = list(cpu)
        cpu = [c * factor for c in cpu]
    else:
        gpu = draw(st.lists(st.integers(1, max_time), min_size=n, max_size=n))
        if shape == "extreme":
            j = draw(st.integers(0, n - 1))
            cpu[j] = max_time * 20 if draw(st.booleans()) else cpu[j]
            gpu[j] = 1 if cpu[j] > max_time else max_time * 20
    return HybridInstance(np.array(cpu, float), np.array(gpu, float), m, k, name="hyp")
