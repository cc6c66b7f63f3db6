"""FCS, Fastest Combination Speed first (section 3.2), the online strategy of Theorem 1.

Speeds A are known, work b is not: always run the allowed combination of unfinished
tasks with the largest speed a_j = sum_i a_{i,j} until one of its tasks completes, drop
every combination that contains a finished task, repeat.  Ties (speeds within a relative
1e-12) go to the combination with fewer tasks, then to the smaller bitmask (the earlier
tasks of the instance): deterministic.

At most n iterations of O(m) each (plus O(nnz) once for the speeds): O(n m) overall.
Theorem 1: C_FCS <= (2 - 1/a*) C_OPT.
"""

from __future__ import annotations

import numpy as np

from ...core import NoOptions, Result, Status, method
from ..instance import CombosInstance
from ..metrics import fcs_ratio_bound, trivial_lower_bound
from ..pairwise import PairwiseInstance
from ..pricing import price_exact
from ..schedule import CombosSchedule

#: a task whose remaining work is below this fraction of b_i is finished (round-off)
DONE_RTOL = 1e-12


def fastest_combination(instance: CombosInstance, active: np.ndarray) -> int:
    """Column of the fastest allowed combination among the ``active`` columns (tie rule above)."""
    speed = instance.combination_speed[active]
    best = speed.max()
    ties = active[speed >= best * (1 - 1e-12)]
    if ties.size > 1:
        sizes = instance.sizes[ties]
        ties = ties[sizes == sizes.min()]  # masks are sorted: the first is the smallest bitmask
    return int(ties[0])


def _as_mask_scalar(masks: np.ndarray, mask: int) -> int | np.int64:
    """``mask`` in the dtype of ``masks`` (int64 up to 62 tasks: numpy's ``&`` then stays vectorised)."""
    return mask if masks.dtype == object else np.int64(mask)


def fcs_masks(instance: CombosInstance) -> list[tuple[int, float]]:
    """The FCS schedule as ``(bitmask, duration)`` segments."""
    a, b = instance.a, instance.b
    masks = instance.masks
    remaining = np.array(b, dtype=float)
    done_mask = 0
    active = np.arange(instance.m)
    segments: list[tuple[int, float]] = []
    full = (1 << instance.n) - 1
    while done_mask != full:
        active = active[(masks[active] & done_mask) == 0]
        j = fastest_combination(instance, active)
        rows = np.flatnonzero(a[:, j])
        speeds = a[rows, j]
        u = float((remaining[rows] / speeds).min())
        finishing = rows[remaining[rows] / speeds <= u * (1 + 1e-12)]
        remaining[rows] -= speeds * u
        remaining[finishing] = 0.0
        remaining[remaining <= DONE_RTOL * b] = 0.0
        for i in np.flatnonzero(remaining == 0.0):
            done_mask |= 1 << int(i)
        done_mask = _as_mask_scalar(masks, done_mask)
        segments.append((int(masks[j]), u))
    return segments


#: sets kept from one exact pricing of the pairwise model's FCS (reused while one of them is still runnable)
FCS_POOL = 256


def fcs_model(instance: PairwiseInstance) -> tuple[list[tuple[tuple[int, ...], float]], int]:
    """FCS on a pairwise-model instance: ``(segments as (task tuple, duration), exact pricings run)``.

    The fastest combination of the unfinished set U is the pricing problem with y = 1 on U
    and 0 elsewhere (f(S) is then the combination's speed), solved exactly by branch-and-bound.
    One pricing keeps the ``FCS_POOL`` fastest sets of U; after a task finishes, the first
    pool set of unfinished tasks only is the fastest of the smaller U' (a set of U' has the
    same speed as in U, and any set outside the pool is no faster than the pool's last), so
    a new pricing runs only when no pool set is runnable.  Ties go to the branch-and-bound's
    order (larger y first, then task index), not to the explicit FCS's fewest-tasks rule.
    """
    b = instance.b
    remaining = np.array(b, dtype=float)
    unfinished = np.ones(instance.n, dtype=bool)
    pool: list[tuple[int, ...]] = []
    segments: list[tuple[tuple[int, ...], float]] = []
    pricings = 0
    while unfinished.any():
        best = next((c for c in pool if unfinished[list(c)].all()), None)
        if best is None:
            pool = price_exact(
                instance.factors, unfinished.astype(float), instance.max_size, threshold=0.0, keep=FCS_POOL
            ).sets
            pricings += 1
            best = pool[0]
        rows = np.array(best, dtype=np.int64)
        speeds = instance.normalised_speeds(best)
        u = float((remaining[rows] / speeds).min())
        finishing = rows[remaining[rows] / speeds <= u * (1 + 1e-12)]
        remaining[rows] -= speeds * u
        remaining[finishing] = 0.0
        remaining[remaining <= DONE_RTOL * b] = 0.0
        unfinished = remaining > 0.0
        segments.append((best, u))
    return segments, pricings


@method("combos", "fcs", exact=False, prepare="coschedopt.combos.pricing:compile_kernels")
def fcs(
    instance: CombosInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: NoOptions
) -> Result:
    """FCS: run the fastest combination of unfinished tasks until one finishes (section 3.2; <= (2 - 1/a*) OPT).

    On a pairwise-model instance the fastest combination is found by exact pricing (:func:`fcs_model`).
    """
    if getattr(instance, "is_model", False):
        msegs, pricings = fcs_model(instance)
        return Result(
            Status.FEASIBLE,
            CombosSchedule.from_combinations(instance, msegs),
            lower_bound=trivial_lower_bound(instance),
            stats={
                "iterations": len(msegs),
                "pricings": pricings,
                "ratio_bound": fcs_ratio_bound(instance),
                "max_speed": instance.max_speed,
            },
        )
    segs = fcs_masks(instance)
    sched = CombosSchedule.from_masks(instance, segs)
    return Result(
        Status.FEASIBLE,
        sched,
        lower_bound=trivial_lower_bound(instance),
        stats={"iterations": len(segs), "ratio_bound": fcs_ratio_bound(instance), "max_speed": instance.max_speed},
    )
