"""Method ``branch-and-price``: exact k-in-p pack co-scheduling on the paper's full workloads.

The algorithm, its lower bounds and its design are documented in
:mod:`coschedopt.pack.bnp`.
"""

from __future__ import annotations

from ..core import Result, method
from .bnp import solve as _solve
from .instance import PackInstance


@method("pack", "branch-and-price", exact=True)
def branch_and_price(
    instance: PackInstance,
    *,
    time_limit: float | None = None,
    seed: int | None = None,
    verbose: bool = False,
    gap: float = 0.0,
    heuristics: bool = True,
    max_columns: int = 400_000,
    rmp_time: float = 10.0,
    cut_rounds: int | None = None,
    pack_count_cuts: bool = True,
    tree: bool = True,
    probe_columns: int = 3000,
) -> Result:
    """Exact: set-covering column generation (knapsack pricing per cost level), pack-count
    cuts, then a branch-and-price tree over the tasks' level windows whose nodes close by
    reduced-cost column enumeration and a MIP.

    Options: ``gap`` relative optimality gap to stop at (default 0: proven optimum);
    ``heuristics`` seed the incumbent with the paper's registered heuristics;
    ``max_columns`` cap on enumerated columns (memory); ``rmp_time`` seconds for
    the restricted-master MIP heuristic; ``cut_rounds`` rounds of subset-row cuts
    (default: 10 when k <= 4, else 0; with cuts the gap is first attacked by the
    staged enumeration, then by the tree); ``pack_count_cuts`` the rounded
    pack-count inequalities (default on); ``tree`` branch after the root (default
    on; off: staged enumeration only); ``probe_columns`` column budget of the
    enumeration tried over a whole gap at the root and in the nodes (0: never).
    Returns the best schedule, a certified lower bound and ``TIME_LIMIT`` when
    ``time_limit`` stops it.
    """
    return _solve(
        instance,
        time_limit=time_limit,
        seed=seed,
        verbose=verbose,
        gap=gap,
        heuristics=heuristics,
        max_columns=max_columns,
        rmp_time=rmp_time,
        cut_rounds=cut_rounds,
        pack_count_cuts=pack_count_cuts,
        tree=tree,
        probe_columns=probe_columns,
    )
