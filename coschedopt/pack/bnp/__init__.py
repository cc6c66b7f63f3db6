"""Exact k-in-p pack co-scheduling by branch-and-price over pack sets and cost levels.

The paper (Aupy et al., section 4.3) solves the problem exactly only by enumerating
set partitions or by the ILP of Theorem 4, whose n*n*p binaries and weak relaxation
stop at about n = 10 on 16 processors.  This package proves the optimum of the
paper's Workload-II (65 tasks, 16 processors) at every k in about a minute at
most, brings Workload-III (260 tasks, 32 processors) within a certified 0.1 % in
10 minutes at k = 4, 8 and 16 (0.054 / 0.064 / 0.065 % at k = 16 in the latest run,
0.071 / 0.096 / 0.094 % in a second one), solves it at k = 32 (seeds 1 and 2 proven
in 121 and 361 s, seed 0 at its optimum with a gap of 3e-7 after 600 s), and solves
Theorem 2's 3-PARTITION instances with hundreds of tasks and p = B ~ 1000 (measured in ``benchmarks/results/bnp.md``).

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

Column generation (:mod:`.master`, :mod:`.pricing`)
    The restricted master LP lives in one ``highspy.Highs`` object; new columns
    are appended with ``addCols`` and the LP re-solved warm (primal simplex after
    new columns, dual simplex after bound changes).  Pricing at level l is the
    cardinality-constrained knapsack V(l) = max {pi(S) : sum m_i(tau_l) <= p,
    |S| <= k}, a DP over (count, capacity) in O(n k p), batched over up to 64
    levels, per level after removing k-dominated items when a set is wanted
    (compiled by numba in :mod:`.kernels`; the numpy version is the reference).
    Since V is non-decreasing in tau, a best-first bisection over the levels
    prunes every interval that cannot beat the best reduced cost, so only the
    levels that can improve are solved and the minimum reduced cost is exact.
    Wentges dual smoothing damps the degenerate covering LP.  Seed columns: the
    singletons and the packs of the paper's heuristics.

Dual-optimal inequalities (:meth:`.master.CoveringMaster.add_dominance`)
    Where task j needs at least as many processors as task i at every level, i can
    take j's place in any pack, so some optimal dual has pi_i <= pi_j; a column
    e_i - e_j of cost 0 per covering pair of that order (85 % of the task pairs of
    Workload-III are ordered, spanned by ~730 pairs) keeps the LP value and cuts the
    dual space the LP wanders in (Ben Amor, Desrosiers and Valerio de Carvalho,
    Oper. Res. 54(3), 2006).  Workload-III root: 135 -> 48 column generation
    rounds at k = 16 (seed 1, 13.9 -> 6.5 s), 284 -> 49 at k = 32 (seed 0, 27.6 ->
    2.6 s); 300 s of tree without the neighbourhood search: 51 -> 110 nodes, bound
    96 111 -> 96 169 (k = 16, seed 1) and 25 -> 189 nodes, bound 78 550 -> 78 699
    (k = 32, seed 0; both runs at once).  Off with subset-row cuts (replacing j by
    i changes a column's cut coefficients) and in the complete master; in a tree
    node only while j's window lies inside i's.  An integral LP point that covers a
    task through such a column is turned into packs by the same exchange.

Small instances: the complete master (:func:`.solver._solve_complete`)
    With at most 500 task sets of size <= k (n = 14 at k = 3, n = 10 at k = 4),
    the master starts with all of them, each at its cheapest level: its LP is the
    full LP (no pricing) and, since any partition costs sum_i pi_i plus its
    columns' reduced costs, an exact-cover branch and bound over the reduced costs
    (:func:`.solver._cover_search`, Algorithm X order) below the incumbent's gap
    finds the optimum and proves it when it is exhausted.  The paper's heuristics
    are skipped; past its node limit the search hands over to column generation.
    On random instances (p = 16, n = 6-14, k = 2-4, the slowest of 3 seeds, no
    neighbourhood search) this takes 1.7-30 ms against 15-207 ms by column
    generation; a HiGHS MIP over the same columns takes 5 ms to start up alone.

Pack-count cuts (rows whose duals keep the pricing a knapsack)
    N(>= l) = sum_{c : level_c >= l} x_c counts the packs of level >= l.  The tasks
    A_l that cannot finish before tau_l need N(>= l) >= ceil(max(|A_l| / min(k, p),
    sum_{i in A_l} m_i(tau_max) / p)); the LP only implies the fractional value
    (:func:`.solver.pack_count_bounds`).  A row's dual mu adds the same bonus to
    every column at level >= l, so the reduced cost becomes tau_l - B(l) - pi(S)
    with B a step function of the level: the pricing and the Farley bound carry
    over (interval bounds use the maximum of B inside the interval).

Branch-and-price (:mod:`.tree`)
    Best-first over nodes that restrict (a) pack counts, lo <= N(>= l) <= hi, and
    (b) the level window [lo_i, hi_i] of each task's pack.  The LP of the
    synthetic workloads is a "sliding window" over tasks sorted by size: packs of k
    neighbours at many fractional offsets, with fractional pack counts.  Branching
    first on the most fractional N(>= l) (weighted by tau_l) fixes where the
    windows break; when every count is integral, a task spread over packs of
    several levels is split at a level h (hi_i = h | lo_i = h + 1).  Both keep the
    pricing a knapsack per level (a count row is one more bonus step, negative
    under an upper bound; a window removes a task from the levels outside it), so
    the DP, the level pruning (inside runs of levels where no window opens or
    closes) and the Farley bound hold in every node.  Each pack-count row has two
    artificial columns (coefficients -1 and +1, cost above any schedule) so that
    neither an upper bound nor a lower bound that a window leaves without columns
    makes the restricted master infeasible before pricing.  Node-local pack-count
    cuts use the windows (A_l = {i : lo_i >= l}, m_i at hi_i) and enter as rows
    only once the node LP violates them (a count row is dense: all of them at once
    made the LP 3-5x slower).  A node's LP starts from the optimal basis of its
    strong-branching LP (else its parent's), and past 4500 columns a node first
    deletes the master's idle columns of largest reduced cost down to 3000 (a dual
    simplex iteration prices every column: at Workload-III k = 32 it took 0.52 ms
    with 10k columns, 0.18 ms with 3k, and the master held 31k after 1500 s
    without this; at k = 16 the tree processes 26-61 % more nodes in 300 s than
    with 9000 / 6000).  A node is first attacked
    by the reduced-cost enumeration below (restricted to its windows and counts,
    its MIP time-boxed) when its gap has halved since the last failed attempt
    above it.  Ryan-Foster pair branching was not used: "differ" branches add
    conflicts to the knapsack, which breaks the level-wise DP and its monotone
    pruning.

Closing a gap by enumeration (:func:`.solver._enumerate_and_solve`)
    Divide the duals by r >= max (pi(S) - pen(S) + B(l)) / tau_l, so that every
    column has reduced cost rc >= 0 and D (the scaled dual objective) is the
    Farley bound.  Any schedule x costs at least D + sum_{c in x} rc_c, so after
    enumerating every column with rc <= delta (a depth-first search with suffix-DP
    bounds per level) and solving the covering MIP over them (HiGHS, with the
    pack-count rows), opt >= min(MIP bound, D + delta), which proves optimality as
    soon as delta reaches incumbent - D.  Where the pricing's bound on r is loose (with
    subset-row cuts its branch and bound may stop early) r is computed exactly, from
    the columns of reduced cost <= 0 (:func:`.solver._exact_ratio`): at Workload-II
    k = 4 a bound of 1.0075 had put D 597 below the LP, and the proof took 117 080
    columns instead of 362.  At the root with subset-row cuts the
    enumeration is staged (delta grows 8x per stage under ``max_columns``); in
    the tree it is one probe over the node's whole gap under ``probe_columns``.
    An exact-cover search (Algorithm X order) over the enumerated columns finds
    Theorem 2's perfect 3-partitions directly.

Subset-row cuts (default for k <= 4, option ``cut_rounds``)
    Rank-1 subset-row inequalities on task triples, sum_c [|S_c & R| >= 2] x_c <= 1,
    separated from the LP point.  A column then pays sigma_R per cut it hits twice,
    which pricing handles by a best-first branch and bound over the DP.  They close
    most of the LP gap for packs of at most 4 tasks (Workload-II k = 4: proven in
    ~20 s with them, 0.09 % gap after 60 s in the tree without them) and little for
    bigger packs, where their pricing is too slow for the tree.  After each round that raises
    the LP, one enumeration probe (``probe_columns``) tries to close the gap left:
    Workload-II k = 4 seeds 1 / 2 were proven in 13.9 / 25.1 s instead of 53.0 / 38.1 s
    (seed 0's gap needs 9 322 columns after three rounds: 54.0 s instead of 42.3 s).

Primal heuristics
    The paper's heuristics, a local search (move a task to another pack or swap
    two tasks, first improvement, optimal 1-pack costs) on every schedule within
    2 % of the incumbent, an iterated local search at the root (two random swaps
    + local search), a top-down strong dive at the root (fix a column of the
    highest fractional level, chosen among eight by a trial LP, re-price the rest,
    repeat: :func:`.solver._dive`) and, when its cover is not below the incumbent,
    a second one that fixes first a column holding the most demanding task left
    (the one whose cheapest LP column is the highest), restricted-master MIPs (at the root
    and every 25 nodes, at most 15 % of the tree's time), integral node LPs, the
    pack profile of a node LP whose pack counts are all integral (those counts fix
    how many packs sit at each level, so the LP value; a feasibility MIP assigns the
    tasks to those packs: :func:`.tree._profile_cover`, at most 10 % of the tree's
    time) and the enumeration MIPs.  A large neighbourhood search (:mod:`.lns`) frees the tasks
    of a few packs close in cost (adjacent ones, then a pack with one to three of
    the four after it) and re-solves them exactly with this solver: in a worker
    process on its own copy of the incumbent from the tenth second on while the
    tree goes on, the two exchanging their cheaper covers between column-generation
    rounds (default with two cores or more), or, once a run is past a minute,
    between tree nodes within 40 % of the time.

Lower bound (valid at every moment)
    For any duals pi >= 0, sigma >= 0, mu (>= 0 unless the row has an upper bound)
    and r >= max (pi(S) - pen(S) + B(l)) / tau_l over *all* columns, the scaled
    duals are feasible for the dual of the full LP, so z_IP >= z_LP >= dual
    objective / max(1, r) (Farley's bound), certified by our own knapsack DP, not
    the LP solver's tolerances.  The global bound is the least bound of the open
    tree nodes; with integer data it is rounded up.

Where it stops (Workload-III, 260 tasks, p = 32, 600 s, seeds 0-2: ``benchmarks/results/bnp.md``)
    Up to k = 8 the pack-count cuts close most of the LP gap (0.83 % -> 0.14 % of
    the best cost) and the tree reaches <= 0.1 % within 10 minutes.  At k = 16 and
    32 they change nothing (0.74 % -> 0.73 %): packs are full in processors (16
    tasks x 2), so hardly any task is too long for a level even on all 32
    processors.  The gap left is spread over every pack boundary: fixing the
    levels of the best schedule's packs one by one from the most costly (k = 16,
    seed 0, 20 packs), the LP rises from 98 373 to 98 383, 98 599 and 98 785 with
    3, 6 and 10 of them fixed (with all 20 it equals the cost, 98 862, by
    construction: the pack counts at every level fix the cost).  So the tree has to
    find the profile: a count branching moves a child's LP by 5 to 170, and the
    bound rises with the number of nodes the tree gets through.  The same idea,
    fixing packs from the most costly down, is the root's strong dive (78 878 at
    k = 32 seed 0 after 96 s, where a rounding dive found nothing below
    PACK-BY-PACK-9).  Before the dual-optimal inequalities a node took 4-6 s
    (node column generation ~60 % of the main process, strong branching ~25 %),
    600 s gave 105-111 nodes at k = 16 and 33-118 at k = 32, and the gaps were
    0.10 / 0.26 / 0.27 % (k = 16) and 0.27 / 0.08 / 0.22 % (k = 32); 1800 s runs
    still ended at 0.15 % (k = 16 seed 1) and 0.22 % (k = 32 seed 0).  With them,
    the neighbourhood search's windows that skip packs and its worker started at
    10 s (225-228 nodes at k = 16, 96-393 at k = 32), k = 32 is proven at every seed
    (78 699.3 in 451 s, 77 002.3 in 135 s, 72 132.7 in 534 s) and k = 16 ends at
    0.103 / 0.153 / 0.124 % (bounds 98 664 / 96 234 / 86 806, against 98 625 /
    96 168 / 86 689 before them).  At k = 16 seeds 0 and 1 the incumbent limits:
    the best ones any run found, 98 716.1 and 96 314.3 (a 600 s run of the CLI),
    would give 0.053 and 0.083 % against these bounds; which one a run ends at is
    chance (seed 1: 96 314-96 475 over runs of the same code; a rerun of the
    benchmark at 6f0f446 ended at 98 741.9 / 96 382 / 86 952.5, gaps 0.087 / 0.164 /
    0.197 %).  At seed 2 four runs of windows alone (three orders of the windows,
    400-540 s each) ended at 86 912.9-86 913.9, 600 s runs (this code and variants)
    at 86 909-86 958; a longer run of the CLI (stopped at 900 s) went on to 86 892.6
    at 713 s and 86 886.2 at 770 s, both from windows of 96 tasks (the stage of
    twice the tasks), with gaps of 0.089 % at 731 s and 0.068 % at 900 s (bound
    86 827.2): that run needed about two minutes more than the ten.  Runs of the CLI
    to 900 s at seeds 0 and 1 (at ddbc5e2) reached 0.1 % at 868 s (incumbent 98 771.5
    from 331 s on, bound 98 672.9) and at 753 s (96 322.1 / 96 230.8; 96 314.3 at
    769 s): in these runs each seed needed 730-870 s.  The tree's pace differs between
    benchmark runs of the same tree code (2 cores, the search on the second): 153-236
    nodes in 600 s over eight runs (180-189, 176-191, 170-173 and 153-163 in four of
    them, 225-228 in the record).
    The compiled pricing (:mod:`.kernels`: the vectorised DP, a level's best set in one
    kernel, the compiled enumeration) halves the pricing time of a node (0.90 -> 0.45 s
    at seed 2).  Two benchmark runs with it ended at 98 766.0 / 98 665.5 (0.102 %, 231
    nodes), 96 338.7 / 96 233.2 (0.109 %, 230), 86 914.2 / 86 808.2 (0.122 %, 240) at
    394239e and at 98 771.5 / 98 666.3 (0.107 %, 231), 96 459.8 / 96 223.3 (0.245 %,
    220), 86 896.5 / 86 811.2 (0.098 %, 198) at 0816350 (``benchmarks/results/bnp.md``),
    where k = 32 was proven at seeds 1 and 2 (123 s and 412 s) and seed 0 ended at
    78 829.8 / 78 699.3: the bound at the optimum, the incumbent 130 above it (until
    the pack-profile heuristic of :func:`.tree._profile_cover`, below).
    Over these two runs and the one at cb332af the bounds lie within 11 of one another
    per seed, the incumbents up to 121 apart (seed 1: 96 338.7-96 459.8): the incumbent
    decides.  The best ones ever found (98 716.1 / 96 314.3 / 86 886.2) are 0.050 /
    0.094 / 0.086 % above the bounds of the run at 0816350.  Where the time goes (seed 2,
    300 s of tree without the search, profiled before the compiled enumeration): HiGHS
    57 % (the dual simplex of strong branching and of node starts: ~600 iterations of
    0.185 ms, ~110 ms per solve, against 17 ms for a primal re-solve in column
    generation); strong branching 43 % of the tree, node column generation 41 %, the
    enumeration probes 7-9 %.
    The bound creeps: of the 177 open nodes after 600 s, 35 lie within 0.01 % of the
    least bound (86 815.1 in that run, with the worker still started at 60 s),
    165 within 0.1 %, so each node branched adds two children that are barely
    higher.  The search's exchanges with the tree depend on timing, so one run per
    seed does not resolve a 0.05 % change (two runs of the same code, 200 s of tree without the search,
    ended 8 apart at seed 2).  At seed 0 three runs ended at 98 771.5 (one from
    PACK-BY-PACK-9 and the local search, 99 088.3; two with the demanding-task
    second dive, whose cover is 98 954.5 after the local search when run alone), two
    more at 98 772.1; a run of the CLI with ``--seed 1`` (another order of the windows,
    another seed of the MIPs) took another path, 98 772.2 from the restricted-master
    MIP at 119 s, then 98 750.1 from windows at 185 s, and ended at 98 750.1 / 98 660.2
    (0.091 %, 186 nodes).  Re-solved alone from that schedule (240 s each), its 6 and 8 most
    costly packs (96 and 128 tasks) are optimal for their tasks (proven in 12 s and
    47 s), its 11 cheapest (132 tasks, 6 980.8) are within 3.2 of their optimum, and
    packs 5-12 (128 tasks, 20 963.0) stay 56.6 above their bound (20 906.4) with no
    better cover found.  So of the 55.4 that separate it from the best seed-0
    schedule ever found (98 716.1), re-partitions inside the top 8 packs give
    nothing and inside the 11 cheapest at most 3.2; the rest takes exchanges across
    the middle packs or between distant ones, in windows wider than the search's.
    Other neighbourhoods of that schedule hold nothing cheaper either (scratch
    scripts): every pair of packs five or more places apart in level (105 windows,
    all proven); one or two adjacent packs with the four packs that are not full (29
    windows of 36 and 52 tasks, all but one proven); a MIP over the 11 929 distinct columns a
    240 s tree started from it generated, in every run of 4 and of 8 adjacent packs
    (each proven in at most 4.5 s; 6 of the 8 runs of 12 were not proven in 20 s); and a MIP in
    which each pack takes one of nine levels around its own and each task a pack at
    most two places away (proven within 0.005 % in 32 s).  The last one is a weak
    neighbourhood: at seed 2 it took the 60 s incumbent from 87 052.4 to 87 046.1 in
    120 s, where 17 windows of three adjacent packs gain 79.8 in under a minute.
    Tried with them and left out: putting off the branching of a node whose bound
    is no longer the least once solved (it waits in the queue with its bound and
    duals, so strong branching is spent only on nodes that get branched; the
    reported bound is the same function of the nodes branched).  Without the
    search, after 200-300 s it moved the bound by +26..+47 at seed 1, +4 at seed 0
    and -10..-39 at seed 2 (re-solving the node's column generation when it comes
    back, its restricted LP only, or that LP with the stored LP point).  Windows
    alone, 400-540 s from the same 60 s incumbent at k = 16 seeds 1 / 2: retrying
    the time-boxed windows of a stage only after the next stage's new windows
    (96 392 / 86 914, against 96 316-96 360 / 86 913-86 914 with the retries
    first), and windows guided by the root LP (the incumbent's packs that meet one
    LP column, up to 96 tasks, after the runs of adjacent packs: 96 414 / 86 913,
    reaching 86 913 at 181 s instead of 530 s).  Subset-row cuts at the root
    (50 triples) moved the LP by 13 after 35 s of column generation, against the
    440 the tree adds.  Strong branching's re-solves stopped after 50 dual simplex
    iterations (``tree.STRONG_ITERATIONS``, where the runs are listed): 20-54 % more
    nodes at k = 16 and bounds a few units higher, but in six of seven 600 s runs
    worse incumbents from the search, and k = 32 seed 0 no longer proven within
    600 s.  A cap on the node probes that prune nothing (``tree.PROBE_SHRINK``): the
    k = 16 bounds did not move and k = 32 seeds 0 and 2 were no longer proven.
    Capacity cuts "the packs meeting R number at least ceil(|R| / k)" for R the first
    tasks in decreasing t(i, 1), t(i, 2), t(i, p) or cheapest level: the root LP of
    k = 16 seed 2 violates 6 of them (by at most 0.32), which lift the LP over the
    root's pack columns by 26.5 (86 596.1 -> 86 622.6, no pricing; the root LP is
    86 364.6), and none at k = 32 seed 0: not built.
    With the compiled pricing, k = 16, 300 s of tree without the search from the same
    incumbent, each change against the same code run at the same time (pairs of equal
    code end up to about 50 apart in the bound): reduced-cost fixing of the task
    windows (branch ``rcf``: a task's window shrunk to the levels where some column
    holding it has a reduced cost below the node's gap, from a compiled per-level DP),
    seed 2: 90 nodes / bound 86 726 against 110 / 86 742, with the lower ends only
    120 / 86 758 against 121 / 86 780; partial node pricing stopping at 80 columns
    instead of 30 (``solver.NODE_PRICING_ENOUGH``), seed 2: 131 / 86 732 against
    121 / 86 783; strong branching stopped after 50 dual simplex iterations again,
    seed 0: 180 nodes against 105, the bound 2.6 higher.  HiGHS's dual simplex options
    (edge weights, pricing, scaling) did not make strong branching faster; strong
    branching over the 1 500 columns of least reduced cost took 0.61 s per candidate
    instead of 0.82 s with the same choice on seed 2's nodes (a tenth of the tree's
    time at most: not built).  A stage of 64-task windows in the search, 540 s of
    windows alone from the 60 s incumbents: 98 805 / 96 324 against 98 730 / 96 344
    (seeds 0 / 1), noise.  A node's search for a schedule among its columns of reduced
    cost below a 16th of its gap (branch ``primal-probes``: cover search and a 5 s MIP,
    also where the whole-gap probe is skipped, within 10 % of the tree's time), for
    k = 32 seed 0, whose bound reaches the optimum before its incumbent: 209 of 212
    such enumerations overflowed 20 000 columns and the other 3 found nothing (the
    LP is that degenerate); the optimum came from an integral node LP at 556 s.
    Four more primal ideas for that instance, one 600 s run each (its four runs before
    them ended at 78 829.8): plunges started whenever the bound rose by less than 1 % of
    the gap over 25 best-first nodes (branch ``stall-plunges``: 3 such plunges of 40 nodes,
    down to depth 61 without an integral LP; 78 829.8 / 78 699.0); a MIP over a node's own
    columns at depth >= 8 (branch ``node-mip``, stopped at 240 s: 10 MIPs of 2 500-3 800
    columns, 3-10 s each, whose best covers cost 82 549-122 741, three of them proven
    optimal over those columns, where the incumbent was below 78 880: a node's columns
    hold its LP, not a schedule); and RINS
    (Danna, Rothberg and Le Pape, 2005) every 10 best-first nodes, re-solving the tasks of
    the incumbent's packs that the node LP holds no column of x >= 1/2 for (branch
    ``rins``): the LP held 0-2 of the incumbent's 13-15 packs, so RINS became a window
    of up to 128 tasks; one of its 12 windows improved the incumbent (78 877.9 -> 78 841.3
    at 102 s).  In that run the search left 78 829.8 through a window of its own (126
    tasks, 78 806.7 at 393 s) and ended at 78 790.1, while the tree, short of RINS's 10 s
    per window, ended at 193 nodes instead of 341, bound 78 692.7 (gap 0.125 %).  The
    search's windows of three times the tasks as its second stage instead of its last
    (branch ``lns-wide-early``): 78 841.3 / 78 699.3 (0.180 %, 312 nodes), its last
    improvement a 127-task window at 220 s.  Why windows do not reach that optimum (scratch
    script, the 78 829.8 schedule of a 400 s run): its 13 packs cost 27.7 to 40 833.3, and
    the 6 most costly (161 tasks) hold 74 950.2 of it.  Re-solved alone, the five lowest runs
    of 6 adjacent packs were already optimal for their tasks (proven in 0.4-9.4 s; the three
    highest were not proven in 40 s); the 5 most costly packs (133 tasks) gained 22.1 (proven
    in 45 s), the 6 most costly 28.0 (proven in 63 s), and the 7 cheapest (99 tasks, 3 879.7)
    nothing (proven in 8 s): a schedule with that split of the tasks costs at least 78 801.9,
    102.6 above the optimum.  So the optimum splits the tasks differently between the costly
    packs and the cheaper ones, an exchange over nearly every pack: for a window, the whole
    instance.  What found it: a node LP whose pack counts N(>= l) are all integral fixes
    the number of packs at each level, so its value, and a feasibility MIP assigning the
    tasks to those packs (:func:`.tree._profile_cover`) succeeded at every such node of a
    600 s run (0.8-2.1 s each): 78 700.6 at 387 s, the optimum at 421 s.  In the benchmark
    at 36cdf96 seed 0 ended at the optimum (gap 3e-7, the bound 0.03 below it), seeds 1 and
    2 were proven in 140 and 401 s.
    At k = 16 the tree reaches no node whose counts are all integral in 600 s, so the same
    idea runs in the neighbourhood search, from the incumbent: a profile move
    (:func:`.master.solve_profile_neighbourhood`, :mod:`.lns`) lets every task go to any
    pack and every pack move to a level of the latest best-first node LP near its own (or
    empty), once the search's windows of adjacent packs are exhausted.  Unlike the MIP of
    nine levels around each pack above (each task at most two packs away, a weak
    neighbourhood) the tasks are free and the levels are the LP's.  With it k = 16 ends
    within 0.1 % at every seed: 98 724.5 / 96 291.5 / 86 877.6 against bounds of 98 671.7 /
    96 229.9 / 86 820.8 (0.054 / 0.064 / 0.065 %, 231-264 nodes), and 0.071 / 0.096 /
    0.094 % in a second run; the bounds are where they were, the incumbents lower (96 291.5
    and 86 877.6 are the best schedules of seeds 1 and 2 found so far).

Tried before the dual-optimal inequalities, and left out
    At k = 16: branching on the total pack count (the LP is already integral in
    it at no cost: 98372.8 / 98372.9 for N <= 18 / N >= 19), other branching rules
    (bound after 300 s without the search: 98439 with the tau weighting, the
    same with tau^2, 98386 unweighted, 98431 kept away from the node's earlier
    branching levels, 98391 with window branching only), subset-row cuts (the
    first round's column generation had not converged after 170 s), pricing every
    level with a negative reduced cost (59 instead of 152 root rounds but 20k
    columns: the same node rate), and a
    level-aggregated MIP relaxation with integer pack counts (HiGHS: bound 97 065
    after 120 s, below the LP).  Tried at k = 32 and left out: strong branching
    limited to 200 dual simplex iterations per child (11 nodes instead of 8 in
    200 s without the search, but bound 78 488 instead of 78 532), HiGHS pricing
    options for the master (Dantzig, steepest edge, other price strategies: no
    faster root), a dive fixing the column of largest x instead of the most
    costly (80 421 instead of 78 916 after the local search), optimal
    partitions of the tasks sorted by t(i, 1), t(i, 2), t(i, 4) or t(i, p) into
    runs of consecutive packs (a DP: 80 124 at best, the search reaches 78 897),
    the same top-down dive from tree nodes (depth >= 5, within 25 % of the tree's
    time, the node's windows and count rows kept, less the fixed packs: the dive
    from node 6 ended at a cover of 79 036 at seed 0, and of 96 825 at k = 16 seed 1,
    both above the incumbent before the local search; seed 0 ended at 78 829 /
    78 584, the dives' time taken from the tree), and plunges that go on with the
    sibling of a pruned node (seed 0: the only plunge stops on its bound,
    PLUNGE_QUOT, at depth 8, also with PLUNGE_QUOT = 0.9, so nothing changed: 78 825
    / 78 599).

Complexity: per pricing pass O(E n k p) for the E evaluated levels (E << L in
practice); per enumeration O(C n) numpy-vectorised search steps for C output
columns plus a MIP.  Memory: the (L, n) level table (int16), the DP tables and the
columns (bounded by ``max_columns`` in the enumeration).
"""

from .levels import LevelTable
from .solver import solve

__all__ = ["LevelTable", "solve"]
