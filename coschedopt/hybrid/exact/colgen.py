"""``colgen``: the dedicated exact method -- a configuration-LP bound by column generation, then CP-SAT decisions.

Why this design.  The generic models (:mod:`.milp`, :mod:`.cpsat`) stop near
n = 25-30 (m = 8, k = 2) because their LP relaxation knows only areas: LB_λ sits
2-5 units below the optimum there, and the tree must close that gap over 10
interchangeable machines.  The gap is integrality -- how the tasks *fit* into
machines of capacity T -- which is what the configuration (bin-packing) LP
captures.  For a target makespan T, a *configuration* of a type is a set of tasks
whose times on that type sum to <= T; a schedule of length <= T is a choice of
<= m CPU and <= k GPU configurations covering every task.  Its LP relaxation
(phase-1 form: minimise the uncovered part) is solved by column generation
(HiGHS for the restricted LP, an exact 0/1 knapsack DP per type for pricing, on
integer times).  At convergence, or earlier, the cover rows' duals π >= 0 give a
certificate: if

    sum_j π_j  >  m · max_{CPU config P} π(P)  +  k · max_{GPU config Q} π(Q)

(both maxima computed exactly by the DP) then no schedule of length <= T exists
(any schedule's m + k machines carry each task once).  The check holds for any π,
so the certificate does not depend on the LP solver's tolerances.

The primal side comes first: a load-balancing local search (:mod:`.balance`), then CP-SAT
re-packing groups of a few machines from its closest assignment, lowers the incumbent's
makespan one unit at a time while they can, then CP-SAT at T = LB_λ itself,
hinted with that schedule, within a share of the time; with tens of tasks per machine
LB_λ is usually reached, and then no LP is needed at all.

Otherwise the search goes up from LB_λ: T is rejected by the certificate while it can be
(columns stay valid as T grows, so one restricted LP serves every T); at the first
T the LP accepts, a CP-SAT *feasibility* model with capacity T (the assignment
model of :mod:`.cpsat` with C fixed, symmetry broken by ranks, hinted with the
best schedule known) either finds a schedule of length T -- optimal, since every
smaller value is certified infeasible -- or proves T infeasible, and the search
moves to T + 1.  The LP runs within a share of the time (``lp_share``): where it does
not converge (hundreds of tasks, a degenerate master), the decisions start from the
certified bound with the rest.  Measured on the literature's generator (suite ``hybrid-exact``)
the configuration LP bound equalled the optimum on every instance of n = 30 and
50 tried; the fixed-capacity CP-SAT model then answers in seconds, where the same
model minimising C did not close the gap in 20 s at n = 30.  What limits it next:
the pseudo-polynomial pricing (n · T · s per knapsack) and instances whose LP
bound is below the optimum, where CP-SAT has to prove infeasibility alone.

Needs times on a decimal grid s with T·s <= :data:`MAX_GRID_CAPACITY` (integers: s = 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import (
    Deadline,
    MethodOptions,
    MethodRefused,
    Result,
    Status,
    method,
    option,
    quiet_highs,
    run_cpsat,
    run_highs,
)
from ..bounds import best_lower_bound
from ..instance import HybridInstance
from ..schedule import HybridSchedule, makespan
from .balance import balance, repack
from .common import incumbent, schedule_from_units
from .cpsat import build_cpsat, decode, hint_schedule, integer_times

#: largest knapsack capacity (T x the grid's scale) the pricing DP takes
MAX_GRID_CAPACITY = 2_000_000
#: steps of a balancing search per task (it stalls long before on instances whose bound is not reached)
BALANCE_STEPS = 40
#: weight of the centre in the smoothed duals of the pricing (:meth:`ConfigurationLP.infeasible`)
SMOOTHING = 0.5


def knapsack_max(values: np.ndarray, weights: np.ndarray, capacity: int) -> tuple[float, list[int]]:
    """max sum of ``values`` over a subset with integer ``weights`` summing to <= ``capacity``, and the subset.

    Dynamic program over capacities, one vectorised update per item with a positive
    value; O(n · capacity) time, n · capacity bits to recover the subset.
    """
    f = np.zeros(capacity + 1)
    items = [j for j in range(values.size) if values[j] > 0 and weights[j] <= capacity]
    keep = np.zeros((len(items), capacity + 1), dtype=bool)
    for row, j in enumerate(items):
        w, v = int(weights[j]), float(values[j])
        cand = f[: capacity + 1 - w] + v
        better = cand > f[w:]
        keep[row, w:] = better
        f[w:] = np.where(better, cand, f[w:])
    c = int(np.argmax(f))
    value, chosen = float(f[c]), []
    for row in range(len(items) - 1, -1, -1):
        if keep[row, c]:
            j = items[row]
            chosen.append(j)
            c -= int(weights[j])
    return value, chosen


class ConfigurationLP:
    """The restricted configuration LP (phase-1 form) of one instance, reused for growing T.

    Rows: one cover row per task (>= 1, with a slack of cost 1), the CPU count
    (<= m) and the GPU count (<= k).  Columns: configurations (type, tasks).
    """

    def __init__(self, instance: HybridInstance, p: np.ndarray, q: np.ndarray) -> None:
        import highspy

        self.instance, self.p, self.q = instance, p, q
        self.h = quiet_highs()
        self.inf = highspy.kHighsInf
        n, none = instance.n, np.array([], dtype=np.int32)
        for _ in range(n):
            self.h.addRow(1.0, self.inf, 0, none, np.array([]))
        self.h.addRow(-self.inf, float(instance.cpus), 0, none, np.array([]))
        self.h.addRow(-self.inf, float(instance.gpus), 0, none, np.array([]))
        for j in range(n):  # slack of cover row j
            self.h.addCol(1.0, 0.0, self.inf, 1, np.array([j], dtype=np.int32), np.array([1.0]))
        self.columns: set[tuple[bool, tuple[int, ...]]] = set()
        self.keys: list[tuple[bool, tuple[int, ...]]] = []  # the configurations, in column order after the slacks
        self.loads: list[int] = [0] * n  # load of every LP column on its type (the slacks: 0)
        self.capacity: int | None = None
        self.iterations = 0

    def add(self, tasks: list[int] | tuple[int, ...], gpu: bool) -> bool:
        """Add a configuration (False if it is already there)."""
        key = (gpu, tuple(sorted(int(t) for t in tasks)))
        if key in self.columns or not key[1]:
            return False
        self.columns.add(key)
        self.keys.append(key)
        rows = np.array([*key[1], self.instance.n + int(gpu)], dtype=np.int32)
        self.h.addCol(0.0, 0.0, self.inf, rows.size, rows, np.ones(rows.size))
        self.loads.append(int((self.q if gpu else self.p)[list(key[1])].sum()))
        return True

    def set_capacity(self, T: int) -> None:
        """Switch off the columns whose load exceeds ``T`` (and back on those that fit)."""
        if self.capacity == T:
            return
        self.capacity = T
        loads = np.array(self.loads)
        upper = np.where(loads <= T, self.inf, 0.0)
        upper[: self.instance.n] = self.inf
        idx = np.arange(loads.size, dtype=np.int32)
        self.h.changeColsBounds(loads.size, idx, np.zeros(loads.size), upper)

    def rounded_schedule(self) -> HybridSchedule:
        """A schedule from the last LP solution: configurations by decreasing LP value (at most m CPU and k GPU
        ones, tasks already placed dropped), then each task left to the machine where it ends first."""
        inst = self.instance
        values = np.asarray(self.h.getSolution().col_value)[inst.n :]
        on_gpu = np.zeros(inst.n, dtype=bool)
        unit = np.full(inst.n, -1, dtype=np.int64)
        loads = {False: [], True: []}
        for c in np.argsort(-values, kind="stable"):
            gpu, tasks = self.keys[c]
            if values[c] <= 1e-9 or len(loads[gpu]) >= (inst.gpus if gpu else inst.cpus):
                continue
            free = [t for t in tasks if unit[t] < 0]
            if free:
                unit[free], on_gpu[free] = len(loads[gpu]), gpu
                loads[gpu].append(int((self.q if gpu else self.p)[free].sum()))
        loads[False] += [0] * (inst.cpus - len(loads[False]))
        loads[True] += [0] * (inst.gpus - len(loads[True]))
        for j in sorted(
            np.flatnonzero(unit < 0),
            key=lambda t: -min(self.p[t] if inst.cpus else np.inf, self.q[t] if inst.gpus else np.inf),
        ):
            options = [
                (loads[g][u] + (self.q if g else self.p)[j], g, u) for g in (False, True) for u in range(len(loads[g]))
            ]
            end, g, u = min(options)
            loads[g][u], unit[j], on_gpu[j] = end, u, g
        return schedule_from_units(inst, on_gpu, unit)

    def infeasible(self, T: int, deadline: Deadline) -> bool | None:
        """Column generation at capacity ``T``: True if certified infeasible, False if the LP
        is feasible (or not certified infeasible within the solver's tolerance), None if the
        deadline expired first.

        The phase-1 LP is highly degenerate (its objective can stay put for hundreds of rounds
        while columns keep pricing out, ``hybrid-notes.md``), so the pricing runs at Wentges-smoothed duals
        (Wentges, ITOR 4(2), 1997): pi_s = alpha centre + (1 - alpha) pi, the centre being the
        duals of the best certificate value sum pi - m max pi(P) - k max pi(Q) seen so far (a
        lower bound on the uncovered part for any pi in [0, 1]^n, so the certificate is checked
        at both); when the smoothed columns do not price out at pi (a mis-price) the round
        prices at pi itself, so the loop ends exactly as without smoothing.
        """
        n, m, k = self.instance.n, self.instance.cpus, self.instance.gpus
        self.set_capacity(T)
        centre, centre_value = None, -np.inf
        while not deadline.expired():
            self.iterations += 1
            run = run_highs(self.h, deadline)
            if run.status is not Status.OPTIMAL:
                return None
            if run.objective <= 1e-9:  # every task covered: the full LP is feasible, no certificate exists
                return False
            duals = np.asarray(self.h.getSolution().row_dual)
            pi = np.clip(duals[:n], 0.0, 1.0)
            cpu_price, gpu_price = max(0.0, -duals[n]), max(0.0, -duals[n + 1])
            points = [pi] if centre is None else [SMOOTHING * centre + (1 - SMOOTHING) * pi, pi]
            added = False
            for point in points:
                a, cpu_cfg = knapsack_max(point, self.p, T) if m else (0.0, [])
                b, gpu_cfg = knapsack_max(point, self.q, T) if k else (0.0, [])
                value = float(point.sum()) - m * a - k * b
                if value > 1e-9 * max(1.0, float(point.sum())):
                    return True
                if value > centre_value:
                    centre, centre_value = point, value
                if m and cpu_cfg and pi[cpu_cfg].sum() > cpu_price + 1e-9:
                    added |= self._add_disjoint(point, self.p, cpu_cfg, cpu_price, m, T, False)
                if k and gpu_cfg and pi[gpu_cfg].sum() > gpu_price + 1e-9:
                    added |= self._add_disjoint(point, self.q, gpu_cfg, gpu_price, k, T, True)
                if added:
                    break
            if not added:
                return False
        return None

    def _add_disjoint(
        self, pi: np.ndarray, times: np.ndarray, first: list[int], price: float, count: int, T: int, gpu: bool
    ) -> bool:
        """Add the priced configuration ``first`` and up to ``count`` - 1 more of the same type, each the
        best knapsack over the tasks the previous ones left, while it prices out.  A machine set of
        disjoint columns per round, as a schedule has: with tens of tasks per configuration one
        column per type and round converges very slowly (``hybrid-notes.md``)."""
        added = self.add(first, gpu)
        rest, chosen = pi.copy(), first
        for _ in range(count - 1):
            rest[chosen] = 0.0
            value, chosen = knapsack_max(rest, times, T)
            if value <= price + 1e-9 or not chosen:
                break
            added |= self.add(chosen, gpu)
        return added


@dataclass(frozen=True)
class ColgenOptions(MethodOptions):
    workers: int = option(0, "CP-SAT search workers of the decisions (0: the machine's cores)", min=0)
    balance_share: float = option(
        0.05, "time box of each load-balancing search: share of the time left", above=0.0, max=1.0, advanced=True
    )
    balance_max: float = option(
        5.0, "time box of each load-balancing search: at most these seconds", above=0.0, advanced=True
    )
    repack_share: float = option(
        0.15,
        "time box of the CP-SAT repacking of machine groups after a balancing search: share of the time left",
        above=0.0,
        max=1.0,
        advanced=True,
    )
    repack_max: float = option(
        20.0, "time box of the CP-SAT repacking of machine groups: at most these seconds", above=0.0, advanced=True
    )
    bound_share: float = option(
        0.3,
        "time box of the CP-SAT decision at the lower bound, before the LP: share of the time left",
        above=0.0,
        max=1.0,
        advanced=True,
    )
    lp_share: float = option(
        0.5,
        "time box of the configuration LP's column generation: share of the time left (the decisions get the rest)",
        above=0.0,
        max=1.0,
        advanced=True,
    )


def decide(
    instance: HybridInstance,
    p: list[int],
    q: list[int],
    T: int,
    hint: HybridSchedule,
    workers: int,
    seed: int | None,
    deadline: Deadline,
) -> HybridSchedule | bool | None:
    """CP-SAT with capacity ``T``: a schedule of length <= T, False (proven none), or None (stopped)."""
    model, x, y, _ = build_cpsat(instance, p, q, T, T, True)
    hint_schedule(model, x, y, instance, hint)
    run = run_cpsat(model, deadline, seed=seed, workers=workers, params={"stop_after_first_solution": True})
    if run.status is Status.INFEASIBLE:
        return False
    if not run.has_solution:
        return None
    return decode(instance, run.value, x, y)


def _balanced(
    instance: HybridInstance,
    p: np.ndarray,
    q: np.ndarray,
    start: HybridSchedule,
    T: int,
    deadline: Deadline,
    options: ColgenOptions,
    rng: np.random.Generator,
) -> HybridSchedule | None:
    """A schedule of length <= ``T`` (grid units) from ``start``: :func:`.balance.balance`, then
    :func:`.balance.repack` from its closest assignment; ``None`` if neither reaches ``T``."""
    m = instance.cpus
    machine = np.empty(instance.n, dtype=np.int64)
    machine[start.task] = np.where(start.on_gpu, m + start.unit, start.unit)
    closest: list[np.ndarray] = []
    box = deadline.share(options.balance_share, options.balance_max)
    found = balance(p, q, m, instance.gpus, T, machine, box, rng, max_steps=BALANCE_STEPS * instance.n, closest=closest)
    if found is None and closest and not deadline.expired():
        box = deadline.share(options.repack_share, options.repack_max)
        found = repack(p, q, m, instance.gpus, T, closest[0], box, rng)
    if found is None:
        return None
    return schedule_from_units(instance, found >= m, np.where(found >= m, found - m, found))


def _seed_columns(lp: ConfigurationLP, schedule: HybridSchedule, T: int, p: np.ndarray, q: np.ndarray) -> None:
    """Singletons, and the machines of ``schedule`` whose load fits ``T``."""
    for j in range(lp.instance.n):
        if lp.instance.cpus and p[j] <= T:
            lp.add([j], False)
        if lp.instance.gpus and q[j] <= T:
            lp.add([j], True)
    for gpu, times in ((False, p), (True, q)):
        for u in np.unique(schedule.unit[schedule.on_gpu == gpu]):
            tasks = schedule.task[(schedule.on_gpu == gpu) & (schedule.unit == u)]
            if times[tasks].sum() <= T:
                lp.add(tasks.tolist(), gpu)


@method("hybrid", "colgen", exact=True, options=ColgenOptions)
def colgen(instance: HybridInstance, *, time_limit, seed, verbose, options: ColgenOptions) -> Result:
    """Load balancing and CP-SAT at LB_λ first, then the configuration-LP bound by column generation."""
    deadline = Deadline(time_limit)
    s, p_list, q_list = integer_times(instance, "colgen")
    p, q = np.array(p_list, dtype=np.int64), np.array(q_list, dtype=np.int64)
    best = incumbent(instance)
    ub = round(makespan(instance, best) * s)
    T = round(best_lower_bound(instance) * s)
    if ub * 1.0 > MAX_GRID_CAPACITY:
        raise MethodRefused(
            f"colgen prices on capacities up to {MAX_GRID_CAPACITY} grid units; this instance needs {ub} "
            f"(times x {s}): round the times",
            where="tasks",
        )
    lp = ConfigurationLP(instance, p, q)
    stats: dict[str, Any] = {"start_bound": T / s, "incumbent_start": ub / s, "certified": 0, "decisions": 0}
    # 0. the primal side first: balance the loads down from the incumbent while each capacity is reached
    rng = np.random.default_rng(seed)
    while ub > T and not deadline.expired():
        found = _balanced(instance, p, q, best, ub - 1, deadline, options, rng)
        if found is None:
            break
        best, ub = found, round(makespan(instance, found) * s)
        stats["balanced"] = ub / s
    # then CP-SAT at the bound itself, hinted with that schedule: where the bound is reached no LP is needed
    if ub > T and not deadline.expired():
        stats["decisions"] += 1
        found = decide(instance, p_list, q_list, T, best, options.workers, seed, deadline.share(options.bound_share))
        if found is False:
            T, stats["certified_by_cpsat"] = T + 1, T / s
        elif found is not None:
            best, ub = found, round(makespan(instance, found) * s)
    lo = T - 1  # every makespan <= lo is proven impossible
    # 1. the configuration LP bound: gallop up from LB_λ, then bisect (columns above T are switched off),
    # within a share of the time: where the LP does not converge, the decisions get the rest
    lp_box, converged = deadline.share(options.lp_share), True
    feasible_at, step = None, 1
    while lo + 1 < ub and feasible_at is None:
        T = min(lo + step, ub - 1)
        _seed_columns(lp, best, T, p, q)
        verdict = lp.infeasible(T, lp_box)
        if verdict is None:
            converged = False
            break
        if verdict:
            lo, step, stats["certified"] = T, 2 * step, stats["certified"] + 1
        else:
            feasible_at = T
    while converged and feasible_at is not None and lo + 1 < feasible_at:
        T = (lo + feasible_at) // 2
        verdict = lp.infeasible(T, lp_box)
        if verdict is None:
            converged = False
            break
        if verdict:
            lo, stats["certified"] = T, stats["certified"] + 1
        else:
            feasible_at = T
    if lp.iterations and converged:
        stats["configuration_bound"] = (lo + 1) / s
    elif not converged:
        stats["lp_stopped_at"] = T / s
    # 2. CP-SAT decisions from the bound up: gallop while infeasible, bisect once a schedule is found
    if feasible_at is not None:  # the LP's configurations, rounded: often a schedule at the bound itself
        rounded = lp.rounded_schedule()
        if makespan(instance, rounded) < makespan(instance, best):
            best, ub = rounded, round(makespan(instance, rounded) * s)
            stats["rounded"] = ub / s
    step, bisect = 1, False
    while lo + 1 < ub:
        T = (lo + ub) // 2 if bisect else min(lo + step, ub - 1)
        stats["decisions"] += 1
        found = decide(instance, p_list, q_list, T, best, options.workers, seed, deadline)
        if found is None:
            return _stopped(instance, best, lo, s, lp, stats)
        if found is False:
            lo, step = T, 2 * step
        else:
            best, ub, bisect = found, round(makespan(instance, found) * s), True
    stats.update(lp_iterations=lp.iterations, columns=len(lp.columns))
    return Result(Status.OPTIMAL, best, lower_bound=makespan(instance, best), stats=stats)


def _stopped(
    instance: HybridInstance, best: HybridSchedule, lo: int, s: int, lp: ConfigurationLP, stats: dict
) -> Result:
    """TIME_LIMIT with the best schedule and the certified bound (lo + 1) / s."""
    stats.update(lp_iterations=lp.iterations, columns=len(lp.columns))
    bound = min((lo + 1) / s, makespan(instance, best))
    return Result(Status.TIME_LIMIT, best, lower_bound=bound, stats=stats)
