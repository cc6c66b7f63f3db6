"""Online search strategies (section 4): FCS when speeds are unknown until measured.

Speeds are revealed only for a combination that has run for ``measure_time`` time units
(default 10, as in the paper's simulations; noise-free, the paper's assumption).  Each
iteration scores every allowed combination of unfinished tasks with an acquisition
function and runs the best one:

* a combination whose speed is known (measured, or pinned by its bounds) runs until one
  of its tasks completes, as FCS would;
* any other runs for ``measure_time`` (less if a task completes first) and is then known.

This repeats until all work is done, so the schedule always completes every task.

Bounds and estimates (section 4.1), for T_i in an unknown S_j:

* upper bound a(i, S_p) from the known sub-combinations S_p of S_j containing T_i with the
  most tasks, and among those the smallest value (narrowest interval);
* lower bound a(i, S_q) from the known super-combinations S_q with the fewest tasks, and
  among those the largest value;
* linear interpolation in the combination size between the two points gives the mean
  a~(i, S_j); Delta = min(upper - mean, mean - lower); sigma = Delta / Phi^-1(k) (eq. 6);
  a~_j = sum_i a~(i, S_j), sigma_j^2 = sum_i sigma(i, S_j)^2.

Two virtual points make the rule total (our reading, the paper leaves it open): the solo
run {T_i} has speed 1 (the normalisation, so singletons are known at no cost) and an
(n+1)-task combination has speed 0 (every speed is positive).

Acquisition (section 4.2), a^+ = the largest mean a~_j among the candidates of the
current iteration (our reading of "the estimated maximum value from the previous
iteration": estimates after the previous iteration's measurement):

* PI_j  = Phi((a~_j - a^+) / sigma_j); 1 or 0 when sigma_j = 0 (a~_j >= a^+ or not);
* EI_j  = (a~_j - a^+) Phi(z) + sigma_j phi(z), z = (a~_j - a^+) / sigma_j; a~_j - a^+ when sigma_j = 0;
* UCB_j = a~_j + sigma_j.

Ties (equal scores, common at the start where all combinations of one size look alike)
are broken uniformly at random with the ``seed``: same seed, same schedule.

Each iteration costs O(n m) numpy work; there are at most m + n iterations (every
iteration measures a new combination or completes a task).
"""

from __future__ import annotations

import math
import sys
from statistics import NormalDist
from typing import Any

import numpy as np

from ..core import Deadline, InputError, Result, Status, make_rng, method
from .instance import CombosInstance, membership
from .metrics import trivial_lower_bound
from .schedule import CombosSchedule

ACQUISITIONS = ("pi", "ei", "ucb")

#: a task whose remaining work is below this fraction of b_i is finished (round-off)
DONE_RTOL = 1e-12

_erfc = np.frompyfunc(math.erfc, 1, 1)


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """Phi(z) = erfc(-z / sqrt 2) / 2, standard normal CDF, exact to double precision via erfc."""
    return 0.5 * _erfc(-np.asarray(z, dtype=float) / math.sqrt(2.0)).astype(float)


def normal_pdf(z: np.ndarray) -> np.ndarray:
    z = np.asarray(z, dtype=float)
    return np.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi)


def acquisition_values(kind: str, mean: np.ndarray, sigma: np.ndarray, best: float) -> np.ndarray:
    """PI / EI / UCB of section 4.2 for combination means ``mean`` and deviations ``sigma``, a^+ = ``best``."""
    d = mean - best
    pos = sigma > 0
    safe = np.where(pos, sigma, 1.0)
    z = d / safe
    if kind == "pi":
        return np.where(pos, normal_cdf(z), np.where(d >= -1e-12 * max(abs(best), 1.0), 1.0, 0.0))
    if kind == "ei":
        return np.where(pos, d * normal_cdf(z) + sigma * normal_pdf(z), d)
    if kind == "ucb":
        return mean + sigma
    raise InputError(f"unknown acquisition {kind!r}; known: {', '.join(ACQUISITIONS)}", where="acquisition")


class SpeedBounds:
    """The interpolation state of section 4.1 for all combinations, updated per measurement.

    Arrays of shape (n, m), meaningful where task i is in combination j:
    ``p_size``/``p_val`` the nearest known sub-combination (largest, then smallest value),
    ``q_size``/``q_val`` the nearest known super-combination (smallest, then largest value).
    ``mean``/``sigma`` (m,) hold a~_j and sigma_j, recomputed only for the combinations a
    measurement touches (its sub- and super-combinations).
    """

    def __init__(self, instance: CombosInstance, z_k: float) -> None:
        n, m = instance.n, instance.m
        self.instance = instance
        self.z_k = z_k
        self.member = membership(instance.masks, n)
        self.sizes = instance.sizes
        self.known = np.zeros(m, dtype=bool)
        self.p_size = np.ones((n, m), dtype=np.int64)  # virtual point: {T_i}, speed 1
        self.p_val = np.ones((n, m))
        self.q_size = np.full((n, m), n + 1, dtype=np.int64)  # virtual point: n + 1 tasks, speed 0
        self.q_val = np.zeros((n, m))
        self.known[self.sizes == 1] = True
        self.mean = np.zeros(m)
        self.sigma = np.zeros(m)
        self._refresh(np.arange(m))

    def _refresh(self, cols: np.ndarray) -> None:
        """Recompute a~_j and sigma_j of ``cols`` from the bounds (eq. 6). O(n len(cols))."""
        inst = self.instance
        mem = self.member[:, cols]
        ps, pv = self.p_size[:, cols], self.p_val[:, cols]
        qs, qv = self.q_size[:, cols], self.q_val[:, cols]
        size = self.sizes[cols][None, :]
        est = qv + (pv - qv) / (ps - qs) * (size - qs)
        delta = np.maximum(np.minimum(pv - est, est - qv), 0.0)
        known = self.known[cols]
        self.mean[cols] = np.where(known, inst.combination_speed[cols], np.where(mem, est, 0.0).sum(axis=0))
        sig = np.sqrt(np.where(mem, (delta / self.z_k) ** 2, 0.0).sum(axis=0))
        self.sigma[cols] = np.where(known, 0.0, sig)

    def learn(self, j: int) -> None:
        """Combination j has been measured: reveal its speeds and tighten its neighbours' bounds.

        O(m) to find the neighbours, O(n x neighbours) to update them.
        """
        inst = self.instance
        self.known[j] = True
        c = np.int64(inst.masks[j])
        s = int(self.sizes[j])
        masks = inst.masks
        rows = self.member[:, j][:, None]
        vals = inst.a[:, j][:, None]
        # super-combinations of S_j: S_j becomes their nearest known sub-combination for the tasks of S_j
        sup = np.flatnonzero(((masks & c) == c) & ~self.known)
        if sup.size:
            ps, pv = self.p_size[:, sup], self.p_val[:, sup]
            better = rows & (s > ps)
            tie = rows & (s == ps)
            self.p_val[:, sup] = np.where(better, vals, np.where(tie, np.minimum(pv, vals), pv))
            self.p_size[:, sup] = np.where(better, s, ps)
        # sub-combinations of S_j: S_j becomes their nearest known super-combination
        sub = np.flatnonzero(((masks & ~c) == 0) & ~self.known)
        if sub.size:
            qs, qv = self.q_size[:, sub], self.q_val[:, sub]
            better = rows & (s < qs)
            tie = rows & (s == qs)
            self.q_val[:, sub] = np.where(better, vals, np.where(tie, np.maximum(qv, vals), qv))
            self.q_size[:, sub] = np.where(better, s, qs)
        self._refresh(np.concatenate([[j], sup, sub]).astype(np.int64))

    def estimate(self, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(mean a~_j, sigma_j, pinned) for combinations ``cols``; pinned = speed known exactly."""
        mean, sigma = self.mean[cols], self.sigma[cols]
        return mean, sigma, self.known[cols] | (sigma == 0)


def search_masks(
    instance: CombosInstance,
    acquisition: str,
    *,
    measure_time: float = 10.0,
    k: float = 0.99,
    seed: int | None = None,
    deadline: Deadline | None = None,
    verbose: bool = False,
) -> tuple[list[tuple[int, float]], dict[str, Any], bool]:
    """Simulate the search strategy; returns ``(segments as (bitmask, duration), stats, finished_in_time)``."""
    if acquisition not in ACQUISITIONS:
        raise InputError(f"unknown acquisition {acquisition!r}; known: {', '.join(ACQUISITIONS)}", where="acquisition")
    if isinstance(measure_time, bool) or not isinstance(measure_time, int | float) or not (
            math.isfinite(measure_time) and measure_time > 0):
        raise InputError(f"measure_time must be a positive number of time units, got {measure_time!r}",
                         where="measure_time")
    if isinstance(k, bool) or not isinstance(k, int | float) or not 0.5 < k < 1:
        raise InputError(f"the quantile k must satisfy 0.5 < k < 1 (eq. 6), got {k!r}", where="k")
    rng = make_rng(seed)
    z_k = NormalDist().inv_cdf(k)
    a, b = instance.a, instance.b
    masks = instance.masks
    n = instance.n
    state = SpeedBounds(instance, z_k)
    remaining = np.array(b, dtype=float)
    done = 0
    full = (1 << n) - 1
    cand = np.arange(instance.m)
    segments: list[tuple[int, float]] = []
    stats: dict[str, Any] = {"iterations": 0, "measurements": 0, "measuring_time": 0.0, "exploiting_time": 0.0}
    in_time = True
    while done != full:
        if deadline is not None and deadline.expired():
            in_time = False
            break
        cand = cand[(masks[cand] & done) == 0]
        mean, sigma, pinned = state.estimate(cand)
        best = float(mean.max())
        score = acquisition_values(acquisition, mean, sigma, best)
        top = float(score.max())
        ties = np.flatnonzero(score >= top - 1e-12 * max(abs(top), 1.0))
        pick = int(ties[rng.integers(ties.size)]) if ties.size > 1 else int(ties[0])
        j = int(cand[pick])
        rows = np.flatnonzero(state.member[:, j])
        speeds = a[rows, j]
        to_finish = remaining[rows] / speeds
        first = float(to_finish.min())
        exploit = bool(pinned[pick])
        d = first if exploit else min(float(measure_time), first)
        remaining[rows] -= speeds * d
        if d >= first:
            remaining[rows[to_finish <= first * (1 + 1e-12)]] = 0.0
        remaining[remaining <= DONE_RTOL * b] = 0.0
        for i in rows[remaining[rows] == 0.0]:
            done |= 1 << int(i)
        segments.append((int(masks[j]), d))
        stats["iterations"] += 1
        if exploit:
            stats["exploiting_time"] += d
        else:
            stats["measurements"] += 1
            stats["measuring_time"] += d
        if not state.known[j]:
            state.learn(j)
        if verbose:
            print(f"[combos search-{acquisition}] t={sum(x for _, x in segments):.4g} "
                  f"{'run' if exploit else 'measure'} {instance.tasks_of(masks[j])} for {d:.4g}", file=sys.stderr)
    if not in_time:  # finish what is left one task at a time (solo speed 1): a valid schedule
        for i in np.flatnonzero(remaining > 0):
            segments.append((1 << int(i), float(remaining[i])))
    return segments, stats, in_time


def _search(acquisition: str, instance: CombosInstance, *, time_limit: float | None, seed: int | None,
            verbose: bool, measure_time: float, k: float) -> Result:
    deadline = Deadline(time_limit)
    segs, stats, in_time = search_masks(instance, acquisition, measure_time=measure_time, k=k, seed=seed,
                                        deadline=deadline, verbose=verbose)
    stats.update(measure_time=measure_time, k=k)
    sched = CombosSchedule.from_masks(instance, segs)
    status = Status.FEASIBLE if in_time else Status.TIME_LIMIT
    msg = "" if in_time else "time limit: the remaining work ran one task at a time"
    return Result(status, sched, lower_bound=trivial_lower_bound(instance), stats=stats, message=msg)


@method("combos", "search-pi", exact=False)
def search_pi(instance: CombosInstance, *, time_limit: float | None = None, seed: int | None = None,
              verbose: bool = False, measure_time: float = 10.0, k: float = 0.99) -> Result:
    """Online search with probability of improvement (section 4): speeds measured at run time, seeded ties."""
    return _search("pi", instance, time_limit=time_limit, seed=seed, verbose=verbose, measure_time=measure_time, k=k)


@method("combos", "search-ei", exact=False)
def search_ei(instance: CombosInstance, *, time_limit: float | None = None, seed: int | None = None,
              verbose: bool = False, measure_time: float = 10.0, k: float = 0.99) -> Result:
    """Online search with expected improvement (section 4): speeds measured at run time, seeded ties."""
    return _search("ei", instance, time_limit=time_limit, seed=seed, verbose=verbose, measure_time=measure_time, k=k)


@method("combos", "search-ucb", exact=False)
def search_ucb(instance: CombosInstance, *, time_limit: float | None = None, seed: int | None = None,
               verbose: bool = False, measure_time: float = 10.0, k: float = 0.99) -> Result:
    """Online search with upper confidence bound (section 4): speeds measured at run time, seeded ties."""
    return _search("ucb", instance, time_limit=time_limit, seed=seed, verbose=verbose, measure_time=measure_time, k=k)
