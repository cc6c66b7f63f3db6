"""Where cells run: a local pool of worker processes (default) or a Dask distributed cluster.

Both executors take cell payloads (plain dicts, see :func:`.cell.run_cell`) and
yield records as cells finish, in completion order, plus ``None`` now and then
so that the caller can refresh its progress bar while nothing finishes.

* :class:`LocalPool` -- ``N`` worker processes (``spawn``), each running one cell at
  a time.  The parent knows which cell each worker runs, so a worker that dies
  (segfault, out of memory) costs exactly its cell (recorded ``ERROR``), and a
  cell still running ``kill_after`` seconds after it started (a method that
  ignores its time limit) is killed and recorded ``TIME_LIMIT``; the worker is
  replaced and the run goes on.  Workers exit when the parent dies.  A cell whose
  payload says ``fresh_process`` (the suite's ``fresh_process = true``) runs in a
  worker that has run no other cell, and that worker runs no other after it: its
  ``peak_rss_mb`` is then the cell's own (plus the imports every worker makes),
  not the worker's peak over the cells it ran before.
* :class:`DaskExecutor` -- ``client.submit(run_cell, payload)`` on an existing
  cluster (``--scheduler tcp://host:8786``) or on a ``LocalCluster`` started for
  the run (``--dask-local N``).  Dask's own scheduler and workers do the work;
  a task that kills its workers comes back as ``KilledWorker`` and is recorded
  ``ERROR``.  Dask cannot stop a running task, so ``kill_after`` is not applied
  there: methods must honour their time limits (they do, by contract).  Nor is
  ``fresh_process``: Dask reuses its workers, so a cell's ``peak_rss_mb`` there is
  its worker's peak so far.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing as mp
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..core import InputError
from .cell import failure_record, run_cell

#: seconds between two ``None`` ticks while waiting for results
TICK = 0.25


# --------------------------------------------------------------------------- local processes


def _exit_when_orphaned(parent: int) -> None:
    """Exit the worker as soon as its parent is gone (killed, even with SIGKILL)."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)

    threading.Thread(target=watch, name="coschedopt-parent-watch", daemon=True).start()


def _worker_main(conn: multiprocessing.connection.Connection, parent: int, modules: list[str]) -> None:
    """A local worker: run the cells received on ``conn`` one by one until ``None`` or EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    _exit_when_orphaned(parent)
    import importlib

    for mod in modules:  # warm up; a failing import is reported by run_cell, per cell
        try:
            importlib.import_module(mod)
        except Exception:  # noqa: S112
            continue
    conn.send(("ready", None))
    while True:
        try:
            payload = conn.recv()
        except (EOFError, OSError):
            return
        if payload is None:
            return
        conn.send(("done", run_cell(payload)))


class _Slot:
    """One worker process, the cell it runs (``payload``) and since when."""

    def __init__(self, ctx: Any, modules: list[str]) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, os.getpid(), modules), name="coschedopt-bench-worker", daemon=True
        )
        self.process.start()
        child.close()
        self.ready = False  # imports done: the kill_after clock must not count the start-up
        self.payload: dict[str, Any] | None = None
        self.started = 0.0
        self.used = False  # it has run a cell
        self.spent = False  # it ran a fresh_process cell: it runs no other

    def stop(self, *, kill: bool = False) -> None:
        if not kill and self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)
            self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()


class LocalPool:
    """``workers`` local processes, one cell each at a time (see the module docstring)."""

    def __init__(self, workers: int, modules: list[str]) -> None:
        if workers < 1:
            raise InputError(f"--workers must be at least 1, got {workers}", where="--workers")
        self.workers = workers
        self.modules = modules
        self.ctx = mp.get_context("spawn")
        self.slots: list[_Slot] = []
        self.description = f"processes:{workers}"
        self.parallel = workers  # cells running at once

    def _replace(self, i: int) -> None:
        self.slots[i].stop(kill=True)
        self.slots[i] = _Slot(self.ctx, self.modules)

    def run(self, payloads: list[dict[str, Any]]) -> Iterator[dict[str, Any] | None]:
        queue = collections.deque(payloads)
        dead_at_start = 0
        while len(self.slots) < min(self.workers, len(payloads)):
            self.slots.append(_Slot(self.ctx, self.modules))
        while queue or any(s.payload is not None for s in self.slots):
            for i, slot in enumerate(self.slots):
                if slot.ready and slot.payload is None and queue:
                    if slot.spent or (slot.used and queue[0].get("fresh_process")):
                        slot.stop()  # idle: it exits by itself; the cell gets a worker of its own (module docstring)
                        self.slots[i] = _Slot(self.ctx, self.modules)
                        continue
                    payload = queue.popleft()
                    try:
                        slot.conn.send(payload)
                    except OSError:  # the idle worker died: replace it, the cell waits its turn
                        queue.appendleft(payload)
                        self._replace(i)
                        continue
                    slot.payload, slot.started, slot.used = payload, time.monotonic(), True
            waiting = [s for s in self.slots if s.payload is not None or not s.ready]
            multiprocessing.connection.wait(
                [s.conn for s in waiting] + [s.process.sentinel for s in waiting], timeout=TICK
            )
            for i, slot in enumerate(self.slots):
                if slot.ready and slot.payload is None:
                    continue
                message = None
                if slot.conn.poll():
                    try:
                        message = slot.conn.recv()
                    except (EOFError, OSError):
                        message = None
                if message is not None:
                    kind, record = message
                    if kind == "ready":
                        slot.ready, dead_at_start = True, 0
                    else:
                        slot.spent = bool(slot.payload.get("fresh_process"))
                        slot.payload = None
                        yield record
                    continue
                if not slot.process.is_alive():
                    code = slot.process.exitcode
                    if slot.payload is None:
                        dead_at_start += 1
                        if dead_at_start > 3 * self.workers:
                            raise RuntimeError(f"local worker processes exit while starting (exit code {code})")
                    else:
                        yield failure_record(
                            slot.payload["key"],
                            "ERROR",
                            f"worker process died (exit code {code}) while running this cell",
                            runtime_s=time.monotonic() - slot.started,
                        )
                    self._replace(i)
                    continue
                if slot.payload is None:
                    continue
                elapsed = time.monotonic() - slot.started
                kill_after = slot.payload.get("kill_after")
                if kill_after is not None and elapsed > kill_after:
                    limit = slot.payload.get("time_limit")
                    yield failure_record(
                        slot.payload["key"],
                        "TIME_LIMIT",
                        f"killed by the harness after {elapsed:.1f} s (kill_after = {kill_after:g} s): "
                        f"the method did not return within its time limit of {limit} s; no schedule or bound",
                        runtime_s=elapsed,
                    )
                    self._replace(i)
            yield None

    def close(self, *, kill: bool = False) -> None:
        for slot in self.slots:
            slot.stop(kill=kill)
        self.slots = []


# --------------------------------------------------------------------------- Dask


class DaskExecutor:
    """Cells as Dask tasks, on an existing scheduler (``address``) or a new LocalCluster (``local_workers``)."""

    def __init__(self, *, address: str | None = None, local_workers: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InputError(
                "running on Dask needs dask[distributed]: pip install 'coschedopt[cluster]'",
                where="--scheduler" if address else "--dask-local",
            ) from None
        self.cluster = None
        if address:
            try:
                self.client = Client(address, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise InputError(
                    f"cannot reach the Dask scheduler at {address!r}: {exc}", where="--scheduler"
                ) from None
            self.description = f"dask:{address}"
        else:
            if local_workers is None or local_workers < 1:
                raise InputError(f"--dask-local needs at least 1 worker, got {local_workers}", where="--dask-local")
            self.cluster = LocalCluster(
                n_workers=local_workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = Client(self.cluster)
            self.description = f"dask-local:{local_workers}"

    @property
    def parallel(self) -> int:
        """Cells running at once: the cluster's worker threads (at least 1)."""
        try:
            return max(1, sum(self.client.nthreads().values()))
        except Exception:  # a cluster that cannot say: no worse than one at a time
            return 1

    def run(self, payloads: list[dict[str, Any]]) -> Iterator[dict[str, Any] | None]:
        from distributed import as_completed

        futures = {self.client.submit(run_cell, p, pure=False): p for p in payloads}
        pending = as_completed(list(futures))
        while not pending.is_empty():
            batch = pending.next_batch(block=False)
            if not batch:
                time.sleep(TICK)
                yield None
                continue
            for fut in batch:
                payload = futures.pop(fut)
                if fut.status == "finished":
                    yield fut.result()
                else:
                    try:
                        exc = fut.exception()
                        message = f"{type(exc).__name__}: {exc}"
                    except Exception as other:  # cancelled futures raise here
                        message = f"{type(other).__name__}: {other}"
                    yield failure_record(payload["key"], "ERROR", f"Dask task failed: {message}")
                fut.release()

    def close(self, *, kill: bool = False) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
