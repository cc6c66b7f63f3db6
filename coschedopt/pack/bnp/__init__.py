"""Exact k-in-p pack co-scheduling by column generation and reduced-cost column enumeration.

The paper (Aupy et al., section 4.3) solves the problem exactly only by enumerating
set partitions or by the ILP of Theorem 4, whose n*n*p binaries and weak relaxation
stop at about n = 10 on 16 processors.  This package solves the paper's full
workloads (65 and 260 tasks) to proven optimality.

Formulation (set covering over packs)
    A column is a set S of at most k tasks with a cost level tau, one of the L
    distinct values t(i, j).  S fits at tau when sum_{i in S} m_i(tau) <= p, where
    m_i(tau) is the least j with t(i, j) <= tau (Eq. (1) makes it well defined);
    the column costs tau, and a set is only ever priced at its cheapest fitting
    level, which is exactly its optimal 1-pack cost (Theorem 3 / Algorithm 1 give
    the same value).  min sum_c tau_c x_c s.t. sum_{c ni i} x_c >= 1, x binary.
    Covering instead of partitioning loses nothing (a subset of a pack fits at the
    same level) and keeps the duals pi >= 0.

Column generation (:mod:`.master`, :mod:`.pricing`)
    The restricted master LP lives in one ``highspy.Highs`` object; new columns
    are appended with ``addCols`` and the LP re-solved warm.  Pricing at level l is
    the cardinality-constrained knapsack V(l) = max {pi(S) : sum m_i(tau_l) <= p,
    |S| <= k}, a numpy DP over (count, capacity) in O(n k p) (O(n p) when the
    count bound cannot bind), after removing k-dominated items.  Since V is
    non-decreasing in tau, a best-first bisection over the levels prunes every
    interval (a, b) with tau_{a+1} - V(b) >= (best reduced cost so far), or with
    V(a) = V(b): only the levels that can improve are solved, and the minimum
    reduced cost it returns is exact.  The seed columns are the singletons and the
    packs of the paper's heuristics (``pack-by-pack-9``, ``pack-approx``,
    ``random-proc-9``, ``random-pack-9``, called through the registry when they are
    registered) re-priced at their optimal levels.

Lower bound (valid at every moment, not only at LP convergence)
    For any pi >= 0 and r >= max_S pi(S)/tau(S) over *all* columns, pi / max(1, r)
    is feasible for the dual of the full covering LP, so

        z_IP >= z_LP >= sum_i pi_i / max(1, r)            (Farley's bound)

    Pricing returns such an r exactly (evaluated levels give V(l)/tau_l, pruned
    intervals the bound V(b)/tau_{a+1}), so the bound is certified by our own
    knapsack DP, never by the LP solver's tolerances; at convergence (r <= 1) it is
    sum pi = z_LP.  With integer data it is rounded up.  Trivial bounds
    max_i t(i, p) and sum_i t(i, 1) / p (Eq. (2): a task's work is at least
    t(i, 1)) are used before the first LP.

Closing the gap: enumeration below the reduced-cost gap, then a MIP
    With the final duals pi, D = sum pi and r_min the (exact) least reduced cost,
    any partition x costs D + sum_{c in x} rc_c; a partition using a column with
    rc > delta therefore costs more than D + delta + (N - 1) min(0, r_min), with N
    the most packs a schedule below the incumbent can have.  So after enumerating
    every column with rc <= delta (a depth-first search with suffix-DP bounds per
    level, restricted to sets whose cheapest level is that level: they contain a
    task whose requirement drops there) and solving the covering MIP over them
    (HiGHS, gap 0, warm-started with the incumbent),

        opt >= min(MIP bound, D + delta + (N - 1) min(0, r_min)),

    which proves optimality as soon as delta reaches incumbent - D.  delta starts
    at 1/64 of that gap and grows 4x per stage, so the (usually tiny) LP-IP gap of
    this formulation is closed with few columns, and a stage that finds the
    optimum early proves it without enumerating up to the initial heuristic's gap.

    Why not Ryan-Foster branch-and-price: "differ" branches add conflict
    constraints to the knapsack, which breaks the level-wise DP and its monotone
    pruning; the enumeration keeps the pricing a plain knapsack, lets HiGHS do the
    branching with its cuts and heuristics on a small set-covering MIP, and gives
    a bound that improves monotonically with delta even when stopped early.  Its
    weakness is a large gap with many near-zero-reduced-cost sets (e.g. many tasks
    with zero dual); ``max_columns`` caps memory and the run then reports the bound
    reached (status ``FEASIBLE`` with the reason in ``Result.message``).

Complexity: per pricing pass O(E n k p) for the E evaluated levels (E << L in
practice); per enumeration stage O(C n) numpy-vectorised search steps for C output
columns plus the MIP.  Memory: the (L, n) level table (int16), the DP tables
(n (k+1) (p+1) floats per level in flight) and the columns (bounded by max_columns).
"""

from .levels import LevelTable
from .solver import solve

__all__ = ["LevelTable", "solve"]
