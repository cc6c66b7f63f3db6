"""Exact k-in-p pack co-scheduling by branch-and-price over pack sets and cost levels.

The paper (Aupy et al., section 4.3) solves the problem exactly only by enumerating
set partitions or by the ILP of Theorem 4, whose n*n*p binaries and weak relaxation
stop at about n = 10 on 16 processors.  This package proves the optimum of the
paper's Workload-II (65 tasks, 16 processors) at every k, closes most of the gap on
Workload-III (260 tasks, 32 processors) and solves Theorem 2's 3-PARTITION
reductions with hundreds of tasks: ``benchmarks/results/bnp.md`` holds the runs,
``benchmarks/results/bnp-notes.md`` the measurements behind each design choice and
what was tried and left out.

Formulation (set covering over packs)
    A column is a set S of at most k tasks with a cost level tau, one of the L
    distinct values t(i, j).  S fits at tau when sum_{i in S} m_i(tau) <= p, where
    m_i(tau) is the least j with t(i, j) <= tau (Eq. (1) makes it well defined);
    the column costs tau.  A set's cheapest fitting level is its optimal 1-pack
    cost (Theorem 3 / Algorithm 1 give the same value); a set may also enter at a
    higher level (it then counts in more pack-count rows, below).
    min sum_c tau_c x_c s.t. sum_{c ni i} x_c >= 1, x binary.  Covering instead of
    partitioning loses nothing (a subset of a pack fits at the same level) and
    keeps the duals pi >= 0.

Column generation (:mod:`.colgen`, :mod:`.master`, :mod:`.pricing`)
    The restricted master LP lives in one ``highspy.Highs`` object, re-solved warm.
    Pricing at level l is the cardinality-constrained knapsack V(l) = max {pi(S) :
    sum m_i(tau_l) <= p, |S| <= k}, a DP over (count, capacity) in O(n k p)
    (:mod:`.knapsack`, compiled by numba in :mod:`.kernels`); since V is
    non-decreasing in tau, a best-first bisection over the levels solves only the
    levels that can improve and the minimum reduced cost is exact.  Wentges dual
    smoothing damps the degenerate covering LP.  Seed columns: the singletons and the
    packs of the paper's heuristics.  Where task j needs at least as many processors
    as task i at every level, some optimal dual has pi_i <= pi_j: a column e_i - e_j
    of cost 0 per covering pair of that order keeps the LP value and shrinks the dual
    space (dual-optimal inequalities, Ben Amor, Desrosiers and Valerio de Carvalho,
    Oper. Res. 54(3), 2006; :meth:`.master.CoveringMaster.add_dominance`).

Pack-count cuts (rows whose duals keep the pricing a knapsack)
    N(>= l) = sum_{c : level_c >= l} x_c counts the packs of level >= l.  The tasks
    A_l that cannot finish before tau_l need N(>= l) >= ceil(max(|A_l| / min(k, p),
    sum_{i in A_l} m_i(tau_max) / p)); the LP only implies the fractional value
    (:func:`.colgen.pack_count_bounds`).  A row's dual mu adds the same bonus to
    every column at level >= l, so the reduced cost becomes tau_l - B(l) - pi(S)
    with B a step function of the level: the pricing and the Farley bound carry over.
    Subset-row cuts on task triples (default for k <= 4, option ``cut_rounds``) make
    the pricing a branch and bound over the DP; they pay off for small packs only.

Small instances (:func:`.closing.solve_complete`)
    With at most ``complete_master_max`` task sets of size <= k, the master starts
    with all of them: its LP is the full LP and an exact-cover branch and bound over
    the reduced costs finds the optimum and proves it when it is exhausted.

Branch-and-price (:mod:`.tree`, :mod:`.branching`)
    Best-first with plunges over nodes that restrict pack counts (lo <= N(>= l) <=
    hi) and the level window [lo_i, hi_i] of each task's pack; both keep the pricing a
    knapsack per level.  Each node is first attacked by reduced-cost enumeration.
    Ryan-Foster pair branching is not used: its "differ" branches add conflicts to
    the knapsack, which breaks the level-wise DP and its monotone pruning.

Closing a gap by enumeration (:mod:`.closing`, :mod:`.enumeration`)
    With the duals scaled so that every reduced cost is >= 0, any schedule costs at
    least Farley's bound D plus its columns' reduced costs: a MIP over every column
    with reduced cost <= delta proves opt >= min(MIP bound, D + delta).

Primal heuristics (:mod:`.primal`, :mod:`.tree`, :mod:`.lns`)
    The paper's heuristics, a local search on every schedule close to the incumbent
    (:mod:`.local_search`), an iterated local search and top-down strong dives at the
    root (Sadykov et al., INFORMS J. Computing 31(2), 2019), restricted-master MIPs,
    integral node LPs, schedules with the pack profile of a node LP whose pack counts
    are integral, the enumeration MIPs, and a large neighbourhood search re-solving
    windows of packs exactly (in a worker process when the machine has two cores).

Lower bound (valid at every moment)
    For any duals pi >= 0, sigma >= 0, mu (>= 0 unless the row has an upper bound)
    and r >= max (pi(S) - pen(S) + B(l)) / tau_l over *all* columns, the scaled
    duals are feasible for the dual of the full LP, so z_IP >= z_LP >= dual
    objective / max(1, r) (Farley, Oper. Res. 38(5), 1990), certified by our own
    knapsack DP, not the LP solver's tolerances.  The global bound is the least
    bound of the open tree nodes; with integer data it is rounded up.

Options: :class:`.options.BnpOptions`, one frozen object passed to every phase (and to
the search's worker process).  The phases in order: :mod:`.driver`.

Complexity: per pricing pass O(E n k p) for the E evaluated levels (E << L in
practice); per enumeration O(C n) search steps for C output columns plus a MIP.
Memory: the (L, n) level table (int16), the DP tables and the columns (bounded by
``max_columns`` in the enumeration).
"""

from .method import solve
from .options import BnpOptions

__all__ = ["BnpOptions", "solve"]
