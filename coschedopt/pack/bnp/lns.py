"""Large neighbourhood search with an exact repair: re-solve windows of the incumbent.

A window is a run of packs adjacent in cost (the incumbent's packs sorted by their
level): at least two packs, more while their tasks stay within ``LNS_TASKS``.  Its
tasks form a sub-instance (same p and k) that :func:`.solver.solve` itself solves,
started from the window's current packs, so it returns them unchanged or a strictly
cheaper cover proven optimal for those tasks (or the best found in its time box).
Packs of neighbouring levels are the ones that trade tasks in an optimal schedule:
the local search of :func:`.solver.local_search` moves one or two tasks at a time,
a window re-partitions tens of them at once.  Windows already solved (by their task
set) are not tried again; once every window of the incumbent has been, those
stopped by their time box are re-solved with twice the box (up to
``LNS_MAX_SUB_TIME``).  Then come windows that skip packs (a pack with one to
three of the four packs after it: an exchange between packs two or three levels
apart, which the runs of adjacent packs only reach through a chain of cheaper
steps), then runs of two and three times as many tasks (``LNS_STAGES``), and then
the search is exhausted.  A cheaper incumbent starts again from the first stage.

Once every window of the first stage of an incumbent was tried (a local optimum of the
exchanges between neighbouring packs), a profile move re-partitions all the tasks at once:
each pack may move to a level of the tree's latest best-first node LP within
``LNS_PROFILE_REACH`` of its own, or empty (:func:`.master.solve_profile_neighbourhood`,
a MIP started from the incumbent), at most once per incumbent and within
``LNS_PROFILE_SHARE`` of the search's time.  It makes the exchange over nearly every
pack that no window short of the whole instance can (the package docstring, k = 32
seed 0).  On node LPs of Workload-III k = 16 seed 1 (a 240 s run), the support held
66-90 levels, which gave each pack 2-3 candidate levels (its own included); from the
incumbents 96 341.5 and 96 340.1 (windows of the first stage exhausted) a first version
without empty packs found 96 330.0 and 96 327.4, optimal in their neighbourhood, in
25-38 s; this one takes 96 341.5 to 96 327.6 within its 60 s box.  With a reach of 0.1,
or an extra empty pack free to take any of those levels, no move within 60 s.  In the
benchmark (600 s, the code of d87d909) the moves took 101-182 s of the worker's ~580 s at
k = 16 (5 per seed, 1-2 of them improving) and k = 16 ended at 98 724.5 / 96 291.5 /
86 877.6, gaps 0.054 / 0.064 / 0.065 %, and at 0.071 / 0.096 / 0.094 % in a second run
(before: 98 771.5 / 96 455.4 / 86 879.1, 0.109 / 0.234 / 0.080 %, the bounds within 11 of
these); at k = 32, 0-9 moves per seed, one improving; none on Workload-II.

This is a primal heuristic only: it never touches the bound.  It starts once the
solve is long (``LNS_AFTER``), or after the first seconds with a worker process
(``LNS_WORKER_AFTER``; ``workers=1``, the default on a machine with two or more
cores): the search then runs there on its own copy of the incumbent, window after
window, while the tree goes on in the solver's process
(:func:`search_loop`): each cheaper cover it finds is sent to the solver, which
takes it when it beats its incumbent, and each cheaper incumbent the solver finds
otherwise is sent to the worker, which continues from it.  The solver collects
between column-generation rounds, so the worker never waits for a tree node to end
(before, with windows queued and collected between nodes 10-55 s apart, it was
busy 18-38 % of the time at Workload-III k = 32); which windows are tried depends
on timing, so two runs may differ.  Without one (``workers=0``) the windows are
re-solved between tree nodes within a share of the time (``LNS_SHARE``),
deterministically.  On Workload-III (260 tasks, p = 32, seed 0, 600 s, in-process)
it took the incumbent from 0.77 % to 0.46 % above the bound at k = 16 and from
0.87 % to 0.67 % at k = 32, where diving, the restricted-master MIP and the local
searches had stopped.  The wider windows keep the worker busy: 488-500 s of the
540 s at k = 32 (seeds 0-2, 103-108 windows, 21-32 of them improving), where with
two-pack windows only it idled after 70-280 s.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import queue
import time

import numpy as np

from ...core import Deadline
from ..instance import PackInstance
from ..schedule import PackSchedule
from .levels import LevelTable

#: most tasks freed at once (a window holds at least two packs)
LNS_TASKS = 48
#: the stages of windows, (most tasks as a multiple of LNS_TASKS, reach): reach 1 takes runs
#: of adjacent packs, a reach r > 1 a pack with one to three of the r packs after it (so it
#: skips some).  A stage follows once every window of the previous one (and its retries)
#: was tried; a cheaper incumbent starts again from the first.  Workload-III k = 16, 400 s
#: of windows from the same 60 s incumbent (in-process): with the skipping stage 96 316 / 86 913
#: at seeds 1 / 2, without it 96 482 / 86 913, with it in place of the first stage 96 410 / 86 930.
#: Tried and left out (branch lns-wide-second): the runs of twice the tasks before the skipping
#: stage; with the tree, 600 s, seeds 0 / 1 / 2: 98 815.5 / 96 344.7 / 86 933.2, against
#: 98 766.0 / 96 382.0 / 86 913.6 in the benchmark of record
LNS_STAGES = ((1, 1), (1, 4), (2, 1), (3, 1))
#: at most this many packs in a window of a stage of reach > 1
LNS_SKIP_PACKS = 4
#: time box of one sub-problem (seconds); once every window was tried, those stopped by
#: their time box are re-solved with twice that box, up to LNS_MAX_SUB_TIME
#: Tried and left out, against 98 766.0 / 96 382.0 / 86 913.6 in the benchmark of record
#: (Workload-III k = 16, 600 s, seeds 0 / 1 / 2):
#: - branch lns-retry-last, the retries only once every stage's windows were tried:
#:   98 762.7 / 96 358.2 / 86 958.1;
#: - branch lns-dive, a window's dive (:func:`.solver._dive`) given half of its box instead
#:   of the solver's DIVE_SHARE = 0.2: 98 769.9 / 96 451.8 / 86 943.1.  On single windows of
#:   64-96 tasks at seed 2, 10 s each, 6 of 12 windows of a 60 s incumbent (87 052.4)
#:   improved it, by 269.6 in all, instead of 5 (236.2), as many as with a 20 s box; of 18
#:   windows of a 420 s incumbent (86 962.1), 1 instead of 2;
#: - branch window-probes, windows of at most 48 tasks re-solved without the enumeration probes
#:   (``probe_columns=0``).  Alone they are faster: 18 windows of 48 tasks of seed 2's 60 s
#:   incumbent, one after the other, in 32.0 s instead of 47.1 s, every window proven and the
#:   same gains.  In the benchmark they changed nothing that one run can show: 98 772.1 /
#:   96 378.6 / 86 932.2, bounds 98 653.0 / 96 213.2 / 86 775.0 (153-163 tree nodes), against
#:   98 772.1 / 96 323.0 / 86 945.1, 98 656.7 / 96 218.3 / 86 780.2 (170-173 nodes) for this
#:   code run right after it.
LNS_SUB_TIME = 10.0
LNS_MAX_SUB_TIME = 80.0
#: the search starts once the solver has run LNS_AFTER seconds and then takes at most
#: LNS_SHARE of the time spent (Workload-II's trees close within about a minute without it)
LNS_AFTER = 60.0
LNS_SHARE = 0.4
#: a worker process (on a core of its own: it takes no time from the tree) starts once the
#: solver has run LNS_WORKER_AFTER seconds, from the incumbent of the paper's heuristics and
#: the local search; at Workload-III k = 16 the tree starts after ~45 s and the search had
#: waited until 60 s while its windows were still improving the incumbent at 400-500 s
LNS_WORKER_AFTER = 10.0
#: seconds the worker waits for a new incumbent once every window of its own was tried
LNS_IDLE_WAIT = 1.0
#: profile moves (:func:`.master.solve_profile_neighbourhood`): each pack may move to a level of
#: the latest best-first node LP's support within this factor of its own; at most
#: LNS_PROFILE_TIME seconds per MIP and LNS_PROFILE_SHARE of the search's time
LNS_PROFILE_REACH = 0.05
LNS_PROFILE_TIME = 60.0
LNS_PROFILE_SHARE = 0.5


def solve_window(
    times: np.ndarray, k: int, start: list[list[tuple[int, int]]], time_limit: float, seed: int
) -> tuple[list[list[tuple[int, int]]], str, float]:
    """Re-solve one window: the sub-instance of its tasks (rows of ``times``), started
    from its packs ``start`` (task row, processors); returns the packs found, the status
    and the seconds spent.  Module-level so that a worker process can run it."""
    from .solver import solve

    sub = PackInstance(times, k, name="window")
    t0 = time.perf_counter()
    res = solve(
        sub,
        time_limit=time_limit,
        seed=seed,
        heuristics=False,
        rmp_time=1.0,
        lns=False,
        start=PackSchedule.from_indices(sub, start),
    )
    return res.schedule.indices(sub), str(res.status), time.perf_counter() - t0


class Neighbourhoods:
    """The windows of the incumbent not tried yet, and one exact re-solve per :meth:`step`
    (in this process), or the worker process that runs :func:`search_loop`."""

    def __init__(
        self,
        st,
        workers: int = 0,
        window_tasks: int | None = None,
        stages: tuple[tuple[int, int], ...] | None = None,
    ) -> None:
        self.st = st
        self.window_tasks = LNS_TASKS if window_tasks is None else int(window_tasks)
        self.stages = LNS_STAGES if stages is None else tuple(stages)
        self.rng = np.random.default_rng(st.seed)
        self.tried: set[frozenset[int]] = set()
        self.stage = 0  # index in ``stages`` of the windows tried now
        self._ub_seen = st.ub
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
        ``LNS_SKIP_PACKS`` - 1 of the ``reach`` packs after it."""
        table = self.st.table
        width = self.window_tasks if tasks is None else int(tasks)
        packs = sorted(self.st.best_sets, key=lambda s: (table.min_level(s), s))
        out = []
        if reach > 1:
            for a in range(len(packs) - 1):
                for m in range(1, LNS_SKIP_PACKS):
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
        from .solver import allocations

        st = self.st
        if st.ub < self._ub_seen:  # a new incumbent: the first stage's windows first
            self.stage, self._ub_seen = 0, st.ub
        profile = self.stage > 0 and self.levels is not None and st.ub != self._profiled
        if profile and self.profile_spent <= LNS_PROFILE_SHARE * self.spent:
            return self._profile_step(until)
        todo: list = []
        while not todo:
            multiple, reach = self.stages[self.stage]
            every = self.all_windows(self.window_tasks * multiple, reach)
            todo, box = [w for w in every if w[1] not in self.tried], LNS_SUB_TIME
            if not todo:  # every window tried: give the unproven ones more time, shortest box first
                boxes = [(self.unproven.get(w[1], math.inf), r) for r, w in enumerate(every)]
                boxes = [(b, r) for b, r in boxes if 2 * b <= LNS_MAX_SUB_TIME]
                if boxes:
                    b, r = min(boxes)
                    todo, box = [every[r]], 2 * b
            if not todo:  # then the next stage
                if self.stage + 1 >= len(self.stages):
                    return False
                self.stage += 1
        if until.expired():
            return False
        # Tried and left out (branch lns-guide, 1a30ba5): the untried window whose packs have the
        # largest sum of reduced costs at the root LP's duals first (a bound on what it can gain
        # when there are no pack-count rows).  Workload-III k = 16, 600 s, seeds 0 / 1 / 2:
        # 98 761.2 / 96 410.2 / 86 935.3, against 98 766.0 / 96 382.0 / 86 913.6 in the
        # benchmark of record and 96 314.3 at seed 1 in a run of this random order the same day
        window, key = todo[int(self.rng.integers(len(todo)))]
        self.tried.add(key)
        tasks = sorted(key)
        local = {i: r for r, i in enumerate(tasks)}
        start = [[(local[i], q) for i, q in pack] for pack in allocations(st.table, window)]
        rem = until.remaining()
        limit = min(box, rem) if math.isfinite(rem) else box
        packs, status, seconds = solve_window(st.inst.times[tasks], st.inst.max_pack_size, start, limit, st.seed)
        if status == "TIME_LIMIT" and limit >= box:
            self.unproven[key] = box
        else:
            self.unproven.pop(key, None)
        self.spent += seconds
        self.steps += 1
        self.last = f"{len(tasks)} tasks, {status}"
        new = [tuple(sorted(tasks[r] for r, _ in pack)) for pack in packs]
        rest = [s for s in st.best_sets if not key.issuperset(s)]
        # offer() keeps the result only when it is strictly cheaper than the incumbent
        if st.offer(rest + new, f"neighbourhood search ({self.last})", improve=False):
            self.improved += 1
        return True

    def _profile_step(self, until: Deadline) -> bool:
        """Re-partition every task at once, each pack at a level of the node LP's support
        near its own (:func:`.master.solve_profile_neighbourhood`), and offer the result."""
        from .master import solve_profile_neighbourhood

        st = self.st
        rem = until.remaining()
        t0 = time.perf_counter()
        sets = solve_profile_neighbourhood(
            st.table,
            st.best_sets,
            st.inst.max_pack_size,
            self.levels,
            reach=LNS_PROFILE_REACH,
            time_limit=min(LNS_PROFILE_TIME, rem),
            seed=st.seed,
        )
        seconds = time.perf_counter() - t0
        self.spent += seconds
        self.profile_spent += seconds
        self.steps += 1
        self.profile_moves += 1
        self.last = f"pack profile over {self.levels.size} levels, {seconds:.1f} s"
        if sets is not None and st.offer(sets, f"neighbourhood search ({self.last})", improve=False):
            self.improved += 1
            self.profile_improved += 1
        self._profiled = st.ub
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
            rem = st.deadline.remaining()
            seconds = rem if math.isfinite(rem) else None
            args = (
                st.inst.times,
                st.inst.max_pack_size,
                st.table.scale,
                list(st.best_sets),
                st.seed,
                seconds,
                self.levels,
            )
            args += (self.window_tasks, self.stages, self._inbox, self._outbox)
            self._proc = ctx.Process(target=search_loop, args=args, daemon=True)
            self._proc.start()
            self._synced = st.ub
            return
        while True:
            try:
                sets, cost, tally, exhausted, last = self._outbox.get_nowait()
            except queue.Empty:
                break
            (self.steps, self.spent, self.profile_moves, self.profile_improved, self.profile_spent) = tally
            self.last, self.worker_cost = last, cost
            if sets is not None and st.offer(sets, f"neighbourhood search ({last})", improve=False):
                self.improved += 1
                self._synced = st.ub
            # (a report sent before the worker read our latest incumbent is not about it)
            self.exhausted = exhausted and cost <= st.ub + 1e-12 * max(1.0, st.ub)
        if st.ub < self._synced - 1e-12 * max(1.0, st.ub):
            # found here (tree, MIP, ...): the worker continues from it
            self._inbox.put(("cover", list(st.best_sets)))
            self._synced = st.ub

    def close(self) -> None:
        """Stop the worker process (what it has not reported yet is dropped)."""
        if self._proc is not None:
            self._proc.terminate()
            self._proc.join()
            for q in (self._inbox, self._outbox):
                q.cancel_join_thread()
                q.close()
            self._proc = None

    def catch_up(self) -> None:
        """With a worker process: exchange incumbents with it (cheap: called between
        column-generation rounds); without: steps while the search is behind its share
        of the solver's time (``LNS_SHARE``)."""
        st = self.st
        if self.workers > 0:
            if time.perf_counter() - st.t0 >= LNS_WORKER_AFTER and not st.deadline.expired():
                self._poll()
        else:
            while not st.closed() and not st.deadline.expired():
                elapsed = time.perf_counter() - st.t0
                if elapsed < LNS_AFTER or self.spent >= LNS_SHARE * elapsed or not self.step(st.deadline):
                    break
        st.stats["lns"] = {
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
    window_tasks: int,
    stages: tuple[tuple[int, int], ...],
    inbox,
    outbox,
) -> None:
    """The worker process: :meth:`Neighbourhoods.step` on its own incumbent (the cover
    ``sets`` of the instance ``times``, ``k``; costs divided by ``scale``) for
    ``seconds`` (None: until stopped), windows of up to ``window_tasks`` tasks
    in ``stages``.
    After each step it puts (its cover if the step made it cheaper else None, its
    cost, :meth:`Neighbourhoods.tally`, exhausted, last step) on ``outbox``; it reads
    ("cover", a cheaper cover), which replaces its incumbent, and ("levels", the
    support levels of a node LP) from ``inbox``.  Once the search is exhausted it
    waits for one."""
    from .solver import _integral, _State

    inst = PackInstance(times, k, name="neighbourhoods")
    until = Deadline(seconds)
    table = LevelTable(times, scale)
    st = _State(inst, table, until, False, 0.0, seed, _integral(times))
    st.offer(sets, "solver", improve=False)
    nb = Neighbourhoods(st, 0, window_tasks, stages)
    nb.levels = levels
    idle = False
    while not until.expired():
        news = []
        try:
            if idle:
                news.append(inbox.get(timeout=min(LNS_IDLE_WAIT, until.remaining())))
            while True:
                news.append(inbox.get_nowait())
        except queue.Empty:
            pass
        for kind, new in news:
            if kind == "levels":
                nb.levels = new
                idle = False
            elif st.offer(new, "solver", improve=False):
                idle = False
        if idle:
            continue
        before = st.ub
        if not nb.step(until):
            idle = True
            outbox.put((None, st.ub, nb.tally(), True, nb.last))
            continue
        better = list(st.best_sets) if st.ub < before else None
        outbox.put((better, st.ub, nb.tally(), False, nb.last))
