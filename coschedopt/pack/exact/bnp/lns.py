"""Large neighbourhood search with an exact repair: re-solve windows of the incumbent.

A window is a run of packs adjacent in cost (the incumbent's packs sorted by their
level): at least two packs, more while their tasks stay within ``lns_tasks``.  Its
tasks form a sub-instance (same p and k) that the solver itself re-solves (the
``solve_window`` function the driver hands in), started from the window's current
packs, so it returns them unchanged or a strictly cheaper cover proven optimal for
those tasks (or the best found in its time box).  Packs of neighbouring levels are
the ones that trade tasks in an optimal schedule: the local search moves one or two
tasks at a time, a window re-partitions tens of them at once.  Windows already
solved (by their task set) are not tried again; once every window of the incumbent
has been, those stopped by their time box are re-solved with ``lns_retry_factor``
times the box (twice by default, up to ``lns_max_sub_time``).  Then come windows
that skip packs (a pack with one to three of the packs after it: an exchange
between packs two or three levels apart, which the runs of adjacent packs only
reach through a chain of cheaper steps), then runs
of two and three times as many tasks (``lns_stages``), and then the search is
exhausted.  A cheaper incumbent starts again from the first stage.

Once every window of the first stage of an incumbent was tried (a local optimum of
the exchanges between neighbouring packs), a profile move re-partitions all the tasks
at once: each pack may move to a level of the tree's latest best-first node LP within
``lns_profile_reach`` of its own, or empty (:func:`.mips.solve_profile_neighbourhood`,
a MIP started from the incumbent), at most once per incumbent and within
``lns_profile_share`` of the search's time: the exchange over nearly every pack that
no window short of the whole instance can make.

This is a primal heuristic only: it never touches the bound.  It starts once the
solve is long (``lns_after``), or after the first seconds with a worker process
(``lns_worker_after``; one worker, the default on a machine with two or more cores):
the search then runs there on its own copy of the incumbent, window after window,
while the tree goes on in the solver's process (:func:`search_loop`): each cheaper
cover it finds is sent to the solver, which takes it when it beats its incumbent,
and each cheaper incumbent the solver finds otherwise is sent to the worker, which
continues from it.  The solver collects between column-generation rounds, so the
worker never waits for a tree node to end; which windows are tried then depends on
timing, so two runs may differ.  Without a worker the windows are re-solved between
tree nodes within a share of the time (``lns_share``), deterministically.  Measured
effects: ``benchmarks/results/bnp-notes.md``.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator

import numpy as np

from ....core import Deadline
from ...instance import PackInstance
from .levels import LevelTable
from .mips import solve_profile_neighbourhood
from .options import BnpOptions
from .state import State, allocations, integral

#: ``solve_window(times, k, start, time_limit, seed, options) -> (packs, status, seconds)``: re-solve
#: the sub-instance of a window's tasks (rows of ``times``) from its packs ``start`` (task row,
#: processors) with ``options``; module-level where a worker process is to run it
WindowSolver = Callable[[np.ndarray, int, list, float, int, BnpOptions], tuple[list, str, float]]


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """While a worker process is spawned, the parent's ``__main__`` has neither file nor spec.

    A spawned child imports the parent's main module before it runs its target, so that
    functions defined there unpickle; the search needs nothing of it (its target and arguments
    are the toolkit's and numpy's).  Hidden, a user's script without an ``if __name__ ==
    "__main__":`` guard is not run again in the child (its top-level ``solve`` would start over
    there, and multiprocessing refuses a process started while the child bootstraps).
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    missing = object()
    saved = {k: main.__dict__.get(k, missing) for k in ("__file__", "__spec__")}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is missing:
                main.__dict__.pop(k, None)
            else:
                main.__dict__[k] = v


class Neighbourhoods:
    """The windows of the incumbent not tried yet, and one exact re-solve per :meth:`step`
    (in this process), or the worker process that runs :func:`search_loop`."""

    def __init__(self, st: State, solve_window: WindowSolver, workers: int = 0) -> None:
        self.st = st
        self.opts = st.problem.opts
        self.solve_window = solve_window
        self.sub_options = st.problem.opts.for_window()  # the options of a window's re-solve
        self.window_tasks = st.problem.opts.lns_tasks
        self.stages = st.problem.opts.lns_stages
        self.rng = np.random.default_rng(st.problem.seed)
        self.tried: set[frozenset[int]] = set()
        self.stage = 0  # index in ``stages`` of the windows tried now
        self._ub_seen = st.incumbent.ub
        self.unproven: dict[frozenset[int], float] = {}  # window -> time box that stopped it
        self.spent = 0.0
        self.steps = 0
        self.improved = 0
        self.last = ""  # what the last step re-solved: "<tasks> tasks, <status>"
        # a daemonic process (the bench harness's workers) may not start one: search in-process
        self.workers = 0 if multiprocessing.current_process().daemon else int(workers)
        self.exhausted = False  # the worker has tried every window of its incumbent
        self._proc = None
        self._inbox = self._outbox = None
        self._synced = math.inf  # cost of the last cover exchanged with the worker
        self.worker_cost = math.inf  # cost of the worker's incumbent at its last report
        self.levels: np.ndarray | None = None  # support levels of the tree's latest best-first node LP
        self._profiled = math.nan  # incumbent cost at the last profile move
        self.profile_spent = 0.0
        self.profile_moves = 0
        self.profile_improved = 0

    def all_windows(
        self, tasks: int | None = None, reach: int = 1
    ) -> list[tuple[list[tuple[int, ...]], frozenset[int]]]:
        """(packs, task set) of every window of the incumbent, of up to ``tasks`` tasks
        (default ``window_tasks``; a window holds at least two packs, and at most twice that):
        runs of packs adjacent in level, or with ``reach`` > 1 a pack and one to
        ``lns_skip_packs`` - 1 of the ``reach`` packs after it."""
        table = self.st.problem.table
        width = self.window_tasks if tasks is None else int(tasks)
        packs = sorted(self.st.incumbent.best_sets, key=lambda s: (table.min_level(s), s))
        out = []
        if reach > 1:
            for a in range(len(packs) - 1):
                for m in range(1, self.opts.lns_skip_packs):
                    for rest in itertools.combinations(range(a + 1, min(len(packs), a + 1 + reach)), m):
                        sel = [packs[a], *(packs[b] for b in rest)]
                        size = sum(map(len, sel))
                        if (m == 1 or size <= width) and size <= 2 * width:
                            out.append((sel, frozenset(i for s in sel for i in s)))
            return out
        for a in range(len(packs) - 1):
            b, size = a, 0
            while b < len(packs) and (b - a < 2 or size + len(packs[b]) <= width):
                size += len(packs[b])
                b += 1
            if size <= 2 * width:
                out.append((packs[a:b], frozenset(i for s in packs[a:b] for i in s)))
        return out

    def step(self, until: Deadline) -> bool:
        """Re-solve one random untried window of the incumbent within ``until`` and offer
        the incumbent with its tasks re-partitioned (kept only if strictly cheaper);
        False when no window is left."""
        st, opts = self.st, self.opts
        if st.incumbent.ub < self._ub_seen:  # a new incumbent: the first stage's windows first
            self.stage, self._ub_seen = 0, st.incumbent.ub
        profile = self.stage > 0 and self.levels is not None and st.incumbent.ub != self._profiled
        if profile and self.profile_spent <= opts.lns_profile_share * self.spent:
            return self._profile_step(until)
        todo: list = []
        while not todo:
            multiple, reach = self.stages[self.stage]
            every = self.all_windows(self.window_tasks * multiple, reach)
            todo, box = [w for w in every if w[1] not in self.tried], opts.lns_sub_time
            if not todo:  # every window tried: give the unproven ones more time, shortest box first
                boxes = [(self.unproven.get(w[1], math.inf), r) for r, w in enumerate(every)]
                grow = opts.lns_retry_factor
                boxes = [(b, r) for b, r in boxes if grow * b <= opts.lns_max_sub_time]
                if boxes:
                    b, r = min(boxes)
                    todo, box = [every[r]], grow * b
            if not todo:  # then the next stage
                if self.stage + 1 >= len(self.stages):
                    return False
                self.stage += 1
        if until.expired():
            return False
        # a random untried window (an order guided by the root LP did no better: bnp-notes.md)
        window, key = todo[int(self.rng.integers(len(todo)))]
        self.tried.add(key)
        tasks = sorted(key)
        local = {i: r for r, i in enumerate(tasks)}
        start = [[(local[i], q) for i, q in pack] for pack in allocations(st.problem.table, window)]
        rem = until.remaining()
        limit = min(box, rem) if math.isfinite(rem) else box
        packs, status, seconds = self.solve_window(
            st.problem.inst.times[tasks], st.problem.inst.max_pack_size, start, limit, st.problem.seed, self.sub_options
        )
        if status == "TIME_LIMIT" and limit >= box:
            self.unproven[key] = box
        else:
            self.unproven.pop(key, None)
        self.spent += seconds
        self.steps += 1
        self.last = f"{len(tasks)} tasks, {status}"
        new = [tuple(sorted(tasks[r] for r, _ in pack)) for pack in packs]
        rest = [s for s in st.incumbent.best_sets if not key.issuperset(s)]
        # offer() keeps the result only when it is strictly cheaper than the incumbent
        if st.incumbent.offer(rest + new, f"neighbourhood search ({self.last})", improve=False):
            self.improved += 1
        return True

    def _profile_step(self, until: Deadline) -> bool:
        """Re-partition every task at once, each pack at a level of the node LP's support
        near its own (:func:`.mips.solve_profile_neighbourhood`), and offer the result."""
        st = self.st
        rem = until.remaining()
        t0 = time.perf_counter()
        sets = solve_profile_neighbourhood(
            st.problem.table,
            st.incumbent.best_sets,
            st.problem.inst.max_pack_size,
            self.levels,
            reach=self.opts.lns_profile_reach,
            time_limit=min(self.opts.lns_profile_time, rem),
            seed=st.problem.seed,
        )
        seconds = time.perf_counter() - t0
        self.spent += seconds
        self.profile_spent += seconds
        self.steps += 1
        self.profile_moves += 1
        self.last = f"pack profile over {self.levels.size} levels, {seconds:.1f} s"
        if sets is not None and st.incumbent.offer(sets, f"neighbourhood search ({self.last})", improve=False):
            self.improved += 1
            self.profile_improved += 1
        self._profiled = st.incumbent.ub
        return True

    def set_levels(self, levels: np.ndarray) -> None:
        """The support levels of a best-first node LP: the candidate pack levels of the
        profile moves (sent to the worker process when there is one)."""
        self.levels = np.asarray(levels, dtype=np.int64)
        if self._proc is not None:
            self._inbox.put(("levels", self.levels))

    def _poll(self) -> None:
        """Start the worker process, take its cheaper covers, send it our cheaper incumbents."""
        st = self.st
        if self._proc is None:
            ctx = multiprocessing.get_context("spawn")  # not fork: the solver's process holds HiGHS threads
            self._inbox, self._outbox = ctx.Queue(), ctx.Queue()
            rem = st.problem.deadline.remaining()
            seconds = rem if math.isfinite(rem) else None
            args = (
                st.problem.inst.times,
                st.problem.inst.max_pack_size,
                st.problem.table.scale,
                list(st.incumbent.best_sets),
                st.problem.seed,
                seconds,
                self.levels,
            )
            args += (self.opts, self.solve_window, self._inbox, self._outbox)
            self._proc = ctx.Process(target=search_loop, args=args, daemon=True)
            with _main_module_hidden():
                self._proc.start()
            self._synced = st.incumbent.ub
            return
        while True:
            try:
                sets, cost, tally, exhausted, last = self._outbox.get_nowait()
            except queue.Empty:
                break
            (self.steps, self.spent, self.profile_moves, self.profile_improved, self.profile_spent) = tally
            self.last, self.worker_cost = last, cost
            if sets is not None and st.incumbent.offer(sets, f"neighbourhood search ({last})", improve=False):
                self.improved += 1
                self._synced = st.incumbent.ub
            # (a report sent before the worker read our latest incumbent is not about it)
            self.exhausted = exhausted and cost <= st.incumbent.ub + 1e-12 * max(1.0, st.incumbent.ub)
        if st.incumbent.ub < self._synced - 1e-12 * max(1.0, st.incumbent.ub):
            # found here (tree, MIP, ...): the worker continues from it
            self._inbox.put(("cover", list(st.incumbent.best_sets)))
            self._synced = st.incumbent.ub

    def close(self) -> None:
        """Stop the worker process (what it has not reported yet is dropped)."""
        if self._proc is not None and self._proc.pid is not None:  # started (a failed start leaves none)
            self._proc.terminate()
            self._proc.join()
            for q in (self._inbox, self._outbox):
                q.cancel_join_thread()
                q.close()
            self._proc = None

    def catch_up(self) -> None:
        """With a worker process: exchange incumbents with it (cheap: called between
        column-generation rounds); without: steps while the search is behind its share
        of the solver's time (``lns_share``)."""
        st = self.st
        if self.workers > 0:
            if (
                time.perf_counter() - st.incumbent.t0 >= self.opts.lns_worker_after
                and not st.problem.deadline.expired()
            ):
                self._poll()
        else:
            while not st.incumbent.closed() and not st.problem.deadline.expired():
                elapsed = time.perf_counter() - st.incumbent.t0
                if (
                    elapsed < self.opts.lns_after
                    or self.spent >= self.opts.lns_share * elapsed
                    or not self.step(st.problem.deadline)
                ):
                    break
        st.incumbent.stats["lns"] = {
            "steps": self.steps,
            "improved": self.improved,
            "seconds": round(self.spent, 3),
            "workers": self.workers,
            "profile_moves": self.profile_moves,
            "profile_improved": self.profile_improved,
            "profile_seconds": round(self.profile_spent, 3),
        }

    def tally(self) -> tuple[int, float, int, int, float]:
        """(steps, seconds, profile moves, those that improved the incumbent, their seconds):
        what the worker reports with each step."""
        return self.steps, self.spent, self.profile_moves, self.profile_improved, self.profile_spent


def search_loop(
    times: np.ndarray,
    k: int,
    scale: float,
    sets: list[tuple[int, ...]],
    seed: int,
    seconds: float | None,
    levels: np.ndarray | None,
    opts: BnpOptions,
    solve_window: WindowSolver,
    inbox,
    outbox,
) -> None:
    """The worker process: :meth:`Neighbourhoods.step` on its own incumbent (the cover
    ``sets`` of the instance ``times``, ``k``; costs divided by ``scale``) for
    ``seconds`` (None: until stopped), with the solver's options ``opts``.
    After each step it puts (its cover if the step made it cheaper else None, its
    cost, :meth:`Neighbourhoods.tally`, exhausted, last step) on ``outbox``; it reads
    ("cover", a cheaper cover), which replaces its incumbent, and ("levels", the
    support levels of a node LP) from ``inbox``.  Once the search is exhausted it
    waits for one.  It ignores Ctrl-C, which reaches the whole process group: the
    solver's process, stopped by it with its best result, stops the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inst = PackInstance(times, k, name="neighbourhoods")
    until = Deadline(seconds)
    table = LevelTable(times, scale, opts.full_table_limit)
    st = State.start(inst, table, until, opts.replace(gap=0.0), seed=seed, integral=integral(times))
    st.incumbent.offer(sets, "solver", improve=False)
    nb = Neighbourhoods(st, solve_window)
    nb.levels = levels
    idle = False
    while not until.expired():
        news = []
        try:
            if idle:
                news.append(inbox.get(timeout=min(opts.lns_idle_wait, until.remaining())))
            while True:
                news.append(inbox.get_nowait())
        except queue.Empty:
            pass
        for kind, new in news:
            if kind == "levels":
                nb.levels = new
                idle = False
            elif st.incumbent.offer(new, "solver", improve=False):
                idle = False
        if idle:
            continue
        before = st.incumbent.ub
        if not nb.step(until):
            idle = True
            outbox.put((None, st.incumbent.ub, nb.tally(), True, nb.last))
            continue
        better = list(st.incumbent.best_sets) if st.incumbent.ub < before else None
        outbox.put((better, st.incumbent.ub, nb.tally(), False, nb.last))
