"""``cpsat``: the offline non-preemptive optimum as a CP-SAT model (OR-Tools), the second exact path.

Start s_j = r_j + o_j with o_j in [0, L_j - r_j] (windows of :mod:`.offline`), a
fixed-size interval [s_j, s_j + p_j) per task, one cumulative constraint of
capacity m (no-overlap when m = 1).  The contribution of T_j is linear in o_j for
the sums and maxima (w_j (o_j + p_j) with w_j = 1 for flows, 1 / max(p_j, B) for
stretches), an element of its cost table indexed by o_j for the L2 norms and the
clamped stretch.  Tasks with equal release and size are interchangeable: their
starts are ordered.  The incumbent policy schedule is the search hint.

CP-SAT takes integer costs.  Flows are integers.  Stretch weights are scaled by
L = lcm of the denominators max(p_j, B) when they are integers and the scaled
costs stay below 2^53 (exact integers, squares included); otherwise they are
rounded on a power-of-two scale S near 2^53 / (the largest objective), and the
rounding's largest effect on the objective (the slack: Σ_j |S/d_j - w_j| F_j^max
for the linear costs, half a unit per task for the tables) is taken off the bound.
The status is OPTIMAL when CP-SAT proves its optimum and the costs are exact, or
when, rounded, the certified gap is below a relative 1e-9.

Max flow and max stretch go by bisection on the objective instead (:mod:`.bisect`: each probe a
deadline feasibility model, decided in milliseconds where this model's bound on a max of linear terms
stays far below the optimum at n = 200); ``bisect=false`` keeps the single model, the cross-check.
The task cap (:data:`MAX_TASKS`) is this model's; the bisection has none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import Deadline, MethodOptions, Result, Status, method, option, run_cpsat, solver_result
from ..bounds import lower_bound
from ..instance import OnlineInstance
from ..metrics import with_objectives
from .bisect import solve_max
from .offline import StartWindows, add_processors, schedule_from_starts, start_windows, starts_of

MAX_TASKS = 100
MAX_STARTS = 400_000
_EXACT_LIMIT = 2.0**53


@dataclass(frozen=True)
class IntegerCosts:
    """Task j's integer cost at start offset o: ``weights[j] * (o + p_j)`` when ``weights`` is set
    (sums and maxima without the clamp: linear in the start), else ``tables[j][o]``.  The true
    objective (in the model's units) is the integer one over ``scale``, within ``slack / scale``."""

    tables: list[np.ndarray]
    weights: np.ndarray | None
    scale: float
    slack: float

    @property
    def exact(self) -> bool:
        return self.slack == 0


def integer_costs(w: StartWindows) -> IntegerCosts:
    """Scale the contributions of ``w`` to integers: exactly where a common denominator fits
    below 2^53, else rounded with the slack the rounding can cost (see the module docstring)."""
    inst = w.instance
    p = inst.time.astype(np.int64)
    longest = np.array([len(c) - 1 for c in w.costs]) + p  # the largest flow of each window
    stretch = inst.objective.endswith("stretch")
    d = inst.stretch_denominator if stretch else np.ones(inst.n)
    integral = bool(np.all(d == np.round(d)))
    lcm = math.lcm(*(int(x) for x in d)) if integral else 0
    if w.kind != "l2" and not (stretch and inst.clamp_stretch):
        total = float((longest / d).sum())
        if integral and total * lcm < _EXACT_LIMIT:
            weights, scale = np.array([lcm // int(x) for x in d], dtype=np.int64), float(lcm)
        else:
            scale = 2.0 ** math.floor(math.log2(_EXACT_LIMIT / total / 8))
            weights = np.rint(scale / d).astype(np.int64)
        error = np.abs(scale / d - weights) * longest
        slack = float(error.max() if w.kind == "max" else error.sum())
        tables = [weights[j] * (np.arange(len(c)) + p[j]) for j, c in enumerate(w.costs)]
        return IntegerCosts(tables, weights, scale, slack)
    worst = sum(float(c[-1]) for c in w.costs)
    scale = float(lcm * lcm if w.kind == "l2" else lcm) if integral else 0.0
    if integral and worst * scale < _EXACT_LIMIT:
        return IntegerCosts([np.rint(c * scale).astype(np.int64) for c in w.costs], None, scale, 0.0)
    scale = 2.0 ** math.floor(math.log2(_EXACT_LIMIT / max(worst, 1e-300) / 8))
    return IntegerCosts([np.rint(c * scale).astype(np.int64) for c in w.costs], None, scale, 0.5 * inst.n)


@dataclass(frozen=True)
class CpSatOptions(MethodOptions):
    workers: int = option(0, "CP-SAT search workers (0: the machine's cores)", min=0)
    bisect: bool = option(
        True, "max flow and max stretch: bisection on deadline feasibility (false: one model minimising the max)"
    )


@method("online", "cpsat", exact=True, options=CpSatOptions)
@with_objectives
def solve_cpsat(
    instance: OnlineInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: CpSatOptions
) -> Result:
    """Offline non-preemptive optimum: CP-SAT with a cumulative constraint (integer data; the maxima by bisection)."""
    from ortools.sat.python import cp_model

    deadline = Deadline(time_limit)
    if options.bisect and instance.objective.startswith("max-"):
        return solve_max(instance, deadline, seed, options.workers)
    w = start_windows(instance, "cpsat", max_tasks=MAX_TASKS, max_starts=MAX_STARTS)
    costs = integer_costs(w)
    model, offsets, objective = _build(cp_model, w, costs)
    start_of_incumbent = starts_of(w.incumbent, instance.n)
    for j, o in enumerate(offsets):
        model.add_hint(o, int(start_of_incumbent[j] - w.first[j]))
    run = run_cpsat(model, deadline, seed=seed, workers=options.workers, verbose=verbose)
    stats: dict[str, Any] = {
        **run.stats,
        "starts": w.starts,
        "weights": "exact" if costs.exact else f"rounded to 1/{costs.scale:.6g}",
        "scale": costs.scale,
        "incumbent_policy_value": w.incumbent_value,
    }
    found = None
    if run.has_solution:
        found = schedule_from_starts(instance, np.array([w.first[j] + run.value(o) for j, o in enumerate(offsets)]))
    certified = lower_bound(instance)
    if run.bound is not None and math.isfinite(run.bound):
        certified = max(certified, w.value(max(0.0, (run.bound - costs.slack) / costs.scale)))
    # OPTIMAL in rounded weights proves the schedule only when the bound meets its true value
    value = min(w.objective(found), w.objective(w.incumbent)) if found is not None else math.inf
    close = value - certified <= 1e-9 * max(1.0, value)
    return solver_result(
        run.status,
        found,
        w.incumbent,
        w.objective,
        certified,
        proven=run.status is Status.OPTIMAL and (costs.exact or close),
        exact=False,
        stats=stats,
        message=f"CP-SAT: {stats['status']}",
    )


def _build(cp_model: Any, w: StartWindows, costs: IntegerCosts) -> tuple[Any, list[Any], Any]:
    inst = w.instance
    model = cp_model.CpModel()
    p = inst.time.astype(np.int64)
    offsets, intervals, terms = [], [], []
    for j in range(inst.n):
        table = costs.tables[j]
        o = model.new_int_var(0, len(table) - 1, f"o{j}")
        intervals.append(model.new_fixed_size_interval_var(o + int(w.first[j]), int(p[j]), f"run{j}"))
        offsets.append(o)
        if costs.weights is not None:
            terms.append(int(costs.weights[j]) * (o + int(p[j])))
        else:
            g = model.new_int_var(int(table.min()), int(table.max()), f"g{j}")
            model.add_element(o, [int(x) for x in table], g)
            terms.append(g)
    add_processors(model, inst, intervals, offsets)  # equal releases: offsets order like the starts
    if w.kind == "max":
        z = model.new_int_var(0, int(max(int(t.max()) for t in costs.tables)), "z")
        for term in terms:
            model.add(z >= term)
        model.minimize(z)
    else:
        model.minimize(sum(terms))
    return model, offsets, terms
