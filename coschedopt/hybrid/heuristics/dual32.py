"""``dual32``: the 3/2-dual variant of thesis chapter 2 (l. 966-990), *reconstructed*.

The thesis only sketches it: "constraints on the number of tasks with processing
times larger than 2/3 λ" added to the knapsack, solved by dynamic programming
(method of its ref. [38]), giving 3/2·OPT at O(n² m k²) per step.  Reconstructed
here [reading of the note, section 2.3], because the sketch does not hold as
printed:

* the threshold is **λ/2**, not 2λ/3: with 2λ/3 the list-scheduling argument only
  gives 5λ/3.  In a schedule of length <= λ at most m CPU tasks have p_j > λ/2 and
  at most k GPU tasks have p̄_j > λ/2 (two of them would not fit on one machine);
* the knapsack (forced assignments as in ``dual2``, then) chooses the GPU tasks to
  minimise the CPU area subject to: GPU area <= kλ, at most m *long* CPU tasks
  (p_j > λ/2), at most k long GPU tasks (p̄_j > λ/2).  Any schedule of length <= λ
  satisfies it, so an optimum above mλ (or no solution) is a certified NO;
* schedule: list scheduling by non-increasing time on each type, so the long tasks
  (<= λ each) get one machine each, and every short task (<= λ/2) starts before
  λ (the area before it is < mλ) and ends by 3λ/2;
* the knapsack is solved **exactly**: a dynamic program over (long CPU count, long
  GPU count, GPU area) on the data's integer grid, O(n m k kλ s) per step (the
  paper's O(n² m k²) discretises the area in steps of λ/n, which breaks the
  certificate), or a HiGHS MILP of the same knapsack when the DP table is over its
  budget or the data has no grid (``knapsack`` option).  A count constraint that
  cannot bind (fewer candidates than machines) is dropped from the table.
  The thesis's O(mn log n) special case (every task faster on GPU) is unspecified
  and left out.

The binary search is ``dual2``'s (:func:`.dual.dual_search`): on grid data it stops at
B_max = B_min + 1/s, so the schedule is within 3/2·OPT.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core import Deadline, MethodOptions, MethodRefused, Result, Status, method, option, quiet_highs, run_highs
from ..bounds import best_lower_bound
from ..instance import HybridInstance
from ..listsched import schedule_split
from ..schedule import HybridSchedule, makespan
from .dual import dual_search


@dataclass(frozen=True)
class Dual32Options(MethodOptions):
    knapsack: str = option(
        "auto",
        "exact knapsack of each step: 'dp' (integer grid), 'milp' (HiGHS), 'auto' (dp within its budget)",
        choices=("auto", "dp", "milp"),
    )
    dp_budget: float = option(
        5e7, "largest DP table (tasks x cells, one byte each) per step for knapsack='auto'", min=1.0
    )
    stop: str = option("exact", "binary search stop (as dual2)", choices=("exact", "relative"))
    eps: float = option(0.01, "relative stop (stop='relative', or data without a grid)", above=0.0)


class StepUnknown(Exception):
    """The knapsack of a step could not be decided (MILP out of time)."""


@dataclass(frozen=True, eq=False)
class LongTaskKnapsack:
    """The knapsack of one step, on integer data: free tasks, capacities and what is already forced."""

    cpu: np.ndarray  # integer CPU times of the free tasks
    gpu: np.ndarray  # integer GPU times of the free tasks
    long_cpu: np.ndarray  # bool: p_j > λ/2
    long_gpu: np.ndarray  # bool: p̄_j > λ/2
    gpu_capacity: float  # kλ minus the forced GPU area
    long_cpu_cap: int  # m minus the forced long CPU tasks
    long_gpu_cap: int  # k minus the forced long GPU tasks
    forced_cpu_area: float


def step_knapsack(
    instance: HybridInstance, lam: float, scale: float
) -> tuple[LongTaskKnapsack, np.ndarray, np.ndarray] | None:
    """Forced assignments and the knapsack data at ``lam`` (times x ``scale``); None when they already say NO.

    Returns the knapsack, the forced-GPU mask and the free-task indices.
    """
    m, k = instance.cpus, instance.gpus
    big = np.inf
    p = np.round(instance.cpu_time * scale) if m else np.full(instance.n, big)
    q = np.round(instance.gpu_time * scale) if k else np.full(instance.n, big)
    L = grid_value(lam, scale)
    if np.any(np.minimum(p, q) > L):
        return None
    force_cpu = q > L
    force_gpu = ~force_cpu & (p > L)
    free = np.flatnonzero(~force_cpu & ~force_gpu)
    long_cpu_forced = int(np.count_nonzero(force_cpu & (2 * p > L)))
    long_gpu_forced = int(np.count_nonzero(force_gpu & (2 * q > L)))
    cap = k * L - float(q[force_gpu].sum())
    if long_cpu_forced > m or long_gpu_forced > k or cap < 0:
        return None
    ks = LongTaskKnapsack(
        p[free],
        q[free],
        2 * p[free] > L,
        2 * q[free] > L,
        cap,
        m - long_cpu_forced,
        k - long_gpu_forced,
        float(p[force_cpu].sum()),
    )
    return ks, force_gpu, free


def grid_value(lam: float, scale: float) -> float:
    """λ in units of the grid (an integer when it is on the grid, up to round-off)."""
    x = lam * scale
    return float(round(x)) if abs(x - round(x)) <= 1e-9 * max(1.0, x) else x


def _dims(ks: LongTaskKnapsack) -> tuple[int, int, int]:
    """Table sizes (long CPU counts, long GPU counts, GPU areas); a count that cannot bind has size 1."""
    mu = min(ks.long_cpu_cap, int(ks.long_cpu.sum())) + 1 if ks.long_cpu.sum() > ks.long_cpu_cap else 1
    ka = min(ks.long_gpu_cap, int(ks.long_gpu.sum())) + 1 if ks.long_gpu.sum() > ks.long_gpu_cap else 1
    return mu, ka, int(ks.gpu_capacity) + 1


def dp_work(ks: LongTaskKnapsack) -> float:
    mu, ka, w = _dims(ks)
    return float(ks.cpu.size) * mu * ka * w


def solve_knapsack_dp(ks: LongTaskKnapsack) -> tuple[float, np.ndarray] | None:
    """Exact minimum CPU area and the GPU choice of each free task (None: no solution).

    f[μ, κ, w] = least CPU area with μ long CPU tasks, κ long GPU tasks and GPU area w
    (μ, κ kept only when their constraint can bind); one vectorised update per task.
    """
    mu, ka, W = _dims(ks)
    count_mu, count_ka = mu > 1, ka > 1
    f = np.full((mu, ka, W), np.inf)
    f[0, 0, 0] = 0.0
    choices = np.zeros((ks.cpu.size, mu, ka, W), dtype=bool)
    for j in range(ks.cpu.size):
        cpu = f + ks.cpu[j]
        if count_mu and ks.long_cpu[j]:
            cpu = np.concatenate([np.full((1, ka, W), np.inf), cpu[:-1]], axis=0)
        gpu = np.full_like(f, np.inf)
        d, dk = int(ks.gpu[j]), int(count_ka and ks.long_gpu[j])
        if d < W:
            gpu[:, dk:, d:] = f[:, : ka - dk, : W - d]
        take_gpu = gpu < cpu
        choices[j] = take_gpu
        f = np.where(take_gpu, gpu, cpu)
    best = np.unravel_index(int(np.argmin(f)), f.shape)
    if not np.isfinite(f[best]):
        return None
    area = float(f[best])
    on_gpu = np.zeros(ks.cpu.size, dtype=bool)
    a, b, w = best
    for j in range(ks.cpu.size - 1, -1, -1):
        if choices[j, a, b, w]:
            on_gpu[j] = True
            w -= int(ks.gpu[j])
            b -= int(count_ka and ks.long_gpu[j])
        else:
            a -= int(count_mu and ks.long_cpu[j])
    return area, on_gpu


def solve_knapsack_milp(ks: LongTaskKnapsack, deadline: Deadline) -> tuple[float, np.ndarray] | None:
    """The same knapsack as a HiGHS MILP (y_j = 1: task on the GPUs), solved to proven optimality."""
    import highspy

    n = ks.cpu.size
    if n == 0:
        return 0.0, np.zeros(0, dtype=bool)
    h = quiet_highs()
    inf = highspy.kHighsInf
    h.addVars(n, np.zeros(n), np.ones(n))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kInteger))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), -ks.cpu.astype(float))
    idx = np.arange(n, dtype=np.int32)
    h.addRow(-inf, float(ks.gpu_capacity), n, idx, ks.gpu.astype(float))
    lc = np.flatnonzero(ks.long_cpu).astype(np.int32)
    if lc.size > ks.long_cpu_cap:  # sum over long CPU candidates of (1 - y) <= cap
        h.addRow(float(lc.size - ks.long_cpu_cap), inf, lc.size, lc, np.ones(lc.size))
    lg = np.flatnonzero(ks.long_gpu).astype(np.int32)
    if lg.size > ks.long_gpu_cap:
        h.addRow(-inf, float(ks.long_gpu_cap), lg.size, lg, np.ones(lg.size))
    run = run_highs(h, deadline, options={"mip_rel_gap": 0.0, "mip_abs_gap": 1e-6})
    if run.status is Status.INFEASIBLE:
        return None
    if run.status is not Status.OPTIMAL:
        raise StepUnknown(f"knapsack MILP stopped with status {run.stats['termination']}")
    y = np.round(np.asarray(h.getSolution().col_value)) > 0.5
    return float(ks.cpu[~y].sum()), y


def dual32_step(
    instance: HybridInstance, lam: float, options: Dual32Options, deadline: Deadline
) -> HybridSchedule | None:
    """One 3/2-dual step: a schedule of length <= 3/2·``lam`` or None (NO: no schedule of length <= ``lam``)."""
    scale = instance.time_scale
    if scale is None and options.knapsack == "dp":
        raise MethodRefused("knapsack='dp' needs times on a decimal grid; use 'milp' or 'auto'", where="knapsack")
    prepared = step_knapsack(instance, lam, float(scale or 1.0))
    if prepared is None:
        return None
    ks, force_gpu, free = prepared
    use_dp = scale is not None and (
        options.knapsack == "dp" or (options.knapsack == "auto" and dp_work(ks) <= options.dp_budget)
    )
    solved = solve_knapsack_dp(ks) if use_dp else solve_knapsack_milp(ks, deadline)
    if solved is None:
        return None
    area, gpu_free = solved
    s = float(scale or 1.0)
    if ks.forced_cpu_area + area > instance.cpus * grid_value(lam, s) + 1e-6 * max(1.0, lam * s):
        return None
    on_gpu = force_gpu.copy()
    on_gpu[free[gpu_free]] = True
    return schedule_split(instance, on_gpu)


@method("hybrid", "dual32", options=Dual32Options, prepare="coschedopt.hybrid.listsched:compile_loops")
def dual32(instance: HybridInstance, *, time_limit, seed, verbose, options: Dual32Options) -> Result:
    """The 3/2-dual variant (reconstructed: long tasks > λ/2 counted per type, exact knapsack); <= 3/2·OPT."""
    deadline = Deadline(time_limit)
    lb = best_lower_bound(instance)

    def step(lam: float):
        sched = dual32_step(instance, lam, options, deadline)
        return None if sched is None else (makespan(instance, sched), lambda: sched)

    try:
        out = dual_search(instance, step, start_bound=lb, stop=options.stop, eps=options.eps, deadline=deadline)
    except StepUnknown as exc:
        return Result(Status.TIME_LIMIT, None, lower_bound=lb, message=str(exc))
    stats = {"probes": out.probes, "no_answers": out.no_answers, "final_guess": out.guess}
    bound = max(lb, out.lower_bound)
    if not out.complete:
        return Result(Status.TIME_LIMIT, out.schedule, lower_bound=bound, stats=stats, message="binary search stopped")
    return Result(
        Status.OPTIMAL if out.objective <= bound else Status.FEASIBLE, out.schedule, lower_bound=bound, stats=stats
    )
