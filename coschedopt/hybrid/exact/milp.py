"""``milp``: the CPU/GPU assignment MILP in Pyomo, solved by HiGHS (the note's section 4).

Unknowns: x[j, i] = 1 if task j runs on CPU i, y[j, g] = 1 if on GPU g, and C::

    minimise  C
    sum_i x[j, i] + sum_g y[j, g] = 1          every task placed once
    sum_j p_j x[j, i]  <= C                     each CPU's load
    sum_j p̄_j y[j, g] <= C                     each GPU's load
    sum_{j,i} p_j x[j, i] <= m C,  sum_{j,g} p̄_j y[j, g] <= k C     (aggregate cuts)
    LB <= C <= UB                               (LB_λ; the best quick heuristic)

Symmetry breaking (valid by relabelling the machines of a type in the order they get
their first task): with tasks ranked by non-increasing p_j (rank r) and p̄_j (rank r̄),
x[j, i] exists only for i <= r(j), y[j, g] only for g <= r̄(j).  Without it the
identical machines make the tree explode at n = 20 (the note: "failed within 20 s";
with it and the bound, 0.2-1.2 s).  HiGHS's own symmetry detection is off by default
(it proved wrong optima on the pack family's symmetric ILP).  O(n (m + k)) binaries.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...core import Deadline, MethodOptions, Result, Status, method, option, run_pyomo_highs, solver_result
from ..bounds import best_lower_bound
from ..instance import HybridInstance
from ..schedule import makespan
from .common import decreasing_ranks, incumbent, schedule_from_units


@dataclass(frozen=True)
class MilpOptions(MethodOptions):
    symmetry_breaking: bool = option(True, "allow task of rank r only on machines 0..r of each type")
    detect_symmetry: bool = option(False, "HiGHS's own symmetry detection (off: see the module docstring)")
    shortcut: bool = option(
        True, "return the best quick heuristic at once when it meets the lower bound", advanced=True
    )


def build_model(instance: HybridInstance, lower: float, upper: float, symmetry_breaking: bool = True) -> Any:
    """The Pyomo model of the module docstring."""
    import pyomo.environ as pyo

    n, m, k = instance.n, instance.cpus, instance.gpus
    p, q = instance.cpu_time.tolist(), instance.gpu_time.tolist()
    r = decreasing_ranks(instance.cpu_time) if symmetry_breaking else np.full(n, n)
    rb = decreasing_ranks(instance.gpu_time) if symmetry_breaking else np.full(n, n)
    cpu_pairs = [(j, i) for j in range(n) for i in range(min(m, int(r[j]) + 1))]
    gpu_pairs = [(j, g) for j in range(n) for g in range(min(k, int(rb[j]) + 1))]
    model = pyo.ConcreteModel(name=f"hybrid-{instance.name}")
    model.x = pyo.Var(cpu_pairs, domain=pyo.Binary)
    model.y = pyo.Var(gpu_pairs, domain=pyo.Binary)
    model.C = pyo.Var(bounds=(lower, upper))
    model.makespan = pyo.Objective(expr=model.C, sense=pyo.minimize)
    on = {j: [] for j in range(n)}
    cpu_of = {i: [] for i in range(m)}
    gpu_of = {g: [] for g in range(k)}
    for j, i in cpu_pairs:
        on[j].append(model.x[j, i])
        cpu_of[i].append(p[j] * model.x[j, i])
    for j, g in gpu_pairs:
        on[j].append(model.y[j, g])
        gpu_of[g].append(q[j] * model.y[j, g])
    model.placed_once = pyo.Constraint(range(n), rule=lambda mo, j: sum(on[j]) == 1)
    model.cpu_load = pyo.Constraint(range(m), rule=lambda mo, i: sum(cpu_of[i]) <= mo.C)
    model.gpu_load = pyo.Constraint(range(k), rule=lambda mo, g: sum(gpu_of[g]) <= mo.C)
    if m:
        model.cpu_area = pyo.Constraint(expr=sum(sum(v) for v in cpu_of.values()) <= m * model.C)
    if k:
        model.gpu_area = pyo.Constraint(expr=sum(sum(v) for v in gpu_of.values()) <= k * model.C)
    return model


@method("hybrid", "milp", exact=True, options=MilpOptions)
def milp(instance: HybridInstance, *, time_limit, seed, verbose, options: MilpOptions) -> Result:
    """The assignment MILP (Pyomo + HiGHS) with symmetry breaking, LB_λ and a heuristic upper bound."""
    deadline = Deadline(time_limit)
    lb = best_lower_bound(instance)
    start = incumbent(instance)
    ub = makespan(instance, start)
    stats: dict[str, Any] = {"incumbent_start": ub}
    if options.shortcut and ub <= lb:
        return Result(Status.OPTIMAL, start, lower_bound=lb, stats=stats, message="heuristic meets the lower bound")
    run = run_pyomo_highs(
        lambda: build_model(instance, lb, ub, options.symmetry_breaking),
        deadline,
        seed=seed,
        verbose=verbose,
        abs_gap=1e-9,
        options={"mip_detect_symmetry": options.detect_symmetry},
    )
    stats.update(run.stats)
    found = None
    if run.has_solution:
        on_gpu = np.zeros(instance.n, dtype=bool)
        unit = np.zeros(instance.n, dtype=np.int64)
        for (j, g), var in run.model.y.items():
            if (var.value or 0.0) > 0.5:
                on_gpu[j], unit[j] = True, g
        for (j, i), var in run.model.x.items():
            if (var.value or 0.0) > 0.5:
                unit[j] = i
        found = schedule_from_units(instance, on_gpu, unit)
    if run.bound is not None:
        lb = max(lb, run.bound)
    return solver_result(run.status, found, start, partial(makespan, instance), lb, stats=stats)
