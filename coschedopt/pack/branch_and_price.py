"""Method ``branch-and-price``: exact k-in-p pack co-scheduling on the paper's full workloads.

The algorithm, its lower bounds and its design are documented in
:mod:`coschedopt.pack.bnp`; its options in :func:`coschedopt.pack.bnp.solve`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import MethodOptions, Result, method, option
from .bnp import solve
from .schedule import PackSchedule


@dataclass(frozen=True)
class BnpOptions(MethodOptions):
    gap: float = option(0.0, "relative optimality gap to stop at (0: proven optimum)", min=0.0, below=1.0)
    heuristics: bool = option(True, "seed the incumbent with the paper's heuristics")
    max_columns: int = option(400_000, "cap on enumerated columns (memory)", min=0)
    rmp_time: float = option(10.0, "seconds of the restricted-master MIP heuristic (0: none)", min=0.0)
    cut_rounds: int | None = option(None, "rounds of subset-row cuts (none: 10 when k <= 4, else 0)", min=0)
    pack_count_cuts: bool = option(True, "the rounded pack-count inequalities")
    tree: bool = option(True, "branch after the root (off: staged enumeration only)")
    probe_columns: int = option(3000, "column budget of the enumeration probes (0: never)", min=0)
    lns: bool = option(True, "the neighbourhood search re-solving windows of packs")
    lns_workers: int | None = option(
        None, "worker processes of that search (none: 1 on two cores or more)", min=0, max=1
    )
    start: PackSchedule | None = option(None, "a schedule of this instance to start from")
    complete_master: int | None = option(None, "start from every task set when there are at most this many", min=0)
    dominance: bool = option(True, "the dual-optimal inequalities pi_i <= pi_j")


@method("pack", "branch-and-price", exact=True, options=BnpOptions)
def branch_and_price(instance, *, time_limit, seed, verbose, options: BnpOptions) -> Result:
    """Exact: set-covering column generation, pack-count cuts and a branch-and-price tree (:mod:`.bnp`)."""
    return solve(
        instance, time_limit=time_limit, seed=seed, verbose=verbose, **{n: getattr(options, n) for n in options.names()}
    )
