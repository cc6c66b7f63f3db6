"""The optimal strategy (section 3.1): linear program (2) over the combinations.

    minimise    sum_j x_j                  (makespan)
    subject to  sum_j a_{i,j} x_j = b_i    for every task i   (A x = b)
                x_j >= 0                   time given to combination S_j

An optimal basic solution has at most n positive x_j; the schedule runs each of those
combinations for x_j (any order is optimal, we run larger combinations first).

Two independent builds of the same LP, both solved by HiGHS:

* :func:`solve_lp_pyomo` declares it in Pyomo, written like the paper's equation (2);
  readable, used at small n (model building costs ~0.1 ms per column);
* :func:`solve_lp_highspy` passes the (n x m) matrix column-wise to ``highspy`` in one
  call (numpy arrays, no Python loop over columns): n = 20, m = 1,048,575 columns and
  n 2^(n-1) = 10.5 M non-zeros.

The certified lower bound does not trust the solver either: for the row duals y,
t = max_j (A^T y)_j makes y / t feasible for the dual (max b^T y s.t. A^T y <= 1), so
b^T y / t <= OPT (:func:`dual_bound`).  The primal support is re-solved in numpy
(:func:`polish`) so that A x = b holds to round-off.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core import (
    Deadline,
    InputError,
    MethodOptions,
    Result,
    Status,
    method,
    option,
    quiet_highs,
    run_highs,
    run_pyomo_highs,
)
from ..heuristics.fcs import fcs_masks
from ..instance import CombosInstance, membership
from ..metrics import trivial_lower_bound
from ..schedule import CombosSchedule

#: ``backend="auto"`` uses Pyomo up to this many combinations (n <= 10 with all of them), highspy above
PYOMO_MAX_COMBINATIONS = 1023


def dual_bound(instance: CombosInstance, y: np.ndarray) -> float:
    """Certified lower bound b^T y / max(A^T y) from any row-dual vector y (weak duality).

    Returns 0 when y gives no bound.  O(nnz(A)).
    """
    y = np.asarray(y, dtype=float)
    if y.shape != (instance.n,) or not np.all(np.isfinite(y)):
        return 0.0
    t = float((y @ instance.a).max())
    val = float(instance.b @ y)
    if t <= 0 or val <= 0:
        return 0.0
    return val / t


def polish(instance: CombosInstance, x: np.ndarray, rtol: float = 1e-11) -> np.ndarray:
    """Re-solve A_B x_B = b on the support B of ``x`` (at most n columns for a basic solution).

    Keeps the solver's x when the re-solve is not clearly better (negative entries,
    rank deficiency).  Negative round-off entries of x are clipped to 0.
    """
    x = np.where(x > 0, x, 0.0)
    scale = max(float(x.max(initial=0.0)), 1.0)
    support = np.flatnonzero(x > rtol * scale)
    a, b = instance.a, instance.b
    if 0 < support.size <= instance.n:
        sub = a[:, support]
        xs, *_ = np.linalg.lstsq(sub, b, rcond=None)
        if np.all(xs >= 0):
            old = np.abs(a[:, support] @ x[support] - b).max()
            new = np.abs(sub @ xs - b).max()
            if new <= old:
                out = np.zeros_like(x)
                out[support] = xs
                return out
    out = np.zeros_like(x)
    out[support] = x[support]
    return out


def lp_schedule(instance: CombosInstance, x: np.ndarray) -> CombosSchedule:
    """Run every combination with x_j > 0 for x_j, larger combinations first (section 3.1)."""
    cols = np.flatnonzero(x > 0)
    cols = cols[np.lexsort((instance.masks[cols], -instance.sizes[cols]))]
    return CombosSchedule.from_masks(instance, ((int(instance.masks[j]), float(x[j])) for j in cols))


def solve_lp_pyomo(instance: CombosInstance, *, deadline: Deadline | None = None) -> dict[str, Any]:
    """LP (2) declared in Pyomo and solved by HiGHS (the solver layer's Pyomo + HiGHS runner).

    Returns ``{"status": "optimal"|"time_limit"|"error", "x", "y", "objective", "message"}``.
    """
    import pyomo.environ as pyo

    a, b = instance.a, instance.b
    n, m = a.shape
    member = membership(instance.masks, n)
    model = pyo.ConcreteModel(name="combos-lp")
    model.TASKS = pyo.RangeSet(0, n - 1)
    model.COMBOS = pyo.RangeSet(0, m - 1)
    model.x = pyo.Var(model.COMBOS, domain=pyo.NonNegativeReals, doc="time given to combination S_j")
    model.makespan = pyo.Objective(expr=pyo.quicksum(model.x[j] for j in model.COMBOS), sense=pyo.minimize)

    def work_rule(model: Any, i: int) -> Any:  # sum_j a_{i,j} x_j = b_i
        return pyo.quicksum(float(a[i, j]) * model.x[j] for j in np.flatnonzero(member[i])) == float(b[i])

    model.work = pyo.Constraint(model.TASKS, rule=work_rule)
    run = run_pyomo_highs(model, deadline or Deadline(None))
    out: dict[str, Any] = {"status": "error", "x": None, "y": None, "objective": None}
    out["message"] = run.stats["termination"]
    if run.status is Status.OPTIMAL:
        duals = run.solver.solution_loader.get_duals()
        out.update(
            status="optimal",
            x=np.array([model.x[j].value or 0.0 for j in range(m)]),
            y=np.array([duals[model.work[i]] for i in range(n)]),
            objective=run.objective,
        )
    elif run.status is Status.TIME_LIMIT:
        out["status"] = "time_limit"
    return out


def lp_matrix_colwise(instance: CombosInstance) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A in compressed-column form ``(start, index, value)`` (int32, int32, float64), vectorised."""
    a = instance.a
    n, m = a.shape
    memt = np.ascontiguousarray(membership(instance.masks, n).T)  # (m, n): row-major = column-wise of A
    cols, rows = np.nonzero(memt)
    del memt
    value = a[rows, cols]
    index = rows.astype(np.int32)
    del rows
    counts = np.bincount(cols, minlength=m)
    del cols
    start = np.zeros(m, dtype=np.int32)
    np.cumsum(counts[:-1], out=start[1:])
    return start, index, value


def solve_lp_highspy(instance: CombosInstance, *, deadline: Deadline | None = None) -> dict[str, Any]:
    """LP (2) passed column-wise to ``highspy`` in one ``passModel`` call, solved by HiGHS.

    Same return form as :func:`solve_lp_pyomo`, plus ``build_time`` and ``solve_time``.
    """
    import highspy

    t0 = time.perf_counter()
    a, b = instance.a, instance.b
    n, m = a.shape
    start, index, value = lp_matrix_colwise(instance)
    h = quiet_highs()
    status = h.passModel(
        m,
        n,
        int(value.size),
        int(highspy.MatrixFormat.kColwise),
        int(highspy.ObjSense.kMinimize),
        0.0,
        np.ones(m),
        np.zeros(m),
        np.full(m, highspy.kHighsInf),
        b.astype(float),
        b.astype(float),
        start,
        index,
        value,
        np.zeros(m, dtype=np.int32),  # integrality: all continuous
    )
    del start, index, value
    if status == highspy.HighsStatus.kError:
        return {"status": "error", "x": None, "y": None, "objective": None, "message": "HiGHS refused the model"}
    t1 = time.perf_counter()
    # presolve scans all m columns for little gain (n rows only): 4 s of 4.3 s at n = 18, so skip it
    run = run_highs(h, deadline or Deadline(None), options={"presolve": "off"})
    t2 = time.perf_counter()
    out: dict[str, Any] = {
        "status": "error",
        "x": None,
        "y": None,
        "objective": None,
        "message": run.stats["termination"],
        "build_time": t1 - t0,
        "solve_time": t2 - t1,
        "iterations": run.stats.get("simplex_iterations", 0),
    }
    if run.status is Status.OPTIMAL:
        sol = h.getSolution()
        out.update(
            status="optimal",
            x=np.asarray(sol.col_value, dtype=float),
            y=np.asarray(sol.row_dual, dtype=float),
            objective=float(h.getInfo().objective_function_value),
        )
    elif run.status is Status.TIME_LIMIT:
        out["status"] = "time_limit"
        sol = h.getSolution()
        if sol.dual_valid:
            out["y"] = np.asarray(sol.row_dual, dtype=float)
    return out


@dataclass(frozen=True)
class LPOptions(MethodOptions):
    backend: str = option(
        "auto",
        "auto (column generation on a pairwise-model instance; else Pyomo up to 1,023 combinations, highspy "
        "above), pyomo, highspy (a model instance's combinations listed: the full enumeration) or colgen",
        choices=("auto", "pyomo", "highspy", "colgen"),
    )
    columns: int = option(
        0, "column generation: columns added per pricing round (0: n / 4 within [10, 200])", min=0, advanced=True
    )
    pricing: str = option(
        "greedy-first",
        "column generation: greedy-first (the greedy heuristic prices first, the exact branch-and-bound when it "
        "finds nothing, and always last) or exact (branch-and-bound every round)",
        choices=("greedy-first", "exact"),
        advanced=True,
    )


@method("combos", "lp", exact=True, options=LPOptions, prepare="coschedopt.combos.pricing:compile_kernels")
def lp(
    instance: CombosInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: LPOptions
) -> Result:
    """Optimal strategy: LP (2) over all allowed combinations (Pyomo at small m, highspy column-wise at large m),
    or by column generation over a pairwise-model instance (:mod:`.colgen`).

    ``backend``: ``"auto"`` (Pyomo up to 1,023 combinations, highspy above), ``"pyomo"`` or
    ``"highspy"``.  Polynomial in m = number of combinations (simplex on n rows).  On a
    time limit: the FCS schedule with the best certified bound (status TIME_LIMIT).
    """
    backend = options.backend
    if getattr(instance, "is_model", False):  # pairwise model: column generation, or its combinations listed
        if backend in ("auto", "colgen"):
            from .colgen import lp_colgen

            return lp_colgen(
                instance, time_limit=time_limit, verbose=verbose, columns=options.columns, pricing=options.pricing
            )
        instance = instance.to_explicit()
    elif backend == "colgen":
        raise InputError(
            "backend colgen prices a speed model (a pairwise-model instance); this instance lists its "
            "combinations: use auto, pyomo or highspy",
            where="backend",
        )
    deadline = Deadline(time_limit)
    if backend == "auto":
        backend = "pyomo" if instance.m <= PYOMO_MAX_COMBINATIONS else "highspy"
    solver = solve_lp_pyomo if backend == "pyomo" else solve_lp_highspy
    out = solver(instance, deadline=deadline)
    stats = {k: v for k, v in out.items() if k in ("build_time", "solve_time", "iterations")}
    stats.update(backend=backend, combinations=instance.m, solver_objective=out["objective"])
    bound = trivial_lower_bound(instance)
    if out["y"] is not None:
        bound = max(bound, dual_bound(instance, out["y"]))
    if out["status"] == "optimal":
        x = polish(instance, out["x"])
        stats["combinations_used"] = int(np.count_nonzero(x))
        if verbose:
            print(
                f"[combos lp/{backend}] m={instance.m} objective={out['objective']:.9g} bound={bound:.9g}",
                file=sys.stderr,
            )
        return Result(Status.OPTIMAL, lp_schedule(instance, x), lower_bound=bound, stats=stats)
    sched = CombosSchedule.from_masks(instance, fcs_masks(instance))
    if out["status"] == "time_limit":
        return Result(
            Status.TIME_LIMIT,
            sched,
            lower_bound=bound,
            stats=stats,
            message="stopped before the LP optimum; FCS schedule returned",
        )
    return Result(Status.ERROR, sched, lower_bound=bound, stats=stats, message=f"HiGHS: {out['message']}")
