"""The solver's state shared by the phases: the problem, the incumbent and its bounds, the tree node's rows.

Costs inside the solver are in table units (:attr:`.levels.LevelTable.scale`: pack
times divided by the mean of t(i, p), so of order 1); they are scaled back only in
the log and the result.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ....core import Deadline, progress
from ...instance import PackInstance
from ...schedule import PackSchedule
from .levels import LevelTable, Windows
from .local_search import local_search
from .options import BnpOptions


@dataclass(frozen=True)
class Problem:
    """What is solved, read-only once built: the instance, its level table, the options,
    the deadline, the seed, whether every cost is an integer, the resolved number of
    subset-row cut rounds and, on small instances, every feasible task set."""

    inst: PackInstance
    table: LevelTable
    deadline: Deadline
    opts: BnpOptions = field(default_factory=BnpOptions)
    seed: int = 0
    integral: bool = False  # every schedule costs an integer (integer times)
    cut_rounds: int = 0  # subset-row cut rounds of this solve (options.cut_rounds resolved)
    complete: tuple[tuple[int, ...], ...] | None = None  # every feasible task set, when the master starts complete

    def column(
        self, tasks, bonus: np.ndarray | None = None, windows: Windows | None = None
    ) -> tuple[tuple[int, ...], int]:
        """The column of a task set: its cheapest (allowed) level, or with pack-count duals
        the allowed level minimising tau_l - B(l) (the cheapest one or one where B steps up)."""
        s = tuple(sorted(int(i) for i in tasks))
        lv = self.table.min_level(s)
        top = self.table.L - 1
        if windows is not None and s:
            idx = list(s)
            lv = max(lv, int(windows.lo[idx].max()))
            top = int(windows.hi[idx].min())
        if bonus is not None:
            steps = np.flatnonzero(np.diff(bonus[lv : top + 1]) > 0) + lv + 1
            if steps.size:
                cand = np.concatenate([[lv], steps])
                lv = int(cand[np.argmin(self.table.tau[cand] - bonus[cand])])
        return s, lv


class Incumbent:
    """The best schedule and the bounds of a solve: the incumbent's task sets and cost
    ``ub``, the certified lower bound ``lb``, the counters and statistics, the log."""

    def __init__(self, problem: Problem, verbose: bool = False, t0: float | None = None) -> None:
        self.problem = problem
        self.verbose = verbose
        self.best_sets: list[tuple[int, ...]] = []
        self.ub = math.inf  # scaled
        self.lb = 0.0  # scaled, certified
        self.stats: dict = {}
        self.t0 = time.perf_counter() if t0 is None else t0  # the solve's start (log, bound history)
        #: report the incumbent and the bound to a live view (core.progress): the top solve's, not a sub-problem's
        self.live = False

    @property
    def gap(self) -> float:
        return self.problem.opts.gap

    def log(self, msg: str) -> None:
        if self.verbose:
            print(f"[branch-and-price {time.perf_counter() - self.t0:7.2f}s] {msg}", file=sys.stderr, flush=True)

    def closed(self) -> bool:
        return self.ub - self.lb <= self.gap * self.ub + 1e-8 * max(1.0, self.ub)

    def count(self, key: str, by: int | float = 1) -> None:
        """Add ``by`` to the counter ``stats[key]``."""
        self.stats[key] = self.stats.get(key, 0) + by

    def offer(self, sets: list[tuple[int, ...]], source: str, improve: bool = True) -> bool:
        """Consider a cover by task sets as incumbent (each set priced at its optimal level),
        after the local search of :func:`.local_search.local_search` (time-boxed) when it is
        close to or better than the incumbent.  A cover that misses a task or holds a pack
        that fits no level or exceeds k tasks is not a schedule: it is refused (and counted
        in ``stats["refused_covers"]``), so that no such cover can cut the search short."""
        pb = self.problem
        table, opts = pb.table, pb.opts
        sets = partition(sets)
        k, n = pb.inst.max_pack_size, pb.inst.n
        if sorted(i for s in sets for i in s) != list(range(n)) or any(
            len(s) > k or table.min_level(s) < 0 for s in sets
        ):
            self.count("refused_covers")
            self.log(f"refused a cover from {source}: not a schedule of the {n} tasks in packs of <= {k}")
            return False
        cost = cover_cost(table, sets)
        if improve and cost < self.ub * (1 + opts.local_search_window):
            box = pb.deadline.share(opts.local_search_share, opts.local_search_max)
            better, cost2 = local_search(table, k, sets, box, opts.local_search_passes)
            if cost2 < cost - 1e-12 * max(1.0, cost):
                source += f" + local search ({cost * table.scale:.6g})"
                sets, cost = better, cost2
        if cost < self.ub - 1e-12 * max(1.0, cost):
            self.ub, self.best_sets = cost, sets
            self.log(f"incumbent {cost * table.scale:.6g} from {source} (bound {self.lb * table.scale:.6g})")
            if self.live:
                progress.report(incumbent=cost * table.scale)
            return True
        return False

    def raise_lb(self, value: float, source: str) -> None:
        if self.problem.integral:
            # every schedule costs an integer: opt >= lb implies opt >= ceil(lb) (1e-6: float slack)
            scale = self.problem.table.scale
            value = max(value, math.ceil(value * scale - 1e-6) / scale)
        if value > self.lb:
            self.lb = value
            self.stats.setdefault("bound_history", []).append([round(time.perf_counter() - self.t0, 3), source])
            if self.live:
                progress.report(bound=value * self.problem.table.scale)

    def safe(self, bound: float) -> float:
        """``bound`` less the relative slack for float round-off (``bound_safety``)."""
        return bound * (1 - self.problem.opts.bound_safety)

    def schedule(self) -> PackSchedule:
        """The incumbent as a schedule of the instance."""
        return PackSchedule.from_indices(self.problem.inst, allocations(self.problem.table, self.best_sets))


@dataclass
class NodeContext:
    """The pack-count rows handed to the covering MIPs: the root's cuts, and those of the
    tree node being solved (tightened, with upper bounds from the count branches)."""

    level_cuts: list | None = None  # pack-count cuts (level, rhs) of the root master
    node_level_cuts: list | None = None  # the same, tightened in the current tree node
    node_level_upper: list | None = None  # and their upper bounds there (count branches)

    def mip_rows(self, in_node: bool) -> tuple[list | None, list | None]:
        """The pack-count rows (level, rhs) of a covering MIP and their upper bounds: the
        root's (no upper bound), or with ``in_node`` those of the current tree node."""
        if in_node:
            return self.node_level_cuts, self.node_level_upper
        return self.level_cuts, None


@dataclass
class State:
    """What the phases share, in three parts with one reason to change each: the
    read-only :class:`Problem`, the :class:`Incumbent` and its bounds, and the
    :class:`NodeContext` of the tree node (the neighbourhood search is the driver's:
    :class:`.lns.Neighbourhoods`, handed to the phases that exchange with it)."""

    problem: Problem
    incumbent: Incumbent
    node: NodeContext = field(default_factory=NodeContext)

    @classmethod
    def start(
        cls,
        inst: PackInstance,
        table: LevelTable,
        deadline: Deadline,
        opts: BnpOptions | None = None,
        verbose: bool = False,
        seed: int = 0,
        integral: bool = False,
        cut_rounds: int = 0,
        complete: list[tuple[int, ...]] | None = None,
        t0: float | None = None,
    ) -> State:
        """A new solve's state: its problem, no incumbent yet (bounds 0 and inf), the root's
        context; ``t0``: when the solve started (default: now)."""
        problem = Problem(
            inst,
            table,
            deadline,
            BnpOptions() if opts is None else opts,
            seed,
            integral,
            cut_rounds,
            None if complete is None else tuple(complete),
        )
        return cls(problem, Incumbent(problem, verbose, t0))


def partition(sets: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Turn a cover into a partition: a task covered twice stays only in its first set (never costs more)."""
    seen: set[int] = set()
    out = []
    for s in sets:
        rest = tuple(i for i in s if i not in seen)
        seen.update(rest)
        if rest:
            out.append(rest)
    return out


def cover_cost(table: LevelTable, sets: list[tuple[int, ...]]) -> float:
    """Cost of the packs, each at its cheapest fitting level (Algorithm 1's value), in table units."""
    return float(sum(table.tau[table.min_level(s)] for s in sets))


def allocations(table: LevelTable, sets: list[tuple[int, ...]]) -> list[list[tuple[int, int]]]:
    """Packs of (task, processors): each set at its cheapest level, each task on its least count there."""
    packs = []
    for s in sets:
        m = table.m(table.min_level(s))
        packs.append([(i, int(m[i])) for i in s])
    return packs


def integral(t: np.ndarray) -> bool:
    """Whether every time is an integer (then so is every schedule's cost)."""
    return bool(np.all(t == np.round(t)))
