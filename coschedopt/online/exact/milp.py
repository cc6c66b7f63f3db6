"""``milp``: the offline non-preemptive optimum as a time-indexed MILP (Pyomo + HiGHS).

The family note's model has x_{j,s} = 1 iff T_j starts at s, Σ_s x_{j,s} = 1 and,
at every t, Σ_j Σ_{s=t-p_j+1..t} x_{j,s} <= m (identical processors: intervals
overlapping at most m deep colour greedily onto m processors).  It is written here
in the equivalent step form X_{j,s} = Σ_{s'<=s} x_{j,s'} ("T_j has started by s"):

    X_{j,s-1} <= X_{j,s},  X_{j,L_j} = 1,  X_{j,r_j-1} = 0       (x_{j,s} = X_{j,s} - X_{j,s-1} >= 0)
    Σ_j (X_{j,t} - X_{j,t-p_j}) <= m   for every t                (tasks running at t)
    min Σ_j Σ_s g_j(s + p_j - r_j) (X_{j,s} - X_{j,s-1})          (sums; the L2 norms with g squared)
    min z,  z >= Σ_s g_j(s + p_j - r_j) (X_{j,s} - X_{j,s-1})  ∀j  (maxima)

a unimodular change of variables with the same LP relaxation and 2n terms per
capacity row instead of Σ_j p_j (a capacity row is written only at times where
more than m tasks could run).  Windows [r_j, L_j] and g_j: :mod:`.offline`.
Integer data only; refuses above :data:`MAX_TASKS` tasks or :data:`MAX_STARTS`
(task, start) pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import Deadline, MethodOptions, Result, Status, method, option, run_pyomo_highs, solver_result
from ..bounds import lower_bound
from ..instance import OnlineInstance
from ..metrics import with_objectives
from .offline import StartWindows, schedule_from_starts, start_windows

MAX_TASKS = 60
MAX_STARTS = 60_000


def build_milp(w: StartWindows, m: int) -> Any:
    """The step-form Pyomo model of the windows ``w`` on ``m`` processors."""
    import pyomo.environ as pyo

    model = pyo.ConcreteModel(name=f"online-{w.instance.name}")
    index = [(j, k) for j, c in enumerate(w.costs) for k in range(len(c) - 1)]
    model.X = pyo.Var(index, domain=pyo.Binary)  # X[j, k]: T_j has started by first[j] + k

    def started(j: int, k: int) -> Any:
        """X_{j, first_j + k}, with its constant values outside the window."""
        if k < 0:
            return 0
        return 1 if k >= len(w.costs[j]) - 1 else model.X[j, k]

    model.monotone = pyo.Constraint(
        [(j, k) for j, k in index if k > 0], rule=lambda mo, j, k: mo.X[j, k - 1] <= mo.X[j, k]
    )
    p = w.instance.time.astype(np.int64)
    first, last = w.first, w.last
    busy = np.zeros(int((last + p).max()) + 1, dtype=np.int64)
    for j in range(w.instance.n):
        busy[first[j] : last[j] + p[j]] += 1
    times = [t for t in np.flatnonzero(busy > m).tolist()]
    model.capacity = pyo.Constraint(
        times,
        rule=lambda mo, t: (
            sum(
                started(j, t - first[j]) - started(j, t - p[j] - first[j])
                for j in range(w.instance.n)
                if first[j] <= t < last[j] + p[j]
            )
            <= m
        ),
    )

    def cost(j: int) -> Any:
        c = w.costs[j]
        return float(c[-1]) - sum(float(c[k + 1] - c[k]) * model.X[j, k] for k in range(len(c) - 1))

    if w.kind == "max":
        model.z = pyo.Var(domain=pyo.NonNegativeReals)
        model.worst = pyo.Constraint(range(w.instance.n), rule=lambda mo, j: mo.z >= cost(j))
        model.objective = pyo.Objective(expr=model.z, sense=pyo.minimize)
    else:
        model.objective = pyo.Objective(expr=sum(cost(j) for j in range(w.instance.n)), sense=pyo.minimize)
    return model


def _starts(w: StartWindows, model: Any) -> np.ndarray:
    starts = w.last.copy()
    for j, c in enumerate(w.costs):
        for k in range(len(c) - 1):
            if (model.X[j, k].value or 0.0) > 0.5:
                starts[j] = w.first[j] + k
                break
    return starts


@dataclass(frozen=True)
class MilpOptions(MethodOptions):
    mip_gap: float = option(0.0, "HiGHS's relative gap (0 = prove optimality)", min=0.0, below=1.0)


@method("online", "milp", exact=True, options=MilpOptions)
@with_objectives
def solve_milp(
    instance: OnlineInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: MilpOptions
) -> Result:
    """Offline non-preemptive optimum: time-indexed MILP in Pyomo, solved by HiGHS (integer data, small n)."""
    deadline = Deadline(time_limit)
    w = start_windows(instance, "milp", max_tasks=MAX_TASKS, max_starts=MAX_STARTS)
    if w.starts == instance.n:  # a single start per task: the incumbent's, at each release
        return Result(Status.OPTIMAL, w.incumbent, stats={"variables": 0})
    run = run_pyomo_highs(
        lambda: build_milp(w, instance.processors),
        deadline,
        seed=seed,
        verbose=verbose,
        rel_gap=options.mip_gap,
        known_feasible=True,  # the incumbent policy schedule starts every task inside its window
    )
    stats: dict[str, Any] = {
        **run.stats,
        "variables": w.starts - instance.n,
        "capacity_rows": None if run.model is None else len(run.model.capacity),
        "incumbent_policy_value": w.incumbent_value,
    }
    found = schedule_from_starts(instance, _starts(w, run.model)) if run.has_solution else None
    certified = lower_bound(instance)
    if run.bound is not None:
        certified = max(certified, w.value(max(run.bound, 0.0)))
    return solver_result(
        run.status,
        found,
        w.incumbent,
        w.objective,
        certified,
        proven=run.status is Status.OPTIMAL and options.mip_gap == 0,
        stats=stats,
        message=f"HiGHS: {stats['termination']}",
    )
