"""Exact k-in-p pack co-scheduling by column generation and reduced-cost column enumeration.

The paper (Aupy et al., section 4.3) solves the problem exactly only by enumerating
set partitions or by the ILP of Theorem 4, whose n*n*p binaries and weak relaxation
stop at about n = 10 on 16 processors.  This package takes the paper's full
workloads (65 and 260 tasks) to proven optimality or to a certified gap
(measured in ``benchmarks/results/bnp.md``), and Theorem 2's 3-PARTITION
instances with hundreds of tasks and p = B ~ 1000 to their proven optimum.

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
    count bound cannot bind), batched over up to 64 levels per numpy update
    (the weights differ per level: a gather from a -inf padded table), and per
    level after removing k-dominated items when a set is wanted.  Since V is
    non-decreasing in tau, a best-first bisection over the levels prunes every
    interval (a, b) with tau_{a+1} - V(b) >= (best reduced cost so far), or with
    V(a) = V(b): only the levels that can improve are solved, and the minimum
    reduced cost it returns is exact.  Up to 3 disjoint sets per level enter per
    round, and Wentges dual smoothing (centre = duals of the best bound) damps
    the degenerate covering LP.  The seed columns are the singletons and the
    packs of the paper's heuristics (``pack-by-pack-9``, ``pack-approx``,
    ``random-proc-9``, ``random-pack-9``, called through the registry when they are
    registered) re-priced at their optimal levels.

Primal heuristics (our own, never dependent on the paper's)
    Column-generation diving (fix the columns the LP sets to 1 and the largest
    fractional one plus disjoint ones >= 0.6, re-price the uncovered tasks,
    repeat) and a time-boxed HiGHS MIP over the generated columns.

Subset-row cuts (option ``cut_rounds``, default 10)
    The covering LP is weak on the synthetic workloads (0.1-6 % below the optimum,
    odd cycles of packs at 1/2).  Violated rank-1 subset-row inequalities on task
    triples R, sum_c [|S_c & R| >= 2] x_c <= 1 (at most one pack holds two tasks of
    R), are separated from the LP point (50 per round) and added as master rows.
    A column then pays sigma_R >= 0 per cut it hits twice, which the DP cannot
    express: pricing runs the DP with penalties ignored (an upper bound, still
    monotone in tau for the pruning) and, where a level can beat the threshold, a
    best-first branch and bound that splits on two tasks of a paid cut
    ({i out}, {i in, j out}, {i, j in}).  Its node limit only weakens the bound,
    never its validity (the upper values feed the Farley ratio).  The cut phase
    gets at most 40 % of the remaining time.

Lower bound (valid at every moment, not only at LP convergence)
    For any duals pi >= 0 (tasks), sigma >= 0 (cuts) and r >= max_S (pi(S) - pen(S))/tau(S)
    over *all* columns, (pi, sigma) / max(1, r) is feasible for the dual of the
    full LP (covering rows and cuts), so

        z_IP >= z_LP >= (sum_i pi_i - sum_R sigma_R) / max(1, r)     (Farley's bound)

    Pricing returns such an r (exact values at the evaluated levels, upper bounds
    V(b)/tau_{a+1} on pruned intervals), so the bound is certified by our own
    knapsack DP, never by the LP solver's tolerances; at convergence (r <= 1) it is
    the LP value.  With integer data it is rounded up.  Trivial bounds
    max_i t(i, p) and sum_i t(i, 1) / p (Eq. (2): a task's work is at least
    t(i, 1)) are used before the first LP.

Closing the gap: enumeration below the reduced-cost gap, then a MIP
    Divide the final duals by r, so that every column has reduced cost rc >= 0 and
    D = (sum pi - sum sigma) / r is the Farley bound.  Any partition x costs at least
    D + sum_{c in x} rc_c (equality without cuts), so a partition using a column
    with rc > delta costs more than D + delta.  After enumerating every column with
    rc <= delta (a depth-first search with suffix-DP bounds per level, restricted to
    sets whose cheapest level is that level: they contain a task whose requirement
    drops there) and solving the covering MIP over them (HiGHS, gap 0,
    warm-started with the incumbent),

        opt >= min(MIP bound, D + delta),

    which proves optimality as soon as delta reaches incumbent - D.  delta starts
    at 1/4096 of that gap and grows 8x per stage (shrinking instead when a stage
    would pass ``max_columns``), so a small LP-IP gap is closed with few columns,
    and a stage that finds the optimum early proves it without enumerating up to
    the initial heuristic's gap.  Before each MIP, a depth-first exact-cover search
    (Algorithm X order: fewest live columns first) looks for a partition whose
    total reduced cost fits the budget: on Theorem 2's instances, where the
    optimum is a perfect 3-partition of reduced cost 0, it finds it directly.

    Why not Ryan-Foster branch-and-price: "differ" branches add conflict
    constraints to the knapsack, which breaks the level-wise DP and its monotone
    pruning; the enumeration keeps the pricing a knapsack, lets HiGHS do the
    branching with its own cuts and heuristics on a set-covering MIP, and gives a
    bound that improves monotonically with delta even when stopped early.  Its
    weakness is a large gap with many near-zero-reduced-cost sets; the subset-row
    cuts shrink the gap first, and ``max_columns`` caps memory (the run then
    reports the bound reached, with the reason in ``Result.message``).

Complexity: per pricing pass O(E n k p) for the E evaluated levels (E << L in
practice); per enumeration stage O(C n) numpy-vectorised search steps for C output
columns plus the MIP.  Memory: the (L, n) level table (int16), the DP tables
(n (k+1) (p+1) floats per level in flight) and the columns (bounded by max_columns).
"""

from .levels import LevelTable
from .solver import solve

__all__ = ["LevelTable", "solve"]
