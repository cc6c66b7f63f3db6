"""Online search strategies (section 4): FCS when speeds are unknown until measured.

Kuchumov & Korkhov, section 4: "we can transform FCS strategy into a searching algorithm
that finds combination with the largest speed and then executes it until completion of
any of its tasks.  To obtain the value of any column of matrix A we need to run
corresponding combination for at least some units of time to measure the speed of each
task."  Section 7: "each combination required at least 10 time unit of run time to
measure tasks speed values" (``measure_time``, default 10; measurements are noise-free,
the paper's assumption).  Each iteration scores every combination of unfinished tasks
("combinations that contain completed tasks are removed from the search domain", 3.2)
with an acquisition function and runs the best one:

* a combination whose speed is known (measured, or pinned: sigma_j = 0 because its bounds
  meet) is the search's answer, and "executes it until completion of any of its tasks";
* any other runs for ``measure_time`` and is then known.  If one of its tasks completes
  first, the run was shorter than the "at least 10 time unit" a measurement needs, so
  nothing is learnt (stat ``cut_short``; the combination leaves the domain anyway).

This repeats until all work is done, so the schedule always completes every task.

Bounds and estimates (section 4.1), for T_i in an unknown S_j:

* "we will use S_p with the largest number of tasks, such that S_p subset S_j and S_q with
  the smallest number of tasks, such that S_j subset S_q.  Then, among the possible S_p
  and S_q with the same size we will use the one with the minimal boundary interval width
  (a_{i,p} - a_{i,q})": the upper bound is a(i, S_p) of the measured sub-combinations with
  the most tasks (the smallest value among those), the lower bound a(i, S_q) of the measured
  super-combinations with the fewest tasks (the largest value among those).  This is the
  paper's rule, not the tightest bound (a smaller measured subset may have a smaller value);
* "We will use linear interpolation to find an approximate value":
  a~(i, S_j) = a_{i,q} + (a_{i,p} - a_{i,q}) / (|S_p| - |S_q|) (|S_j| - |S_q|);
* "Delta_{i,j} = min{upper - a~, a~ - lower}", "sigma_{i,j} = Delta_{i,j} / Phi^-1(k)" (eq. 6);
  "mean value a~_j = sum_{i in S_j} a~_{i,j} and variance sigma_j^2 = sum sigma_{i,j}^2".

The text needs a measured S_p and S_q; it does not say what to use before one exists.
Our completion, from the model's own bounds "0 < a_{i,j} <= 1": the solo run {T_i} has
speed 1 by the normalisation ("the speed of the task, when it was running in ideal
conditions ... to be equal to 1"), so singletons are known at no cost and always give an
S_p; without a measured super-combination the lower bound is the 0 of "0 < a_{i,j}",
placed at a virtual (n+1)-task combination so that every real size lies strictly inside
the interpolation interval (at size n the full combination would get Delta = 0 and look
known at speed 0).  With only singletons known this prior gives a size-s combination
the mean s (n + 1 - s) / n: about 3 for s = 5, 6 at n = 10, far above the true speeds of
the paper's generator at low alpha, where speeds fall geometrically with the size.

Acquisition (section 4.2), with a^+ "the estimated maximum value from the previous
iteration" (section 4 says "the optimal value found on the previous iteration", 4.2 also
"the decision on the previous iteration"):

* PI_j  = Phi((a~_j - a^+) / sigma_j); 1 or 0 when sigma_j = 0 (a~_j >= a^+ or not);
* EI_j  = (a~_j - a^+) Phi(z) + sigma_j phi(z), z = (a~_j - a^+) / sigma_j; a~_j - a^+ when sigma_j = 0;
* UCB_j = a~_j + sigma_j (no a^+).

The text leaves a^+ open; option ``a_plus`` selects the reading:

* ``"previous-max"`` (default, the literal one): the largest mean a~_j over the candidates
  as estimated at the previous iteration, before that iteration's measurement was taken
  into account ("estimated" maximum, "from the previous iteration"); the first iteration
  uses the initial estimates.  A combination just measured is exploited by PI when its
  speed reaches what the search expected of the best combination, otherwise the search
  goes on;
* ``"current-max"``: the largest mean over the current candidates, i.e. the estimates after
  the previous iteration's measurement.  PI then always picks the largest mean (greedy),
  and EI never picks a known combination (EI = a~_j - a^+ <= 0 < EI of any unknown) while
  an unknown candidate remains: it explores every combination of unfinished tasks;
* ``"best-known"``: the incumbent of Bayesian optimisation, the best speed known so far
  among the candidates ("the optimal value found").  The incumbent then has PI = 1, the
  largest possible value, so PI never explores (it runs singletons one after another when
  only they are known), and EI explores every unknown candidate as with ``"current-max"``.

Ties (equal scores, common at the start where all combinations of one size look alike)
are broken uniformly at random with the ``seed``: same seed, same schedule.

Each iteration costs O(n m) numpy work; there are at most m + n iterations (every
iteration measures a new combination or completes a task).  On a pairwise-model instance
(millions of combinations) the searches run on an explicit candidate list of it, every
combination up to the size :func:`~coschedopt.combos.pairwise.search_domain` allows (stat
``domain_max_size``).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from ...core import Deadline, InputError, MethodOptions, Result, Status, make_rng, method, option
from ..instance import CombosInstance, membership
from ..metrics import trivial_lower_bound
from ..schedule import CombosSchedule

ACQUISITIONS = ("pi", "ei", "ucb")

#: readings of a^+ in PI and EI (section 4.2), the first is the default (see the module docstring)
A_PLUS_READINGS = ("previous-max", "current-max", "best-known")

#: a task whose remaining work is below this fraction of b_i is finished (round-off)
DONE_RTOL = 1e-12

_erfc = np.frompyfunc(math.erfc, 1, 1)


def normal_cdf(z: np.ndarray) -> np.ndarray:
    """Phi(z) = erfc(-z / sqrt 2) / 2, standard normal CDF, exact to double precision via erfc."""
    return 0.5 * _erfc(-np.asarray(z, dtype=float) / math.sqrt(2.0)).astype(float)


def normal_pdf(z: np.ndarray) -> np.ndarray:
    """phi(z), standard normal density."""
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


def best_candidates(kind: str, mean: np.ndarray, sigma: np.ndarray, best: float) -> np.ndarray:
    """Indices of the combinations with the largest acquisition value (ties within round-off).

    Ranks by a key in the same order as :func:`acquisition_values` but free of floating-point
    saturation: PI by z = (a~_j - a^+) / sigma_j, +inf / -inf when sigma_j = 0 (PI = 1 / 0),
    since Phi(z) rounds to exactly 1 for z > 8 and would tie with a known combination's 1
    (and to 0 below -38); EI by its value with a tolerance relative to the largest value only,
    so a tiny positive EI still beats the EI = 0 of a known combination at a^+.
    """
    if kind == "pi":
        d = mean - best
        pos = sigma > 0
        key = np.where(pos, d / np.where(pos, sigma, 1.0), np.where(d >= -1e-12 * max(abs(best), 1.0), np.inf, -np.inf))
        top = float(key.max())
        if math.isinf(top):
            return np.flatnonzero(key == top)
        return np.flatnonzero(key >= top - 1e-9 * max(abs(top), 1.0))
    score = acquisition_values(kind, mean, sigma, best)
    top = float(score.max())
    scale = abs(top) if kind == "ei" else max(abs(top), 1.0)
    return np.flatnonzero(score >= top - 1e-12 * scale)


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
        c = inst.masks[j]  # int64 or a Python integer (above 62 tasks), as the masks array holds
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


def _check_search_args(acquisition: str, measure_time: float, k: float, a_plus: str) -> None:
    if acquisition not in ACQUISITIONS:
        raise InputError(f"unknown acquisition {acquisition!r}; known: {', '.join(ACQUISITIONS)}", where="acquisition")
    if a_plus not in A_PLUS_READINGS:
        raise InputError(f"unknown reading of a^+ {a_plus!r}; known: {', '.join(A_PLUS_READINGS)}", where="a_plus")
    if (
        isinstance(measure_time, bool)
        or not isinstance(measure_time, int | float)
        or not (math.isfinite(measure_time) and measure_time > 0)
    ):
        raise InputError(
            f"measure_time must be a positive number of time units, got {measure_time!r}", where="measure_time"
        )
    if isinstance(k, bool) or not isinstance(k, int | float) or not 0.5 < k < 1:
        raise InputError(f"the quantile k must satisfy 0.5 < k < 1 (eq. 6), got {k!r}", where="k")


def a_plus_value(a_plus: str, mean: np.ndarray, pinned: np.ndarray, previous_max: float | None) -> float:
    """a^+ of PI and EI under the chosen reading (module docstring): the previous iteration's
    max estimate (``previous-max``), this one's (``current-max``), or the best known speed
    (``best-known``: singletons of unfinished tasks are candidates and always known)."""
    current_max = float(mean.max())
    if a_plus == "previous-max":
        return current_max if previous_max is None else previous_max
    if a_plus == "current-max":
        return current_max
    return float(mean[pinned].max())


def run_combination(
    remaining: np.ndarray, rows: np.ndarray, speeds: np.ndarray, b: np.ndarray, limit: float | None
) -> float:
    """Run the tasks ``rows`` together at ``speeds`` until the first finishes, or for at most
    ``limit``; updates ``remaining`` in place (finished tasks exactly 0) and returns the duration."""
    to_finish = remaining[rows] / speeds
    first = float(to_finish.min())
    d = first if limit is None else min(limit, first)
    remaining[rows] -= speeds * d
    if d >= first:
        remaining[rows[to_finish <= first * (1 + 1e-12)]] = 0.0
    remaining[remaining <= DONE_RTOL * b] = 0.0
    return d


def search_masks(
    instance: CombosInstance,
    acquisition: str,
    *,
    measure_time: float = 10.0,
    k: float = 0.99,
    a_plus: str = A_PLUS_READINGS[0],
    seed: int | None = None,
    deadline: Deadline | None = None,
    verbose: bool = False,
) -> tuple[list[tuple[int, float]], dict[str, Any], bool]:
    """Simulate the search strategy; returns ``(segments as (bitmask, duration), stats, finished_in_time)``.

    ``a_plus`` selects the reading of a^+ in PI and EI (``A_PLUS_READINGS``, module docstring).
    """
    _check_search_args(acquisition, measure_time, k, a_plus)
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
    stats: dict[str, Any] = {
        "iterations": 0,
        "measurements": 0,
        "cut_short": 0,
        "measuring_time": 0.0,
        "exploiting_time": 0.0,
    }
    previous_max: float | None = None  # max_j a~_j over the candidates at the previous iteration
    in_time = True
    while done != full:
        if deadline is not None and deadline.expired():
            in_time = False
            break
        cand = cand[(masks[cand] & done) == 0]
        mean, sigma, pinned = state.estimate(cand)
        best = a_plus_value(a_plus, mean, pinned, previous_max)
        previous_max = float(mean.max())
        ties = best_candidates(acquisition, mean, sigma, best)
        pick = int(ties[rng.integers(ties.size)]) if ties.size > 1 else int(ties[0])
        j = int(cand[pick])
        rows = np.flatnonzero(state.member[:, j])
        exploit = bool(pinned[pick])
        d = run_combination(remaining, rows, a[rows, j], b, None if exploit else float(measure_time))
        measured = d >= measure_time * (1 - 1e-12)  # "at least 10 time unit of run time to measure"
        for i in rows[remaining[rows] == 0.0]:
            done |= 1 << int(i)
        segments.append((int(masks[j]), d))
        stats["iterations"] += 1
        if exploit:
            stats["exploiting_time"] += d
        else:
            stats["measuring_time"] += d
            stats["measurements" if measured else "cut_short"] += 1
        if measured and not state.known[j]:
            state.learn(j)
        if verbose:
            what = "run" if exploit else ("measure" if measured else "measure (cut short, nothing learnt)")
            print(
                f"[combos search-{acquisition}] t={sum(x for _, x in segments):.4g} a+={best:.4g} "
                f"{what} {instance.tasks_of(masks[j])} for {d:.4g}",
                file=sys.stderr,
            )
    if not in_time:  # finish what is left one task at a time (solo speed 1): a valid schedule
        for i in np.flatnonzero(remaining > 0):
            segments.append((1 << int(i), float(remaining[i])))
    return segments, stats, in_time


def _search(
    acquisition: str,
    instance: CombosInstance,
    *,
    time_limit: float | None,
    seed: int | None,
    verbose: bool,
    measure_time: float,
    k: float,
    a_plus: str,
) -> Result:
    deadline = Deadline(time_limit)
    domain_size = None
    if getattr(instance, "is_model", False):  # a speed model: search an explicit candidate list of it
        from ..pairwise import search_domain

        instance = search_domain(instance)
        domain_size = int(instance.sizes.max())
    segs, stats, in_time = search_masks(
        instance,
        acquisition,
        measure_time=measure_time,
        k=k,
        a_plus=a_plus,
        seed=seed,
        deadline=deadline,
        verbose=verbose,
    )
    stats.update(measure_time=measure_time, k=k)
    if domain_size is not None:
        stats["domain_max_size"] = domain_size
    if acquisition != "ucb":
        stats["a_plus"] = a_plus
    sched = CombosSchedule.from_masks(instance, segs)
    status = Status.FEASIBLE if in_time else Status.TIME_LIMIT
    msg = "" if in_time else "time limit: the remaining work ran one task at a time"
    return Result(status, sched, lower_bound=trivial_lower_bound(instance), stats=stats, message=msg)


@dataclass(frozen=True)
class SearchOptions(MethodOptions):
    """Options of the three online searches (section 4.2)."""

    measure_time: float = option(10.0, "time units a combination runs before its speeds are known", above=0.0)
    k: float = option(0.99, "the quantile of the interpolation bounds (eq. 6)", above=0.5, below=1.0)
    a_plus: str = option(
        A_PLUS_READINGS[0], "reading of a^+ in PI / EI (module docstring); UCB does not use it", choices=A_PLUS_READINGS
    )


def _search_method(acquisition: str, name: str, title: str) -> Any:
    def run(
        instance: CombosInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: SearchOptions
    ) -> Result:
        return _search(
            acquisition,
            instance,
            time_limit=time_limit,
            seed=seed,
            verbose=verbose,
            measure_time=options.measure_time,
            k=options.k,
            a_plus=options.a_plus,
        )

    run.__name__ = run.__qualname__ = f"search_{acquisition}"
    run.__doc__ = (
        f"Online search with {title} (section 4.2): speeds measured at run time, seeded ties.\n\n"
        "Per iteration O(n m); at most m + n iterations."
    )
    return method("combos", name, exact=False, options=SearchOptions)(run)


search_pi = _search_method("pi", "search-pi", "probability of improvement")
search_ei = _search_method("ei", "search-ei", "expected improvement")
search_ucb = _search_method("ucb", "search-ucb", "upper confidence bound")
