"""``enumerate``: the first exact method of section 4.3, as a dynamic program over subsets.

The paper enumerates every partition of the n tasks into packs of at most k tasks,
gives each pack its optimal single-pack cost (Algorithm 1, Theorem 3) and keeps the
cheapest partition.  The same minimum is computed here without listing partitions
twice: with tasks as bits of a mask S,

    f(empty) = 0,   f(S) = min over packs P with lowest(S) in P, P subset of S, |P| <= k
                           of  c(P) + f(S minus P),

where c(P) is the optimal single-pack cost of P.  Requiring P to hold the lowest task
of S visits every partition exactly once.  Complexity: the costs c(P) of all
sum_{s<=k} C(n, s) packs in O(2^n n log(np)) (vectorised binary search on the cost
level), then sum_c C(n, c) sum_{s<k} C(c-1, s) pack/remainder pairs, at most
(3^n - 1) / 2 when k >= n, evaluated with numpy one popcount level at a time.
Memory: three arrays of 2^n entries.
"""

from __future__ import annotations

import math
import sys
from functools import cache

import numpy as np

from ...core import Deadline, MethodRefused, NoOptions, Result, Status, method
from ..instance import PackInstance
from ..schedule import PackSchedule, pack_cost
from ..single_pack import min_processors_single_pack
from .common import one_task_per_pack_schedule, simple_lower_bound

#: largest number of pack/remainder pairs (see :func:`enumerate_work`) ``enumerate`` accepts;
#: measured at 15-25 M pairs per second on a loaded 2-core machine, so the largest accepted
#: instances take 5-10 s and under 350 MB: n = 18 for k >= 6, 19 for k = 5, 20 for k = 4,
#: 21 for k = 3, 22 for k <= 2 (n = 12 takes 0.02 s whatever k).
ENUMERATE_WORK_BUDGET = 2.0e8
#: hard cap on n whatever k: the dynamic program keeps three arrays of 2^n entries (~80 MB at n = 22).
ENUMERATE_HARD_MAX_N = 22
#: number of (row, pack) pairs evaluated per numpy chunk (bounds memory to some 100 MB).
_CHUNK = 1 << 21


@cache
def enumerate_work(n: int, k: int) -> int:
    """Number of (set S, pack P) pairs the dynamic program evaluates for n tasks and packs of <= k tasks.

    sum_{c=1..n} C(n, c) sum_{s=0..min(k, c)-1} C(c-1, s); equals (3^n - 1) / 2 when k >= n.
    """
    return sum(math.comb(n, c) * sum(math.comb(c - 1, s) for s in range(min(k, c))) for c in range(1, n + 1))


def enumerate_max_n(k: int) -> int:
    """Largest n that ``enumerate`` accepts for packs of at most k tasks."""
    n = 1
    while n < ENUMERATE_HARD_MAX_N and enumerate_work(n + 1, min(k, n + 1)) <= ENUMERATE_WORK_BUDGET:
        n += 1
    return n


def _popcounts(n: int) -> np.ndarray:
    """popcount of every mask 0 .. 2^n - 1 (uint8)."""
    pc = np.zeros(1, dtype=np.uint8)
    for _ in range(n):
        pc = np.concatenate([pc, pc + 1])
    return pc


def subset_costs(times: np.ndarray, k: int, deadline: Deadline | None = None) -> np.ndarray | None:
    """c(P) for every mask P of at most k tasks (``inf`` for larger masks, 0 for the empty mask).

    c(P) is the optimal single-pack cost (section 4.2): the least level tau such that
    sum_{i in P} m_i(tau) <= p, with m_i(tau) = 1 + #{j : t(i, j) > tau} the fewest
    processors that bring task i down to tau (times are non-increasing, Eq. 1).  The
    optimum is one of the instance's times, so a binary search over the sorted
    distinct times runs for all masks at once: O(2^n n log(np)).
    Returns ``None`` if ``deadline`` expires.
    """
    n, p = times.shape
    levels = np.unique(times)
    # m[i, l] = processors task i needs to finish within levels[l]; p + 1 means "cannot"
    m = (1 + (times[:, :, None] > levels[None, None, :]).sum(axis=1)).astype(np.int32)
    pc = _popcounts(n)
    masks = np.flatnonzero((pc >= 1) & (pc <= k))
    member = [((masks >> i) & 1).astype(bool) for i in range(n)]
    lo = np.zeros(masks.size, dtype=np.int64)
    hi = np.full(masks.size, levels.size - 1, dtype=np.int64)  # the largest time is feasible: |P| <= k <= p
    while True:
        active = lo < hi
        if not active.any():
            break
        if deadline is not None and deadline.expired():
            return None
        mid = (lo + hi) // 2
        need = np.zeros(masks.size, dtype=np.int32)
        for i in range(n):
            need += np.where(member[i], m[i, mid], 0)
        feasible = need <= p
        hi = np.where(active & feasible, mid, hi)
        lo = np.where(active & ~feasible, mid + 1, lo)
    cost = np.full(1 << n, np.inf)
    cost[0] = 0.0
    cost[masks] = levels[lo]
    return cost


def _partition_dp(cost: np.ndarray, n: int, k: int, deadline: Deadline) -> tuple[np.ndarray, np.ndarray] | None:
    """f(S) and the pack chosen for S, for every mask S (``None`` if the deadline expires).

    Level by level in the popcount c of S: S = low | T with low its lowest bit; the
    candidate packs are low | Q for the submasks Q of T with |Q| <= k - 1, generated
    for a block of rows at once by doubling over the bits of T.
    """
    size = 1 << n
    f = np.full(size, np.inf)
    f[0] = 0.0
    choice = np.zeros(size, dtype=np.int32 if n < 31 else np.int64)
    pc = _popcounts(n)
    bit_values = np.int64(1) << np.arange(n, dtype=np.int64)
    for c in range(1, n + 1):
        rows_all = np.flatnonzero(pc == c).astype(np.int64)
        # columns = submasks Q of T with |Q| <= k - 1, built by doubling over T's bits; the
        # column layout is the same for every row, so only which columns grow is precomputed
        grow, sizes = [], np.zeros(1, dtype=np.int64)
        for _ in range(c - 1):
            grow.append(sizes < k - 1)
            sizes = np.concatenate([sizes, sizes[grow[-1]] + 1])
        ncols = sizes.size
        block = max(1, _CHUNK // ncols)
        for start in range(0, rows_all.size, block):
            if deadline.expired():
                return None
            s = rows_all[start : start + block]
            low = s & -s
            t = s ^ low
            # the c - 1 set bits of each T, as values, in increasing order
            bits = t[:, None] & bit_values[None, :]
            bits = bits[bits != 0].reshape(s.size, c - 1)
            q = np.zeros((s.size, 1), dtype=np.int64)
            for b, g in enumerate(grow):
                q = np.concatenate([q, q[:, g] | bits[:, b : b + 1]], axis=1)
            packs = q | low[:, None]
            vals = cost[packs] + f[t[:, None] ^ q]
            best = vals.argmin(axis=1)
            r = np.arange(s.size)
            f[s] = vals[r, best]
            choice[s] = packs[r, best]
    return f, choice


@method("pack", "enumerate", exact=True)
def solve_enumerate(
    instance: PackInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: NoOptions
) -> Result:
    """Section 4.3, first method: best partition into packs of <= k tasks (subset DP, O(3^n)).

    Every pack gets its optimal single-pack cost; the partition minimising the sum is
    found by the dynamic program over subsets described in the module docstring.
    Refuses (``MethodRefused``) instances above :func:`enumerate_max_n` tasks for their k.
    ``seed`` is unused (deterministic).
    """
    deadline = Deadline(time_limit)
    n, p, k = instance.n, instance.processors, instance.max_pack_size
    k_eff = min(k, n)
    max_n = enumerate_max_n(k)
    if n > max_n:
        raise MethodRefused(
            f"enumerate handles up to {max_n} tasks for k = {k} (here n={n}, k={k}); use branch-and-price or ilp",
            where="method",
        )
    work = enumerate_work(n, k_eff)
    if verbose:
        print(f"[enumerate] n={n} p={p} k={k}: {work} pack/remainder pairs", file=sys.stderr)
    stats: dict = {"pairs": work}
    cost = subset_costs(instance.times, k_eff, deadline)
    dp = None if cost is None else _partition_dp(cost, n, k_eff, deadline)
    if dp is None:
        if verbose:
            print(f"[enumerate] time limit after {deadline.elapsed():.2f}s", file=sys.stderr)
        return Result(
            Status.TIME_LIMIT,
            one_task_per_pack_schedule(instance),
            lower_bound=simple_lower_bound(instance),
            message="time limit reached before the dynamic program finished; returning one task per pack",
            stats=stats,
        )
    f, choice = dp
    packs = []
    rest = (1 << n) - 1
    while rest:
        pack = int(choice[rest])
        tasks = [i for i in range(n) if pack >> i & 1]
        _, sigma = min_processors_single_pack(instance.times[tasks], p)
        packs.append(list(zip(tasks, sigma, strict=True)))
        rest ^= pack
    schedule = PackSchedule.from_indices(instance, packs)
    optimum = pack_cost(instance, schedule)  # = f(all tasks), summed in the validator's order
    stats["dp_optimum"] = float(f[(1 << n) - 1])
    if verbose:
        print(f"[enumerate] optimum {optimum} in {deadline.elapsed():.2f}s", file=sys.stderr)
    return Result(Status.OPTIMAL, schedule, lower_bound=optimum, stats=stats)
