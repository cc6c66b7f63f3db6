"""Exact methods for k-in-p pack co-scheduling (Aupy et al., sections 4.1 and 4.3).

Importing this package registers, under family ``pack``:

* ``ilp`` -- the integer linear program of Theorem 4, declared in Pyomo, solved by HiGHS
  (:mod:`.ilp`);
* ``ilp-cbc`` -- the same program through an independent path, PuLP and CBC (:mod:`.ilp`);
* ``enumerate`` -- the first method of section 4.3 (all partitions into packs of at most k
  tasks, each pack at its optimal single-pack cost), as a dynamic program over subsets
  (:mod:`.subset_dp`);
* ``matching`` -- Theorem 1: k = 1 directly, k = 2 as a minimum-weight perfect matching
  (:mod:`.matching`);
* ``branch-and-price`` -- column generation over packs, one module per phase (:mod:`.bnp`).
"""

from . import bnp, ilp, matching, subset_dp  # noqa: F401  (register the methods)
from .common import one_task_per_pack_schedule, simple_lower_bound
from .ilp import build_theorem4_model, build_theorem4_pulp
from .matching import pair_costs
from .subset_dp import ENUMERATE_WORK_BUDGET, enumerate_max_n, enumerate_work, subset_costs

__all__ = [
    "ENUMERATE_WORK_BUDGET",
    "build_theorem4_model",
    "build_theorem4_pulp",
    "enumerate_max_n",
    "enumerate_work",
    "one_task_per_pack_schedule",
    "pair_costs",
    "simple_lower_bound",
    "subset_costs",
]
