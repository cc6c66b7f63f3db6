"""Probes of the combos family: column generation's pricing at K = 2 by three algorithms on the same duals.

A probe is a method that measures code on an instance instead of solving it
(:attr:`coschedopt.core.registry.Method.probe`); the family does not import this module, so
``coschedopt methods combos`` lists the probe only where a suite loads it
(``plugins = ["coschedopt.combos.probes"]``, suite ``combos-pricing``).

The pricing problem of :mod:`.exact.colgen`, max over |S| <= K of f(S) = sum_{i in S} y_i a(i, S),
is a polynomial of degree K in the membership variables.  At K = 2 it is quadratic and has the
standard linearisation, one variable z_ij per pair (only tasks with y_i > 0 are variables):

    max  sum_i y_i x_i - sum_{i<j} c_ij z_ij     c_ij = y_i (1 - d_ij) + y_j (1 - d_ji) >= 0
    s.t. z_ij >= x_i + x_j - 1,  sum_i x_i <= 2,  x binary, z in [0, 1]

since f({i, j}) = y_i d_ij + y_j d_ji = y_i + y_j - c_ij.  ``pricing-speed`` solves it by the
toolkit's branch-and-bound (:func:`.pricing.price_exact`), by this MIP in HiGHS and by the same
model in CP-SAT (costs scaled to integers by 10^6), each once, on the duals of column generation's
last master (the proof round, where the most sets price near 1: ``duals = "last-master"``) or on
y = 1 (FCS's pricing: ``duals = "ones"``), and reports each one's seconds, maximum and whether the
solver proved it within its limit.  K >= 3 needs
a variable per triple and is not offered.  Each solver gets the cell's time limit (60 s by default).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core import MethodOptions, MethodRefused, Result, Status, method, option
from .exact.colgen import solve_colgen
from .pairwise import PairwiseInstance
from .pricing import price_exact

#: the CP-SAT model's integer scale of the costs
CPSAT_SCALE = 1e6


@dataclass(frozen=True)
class PricingSpeedOptions(MethodOptions):
    duals: str = option("last-master", "the duals priced", choices=("last-master", "ones"))


def pair_costs(d: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tasks with y_i > 0 and the linearisation's pair costs c_ab among them (upper triangle)."""
    idx = np.flatnonzero(y > 0)
    yy, dd = y[idx], d[np.ix_(idx, idx)]
    c = yy[:, None] * (1 - dd) + (yy[None, :] * (1 - dd.T))
    return idx, np.triu(c, 1)


def price_mip(d: np.ndarray, y: np.ndarray, time_limit: float) -> tuple[float, bool]:
    """max f(S), |S| <= 2, by the linearised MIP in HiGHS, and whether HiGHS proved it (not stopped by the limit)."""
    import highspy

    idx, c = pair_costs(d, y)
    r = idx.size
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    inf = highspy.kHighsInf
    for i in idx:
        h.addVar(0.0, 1.0)
        h.changeColCost(h.getNumCol() - 1, -float(y[i]))
    h.changeColsIntegrality(r, np.arange(r, dtype=np.int32), np.ones(r, dtype=np.uint8))
    h.addRow(-inf, 2.0, r, np.arange(r, dtype=np.int32), np.ones(r))
    for a in range(r):
        for b in range(a + 1, r):
            h.addVar(0.0, 1.0)
            col = h.getNumCol() - 1
            h.changeColCost(col, float(c[a, b]))
            h.addRow(-1.0, inf, 3, np.array([col, a, b], dtype=np.int32), np.array([1.0, -1.0, -1.0]))
    h.run()
    return -float(h.getInfo().objective_function_value), h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def price_cpsat(d: np.ndarray, y: np.ndarray, time_limit: float) -> tuple[float, bool]:
    """max f(S), |S| <= 2, by the same model in CP-SAT (one worker, costs scaled by :data:`CPSAT_SCALE`), and
    whether CP-SAT proved it."""
    from ortools.sat.python import cp_model

    idx, c = pair_costs(d, y)
    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in idx]
    m.Add(sum(x) <= 2)
    terms = [int(round(CPSAT_SCALE * y[i])) * x[a] for a, i in enumerate(idx)]
    for a in range(idx.size):
        for b in range(a + 1, idx.size):
            z = m.NewBoolVar("")
            m.Add(z >= x[a] + x[b] - 1)
            terms.append(-int(round(CPSAT_SCALE * c[a, b])) * z)
    m.Maximize(sum(terms))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = 1
    status = solver.Solve(m)
    return solver.ObjectiveValue() / CPSAT_SCALE, status == cp_model.OPTIMAL


@method(
    "combos",
    "pricing-speed",
    options=PricingSpeedOptions,
    probe=True,
    prepare="coschedopt.combos.pricing:compile_kernels",
)
def pricing_speed(instance, *, time_limit, seed, verbose, options: PricingSpeedOptions) -> Result:
    """Probe: K = 2 pricing by branch-and-bound, a HiGHS MIP and CP-SAT on the same duals (seconds, maxima)."""
    if not isinstance(instance, PairwiseInstance) or instance.max_size != 2:
        raise MethodRefused("pricing-speed compares the K = 2 pricing: give a pairwise instance with --max-size 2")
    limit = 60.0 if time_limit is None else float(time_limit)
    y = solve_colgen(instance)["duals"] if options.duals == "last-master" else np.ones(instance.n)
    stats: dict = {"duals": options.duals, "priced_tasks": int(np.count_nonzero(y > 0))}
    start = time.perf_counter()
    stats["bnb_max"] = float(price_exact(instance.factors, y, 2, threshold=-np.inf, keep=1).values[0])
    stats["bnb_s"] = time.perf_counter() - start
    for name, solve in (("mip", price_mip), ("cpsat", price_cpsat)):
        start = time.perf_counter()
        stats[f"{name}_max"], stats[f"{name}_proven"] = solve(instance.factors, y, limit)
        stats[f"{name}_s"] = time.perf_counter() - start
    stats["mip_diff"] = abs(stats["mip_max"] - stats["bnb_max"])
    stats["cpsat_diff"] = abs(stats["cpsat_max"] - stats["bnb_max"])
    return Result(Status.FEASIBLE, stats=stats)
