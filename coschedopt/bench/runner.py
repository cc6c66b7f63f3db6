"""``bench run``: expand a suite, skip the cells already stored, run the rest, store each at once.

The parent process is the only writer of the result store; every record is
committed the moment it arrives (see :mod:`.store`).  Order of work: exact
methods and long time limits first, so the slow cells do not all end up at the
tail of the run.

Methods with compiled kernels (numba: branch-and-price, the batch and online
simulators) declare a ``prepare`` hook; on this machine's workers (local
processes, a Dask LocalCluster) the parent runs each hook whose kernels are not yet
on disk once before the cells, saying "compiling kernels" in the progress line, so
that the workers load them from numba's disk cache instead of each compiling them
while the bar shows no estimate (:func:`prepare_kernels`).

A suite with a ``ladder`` runs rung by rung (:func:`_climb_ladder`, :mod:`.frontier`).
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..core import Method, available_cores, get_method
from ..core.registry import run_preparation
from .cell import is_failure, is_time_limited, now_iso
from .executors import DaskExecutor, LocalPool
from .frontier import ladder_closed
from .progress import ProgressBar, format_duration
from .provenance import collect_provenance
from .store import ResultStore
from .suite import Cell, Suite, load_suite


@dataclass
class RunSummary:
    run_id: int
    suite: str
    db: Path
    planned: int
    skipped: int
    done: int
    failed: int
    seconds: float
    executor: str
    #: cells stopped by their time limit with a result (a schedule or a certified bound): not failures
    time_limited: int = 0

    def __str__(self) -> str:
        return (
            f"suite {self.suite!r}: {self.done} cells run, {self.skipped} already in {self.db}, "
            f"{self.failed} failed (raised, crashed, or killed without a result), {self.time_limited} stopped at their "
            f"time limit with a result, {format_duration(self.seconds)} on {self.executor}"
        )


def _executor(s: Suite, workers: int | None, scheduler: str | None, dask_local: int | None) -> Any:
    """The local pool (default) or a Dask client; a wrong Dask address raises here, before the store is touched."""
    if scheduler or dask_local:
        return DaskExecutor(address=scheduler, local_workers=dask_local)
    return LocalPool(workers or available_cores(), s.worker_modules())


def _payloads(s: Suite, todo: list[Cell]) -> list[dict[str, Any]]:
    """What the workers receive for each cell to run (plain data)."""
    instances = s.instance_by_id()
    modules = s.worker_modules()
    payloads = []
    for c in todo:
        p = c.payload(instances[c.instance_id].data, modules)
        p["kill_after"] = c.kill_after
        p["store_schedule"] = s.store_schedules
        p["fresh_process"] = s.fresh_process
        payloads.append(p)
    return payloads


@dataclass
class _Counts:
    done: int = 0
    failed: int = 0
    time_limited: int = 0


def _store_records(
    executor: Any, s: Suite, todo: list[Cell], store: ResultStore, run_id: int, counts: _Counts, bar: Any
) -> None:
    """Run the cells of ``todo`` and commit each record the moment it arrives."""
    by_key = {c.key: c for c in todo}
    instances = s.instance_by_id()
    for record in executor.run(_payloads(s, todo)):
        if record is None:
            if bar:
                bar.draw()
            continue
        cell = by_key[record["key"]]
        store.record_cell(cell, instances[cell.instance_id].source, record, run_id)
        counts.done += 1
        result = (record["status"], record.get("objective"), record.get("lower_bound"))
        bad = is_failure(*result)
        counts.failed += bad
        counts.time_limited += is_time_limited(*result)
        if counts.done % 20 == 0 or bad:
            store.update_run(run_id, cells_done=counts.done, cells_failed=counts.failed)
        if bar:
            bar.update(done=1, failed=int(bad), method=cell.label, seconds=record.get("runtime_s"))


def _climb_ladder(
    executor: Any, s: Suite, todo: list[Cell], store: ResultStore, run_id: int, counts: _Counts, bar: Any
) -> None:
    """Run ``todo`` one rung of the suite's ladder at a time (increasing values of its size key).

    A (group, method) stops climbing at the first rung whose median cell is not proven optimal
    (:func:`.frontier.ladder_closed`): its higher rungs are not run, and neither are the rest of a
    rung's cells once enough of them have failed that the median cannot be proven.  A rung's cells go
    out in waves of as many cells as the executor runs at once (seed by seed), so that the decision
    is taken between waves; stored results of earlier runs count, so a resumed run stops where the
    first one would have.
    """
    instances = s.instance_by_id()

    def rung(c: Cell) -> float:
        return float(instances[c.instance_id].size[s.ladder])

    wave = max(1, int(executor.parallel))
    for value in sorted({rung(c) for c in todo}):
        stage = sorted((c for c in todo if rung(c) == value), key=lambda c: (c.instance_seed or 0, c.seed))
        while True:
            upto = [c for c in s.cells if rung(c) <= value]
            closed = ladder_closed(upto, store.cell_statuses(c.key for c in upto), rung, decided_only=True)
            left = [c for c in stage if (c.group, c.label) not in closed]
            if bar and len(left) < len(stage):
                bar.total -= len(stage) - len(left)
            if not left:
                break
            _store_records(executor, s, left[:wave], store, run_id, counts, bar)
            stage = left[wave:]
        todo = [c for c in todo if rung(c) > value]
    if bar:
        bar.total = bar.skipped + counts.done


def prepare_kernels(todo: list[Cell], bar: ProgressBar | None) -> None:
    """Run the ``prepare`` hook of every method of ``todo`` that has one, in this process, each once,
    saying so in the progress line (see the module docstring), so that the workers load compiled kernels
    from the disk cache instead of each compiling them.  A hook that can tell its work is on disk already
    (a ``cached()`` attribute, as the batch simulators' have) is skipped then: the message shows once per
    install, and this process loads nothing it does not run; each worker loads what its cells need, once."""
    from ..core.registry import resolve

    hooks: dict[str, Method] = {}  # one method per hook (methods may share one)
    for c in todo:
        m = get_method(c.family, c.method)
        if m.prepare is not None:
            hooks.setdefault(m.prepare, m)
    known: dict[int, bool] = {}  # id of a cached() check -> its answer (hooks may share one)
    shown = False
    for m in hooks.values():
        cached = getattr(resolve(m.prepare), "cached", None)
        if cached is not None:
            if id(cached) not in known:
                known[id(cached)] = bool(cached())
            if known[id(cached)]:
                continue
        if bar:
            bar.show(f"compiling kernels: {m.family} {m.name} (once per install; the cells wait)")
            shown = True
        run_preparation(m)
        if cached is not None:
            known[id(cached)] = True
    if shown:
        bar.show(None)


def run_suite(
    suite: str | os.PathLike | Suite,
    *,
    db: str | os.PathLike = "results.sqlite",
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    rerun: bool = False,
    progress: bool = True,
    stream: TextIO | None = None,
    command: str | None = None,
) -> RunSummary:
    """Run every cell of ``suite`` not yet in the store ``db`` (all of them with ``rerun``).

    Cells run on ``workers`` local processes by default, on the Dask cluster at
    ``scheduler`` (``tcp://host:port``), or on a Dask LocalCluster of
    ``dask_local`` workers.  Returns the counts; the results are in ``db``.
    """
    if scheduler and dask_local:
        from ..core import InputError

        raise InputError("give --scheduler or --dask-local, not both", where="--scheduler")
    s = suite if isinstance(suite, Suite) else load_suite(suite)
    stream = stream if stream is not None else sys.stderr
    executor = _executor(s, workers, scheduler, dask_local)
    status = "interrupted"
    store: ResultStore | None = None
    run_id: int | None = None
    counts = _Counts()
    start = time.monotonic()
    bar: ProgressBar | None = None
    try:
        store = ResultStore(db)
        cells = sorted(s.cells, key=lambda c: (not c.exact, -(c.time_limit or 0)))
        store.save_plan(s)
        finished = set() if rerun else store.finished_keys(c.key for c in cells)
        todo = [c for c in cells if c.key not in finished]
        command = command if command is not None else " ".join(sys.argv)
        run_id = store.start_run(s, collect_provenance(s.worker_modules()), executor.description, command)
        store.update_run(run_id, cells_planned=len(cells), cells_skipped=len(finished), cells_done=0, cells_failed=0)
        if progress:
            bar = ProgressBar(
                len(cells),
                skipped=len(finished),
                label=f"{s.name} ",
                stream=stream,
                todo=Counter(c.label for c in todo),
                parallel=executor.parallel,
            )
            bar.draw(force=True)
        if not scheduler:  # a remote cluster's workers do not share this machine's numba cache
            prepare_kernels(todo, bar)
        if s.ladder is None:
            _store_records(executor, s, todo, store, run_id, counts, bar)
        else:
            _climb_ladder(executor, s, todo, store, run_id, counts, bar)
        status = "finished"
        return RunSummary(
            run_id=run_id,
            suite=s.name,
            db=Path(db),
            planned=len(cells),
            skipped=len(finished),
            done=counts.done,
            failed=counts.failed,
            seconds=time.monotonic() - start,
            executor=executor.description,
            time_limited=counts.time_limited,
        )
    finally:
        executor.close(kill=status != "finished")
        if bar:
            bar.close()
        if store is not None:
            if run_id is not None:
                store.update_run(
                    run_id, cells_done=counts.done, cells_failed=counts.failed, ended_at=now_iso(), status=status
                )
            store.close()
