"""``dual2``: the 2-dual approximation of thesis chapter 2 (section 2.3, Proposition 1), with its binary search.

One step at guess λ (:func:`dual2_step`): forced assignments, the greedy
minimisation knapsack (:mod:`..knapsack`), NO if the CPU area exceeds mλ, else
Graham's list scheduling on each type.  Proposition 1: the CPU side ends by
W_C/m + max p_j <= 2λ (eq. 2.8 as printed divides by sum x_j; the Graham form is
the one that holds), and the GPU area without the critical task is <= kλ, so every
GPU task, the critical one included, ends by 2λ, whatever the list order.

The binary search (l. 949-960; B_min and B_max are not given in the thesis):
B_min is a certified bound (LB_λ by default, or max(longest task, area) as a plain
start), B_max = sum_j min(p_j, p̄_j) (always accepted).  Each NO moves B_min up and is
a certificate (OPT > λ); each YES moves B_max down and its schedule is kept if it
is the best seen.  On data on a grid 1/s (integer times: s = 1) the search runs over
that grid and stops at B_max = B_min + 1/s, so B_max <= OPT and the schedule is
within 2·OPT exactly (``stop="exact"``); otherwise it stops at B_max <= (1 + eps)·B_min
(guarantee 2(1 + eps)·OPT).  Every λ >= LB_λ passes the fractional test, hence the
greedy one: started at LB_λ, the search never meets a NO and its probes only look
for better schedules; started at the plain bounds it bisects as in the thesis.

Cost: one sort, then O(n) numpy work per step and a compiled O(n log m) list
schedule per YES; about log2((B_max - B_min) s) steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...core import Deadline, MethodOptions, Result, Status, method, option
from ..bounds import area_bound, best_lower_bound, lambda_bound, longest_task_bound, round_up_to_grid
from ..instance import HybridInstance
from ..knapsack import RatioOrder, knapsack_step, ratio_order
from ..listsched import list_makespan, lpt_order, schedule_split
from ..schedule import HybridSchedule


@dataclass(frozen=True)
class Dual2Options(MethodOptions):
    stop: str = option(
        "exact",
        "binary search stop: 'exact' (grid data: B_max = B_min + 1/s, guarantee 2·OPT) or 'relative' (B_max <= (1+eps) B_min)",
        choices=("exact", "relative"),
    )
    eps: float = option(0.01, "relative stop of the binary search (stop='relative', or data without a grid)", above=0.0)
    start: str = option(
        "lambda",
        "B_min: 'lambda' (LB_λ) or 'simple' (max of longest task and area bound)",
        choices=("lambda", "simple"),
    )
    list_order: str = option(
        "paper",
        "list order: 'paper' (GPUs in knapsack order, CPUs in input order) or 'lpt' (both by non-increasing time)",
        choices=("paper", "lpt"),
    )
    ties: str = option(
        "gpu-time",
        "ties of the acceleration order: larger GPU time first, or task index",
        choices=("gpu-time", "index"),
    )


def lpt_lists(instance: HybridInstance) -> tuple[np.ndarray, np.ndarray]:
    """Every task by non-increasing CPU time and by non-increasing GPU time (sorted once; each step filters)."""
    everyone = np.arange(instance.n)
    return lpt_order(instance.cpu_time, everyone), lpt_order(instance.gpu_time, everyone)


def dual2_split(
    instance: HybridInstance,
    ro: RatioOrder,
    lam: float,
    list_order: str = "paper",
    lpt: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The knapsack of one 2-dual step: (on_gpu, CPU list, GPU list), or None for NO.

    Lists: LPT (``list_order="lpt"``, filtered from :func:`lpt_lists`), or the paper's
    reading: the GPUs in knapsack order, the CPUs in input order.
    """
    ans = knapsack_step(ro, lam)
    if ans is None:
        return None
    on_gpu = np.zeros(instance.n, dtype=bool)
    on_gpu[ro.order[ans.on_gpu]] = True
    if list_order == "lpt":
        cpu_lpt, gpu_lpt = lpt or lpt_lists(instance)
        return on_gpu, cpu_lpt[~on_gpu[cpu_lpt]], gpu_lpt[on_gpu[gpu_lpt]]
    return on_gpu, np.flatnonzero(~on_gpu), ro.order[ans.on_gpu]


def dual2_step(
    instance: HybridInstance, ro: RatioOrder, lam: float, list_order: str = "paper"
) -> HybridSchedule | None:
    """One 2-dual step: a schedule of length <= 2·``lam``, or None (NO: no schedule of length <= ``lam``)."""
    split = dual2_split(instance, ro, lam, list_order)
    return None if split is None else schedule_split(instance, *split)


def split_makespan(instance: HybridInstance, on_gpu: np.ndarray, cpu_order: np.ndarray, gpu_order: np.ndarray) -> float:
    """The makespan :func:`schedule_split` reaches with these lists, computed without building the schedule."""
    return max(
        list_makespan(instance.cpu_time, cpu_order, instance.cpus),
        list_makespan(instance.gpu_time, gpu_order, instance.gpus),
    )


@dataclass
class SearchOutcome:
    """What a dual binary search returns: the best schedule seen and the certified bound."""

    schedule: HybridSchedule
    objective: float
    lower_bound: float  # certified: OPT >= it
    guess: float  # the final B_max (the guarantee is g times it)
    probes: int
    no_answers: int
    complete: bool  # False when stopped by the deadline


def dual_search(
    instance: HybridInstance,
    step: Callable[[float], tuple[float, Callable[[], HybridSchedule]] | None],
    *,
    start_bound: float,
    stop: str = "exact",
    eps: float = 0.01,
    deadline: Deadline | None = None,
) -> SearchOutcome:
    """Binary search on λ around a g-dual step ``step(lam) -> (makespan, build) | None``.

    ``build()`` makes the schedule of that makespan: only the best one seen is built.
    ``start_bound`` is a certified lower bound (OPT >= it).  B_max = sum_j min(p_j, p̄_j)
    is probed first: every g-dual step of this module accepts it.  On the data's grid
    (``stop="exact"``) λ runs over multiples of 1/s, as integers ``lo < hi``.
    """
    deadline = deadline or Deadline(None)
    s = instance.time_scale if stop == "exact" else None
    scale = float(s or 1)
    hi = float(instance.min_time.sum()) * scale
    first = step(hi / scale)
    if first is None:
        raise RuntimeError(f"the dual step refused B_max = sum of min times = {hi / scale}")
    (best_obj, best_build), probes, nos = first, 1, 0
    lo = float(math.ceil(start_bound * s - 1e-9) - 1) if s is not None else start_bound  # OPT > lo (grid) / >= lo

    def finished() -> bool:
        return hi - lo <= 1 if s is not None else hi <= (1 + eps) * lo

    while not finished() and not deadline.expired():
        mid = (lo + hi) // 2 if s is not None else 0.5 * (lo + hi)
        answer, probes = step(mid / scale), probes + 1
        if answer is None:
            lo, nos = mid, nos + 1
        else:
            hi = mid
            if answer[0] < best_obj:
                best_obj, best_build = answer
    certified = max((lo + 1) / scale if s is not None else lo, round_up_to_grid(instance, start_bound))
    return SearchOutcome(best_build(), best_obj, certified, hi / scale, probes, nos, finished())


def start_bound(instance: HybridInstance, ro: RatioOrder, start: str) -> float:
    """B_min of the search: LB_λ (``"lambda"``) or max(longest task, area) (``"simple"``), on the data's grid."""
    simple = max(longest_task_bound(instance), area_bound(instance, ro))
    lb = lambda_bound(instance, ro) if start == "lambda" else simple
    return round_up_to_grid(instance, lb)


@method("hybrid", "dual2", options=Dual2Options, prepare="coschedopt.hybrid.listsched:compile_loops")
def dual2(instance: HybridInstance, *, time_limit, seed, verbose, options: Dual2Options) -> Result:
    """The thesis's 2-dual approximation (greedy knapsack + list scheduling, binary search on λ); <= 2·OPT."""
    deadline = Deadline(time_limit)
    ro = ratio_order(instance, options.ties)
    b_min = start_bound(instance, ro, options.start)

    lpt = lpt_lists(instance) if options.list_order == "lpt" else None

    def step(lam: float) -> tuple[float, Callable[[], HybridSchedule]] | None:
        split = dual2_split(instance, ro, lam, options.list_order, lpt)
        if split is None:
            return None
        return split_makespan(instance, *split), lambda: schedule_split(instance, *split)

    out = dual_search(
        instance,
        step,
        start_bound=b_min,
        stop=options.stop,
        eps=options.eps,
        deadline=deadline,
    )
    lb = max(out.lower_bound, b_min if options.start == "lambda" else best_lower_bound(instance, ro))
    stats = {"probes": out.probes, "no_answers": out.no_answers, "final_guess": out.guess, "start_bound": b_min}
    if not out.complete:
        return Result(Status.TIME_LIMIT, out.schedule, lower_bound=lb, stats=stats, message="binary search stopped")
    return Result(Status.OPTIMAL if out.objective <= lb else Status.FEASIBLE, out.schedule, lower_bound=lb, stats=stats)
