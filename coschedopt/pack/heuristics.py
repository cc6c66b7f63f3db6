"""The seven heuristics of the pack co-scheduling paper (sections 4.4 and 5).

Aupy, Shantharam, Benoit, Robert, Raghavan, *Co-scheduling algorithms for
high-throughput workload execution*:

==================  ==============================================================
``pack-approx``     Algorithm 3 (PACK-APPROX) calling MAKE-PACK(n, p, k, sigma)
``pack-by-pack-1``  PACK-BY-PACK(eps) with eps = 0.5
``pack-by-pack-9``  best of PACK-BY-PACK(eps), eps in {0.1, ..., 0.9}
``random-pack-1``   RANDOM-PACK, one run
``random-pack-9``   RANDOM-PACK, best of 9 runs
``random-proc-1``   RANDOM-PROC, one run
``random-proc-9``   RANDOM-PROC, best of 9 runs
==================  ==============================================================

Every heuristic forms packs, then re-allocates the processors inside each pack
with Algorithm 1 (the optimal 1-pack-schedule, section 4.2), as the paper says
of RANDOM-PACK, RANDOM-PROC and PACK-BY-PACK; we do the same after PACK-APPROX,
which can only lower its cost (the allocation MAKE-PACK used is a feasible
1-pack-schedule of each pack, and Algorithm 1 is optimal), so Theorem 5 still
holds for the returned schedule.  :func:`optimal_allocation_per_pack` runs
Algorithm 1 on all packs at once with numpy and returns exactly what
:func:`~coschedopt.pack.single_pack.optimal_single_pack` returns pack by pack
(same processor counts, ties included; the tests check this).

The building blocks are plain functions on numpy arrays that return packs of
task indices (:func:`make_pack`, :func:`pack_approx_packs`,
:func:`pack_by_pack_packs`, :func:`random_pack_packs`, :func:`random_proc_packs`);
the registered methods wrap them into :class:`~coschedopt.core.Result` objects.
Ties between equally long tasks always go to the lower task index.
"""

from __future__ import annotations

import bisect
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from ..core import Deadline, InputError, MethodOptions, NoOptions, Result, Status, make_rng, method, option
from .instance import PackInstance
from .schedule import PackSchedule
from .single_pack import optimal_single_pack

#: the nine values of eps of PACK-BY-PACK-9 (section 5, "Summary of heuristics")
PACK_BY_PACK_EPS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: relative slack when skipping a PACK-APPROX step on the bound COST_i >= Atot(i)/p (float round-off;
#: the bound itself needs neither Eq. (1) nor Eq. (2): each task of a pack is at most as long as the pack)
_BOUND_RTOL = 1e-12
#: Eq. (2) as PackInstance checks it: work(j+1) >= work(j) (1 - 1e-9); doubled against round-off
_EQ2_SLACK = 2e-9
#: Algorithm 1 runs one heap per pack when (heap steps + this x packs) is at most _SMALL_ALGORITHM1:
#: measured crossover with the batched numpy version (about 90 us of fixed cost)
_SMALL_PACKS_COST = 10
_SMALL_ALGORITHM1 = 80
#: at most this many packs per batched call of Algorithm 1 when allocating several runs
_BATCH_PACKS = 256
#: PACK-APPROX polls its deadline every this many steps
_DEADLINE_POLL = 32

Packs = list[list[int]]


# --------------------------------------------------------------------------------------
# Algorithm 1 on every pack at once
# --------------------------------------------------------------------------------------


def optimal_allocation_per_pack(times: np.ndarray, packs: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 1 (Theorem 3) inside every pack: returns (sigma per task, cost per pack).

    ``times[i, j-1]`` = t(i, j); ``packs`` are disjoint lists of task indices (each
    pack at most p tasks).  Algorithm 1 starts every task of a pack of k_b tasks
    on one processor and hands out the q_b = p - k_b others one at a time to the
    currently longest task.  Because each task's times are non-increasing
    (Eq. 1), the successive choices of its heap are the merge of the k_b sorted
    sequences of candidate increments (value t(i, s) for s = 1, 2, ...), i.e. the
    q_b first pairs (i, s) in the order (non-increasing t(i, s), then position of
    i in the pack, then s) -- exactly the order of the heap of
    :func:`~coschedopt.pack.single_pack.optimal_single_pack`, ties included.  So
    one stable sort of the candidate pairs of all packs gives every pack's
    allocation at once.

    Pairs that cannot be chosen are dropped before sorting: s > q_b (a task
    gets at most q_b more), and values below a lower bound L_b of the pack's
    cost c* (a chosen pair is worth at least the last one chosen, itself at
    least c*): L_b = max(max_i t(i, q_b + 1), sum_i t(i, 1) / p), as a task
    ends on at most q_b + 1 processors and work never decreases (Eq. 2; the
    bound is lowered by the relative slack PackInstance allows on Eq. 2).  By
    Eq. (1) a task's remaining pairs are a prefix s = 1..c_i, so they are
    generated, not masked out of the whole table.  A task alone in its pack
    gets all p processors without sorting.  If a profile rises somewhere
    (PackInstance tolerates Eq. (1) broken by a relative 1e-9), every pack
    falls back to one heap, and so do small cases (a few packs, a few dozen
    heap steps), where numpy's fixed cost dominates.

    ``sigma[i]`` is 0 for a task in no pack.  O(k p) numpy work for the k
    tasks of the packs plus a sort of the N <= sum_b k_b q_b remaining pairs,
    instead of one Python heap per pack.
    """
    members, alloc, costs = _algorithm1_flat(times, packs)
    sigma = np.zeros(times.shape[0], dtype=np.intp)
    sigma[members] = alloc
    return sigma, costs


def _algorithm1_flat(times: np.ndarray, packs: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Algorithm 1 in each pack: (tasks of the packs in order, their processors, cost per pack).

    Packs may come from several co-schedules of the same tasks (a task may
    appear in several packs): each pack is allocated on its own, so several
    runs of a heuristic are allocated in one call.
    """
    n, p = times.shape
    sizes = np.fromiter((len(b) for b in packs), dtype=np.intp, count=len(packs))
    members = np.fromiter(chain.from_iterable(packs), dtype=np.intp, count=int(sizes.sum()))
    if members.size == 0:
        return members, members.copy(), np.zeros(0)
    if sizes.min() < 1 or sizes.max() > p:
        raise ValueError(f"every pack needs 1..p = {p} tasks, got sizes {sizes.min()}..{sizes.max()}")
    if _SMALL_PACKS_COST * len(packs) + p * len(packs) - members.size <= _SMALL_ALGORITHM1:
        return _algorithm1_heap_per_pack(times, packs, members)  # a few heap steps beat numpy's fixed cost
    starts = np.cumsum(sizes) - sizes
    alloc = np.ones(members.size, dtype=np.intp)
    extra = p - sizes  # q_b: the processors Algorithm 1 hands out in each pack
    if p > 1 and extra.any():
        if (times[:, 1:] > times[:, :-1]).any():  # Eq. (1) broken within PackInstance's tolerance
            return _algorithm1_heap_per_pack(times, packs, members)
        pack_of = np.repeat(np.arange(sizes.size), sizes)
        extra_of = extra[pack_of]
        cand = times[members, : p - 1]  # cand[x, s-1] = t(member x, s): the value of its s-th increment
        floor = np.maximum(
            np.maximum.reduceat(times[members, extra_of], starts),
            np.add.reduceat(cand[:, 0], starts) / p * (1 - _EQ2_SLACK * p),
        )
        floor[sizes == 1] = np.inf  # a task alone gets all p processors: nothing to sort
        count = np.minimum((cand >= floor[pack_of][:, None]).sum(axis=1), extra_of)  # c_i
        total = int(count.sum())
        if total:
            rows = np.repeat(np.arange(members.size), count)  # ordered by (pack, position in pack, s)
            cols = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
            by_value = np.argsort(-cand[rows, cols], kind="stable")
            pack_key = pack_of[rows[by_value]]
            if sizes.size < 2**15:
                pack_key = pack_key.astype(np.int16)  # stable sort of 16-bit keys is a radix sort
            by_pack = np.argsort(pack_key, kind="stable")
            order = by_value[by_pack]
            packs_in_order = pack_key[by_pack].astype(np.intp)
            seg_len = np.bincount(packs_in_order, minlength=sizes.size)
            seg_start = np.cumsum(seg_len) - seg_len
            rank = np.arange(total) - seg_start[packs_in_order]
            chosen = order[rank < extra[packs_in_order]]
            alloc += np.bincount(rows[chosen], minlength=members.size)
        alloc[sizes[pack_of] == 1] = p
    return members, alloc, np.maximum.reduceat(times[members, alloc - 1], starts)


def _algorithm1_heap_per_pack(
    times: np.ndarray, packs: Sequence[Sequence[int]], members: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`optimal_single_pack` (Algorithm 1, one heap per pack) on every pack."""
    alloc: list[int] = []
    costs = np.empty(len(packs))
    for b, pack in enumerate(packs):
        costs[b], sigma = optimal_single_pack(times[list(pack)], times.shape[1])
        alloc += sigma
    return members, np.array(alloc, dtype=np.intp), costs


def _schedule(instance: PackInstance, packs: Packs, sigma: np.ndarray) -> PackSchedule:
    sig = sigma.tolist()
    return PackSchedule.from_indices(instance, [[(i, sig[i]) for i in pack] for pack in packs])


# --------------------------------------------------------------------------------------
# Algorithm 2: MAKE-PACK
# --------------------------------------------------------------------------------------


def _first_fit(
    neg: Sequence[float], ids: Sequence[int], sigma: Sequence[int], p: int, k: int, stop_at: float = math.inf
) -> tuple[Packs, float] | None:
    """First fit of tasks already in MAKE-PACK order: task ``ids[x]`` has time ``-neg[x]``.

    Returns (packs, cost), or ``None`` as soon as the cost (the sum of the packs'
    first, longest tasks) reaches ``stop_at``.

    ``first[s]`` is the first pack that may still take a task of s processors:
    packs before it have fewer than s free processors or k tasks, which stays
    true since packs only fill up, so each pointer only moves forward and the
    whole first fit costs O(n + p B) for B packs.
    """
    free: list[int] = []
    count: list[int] = []
    packs: Packs = []
    first = [0] * (p + 1)
    cost = 0.0
    for neg_t, i in zip(neg, ids, strict=True):
        s = sigma[i]
        b = first[s]
        nb = len(free)
        while b < nb and (free[b] < s or count[b] == k):
            b += 1
        first[s] = b
        if b == nb:
            cost -= neg_t
            if cost >= stop_at:
                return None
            free.append(p - s)
            count.append(1)
            packs.append([i])
        else:
            free[b] -= s
            count[b] += 1
            packs[b].append(i)
    return packs, cost


def make_pack(times_at_sigma: Sequence[float] | np.ndarray, sigma: Sequence[int] | np.ndarray, p: int, k: int) -> Packs:
    """Algorithm 2 (MAKE-PACK(n, p, k, sigma)): First Fit Decreasing Height packs for fixed sigma.

    ``times_at_sigma[i]`` = t(i, sigma(i)).  Tasks are taken in non-increasing
    order of t(i, sigma(i)) (ties: lower index first); each goes into the first
    pack (in creation order) with at least sigma(i) free processors and fewer
    than k tasks, else into a new pack.  Returns the packs as lists of task
    indices in placement order, so a pack's first task is its longest and the
    co-schedule's cost is the sum of the first tasks' times.

    O(n log n) for the sort (section 4.4) plus O(n + p B) for the first fit.
    """
    t = np.asarray(times_at_sigma, dtype=float)
    sig = np.asarray(sigma)
    if t.ndim != 1 or sig.shape != t.shape:
        raise InputError(f"times_at_sigma and sigma must be 1-D of the same length, got {t.shape} and {sig.shape}")
    if isinstance(p, bool) or not isinstance(p, int | np.integer) or p < 1:
        raise InputError(f"p must be a positive integer, got {p!r}", where="p")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= p:
        raise InputError(f"k must be an integer with 1 <= k <= p = {p}, got {k!r}", where="k")
    if sig.size and (not np.issubdtype(sig.dtype, np.integer) or sig.min() < 1 or sig.max() > p):
        raise InputError(f"sigma must hold integers in 1..p = {p}", where="sigma")
    ids = np.argsort(-t, kind="stable")
    result = _first_fit((-t[ids]).tolist(), ids.tolist(), sig.tolist(), int(p), int(k))
    assert result is not None
    return result[0]


def _sorted_by_time(first_times: np.ndarray) -> tuple[list[float], list[int]]:
    """The list L of the paper as two parallel lists: -t and task index, by (-t, index)."""
    ids = np.argsort(-first_times, kind="stable")
    return (-first_times[ids]).tolist(), ids.tolist()


def _reinsert(neg: list[float], ids: list[int], neg_t: float, i: int) -> None:
    """Insert task i with time -neg_t into L, after equal times of lower index."""
    pos = bisect.bisect_left(neg, neg_t)
    end = len(neg)
    while pos < end and neg[pos] == neg_t and ids[pos] < i:
        pos += 1
    neg.insert(pos, neg_t)
    ids.insert(pos, i)


# --------------------------------------------------------------------------------------
# Algorithm 3: PACK-APPROX
# --------------------------------------------------------------------------------------


def pack_approx_packs(times: np.ndarray, k: int, *, deadline: Deadline | None = None) -> tuple[Packs, dict[str, Any]]:
    """Algorithm 3 (PACK-APPROX) with MAKE-PACK(n, p, k, sigma) (section 5): packs of the best step.

    sigma(j) = 1 for all j; at each step: Atot = sum_j t(j, sigma(j)) sigma(j),
    T_j* the longest task, COST_i = cost of MAKE-PACK(n, p, k, sigma), keep the
    least; stop when Atot/p > t(j*, sigma(j*)) or sigma(j*) = p, else give one
    more processor to T_j*.  Returns the packs of the first step reaching the
    least COST_i and ``info`` (``cost`` = that COST, ``steps``, ``best_step``,
    ``make_pack_runs``, ``sigma`` of the best step, ``stopped`` = why it stopped).

    Readings of the text: the for-loop bound n(p-1) is replaced by the test
    sigma(j*) = p, which subsumes it (a step where every task has p processors
    stops there) and also covers p = 1, where the for-loop would not run at all;
    ties for T_j* go to the lower index.  The best step is chosen on COST_i as
    printed (before Algorithm 1); the caller then runs Algorithm 1 in the packs
    of that step only.  Theorem 5: 3-approximation when k = p.

    Speed, with the same result as the literal algorithm (the tests compare
    them): tasks are kept sorted across steps (bisect), and a step's MAKE-PACK
    is skipped when it cannot beat the best COST so far -- COST_i >= t_max(i)
    (the first pack) and COST_i >= Atot(i)/p (Lemma 1's proof) -- or stopped
    as soon as its partial cost reaches the best.  A step costs O(n) for the
    re-insertion plus O(n + p B) when MAKE-PACK runs, for at most n(p - 1)
    steps: O(n^2 p + n p^2 B) in the worst case, the paper's "simplest
    version"; its O(n log n + n p) would need MAKE-PACK to be updated between
    steps instead of rerun, which we do not do (on the paper-sized workloads
    the loop stops after a handful of steps).  If ``deadline`` expires, the
    best packs so far are returned with ``stopped = "time_limit"``.
    """
    n, p = times.shape
    time_of = times.item  # time_of(j, s - 1) = t(j, s)
    sigma = [1] * n
    neg, ids = _sorted_by_time(times[:, 0])
    atot = float(times[:, 0].sum())
    best, best_packs, best_step, best_sigma = math.inf, None, 0, sigma[:]
    runs = 0
    step = 0
    stopped = "bound"
    while True:
        j = ids[0]
        t_max = -neg[0]
        if t_max < best and atot / p < best * (1 + _BOUND_RTOL):
            runs += 1
            found = _first_fit(neg, ids, sigma, p, k, best)
            if found is not None and found[1] < best:
                best_packs, best = found
                best_step, best_sigma = step, sigma[:]
        if atot / p > t_max:
            break
        s = sigma[j]
        if s == p:
            stopped = "sigma_is_p"
            break
        if deadline is not None and step % _DEADLINE_POLL == 0 and deadline.expired():
            stopped = "time_limit"
            break
        new_t = time_of(j, s)
        atot += new_t * (s + 1) - t_max * s
        sigma[j] = s + 1
        del neg[0], ids[0]
        _reinsert(neg, ids, -new_t, j)
        step += 1
    assert best_packs is not None  # step 0 always runs MAKE-PACK
    info = {
        "cost": best,
        "steps": step + 1,
        "best_step": best_step,
        "make_pack_runs": runs,
        "stopped": stopped,
        "sigma": best_sigma,
    }
    return best_packs, info


# --------------------------------------------------------------------------------------
# PACK-BY-PACK(eps)
# --------------------------------------------------------------------------------------


def pack_by_pack_packs(times: np.ndarray, k: int, eps: float) -> tuple[Packs, list[int]]:
    """PACK-BY-PACK(eps) (section 5): packs of tasks of similar length, and the sigma they were formed with.

    sigma(i) = 1 for all i, L = tasks by non-increasing t(i, sigma(i)) (ties:
    lower index first).  While L is not empty: T_i* = head(L), t_max = its time,
    Vreq = the tasks of L with t(i, sigma(i)) >= (1 - eps) t_max (a prefix of L,
    T_i* first), preq = their total sigma.

    * preq >= p: a new pack takes the first tasks of Vreq *while* the pack
      stays within p processors and k tasks (we read "while" literally: the
      first task that does not fit ends the pack, later ones are not tried);
      they leave L.  T_i* always goes in (sigma(i*) <= p), and when
      sigma(i*) = p then preq >= p and the pack is T_i* alone, the paper's
      special case.
    * preq < p: sigma(i*) += 1 and T_i* is re-inserted in L by its new time.

    The caller then runs Algorithm 1 in each pack.  A step costs O(log n) for
    the bisections plus O(min(|Vreq|, p)) to compare preq with p (sigma >= 1, so
    at most p tasks are read); at most n(p - 1) increments and n pack steps.
    """
    run = pack_by_pack_runs(times, k, [eps])[0]
    assert run is not None
    return run


def pack_by_pack_runs(
    times: np.ndarray, k: int, eps_values: Sequence[float], *, deadline: Deadline | None = None
) -> list[tuple[Packs, list[int]] | None]:
    """PACK-BY-PACK(eps) for several eps at once: ``[pack_by_pack_packs(times, k, eps) for eps in eps_values]``.

    eps only enters the choice between making a pack (preq >= p) and adding a
    processor (preq < p), and preq grows with eps (Vreq = tasks within
    (1 - eps) t_max of the longest), so at each step the eps values that make a
    pack are the largest ones; the pack itself does not depend on eps (when
    all of Vreq fits, preq = p exactly and the next task cannot fit either).
    So the runs share one state until they disagree, and then the state is
    copied for the smaller eps values (O(n)).  Same results as separate runs
    (the tests check it), the work of the distinct trajectories only: on
    Workload-III eps = 0.5..0.9 are a single run.

    Runs sharing a final state share its packs and sigma lists (the same
    objects).  With a ``deadline``, it is polled each time runs finish; the
    runs not finished when it expires are ``None`` (at least one finishes).
    """
    for eps in eps_values:
        if not 0.0 <= eps <= 1.0:
            raise InputError(f"eps must be in [0, 1], got {eps!r}", where="eps")
    n, p = times.shape
    time_of = times.item
    keeps = [1.0 - eps for eps in eps_values]
    results: list[tuple[Packs, list[int]] | None] = [None] * len(keeps)
    neg, ids = _sorted_by_time(times[:, 0])
    # one entry per trajectory: run indices by increasing eps (so decreasing keep), L, sigma, packs
    stack = [(sorted(range(len(keeps)), key=lambda r: -keeps[r]), neg, ids, [1] * n, [])]

    def preq_reaches_p(neg: list[float], ids: list[int], sigma: list[int], keep: float) -> bool:
        m = bisect.bisect_right(neg, neg[0] * keep)  # |Vreq|: -t <= -(1 - eps) t_max
        if m >= p:  # sigma >= 1
            return True
        preq = 0
        for j in ids[:m]:
            preq += sigma[j]
        return preq >= p

    while stack:
        group, neg, ids, sigma, packs = stack.pop()
        while ids:
            if preq_reaches_p(neg, ids, sigma, keeps[group[0]]):  # even the smallest eps makes a pack
                make = True
            elif len(group) == 1 or not preq_reaches_p(neg, ids, sigma, keeps[group[-1]]):
                make = False
            else:  # the smaller eps add a processor, the larger ones make a pack
                split = next(g for g in range(1, len(group)) if preq_reaches_p(neg, ids, sigma, keeps[group[g]]))
                stack.append((group[:split], neg[:], ids[:], sigma[:], packs[:]))
                group = group[split:]
                make = True
            if make:
                used = c = 0
                limit = min(len(ids), k)
                while c < limit:
                    s = sigma[ids[c]]
                    if used + s > p:
                        break
                    used += s
                    c += 1
                packs.append(ids[:c])
                del neg[:c], ids[:c]
            else:
                i = ids[0]
                s = sigma[i] + 1
                sigma[i] = s
                del neg[0], ids[0]
                _reinsert(neg, ids, -time_of(i, s - 1), i)
        for r in group:
            results[r] = (packs, sigma)
        if deadline is not None and stack and deadline.expired():
            break
    return results


# --------------------------------------------------------------------------------------
# RANDOM-PACK and RANDOM-PROC
# --------------------------------------------------------------------------------------


def random_pack_packs(n: int, k: int, rng: np.random.Generator) -> Packs:
    """RANDOM-PACK (section 5): while tasks remain, draw j uniformly in 1..k and make a pack of j random tasks.

    When fewer than j tasks remain, the last pack takes them all.  Drawn as one
    uniform permutation of the tasks cut into consecutive chunks of the drawn
    sizes, which has the same distribution as picking each pack's j tasks at
    random among the remaining ones.  O(n).
    """
    perm = rng.permutation(n).tolist()
    sizes = rng.integers(1, k + 1, size=n)
    ends = np.cumsum(sizes)
    cut = int(np.searchsorted(ends, n))  # chunks 0..cut, the last one clipped to n
    bounds = [0, *ends[:cut].tolist(), n]
    return [perm[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def random_proc_packs(times: np.ndarray, k: int, rng: np.random.Generator) -> tuple[Packs, np.ndarray]:
    """RANDOM-PROC (section 5): sigma(i) uniform in 1..p, then MAKE-PACK (Algorithm 2).

    Returns the packs and the drawn sigma; the caller runs Algorithm 1 in each pack.
    O(n log n + p B).
    """
    n, p = times.shape
    sigma = rng.integers(1, p + 1, size=n)
    return make_pack(times[np.arange(n), sigma - 1], sigma, p, k), sigma


# --------------------------------------------------------------------------------------
# registered methods
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EpsOptions(MethodOptions):
    eps: float = option(
        0.5, "PACK-BY-PACK(eps): a pack takes the tasks within (1 - eps) of its longest", min=0.0, max=1.0
    )


@dataclass(frozen=True)
class EpsValuesOptions(MethodOptions):
    eps_values: tuple[float, ...] = option(PACK_BY_PACK_EPS, "the epsilons tried, best run kept", min=0.0, max=1.0)


@dataclass(frozen=True)
class RunsOptions(MethodOptions):
    runs: int = option(9, "number of random runs, best kept (one seeded stream)", min=1)


def _log(verbose: bool, msg: str) -> None:
    if verbose:
        print(msg, file=sys.stderr)


def _finish(
    instance: PackInstance, packs: Packs, *, status: Status = Status.FEASIBLE, **stats: Any
) -> tuple[Result, float]:
    """Algorithm 1 in each pack, then the Result and its cost."""
    sigma, costs = optimal_allocation_per_pack(instance.times, packs)
    cost = float(costs.sum())
    stats = {"packs": len(packs), **stats}
    return Result(status, schedule=_schedule(instance, packs, sigma), lower_bound=None, stats=stats), cost


def _best_packing(instance: PackInstance, packings: Sequence[Packs]) -> tuple[int, np.ndarray, list[float]]:
    """Algorithm 1 in every pack of every packing: (first cheapest packing, its sigma, every packing's cost).

    Packings are allocated together, up to :data:`_BATCH_PACKS` packs per
    numpy call: one call has a fixed cost that dominates for a few large packs
    (PACK-BY-PACK, RANDOM-PACK with a large k), while very large calls (many
    small packs, RANDOM-PROC) were measured slower than several smaller ones.
    A packing's cost is summed like :func:`~coschedopt.pack.schedule.pack_cost`
    does (numpy sum of its pack costs in order), so the choice agrees with the
    recomputed objective.
    """
    costs: list[float] = []
    best, best_cost, best_sigma = 0, math.inf, None
    first = 0
    while first < len(packings):
        last, count = first + 1, len(packings[first])
        while last < len(packings) and count + len(packings[last]) <= _BATCH_PACKS:
            count += len(packings[last])
            last += 1
        batch = packings[first:last]
        members, alloc, pack_costs = _algorithm1_flat(instance.times, [pack for packing in batch for pack in packing])
        pack_bounds = np.cumsum([0, *(len(packing) for packing in batch)])
        member_bounds = np.cumsum([0, *(len(pack) for packing in batch for pack in packing)])[pack_bounds]
        for r in range(len(batch)):
            cost = float(pack_costs[pack_bounds[r] : pack_bounds[r + 1]].sum())
            costs.append(cost)
            if cost < best_cost:
                lo, hi = member_bounds[r], member_bounds[r + 1]
                best, best_cost = first + r, cost
                best_sigma = np.zeros(instance.n, dtype=np.intp)
                best_sigma[members[lo:hi]] = alloc[lo:hi]
        first = last
    assert best_sigma is not None
    return best, best_sigma, costs


def _best_of_runs(
    instance: PackInstance,
    runs: int,
    make_packs: Callable[[], Packs],
    deadline: Deadline,
    verbose: bool,
    label: str,
) -> Result:
    """Draw ``runs`` packings with ``make_packs()``, Algorithm 1 in each pack, keep the first cheapest.

    The packings are drawn first (the deadline is polled between them), then
    allocated in one batched call of Algorithm 1.
    """
    packings: list[Packs] = []
    for r in range(runs):
        if r and deadline.expired():
            break
        packings.append(make_packs())
    best, sigma, costs = _best_packing(instance, packings)
    if verbose:
        for r, (packs, cost) in enumerate(zip(packings, costs, strict=True)):
            _log(verbose, f"{label}: run {r}: {len(packs)} packs, cost {cost:.6g}")
    status = Status.FEASIBLE if len(packings) == runs else Status.TIME_LIMIT
    stats = {"packs": len(packings[best]), "runs": len(packings), "best_run": best}
    return Result(status, schedule=_schedule(instance, packings[best], sigma), lower_bound=None, stats=stats)


@method("pack", "pack-approx", exact=False)
def pack_approx(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: NoOptions,
) -> Result:
    """PACK-APPROX (Algorithm 3 with MAKE-PACK(n, p, k, sigma)), then Algorithm 1 per pack; 3-approx. when k = p.

    Deterministic (``seed`` is ignored).  ``stats``: ``algorithm3_cost`` (the
    COST of Algorithm 3, before Algorithm 1), ``steps``, ``best_step``,
    ``make_pack_runs``, ``stopped``.  Stops with ``TIME_LIMIT`` and the best
    packs so far if the time limit expires.
    """
    deadline = Deadline(time_limit)
    packs, info = pack_approx_packs(instance.times, instance.k, deadline=deadline)
    status = Status.TIME_LIMIT if info["stopped"] == "time_limit" else Status.FEASIBLE
    res, cost = _finish(
        instance,
        packs,
        status=status,
        algorithm3_cost=info["cost"],
        steps=info["steps"],
        best_step=info["best_step"],
        make_pack_runs=info["make_pack_runs"],
        stopped=info["stopped"],
    )
    _log(verbose, f"pack-approx: {info['steps']} steps, COST {info['cost']:.6g}, after Algorithm 1 {cost:.6g}")
    return res


def _pack_by_pack_cost_before_algorithm1(times: np.ndarray, packs: Packs, sigma: list[int]) -> float:
    return float(sum(max(times[i, sigma[i] - 1] for i in pack) for pack in packs))


@method("pack", "pack-by-pack-1", exact=False, options=EpsOptions)
def pack_by_pack_1(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: EpsOptions,
) -> Result:
    """PACK-BY-PACK(eps), one run with eps = 0.5 (option ``eps``), then Algorithm 1 per pack.

    Deterministic (``seed`` is ignored).  ``stats["cost_before_algorithm1"]`` is
    the cost with the sigma the packs were formed with.
    """
    eps = options.eps
    packs, sigma = pack_by_pack_packs(instance.times, instance.k, float(eps))
    res, cost = _finish(
        instance,
        packs,
        eps=float(eps),
        cost_before_algorithm1=_pack_by_pack_cost_before_algorithm1(instance.times, packs, sigma),
    )
    _log(verbose, f"pack-by-pack-1: eps {eps}: {len(packs)} packs, cost {cost:.6g}")
    return res


@method("pack", "pack-by-pack-9", exact=False, options=EpsValuesOptions)
def pack_by_pack_9(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: EpsValuesOptions,
) -> Result:
    """PACK-BY-PACK(eps) for eps = 0.1, 0.2, ..., 0.9 (option ``eps_values``), Algorithm 1 per pack, best run.

    Ties keep the first eps.  ``stats["eps"]`` is the eps of the returned
    schedule; with a time limit, the eps values not reached are skipped
    (status ``TIME_LIMIT``).
    """
    values = list(options.eps_values)
    if not values:
        raise InputError("eps_values must be a non-empty list of numbers in [0, 1], got []", where="eps_values")
    runs = pack_by_pack_runs(instance.times, instance.k, [float(e) for e in values], deadline=Deadline(time_limit))
    distinct: dict[tuple, int] = {}  # eps values often give the same packs: allocate each packing once
    packings: list[Packs] = []
    run_of: list[int] = []  # run r -> its packing
    done = [r for r, run in enumerate(runs) if run is not None]
    for r in done:
        packs = runs[r][0]  # type: ignore[index]
        key = tuple(map(tuple, packs))
        if key not in distinct:
            distinct[key] = len(packings)
            packings.append(packs)
        run_of.append(distinct[key])
    best, sigma, costs = _best_packing(instance, packings)
    best_run = done[run_of.index(best)]  # the first eps reaching the least cost
    if verbose:
        for r, d in zip(done, run_of, strict=True):
            _log(verbose, f"pack-by-pack-9: eps {values[r]}: {len(packings[d])} packs, cost {costs[d]:.6g}")
    status = Status.FEASIBLE if len(done) == len(runs) else Status.TIME_LIMIT
    stats = {"packs": len(packings[best]), "runs": len(done), "best_run": best_run, "distinct_packings": len(packings)}
    res = Result(status, schedule=_schedule(instance, packings[best], sigma), lower_bound=None, stats=stats)
    res.stats["eps"] = float(values[res.stats["best_run"]])
    return res


@method("pack", "random-pack-1", exact=False)
def random_pack_1(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: NoOptions,
) -> Result:
    """RANDOM-PACK, one run: random pack sizes in 1..k filled with random tasks, Algorithm 1 per pack.

    Seeded with ``make_rng(seed)``; the run is the first run of ``random-pack-9``
    with the same seed.
    """
    return _random_pack(instance, 1, time_limit, seed, verbose, "random-pack-1")


@method("pack", "random-pack-9", exact=False, options=RunsOptions)
def random_pack_9(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: RunsOptions,
) -> Result:
    """RANDOM-PACK, best of 9 runs (option ``runs``) drawn from one ``make_rng(seed)`` stream.

    Its first run is ``random-pack-1`` with the same seed, so it is never worse.
    """
    runs = options.runs
    return _random_pack(instance, runs, time_limit, seed, verbose, "random-pack-9")


def _random_pack(
    instance: PackInstance, runs: int, time_limit: float | None, seed: int | None, verbose: bool, label: str
) -> Result:
    rng = make_rng(seed)
    return _best_of_runs(
        instance, runs, lambda: random_pack_packs(instance.n, instance.k, rng), Deadline(time_limit), verbose, label
    )


@method("pack", "random-proc-1", exact=False)
def random_proc_1(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: NoOptions,
) -> Result:
    """RANDOM-PROC, one run: sigma(i) uniform in 1..p, MAKE-PACK, Algorithm 1 per pack.

    Seeded with ``make_rng(seed)``; the run is the first run of ``random-proc-9``
    with the same seed.
    """
    return _random_proc(instance, 1, time_limit, seed, verbose, "random-proc-1")


@method("pack", "random-proc-9", exact=False, options=RunsOptions)
def random_proc_9(
    instance: PackInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    options: RunsOptions,
) -> Result:
    """RANDOM-PROC, best of 9 runs (option ``runs``) drawn from one ``make_rng(seed)`` stream.

    Its first run is ``random-proc-1`` with the same seed, so it is never worse.
    """
    runs = options.runs
    return _random_proc(instance, runs, time_limit, seed, verbose, "random-proc-9")


def _random_proc(
    instance: PackInstance, runs: int, time_limit: float | None, seed: int | None, verbose: bool, label: str
) -> Result:
    rng = make_rng(seed)
    return _best_of_runs(
        instance,
        runs,
        lambda: random_proc_packs(instance.times, instance.k, rng)[0],
        Deadline(time_limit),
        verbose,
        label,
    )


#: the seven heuristics of section 5, in the order of the paper's Table 1
HEURISTICS = (
    "pack-approx",
    "pack-by-pack-1",
    "pack-by-pack-9",
    "random-pack-1",
    "random-pack-9",
    "random-proc-1",
    "random-proc-9",
)

#: the registered functions by method name (call them directly to skip ``solve``'s re-validation)
HEURISTIC_FUNCTIONS: dict[str, Callable[..., Result]] = {
    "pack-approx": pack_approx,
    "pack-by-pack-1": pack_by_pack_1,
    "pack-by-pack-9": pack_by_pack_9,
    "random-pack-1": random_pack_1,
    "random-pack-9": random_pack_9,
    "random-proc-1": random_proc_1,
    "random-proc-9": random_proc_9,
}
