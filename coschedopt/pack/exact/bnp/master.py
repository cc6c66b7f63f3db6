"""The set-covering master problem on HiGHS, driven directly through ``highspy``.

Rows: one per task, sum_{columns c containing i} x_c >= 1.  Columns: task sets with
their optimal pack cost.  Covering (>=) instead of partitioning (=) gives the same
optimum (a subset of a pack fits at the same level, so removing a task covered
twice never costs more) and non-negative duals, which the knapsack pricing needs.

:class:`CoveringMaster` keeps one ``highspy.Highs`` object: columns are appended
with ``addCols`` and the LP is re-solved warm from the previous basis.  The MIPs over
a given column set are in :mod:`.mips`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import highspy
import numpy as np

from ....core import Deadline, Status, quiet_highs, run_highs

INF = highspy.kHighsInf
#: level marker of the dual-optimal-inequality columns (:meth:`CoveringMaster.add_dominance`)
DOMINANCE_LEVEL = -2
#: HiGHS basis status codes, by value (kLower = 0, kBasic = 1, ...)
_STATUS = sorted(highspy.HighsBasisStatus.__members__.values(), key=int)
BASIC = int(highspy.HighsBasisStatus.kBasic)
#: HiGHS' default simplex_iteration_limit: none
NO_ITERATION_LIMIT = 2**31 - 1
#: a simplex basis: HiGHS status codes of the columns and of the rows (int8 arrays)
Basis = tuple[np.ndarray, np.ndarray]


def new_highs(threads: int | None = None) -> highspy.Highs:
    return quiet_highs(threads)


def csc(sets: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts = np.zeros(len(sets), dtype=np.int32)
    pos = 0
    for c, s in enumerate(sets):
        starts[c] = pos
        pos += len(s)
    index = np.fromiter((i for s in sets for i in s), dtype=np.int32, count=pos)
    return starts, index, np.ones(pos)


class CoveringMaster:
    """Restricted master LP over the columns added so far, with optional subset-row cuts.

    min c x  s.t.  sum_{c ni i} x_c >= 1 (task rows),  sum_c [|S_c & R| >= 2] x_c <= 1 for
    every cut triple R (at most one pack holds two tasks of R: valid for every
    schedule, Jepsen et al.'s subset-row inequalities of rank 1), x >= 0.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.h = new_highs()
        self.h.addRows(n, np.ones(n), np.full(n, INF), 0, np.array([], np.int32), np.array([], np.int32), np.array([]))
        self.costs: list[float] = []
        self.sets: list[tuple[int, ...]] = []
        self.levels: list[int] = []
        self.known: dict[tuple[tuple[int, ...], int], int] = {}
        self.cuts: list[tuple[int, int, int]] = []
        self._cut_of_task: list[list[int]] = [[] for _ in range(n)]
        #: pack-count rows (level l, lower): lower <= sum_{c : level_c >= l} x_c <= upper
        self.level_cuts: list[tuple[int, int]] = []
        self.level_upper: list[float] = []  # upper bounds of the same rows (tree branches; inf: none)
        #: cost of the artificial column of each pack-count row (relaxes its upper bound; set by the solver)
        self.artificial_cost = 1e6
        self._sr_rows: list[int] = []  # master row of each subset-row cut
        self._cols_of_task: list[list[int]] = [[] for _ in range(n)]
        # after new columns the old basis stays primal feasible: primal simplex (HiGHS
        # strategy 4) re-solves about twice as fast as the default there; after bound
        # changes (a tree node) the basis stays dual feasible: dual simplex (strategy 1)
        self._bounds_changed = False
        self._lc_rows: list[int] = []  # master row of each pack-count cut
        self._start: Basis | None = None  # basis the next solve starts from (start_from)
        self._solves = 0  # optimal LP solves so far
        self._last_used = np.zeros(0, dtype=np.int64)  # per column: last solve with x_c > 0 (purge)
        #: task sets of the columns deleted by :meth:`purge` (the restricted-master MIPs still use them)
        self.retired: list[tuple[int, ...]] = []
        #: task pairs (i, j) of the dual-optimal-inequality columns, in column order
        self.dominance = np.zeros((0, 2), dtype=np.int64)

    def _cut_rows(self, s: tuple[int, ...], level: int) -> list[int]:
        """Rows of the cuts where column (``s``, ``level``) has coefficient 1."""
        hits: dict[int, int] = {}
        for i in s:
            for c in self._cut_of_task[i]:
                hits[c] = hits.get(c, 0) + 1
        rows = [self._sr_rows[c] for c, h in hits.items() if h >= 2]
        rows += [r for (lv, _), r in zip(self.level_cuts, self._lc_rows, strict=True) if level >= lv]
        return sorted(rows)

    def add(self, sets: list[tuple[int, ...]], costs: list[float], levels: list[int]) -> int:
        """Append the columns (set, level) not already present; returns how many were new.

        A set may enter at a level above its cheapest one: it then costs more but
        counts in more pack-count cuts (the LP may want that; schedules never do).
        """
        new_sets, new_costs, new_levels = [], [], []
        for s, c, lv in zip(sets, costs, levels, strict=True):
            if (s, lv) in self.known:
                continue
            self.known[(s, lv)] = len(self.sets) + len(new_sets)
            new_sets.append(s)
            new_costs.append(c)
            new_levels.append(lv)
        if new_sets:
            if self.cuts or self.level_cuts:
                rows = [(*s, *self._cut_rows(s, lv)) for s, lv in zip(new_sets, new_levels, strict=True)]
            else:
                rows = new_sets
            starts, index, value = csc(rows)
            cnt = len(new_sets)
            self.h.addCols(cnt, np.array(new_costs), np.zeros(cnt), np.full(cnt, INF), index.size, starts, index, value)
            for c, st_ in enumerate(new_sets, start=len(self.sets)):
                for i in st_:
                    self._cols_of_task[i].append(c)
            self.sets.extend(new_sets)
            self.costs.extend(new_costs)
            self.levels.extend(new_levels)
        return len(new_sets)

    def add_cuts(self, triples: list[tuple[int, int, int]]) -> None:
        """Add subset-row cuts on the given task triples (their rows cover every existing column)."""
        for r in triples:
            rs = set(r)
            idx = [c for c, s in enumerate(self.sets) if len(rs.intersection(s)) >= 2]
            self.h.addRow(-INF, 1.0, len(idx), np.array(idx, dtype=np.int32), np.ones(len(idx)))
            cut = len(self.cuts)
            self.cuts.append(tuple(r))
            self._sr_rows.append(self.h.getNumRow() - 1)
            for i in r:
                self._cut_of_task[i].append(cut)

    def add_level_cuts(self, cuts: list[tuple[int, int]]) -> None:
        """Add pack-count cuts sum_{c : level_c >= l} x_c >= rhs for the given (l, rhs).

        Each row also gets two artificial columns (coefficients -1 and +1, cost
        ``artificial_cost``, empty task set, level -1) so that the bounds a node sets can
        never make the restricted master infeasible, before pricing has supplied the columns
        they need (an upper bound, or a lower bound at a level above a window that now
        excludes the tasks of the columns there); an LP using one costs more than any
        schedule.
        """
        lv = np.asarray(self.levels, dtype=np.int64)
        for level, rhs in cuts:
            idx = np.flatnonzero(lv >= level).astype(np.int32)
            self.h.addRow(float(rhs), INF, idx.size, idx, np.ones(idx.size))
            self.level_cuts.append((int(level), int(rhs)))
            self.level_upper.append(INF)
            row = self.h.getNumRow() - 1
            self._lc_rows.append(row)
            for coef in (-1.0, 1.0):
                self.h.addCol(self.artificial_cost, 0.0, INF, 1, np.array([row], np.int32), np.array([coef]))
                self.sets.append(())
                self.costs.append(self.artificial_cost)
                self.levels.append(-1)

    def add_dominance(self, pairs: np.ndarray) -> None:
        """Dual-optimal inequalities pi_i <= pi_j, one column e_i - e_j of cost 0 for each
        pair (i, j) where task j needs at least as many processors as task i at every
        level (:meth:`.levels.LevelTable.dominance`).

        Ben Amor, Desrosiers and Valerio de Carvalho ("Dual-optimal inequalities for
        stabilized column generation", Operations Research 54(3), 2006) add such
        columns for the cutting stock problem.  They keep the LP value: a point using
        y_ij can take y_ij of the coverage of j from columns holding j but not i and
        put i in j's place (it fits at the same level, the same pack counts), so some
        optimal dual satisfies them and the LP only searches less of the dual space.
        They are valid as long as i may sit at every level j may (a node's window of j
        inside i's, :meth:`restrict`) and there are no subset-row cuts (whose
        coefficients change when j is replaced by i).  Never purged; level
        :data:`DOMINANCE_LEVEL`, empty task set, so nothing counts them as a pack.
        """
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        for i, j in pairs.tolist():
            self.h.addCol(0.0, 0.0, INF, 2, np.array([i, j], np.int32), np.array([1.0, -1.0]))
            self.sets.append(())
            self.costs.append(0.0)
            self.levels.append(DOMINANCE_LEVEL)
        self.dominance = np.concatenate([self.dominance, pairs])

    def set_level_rhs(self, rhs: dict[int, int], upper: dict[int, int] | None = None) -> None:
        """Set every pack-count row to ``rhs[level]`` <= N(>= level) <= ``upper[level]``
        (0 and inf when absent), adding the rows of the levels not present yet (tree
        nodes tighten them and branch on them)."""
        upper = upper or {}
        have = {c[0] for c in self.level_cuts}
        new = sorted({lv for lv in [*rhs, *upper] if lv not in have})
        if new:
            self.add_level_cuts([(lv, 0) for lv in new])
        for c, ((level, old), row) in enumerate(zip(self.level_cuts, self._lc_rows, strict=True)):
            r = int(rhs.get(level, 0))
            u = float(upper.get(level, INF))
            if r != old or u != self.level_upper[c]:
                self.level_cuts[c] = (level, r)
                self.level_upper[c] = u
                self.h.changeRowBounds(row, float(r), u)
                self._bounds_changed = True

    def level_counts(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(levels, N(>= level)) of the LP point ``x`` at the distinct levels of its support."""
        lv = np.asarray(self.levels, dtype=np.int64)[: x.size]  # x may predate the newest columns
        supp = np.flatnonzero((x > 1e-9) & (lv >= 0))
        if supp.size == 0:
            return np.empty(0, np.int64), np.empty(0)
        order = np.argsort(-lv[supp], kind="stable")
        levels = lv[supp][order]
        cum = np.cumsum(x[supp][order])
        last = np.r_[levels[1:] != levels[:-1], True]
        return levels[last], cum[last]

    def separate_level_cuts(self, x: np.ndarray, need: dict[int, int], eps: float = 1e-6) -> list[tuple[int, int]]:
        """The pack-count cuts (l, rhs) of ``need`` violated by the LP point ``x`` (not yet present)."""
        lv = np.asarray(self.levels, dtype=np.int64)
        have = {c[0] for c in self.level_cuts}
        out = []
        for level, rhs in need.items():
            if level not in have and float(x[lv >= level].sum()) < rhs - eps:
                out.append((level, rhs))
        return out

    def bonus(self, mu: np.ndarray | None, num_levels: int) -> np.ndarray | None:
        """B(l) = sum of the pack-count duals mu_c over the rows with level_c <= l: a step
        function, non-decreasing unless a branch's upper bound gives a negative dual."""
        if mu is None or not self.level_cuts or not (mu != 0).any():
            return None
        b = np.zeros(num_levels)
        for (level, _), m in zip(self.level_cuts, mu.tolist(), strict=True):
            b[level] += m
        return np.cumsum(b)

    def level_cut_rhs(self, mu: np.ndarray | None) -> float:
        """sum_c mu_c b_c (b_c the lower bound where mu_c > 0, the upper one where mu_c < 0):
        the pack-count rows' share of the dual objective."""
        if mu is None or not self.level_cuts:
            return 0.0
        tot = 0.0
        for (_, lo), up, m in zip(self.level_cuts, self.level_upper, mu.tolist(), strict=True):
            if m > 0:
                tot += m * lo
            elif m < 0:
                tot += m * up  # finite: a negative dual needs an active upper bound
        return float(tot)

    def restrict(self, lo: np.ndarray, hi: np.ndarray, constrained: np.ndarray) -> None:
        """Allow only the columns whose level lies in [lo_i, hi_i] for each task i they hold
        (upper bound 0 for the others); only the ``constrained`` tasks are checked."""
        ncol = len(self.sets)
        if ncol == 0:
            return
        ok = np.ones(ncol, dtype=bool)
        lv = np.asarray(self.levels, dtype=np.int64)
        for i in np.asarray(constrained, dtype=np.int64).tolist():
            cols = np.asarray(self._cols_of_task[i], dtype=np.int64)
            ok[cols] &= (lo[i] <= lv[cols]) & (lv[cols] <= hi[i])
        if self.dominance.size:  # e_i - e_j only while j's (non-empty) window lies inside i's
            i, j = self.dominance[:, 0], self.dominance[:, 1]
            ok[lv == DOMINANCE_LEVEL] = (lo[i] <= lo[j]) & (hi[j] <= hi[i]) & (lo[j] <= hi[j])
        idx = np.arange(ncol, dtype=np.int32)
        self.h.changeColsBounds(ncol, idx, np.zeros(ncol), np.where(ok, INF, 0.0))
        self._bounds_changed = True

    def relax_rows(self, covered: np.ndarray) -> None:
        """Task rows of the ``covered`` tasks (a bool mask) get lower bound 0 (a pack fixed
        outside the LP holds them), the other task rows 1."""
        rows = np.arange(self.n, dtype=np.int32)
        self.h.changeRowsBounds(self.n, rows, np.where(covered, 0.0, 1.0), np.full(self.n, INF))
        self._bounds_changed = True

    def _stamp(self, x: np.ndarray | None = None) -> None:
        """Columns added since the last call count as used now; with ``x``, so do its support."""
        ncol = len(self.sets)
        if self._last_used.size < ncol:
            fresh = np.full(ncol - self._last_used.size, self._solves, dtype=np.int64)
            self._last_used = np.concatenate([self._last_used, fresh])
        if x is not None:
            self._last_used[: x.size][x > 1e-9] = self._solves

    def purge(self, target: int, age: int, protect: np.ndarray | None = None) -> np.ndarray | None:
        """Delete columns, the largest reduced costs first, until at most ``target`` remain;
        only columns outside the LP support for the last ``age`` solves, nonbasic now and
        not ``protect``-ed (a bool mask, e.g. basic in a stored basis) may go, never the
        artificial ones.  Returns the mask of the columns kept (None when nothing was
        deleted); bases taken before must go through :meth:`remap_basis`.

        A dual simplex iteration prices every column, so an iteration's cost grows with
        the master (strong branching runs hundreds of them per child).  A deleted column
        that pricing finds again simply comes back.
        """
        ncol = len(self.sets)
        if ncol <= target:
            return None
        self._stamp()
        free = (self._last_used < self._solves - age) & (np.asarray(self.levels, dtype=np.int64) >= 0)
        free &= self.basis()[0][:ncol] != BASIC
        if protect is not None:
            free[: protect.size] &= ~protect[:ncol]
        cand = np.flatnonzero(free)
        if cand.size == 0:
            return None
        rc = np.asarray(self.h.getSolution().col_dual, dtype=float)
        if rc.size == ncol:
            cand = cand[np.argsort(-rc[cand], kind="stable")]
        return self.delete(np.sort(cand[: ncol - target]))

    def delete(self, drop: np.ndarray) -> np.ndarray:
        """Delete the columns ``drop`` (sorted indices; they join :attr:`retired`); returns
        the mask of the columns kept, through which bases taken before must be remapped
        (:meth:`remap_basis`)."""
        ncol = len(self.sets)
        self._stamp()  # columns added since the last solve (a dive stopped by the deadline)
        self.h.deleteCols(drop.size, drop.astype(np.int32))
        keep = np.ones(ncol, dtype=bool)
        keep[drop] = False
        new_index = np.cumsum(keep) - 1
        self.retired.extend(self.sets[c] for c in drop.tolist())
        kept = np.flatnonzero(keep).tolist()
        self.sets = [self.sets[c] for c in kept]
        self.costs = [self.costs[c] for c in kept]
        self.levels = [self.levels[c] for c in kept]
        self.known = {key: int(new_index[c]) for key, c in self.known.items() if keep[c]}
        for i, cols in enumerate(self._cols_of_task):
            arr = np.asarray(cols, dtype=np.int64)
            self._cols_of_task[i] = new_index[arr[keep[arr]]].tolist()
        self._last_used = self._last_used[keep]
        self._start = self.remap_basis(self._start, keep)
        return keep

    @staticmethod
    def remap_basis(basis: Basis | None, keep: np.ndarray) -> Basis | None:
        """``basis`` without the columns :meth:`delete` deleted (``keep`` False); None when one
        of them was basic in it (it would no longer be square)."""
        if basis is None:
            return None
        cols, rows = basis
        size = min(cols.size, keep.size)
        if (cols[:size][~keep[:size]] == BASIC).any():
            return None
        return np.concatenate([cols[:size][keep[:size]], cols[size:]]), rows

    def basis(self) -> Basis:
        """The simplex basis of the last solve, as HiGHS status codes of the columns and
        the rows (for :meth:`start_from`)."""
        b = self.h.getBasis()
        return (
            np.fromiter((int(v) for v in b.col_status), dtype=np.int8),
            np.fromiter((int(v) for v in b.row_status), dtype=np.int8),
        )

    def start_from(self, basis: Basis | None) -> None:
        """Start the next solve from ``basis``, taken earlier by :meth:`basis`.

        The columns and rows added since then enter as nonbasic at 0 and basic
        (their slack) respectively, so the basis stays square; nonbasic statuses
        that no longer match a bound are corrected by HiGHS.  Jumping between tree
        nodes, the dual simplex then starts from the node's parent's optimal basis
        instead of the last node solved.
        """
        self._start = basis
        self._bounds_changed = True

    def _apply_start(self) -> None:
        b, self._start = self._start, None
        if b is None:
            return
        cols, rows = b
        cols = np.concatenate([cols, np.zeros(self.h.getNumCol() - cols.size, dtype=np.int8)])  # kLower
        rows = np.concatenate([rows, np.full(self.h.getNumRow() - rows.size, BASIC, dtype=np.int8)])
        nb = highspy.HighsBasis()
        nb.col_status = [_STATUS[v] for v in cols.tolist()]
        nb.row_status = [_STATUS[v] for v in rows.tolist()]
        nb.valid = True
        self.h.setBasis(nb)

    def solve(self, deadline: Deadline, iteration_limit: int | None = None) -> LPSolution | None:
        """Re-solve (warm); None when the time limit stopped HiGHS before optimality.

        With ``iteration_limit`` a solve that reaches it returns where it stopped.  After
        a bound or right-hand-side change the dual simplex runs from a dual feasible
        basis and its objective only rises, so that point's objective is a lower
        estimate of the LP value (not a bound of the problem: the columns are restricted).
        """
        self._apply_start()
        strategy = 1 if self._bounds_changed else 4
        self._bounds_changed = False
        run = run_highs(
            self.h,
            deadline,
            options={"simplex_strategy": strategy, "simplex_iteration_limit": iteration_limit or NO_ITERATION_LIMIT},
        )
        partial = iteration_limit is not None and run.iteration_limited
        if run.status is not Status.OPTIMAL and not partial:
            return None
        sol = self.h.getSolution()
        dual = np.array(sol.row_dual, dtype=float)
        x = np.array(sol.col_value, dtype=float)
        if not partial:
            self._solves += 1
            self._stamp(x)
        return LPSolution(
            objective=float(self.h.getInfo().objective_function_value),
            duals=np.maximum(dual[: self.n], 0.0),
            x=x,
            iterations=int(self.h.getInfo().simplex_iteration_count),
            cut_duals=np.maximum(-dual[np.asarray(self._sr_rows, dtype=np.int64)], 0.0),
            level_duals=self._level_duals(dual[np.asarray(self._lc_rows, dtype=np.int64)]),
        )

    def _level_duals(self, mu: np.ndarray) -> np.ndarray:
        """Row duals of the pack-count rows, signs made consistent with their bounds
        (>= 0 without an upper bound; HiGHS' round-off clipped)."""
        out = mu.copy()
        for c, up in enumerate(self.level_upper):
            if not math.isfinite(up):
                out[c] = max(out[c], 0.0)
        return out

    def separate(self, x: np.ndarray, limit: int, eps: float = 1e-6) -> list[tuple[int, int, int]]:
        """The most violated subset-row cuts on task triples for the LP point ``x`` (not yet present).

        sum_c x_c [|S_c & R| >= 2] = w_ab + w_ac + w_bc - 2 w_abc with w the pair and triple
        weights of the support; candidate triples first pass w_ab + w_ac + w_bc > 1.
        """
        supp = np.flatnonzero(x > 1e-9)
        if supp.size == 0:
            return []
        n = self.n
        memb = np.zeros((n, supp.size))
        for r, c in enumerate(supp.tolist()):
            memb[list(self.sets[c]), r] = 1.0
        xs = x[supp]
        w = (memb * xs) @ memb.T
        np.fill_diagonal(w, 0.0)
        have = set(self.cuts)
        found: list[tuple[float, tuple[int, int, int]]] = []
        pa, pb = np.nonzero(np.triu(w, 1) > eps)
        for a, b in zip(pa.tolist(), pb.tolist(), strict=True):
            cs = np.arange(b + 1, n)
            tot = w[a, b] + w[a, cs] + w[b, cs]
            cand = cs[tot > 1 + eps]
            if cand.size == 0:
                continue
            both = memb[a] * memb[b] * xs
            val = tot[tot > 1 + eps] - 2.0 * (memb[cand] @ both)
            for c, v in zip(cand.tolist(), val.tolist(), strict=True):
                if v > 1 + eps and (a, b, c) not in have:
                    found.append((v, (a, b, c)))
        found.sort(reverse=True)
        return [r for _, r in found[:limit]]

    def cut_data(self, duals: np.ndarray | None) -> tuple[np.ndarray, np.ndarray] | None:
        """(triples (C, 3), penalties (C,)) of the cuts with a positive dual, or None."""
        if duals is None or not self.cuts:
            return None
        on = np.flatnonzero(duals > 1e-12)
        if on.size == 0:
            return None
        return np.array(self.cuts, dtype=np.int64)[on], duals[on]


@dataclass
class LPSolution:
    objective: float
    duals: np.ndarray  # task rows, >= 0
    x: np.ndarray
    iterations: int
    cut_duals: np.ndarray  # subset-row penalties, >= 0 (minus the row duals)
    level_duals: np.ndarray  # pack-count row duals mu (< 0 only under a branch's upper bound)
