"""Method ``branch-and-price``: exact k-in-p pack co-scheduling on the paper's full workloads.

The algorithm, its lower bounds and its design are documented in
:mod:`coschedopt.pack.bnp`; its options in :func:`coschedopt.pack.bnp.solve`.
"""

from __future__ import annotations

from ..core import method
from .bnp import solve

branch_and_price = method("pack", "branch-and-price", exact=True)(solve)
