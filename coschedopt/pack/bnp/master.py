"""The set-covering master problem on HiGHS, driven directly through ``highspy``.

Rows: one per task, sum_{columns c containing i} x_c >= 1.  Columns: task sets with
their optimal pack cost.  Covering (>=) instead of partitioning (=) gives the same
optimum (a subset of a pack fits at the same level, so removing a task covered
twice never costs more) and non-negative duals, which the knapsack pricing needs.

:class:`CoveringMaster` keeps one ``highspy.Highs`` object: columns are appended
with ``addCols`` and the LP is re-solved warm from the previous basis.
:func:`solve_covering_mip` solves the integer program over a given column set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import highspy
import numpy as np

from ...core import Deadline

INF = highspy.kHighsInf


def _new_highs(threads: int | None = None) -> highspy.Highs:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if threads is not None:
        h.setOptionValue("threads", threads)
    return h


def _csc(sets: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = np.zeros(len(sets), dtype=np.int32)
    pos = 0
    for c, s in enumerate(sets):
        starts[c] = pos
        pos += len(s)
    index = np.fromiter((i for s in sets for i in s), dtype=np.int32, count=pos)
    return starts, index, np.ones(pos)


class CoveringMaster:
    """Restricted master LP min c x, A x >= 1, x >= 0 over the columns added so far."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.h = _new_highs()
        self.h.addRows(n, np.ones(n), np.full(n, INF), 0, np.array([], np.int32), np.array([], np.int32), np.array([]))
        self.costs: list[float] = []
        self.sets: list[tuple[int, ...]] = []
        self.levels: list[int] = []
        self.known: dict[tuple[int, ...], int] = {}

    def add(self, sets: list[tuple[int, ...]], costs: list[float], levels: list[int]) -> int:
        """Append the columns not already present; returns how many were new."""
        new_sets, new_costs, new_levels = [], [], []
        for s, c, lv in zip(sets, costs, levels, strict=True):
            if s in self.known:
                continue
            self.known[s] = len(self.sets) + len(new_sets)
            new_sets.append(s)
            new_costs.append(c)
            new_levels.append(lv)
        if new_sets:
            starts, index, value = _csc(new_sets)
            cnt = len(new_sets)
            self.h.addCols(cnt, np.array(new_costs), np.zeros(cnt), np.full(cnt, INF), index.size, starts, index, value)
            self.sets.extend(new_sets)
            self.costs.extend(new_costs)
            self.levels.extend(new_levels)
        return len(new_sets)

    def fix(self, cols: list[int], value: bool) -> None:
        """Force columns to 1 (``value``) or release them back to [0, inf)."""
        for c in cols:
            self.h.changeColBounds(int(c), 1.0 if value else 0.0, INF)

    def solve(self, deadline: Deadline) -> LPSolution | None:
        """Re-solve (warm); None when the time limit stopped HiGHS before optimality."""
        rem = deadline.remaining()
        self.h.setOptionValue("time_limit", self.h.getRunTime() + (rem if math.isfinite(rem) else 1e30))
        self.h.run()
        if self.h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None
        sol = self.h.getSolution()
        return LPSolution(
            objective=float(self.h.getInfo().objective_function_value),
            duals=np.maximum(np.array(sol.row_dual, dtype=float), 0.0),
            x=np.array(sol.col_value, dtype=float),
            iterations=int(self.h.getInfo().simplex_iteration_count),
        )


@dataclass
class LPSolution:
    objective: float
    duals: np.ndarray
    x: np.ndarray
    iterations: int


@dataclass
class MIPSolution:
    chosen: list[int] | None  # indices of the selected columns (None: no solution found)
    objective: float
    bound: float  # HiGHS' dual bound (a valid lower bound of this restricted MIP)
    optimal: bool


def solve_covering_mip(
    n: int,
    sets: list[tuple[int, ...]],
    costs: list[float],
    *,
    time_limit: float,
    incumbent: list[int] | None = None,
    cutoff: float | None = None,
    seed: int = 0,
) -> MIPSolution:
    """min c x, A x >= 1, x binary over the given columns (HiGHS MIP, relative gap 0).

    ``incumbent``: indices of columns forming a cover, passed as a starting solution.
    ``cutoff``: only solutions strictly better than it are of interest.
    """
    h = _new_highs()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-9)
    h.setOptionValue("random_seed", int(seed) % (2**31 - 1))
    h.setOptionValue("time_limit", max(time_limit, 0.01))
    cnt = len(sets)
    starts, index, value = _csc(sets)
    lp = highspy.HighsLp()
    lp.num_col_ = cnt
    lp.num_row_ = n
    lp.col_cost_ = np.asarray(costs, dtype=float)
    lp.col_lower_ = np.zeros(cnt)
    lp.col_upper_ = np.ones(cnt)
    lp.row_lower_ = np.ones(n)
    lp.row_upper_ = np.full(n, INF)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.append(starts, index.size).astype(np.int32)
    lp.a_matrix_.index_ = index
    lp.a_matrix_.value_ = value
    lp.integrality_ = [highspy.HighsVarType.kInteger] * cnt
    h.passModel(lp)
    if cutoff is not None and math.isfinite(cutoff):
        h.setOptionValue("objective_bound", float(cutoff))
    if incumbent is not None:
        x0 = np.zeros(cnt)
        x0[incumbent] = 1.0
        sol = highspy.HighsSolution()
        sol.col_value = x0.tolist()
        h.setSolution(sol)
    h.run()
    status = h.getModelStatus()
    info = h.getInfo()
    bound = float(info.mip_dual_bound) if math.isfinite(info.mip_dual_bound) else -math.inf
    if status == highspy.HighsModelStatus.kInfeasible:
        return MIPSolution(None, math.inf, math.inf, True)
    if info.primal_solution_status < 2:  # no feasible solution
        return MIPSolution(None, math.inf, bound, False)
    x = np.array(h.getSolution().col_value)
    chosen = np.flatnonzero(x > 0.5).tolist()
    optimal = status == highspy.HighsModelStatus.kOptimal
    if optimal:
        bound = max(bound, float(info.objective_function_value) - 1e-9 * max(1.0, abs(info.objective_function_value)))
    return MIPSolution(chosen, float(info.objective_function_value), bound, optimal)
