"""Integer programs over given columns (HiGHS MIPs): the covering MIP of the restricted
master and of the enumeration, and the two pack-profile MIPs (a node LP's profile, the
neighbourhood search's profile moves).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import highspy
import numpy as np

from ....core import Deadline, SolverRun, Status, run_highs
from .master import INF, csc, new_highs


def _binary_mip(
    cost: np.ndarray,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
    starts: np.ndarray,
    index: np.ndarray,
    value: np.ndarray,
    *,
    offset: float = 0.0,
) -> highspy.Highs:
    """A HiGHS instance holding min cost x + offset, row_lower <= A x <= row_upper, x binary
    (A column-wise: ``starts`` (one per column and the end), ``index``, ``value``), with its
    the MIPs of this module (run by :func:`_run`)."""
    cnt = len(cost)
    lp = highspy.HighsLp()
    lp.num_col_ = cnt
    lp.num_row_ = len(row_lower)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.offset_ = float(offset)
    lp.col_lower_ = np.zeros(cnt)
    lp.col_upper_ = np.ones(cnt)
    lp.row_lower_ = row_lower
    lp.row_upper_ = row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.asarray(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.asarray(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.asarray(value, dtype=float)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * cnt
    h = new_highs()
    h.passModel(lp)
    return h


def _run(h: highspy.Highs, time_limit: float, seed: int, options: dict | None = None) -> SolverRun:
    """Run a MIP of this module within ``time_limit`` seconds, or until a stop request."""
    return run_highs(h, Deadline(max(time_limit, 0.01)), seed=seed, options=options)


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
    levels: list[int] | None = None,
    level_cuts: list[tuple[int, int]] | None = None,
    level_upper: list[float] | None = None,
) -> MIPSolution:
    """min c x, A x >= 1, x binary over the given columns (HiGHS MIP, relative gap 0).

    ``incumbent``: indices of columns forming a cover, passed as a starting solution.
    ``cutoff``: only solutions strictly better than it are of interest.
    ``levels``, ``level_cuts``: the columns' levels and pack-count cuts (l, rhs),
    sum_{c : level_c >= l} x_c >= rhs, added as rows (valid for every schedule).
    """
    cnt = len(sets)
    starts, index, value = csc(sets)
    h = _binary_mip(
        np.asarray(costs, dtype=float),
        np.ones(n),
        np.full(n, INF),
        np.append(starts, index.size),
        index,
        value,
    )
    options = {"mip_rel_gap": 0.0, "mip_abs_gap": 1e-9}
    if level_cuts and levels is not None:
        _add_count_rows(h, levels, level_cuts, level_upper)
    if cutoff is not None and math.isfinite(cutoff):
        options["objective_bound"] = float(cutoff)
    if incumbent is not None:
        x0 = np.zeros(cnt)
        x0[incumbent] = 1.0
        sol = highspy.HighsSolution()
        sol.col_value = x0.tolist()
        h.setSolution(sol)
    return _covering_solution(_run(h, time_limit, seed, options))


def _add_count_rows(
    h: highspy.Highs, levels: list[int], level_cuts: list[tuple[int, int]], level_upper: list[float] | None
) -> None:
    """The pack-count rows rhs <= sum_{c : level_c >= l} x_c <= upper."""
    lv = np.asarray(levels, dtype=np.int64)
    ups = level_upper if level_upper is not None else [INF] * len(level_cuts)
    for (level, rhs), up in zip(level_cuts, ups, strict=True):
        idx = np.flatnonzero(lv >= level).astype(np.int32)
        h.addRow(float(rhs), float(up), idx.size, idx, np.ones(idx.size))


def _covering_solution(run: SolverRun) -> MIPSolution:
    """What a solved covering MIP gives: the chosen columns, the value and a valid bound."""
    bound = -math.inf if run.bound is None else run.bound
    if run.status is Status.INFEASIBLE:
        return MIPSolution(None, math.inf, math.inf, True)
    if not run.has_solution:
        return MIPSolution(None, math.inf, bound, False)
    x = np.array(run.solver.getSolution().col_value)
    chosen = np.flatnonzero(x > 0.5).tolist()
    optimal = run.status is Status.OPTIMAL
    if optimal:
        bound = max(bound, run.objective - 1e-9 * max(1.0, abs(run.objective)))
    return MIPSolution(chosen, run.objective, bound, optimal)


def solve_profile_assignment(
    m_by_bin: list[np.ndarray], p: int, k: int, *, time_limit: float, seed: int = 0
) -> list[list[int]] | None:
    """Tasks into packs of fixed levels (a node LP's pack profile, :func:`.tree.profile_cover`).

    y[i, b] binary: each task in exactly one pack, pack b's tasks need at most p processors
    at its level (``m_by_bin[b][i]`` = m_i(tau_b), the least processor count of Eq. (1)'s
    profile finishing by tau_b; > p where task i cannot, so no variable) and number at most
    k.  A feasibility MIP (HiGHS, objective 0).  The packs' task lists, or None when none
    was found within ``time_limit`` (or there is none)."""
    if not m_by_bin:
        return None
    n = m_by_bin[0].size
    nb = len(m_by_bin)
    pairs = [(i, b) for b in range(nb) for i in np.flatnonzero(m_by_bin[b] <= p).tolist()]
    cnt = len(pairs)
    starts = np.arange(0, 3 * cnt + 1, 3, dtype=np.int32)
    index = np.empty(3 * cnt, dtype=np.int32)
    value = np.empty(3 * cnt)
    for c, (i, b) in enumerate(pairs):
        index[3 * c : 3 * c + 3] = (i, n + b, n + nb + b)
        value[3 * c : 3 * c + 3] = (1.0, float(m_by_bin[b][i]), 1.0)
    h = _binary_mip(
        np.zeros(cnt),
        np.concatenate([np.ones(n), np.full(2 * nb, -INF)]),
        np.concatenate([np.ones(n), np.full(nb, float(p)), np.full(nb, float(k))]),
        starts,
        index,
        value,
    )
    if not _run(h, time_limit, seed).has_solution:
        return None
    x = np.array(h.getSolution().col_value)
    bins: list[list[int]] = [[] for _ in range(nb)]
    for c in np.flatnonzero(x > 0.5).tolist():
        i, b = pairs[c]
        bins[b].append(i)
    return bins


#: the level of an empty pack in :func:`solve_profile_neighbourhood` (tau = 0, no task fits)
EMPTY = -1


def solve_profile_neighbourhood(
    table,
    sets: list[tuple[int, ...]],
    k: int,
    candidates: np.ndarray,
    *,
    reach: float,
    time_limit: float,
    seed: int = 0,
) -> list[tuple[int, ...]] | None:
    """The cheapest re-partition of all tasks into the packs of the cover ``sets``, each pack
    at one of the levels of ``candidates`` within a factor 1 -/+ ``reach`` of its own (or its own),
    or empty: the neighbourhood of :meth:`.lns.Neighbourhoods.step`'s profile moves.

    With packs b and their candidate levels l_b1 < ... < l_br (ascending, l_br the highest;
    l_b1 = "empty", of cost 0, at which no task fits),
    y[i, b] binary puts task i in pack b (only where m_i(tau_br) <= p), u[b, j] binary says that
    pack b costs at most tau_bj (u[b, r] = 1; u[b, j] <= u[b, j + 1]), and

        sum_i m_i(tau_bj) y[i, b] <= p + M_bj (1 - u[b, j])       (pack b fits at level j when u = 1)
        sum_i y[i, b] <= k,   sum_b y[i, b] = 1,
        cost = sum_b tau_br - sum_{b, j < r} (tau_b,j+1 - tau_bj) u[b, j],

    where M_bj is the most the k largest m_i(tau_bj) of the pack's tasks can exceed p by.
    A MIP (HiGHS), started from ``sets`` (each pack at its cheapest level); the packs of the
    best solution found within ``time_limit`` (None when none was found)."""
    levels = [table.min_level(s) for s in sets]
    per_pack = _candidate_levels(table, levels, candidates, reach)
    mip = _ProfileMIP(table, per_pack, k)
    h = _binary_mip(
        mip.cost,
        mip.rows_l,
        mip.rows_u,
        np.cumsum([0, *map(len, mip.col_rows)]),
        np.array([r for rows in mip.col_rows for r in rows]),
        np.array([v for vals in mip.col_vals for v in vals]),
        offset=float(sum(mip.tau[c[-1]] for c in per_pack)),
    )
    h.setSolution(mip.start(sets, levels))
    if not _run(h, time_limit, seed).has_solution:
        return None
    return mip.packs(np.array(h.getSolution().col_value))


def _candidate_levels(table, levels: list[int], candidates: np.ndarray, reach: float) -> list[list[int]]:
    """Each pack's levels, ascending: empty, then the candidates within a factor 1 -/+
    ``reach`` of its own level ``levels[b]``, and that level."""
    tau = table.levels
    cand = np.unique(np.asarray(candidates, dtype=np.int64))
    per_pack = []
    for lv in levels:
        near = cand[(tau[cand] >= tau[lv] * (1 - reach)) & (tau[cand] <= tau[lv] * (1 + reach))]
        per_pack.append([EMPTY, *np.union1d(near, [lv]).tolist()])
    return per_pack


class _ProfileMIP:
    """The variables y[i, b] and u[b, j], the rows and the columns of the MIP of
    :func:`solve_profile_neighbourhood` for the packs' candidate levels ``per_pack``.

    Rows: the n task rows, the nb pack sizes, then the capacity rows (b, j) of every
    pack and candidate level, then the monotonicity rows u[b, j] <= u[b, j + 1]."""

    def __init__(self, table, per_pack: list[list[int]], k: int) -> None:
        p, n, nb = table.p, table.n, len(per_pack)
        self.per_pack, self.n = per_pack, n
        self.m = {lv: table.m(lv).astype(np.float64) for c in per_pack for lv in c[1:]}
        self.m[EMPTY] = np.full(n, p + 1.0)
        self.tau = np.append(table.levels, 0.0)  # tau[EMPTY]
        self.y = [(i, b) for b, c in enumerate(per_pack) for i in np.flatnonzero(self.m[c[-1]] <= p).tolist()]
        self.u = [(b, j) for b, c in enumerate(per_pack) for j in range(len(c) - 1)]
        self.cap_row: dict[tuple[int, int], int] = {}
        for b, c in enumerate(per_pack):
            for j in range(len(c)):
                self.cap_row[b, j] = n + nb + len(self.cap_row)
        self.mono_row: dict[tuple[int, int], int] = {}
        for b, c in enumerate(per_pack):
            for j in range(len(c) - 2):
                self.mono_row[b, j] = n + nb + len(self.cap_row) + len(self.mono_row)
        self.big = self._big_m(p, k)
        self._row_bounds(p, k)
        self._columns()

    def _big_m(self, p: int, k: int) -> dict[tuple[int, int], float]:
        """M_bj: the most the k largest m_i(tau_bj) of the tasks pack b may hold exceed p by."""
        big = {}
        for b, c in enumerate(self.per_pack):
            fits = self.m[c[-1]] <= p
            for j, lv in enumerate(c):
                big[b, j] = max(float(np.sort(self.m[lv][fits])[::-1][:k].sum()) - p, 0.0)
        return big

    def _row_bounds(self, p: int, k: int) -> None:
        n, nb = self.n, len(self.per_pack)
        self.rows_l = np.full(n + nb + len(self.cap_row) + len(self.mono_row), -INF)
        self.rows_u = np.zeros(self.rows_l.size)
        self.rows_l[:n] = self.rows_u[:n] = 1.0
        self.rows_u[n : n + nb] = k
        for (b, j), r in self.cap_row.items():
            self.rows_u[r] = p + (self.big[b, j] if j < len(self.per_pack[b]) - 1 else 0.0)

    def _columns(self) -> None:
        """Column-wise rows and values of the y, then the u variables, and their costs."""
        n, per_pack, cap_row, m = self.n, self.per_pack, self.cap_row, self.m
        y, u, tau = self.y, self.u, self.tau
        col_rows: list[list[int]] = []
        col_vals: list[list[float]] = []
        for i, b in y:
            col_rows.append([i, n + b, *(cap_row[b, j] for j in range(len(per_pack[b])))])
            col_vals.append([1.0, 1.0, *(m[lv][i] for lv in per_pack[b])])
        self.u_col: dict[tuple[int, int], int] = {}
        self.cost = np.zeros(len(y) + len(u))
        for c, (b, j) in enumerate(u):
            self.u_col[b, j] = len(y) + c
            self.cost[len(y) + c] = -(tau[per_pack[b][j + 1]] - tau[per_pack[b][j]])
            col_rows.append([cap_row[b, j]])
            col_vals.append([self.big[b, j]])
        for (b, j), r in self.mono_row.items():  # u[b, j] - u[b, j + 1] <= 0
            col_rows[self.u_col[b, j]].append(r)
            col_vals[self.u_col[b, j]].append(1.0)
            col_rows[self.u_col[b, j + 1]].append(r)
            col_vals[self.u_col[b, j + 1]].append(-1.0)
        self.col_rows, self.col_vals = col_rows, col_vals

    def start(self, sets: list[tuple[int, ...]], levels: list[int]) -> highspy.HighsSolution:
        """The cover ``sets`` as a starting solution, each pack at its cheapest level."""
        x0 = np.zeros(len(self.cost))
        where = {ib: c for c, ib in enumerate(self.y)}
        for b, s in enumerate(sets):
            x0[[where[i, b] for i in s]] = 1.0
            for j, lv in enumerate(self.per_pack[b][:-1]):
                x0[self.u_col[b, j]] = float(lv >= levels[b])
        start = highspy.HighsSolution()
        start.col_value = x0.tolist()
        return start

    def packs(self, x: np.ndarray) -> list[tuple[int, ...]]:
        packs: list[list[int]] = [[] for _ in self.per_pack]
        for c in np.flatnonzero(x[: len(self.y)] > 0.5).tolist():
            i, b = self.y[c]
            packs[b].append(i)
        return [tuple(sorted(s)) for s in packs if s]
