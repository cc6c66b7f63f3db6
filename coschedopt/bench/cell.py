"""Running one cell in a worker: solve, measure, and turn any failure into a record.

:func:`run_cell` is the only function that crosses a process (or Dask) boundary:
it takes a plain dict (the instance as its JSON dict, or its recipe) and returns a plain dict,
so it runs the same in a local worker process and on a remote Dask worker.  It
never raises: an exception becomes an ``ERROR`` record carrying the message and
the traceback, so the run goes on.
"""

from __future__ import annotations

import collections
import datetime as dt
import importlib
import json
import math
import os
import socket
import sys
import time
import traceback
from typing import Any


def now_iso() -> str:
    """The current UTC time, ISO 8601 with seconds."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


#: cells of each method run so far by this process (a worker's first cell of a method pays its imports)
_CALLS: collections.Counter[str] = collections.Counter()


def count_call(method: str) -> int:
    """Count one more cell of ``method`` in this process; returns its number (1: the first)."""
    _CALLS[method] += 1
    return _CALLS[method]


def jsonable(data: Any) -> Any:
    """``data`` with numpy scalars/arrays made plain and non-finite floats made ``None``."""
    if isinstance(data, dict):
        return {str(k): jsonable(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [jsonable(v) for v in data]
    if hasattr(data, "tolist") and not isinstance(data, str | bytes):
        return jsonable(data.tolist())
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if data is None or isinstance(data, str | int | float | bool):
        return data
    return str(data)


def _finite(x: Any) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def is_failure(status: str, objective: float | None, lower_bound: float | None) -> bool:
    """Whether a cell produced no result: it raised or its worker crashed (``ERROR``), or the
    harness killed it (``TIME_LIMIT`` with neither objective nor bound).

    A cell stopped by its time limit with a schedule or a certified bound is a
    finished cell, not a failure: its result and bound count like any other.
    """
    return status == "ERROR" or (status == "TIME_LIMIT" and objective is None and lower_bound is None)


def is_time_limited(status: str, objective: float | None, lower_bound: float | None) -> bool:
    """Whether a cell stopped at its time limit with a result (a schedule or a certified bound)."""
    return status == "TIME_LIMIT" and not is_failure(status, objective, lower_bound)


def peak_rss_mb() -> float | None:
    """This process's peak resident memory so far, in MiB (``None`` where the OS does not say).

    On Linux it is ``VmHWM`` of ``/proc/self/status``, the peak of this process's own memory since it
    started its program: ``ru_maxrss`` there carries over the peak of the process that forked it (a
    spawned worker would report the runner's peak, which holds every instance of the suite).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def failure_record(key: str, status: str, error: str, *, runtime_s: float | None = None, trace: str = "") -> dict:
    """The record of a cell that produced no result (exception, crash, killed)."""
    return {
        "key": key,
        "status": status,
        "objective": None,
        "lower_bound": None,
        "runtime_s": runtime_s,
        "error": error,
        "traceback": trace,
        "metrics": {},
        "stats": {},
        "schedule": None,
        "worker": worker_name(),
        "finished_at": now_iso(),
    }


def run_cell(payload: dict[str, Any]) -> dict[str, Any]:
    """Solve one cell with :func:`coschedopt.solve` and return its record (never raises).

    ``payload`` holds ``key``, ``family``, ``instance`` (the instance's dict, or its recipe, rebuilt
    here and timed as ``stats["build_seconds"]``),
    ``method``, ``seed``, ``options``, ``time_limit`` and ``modules`` (imported
    first, so that families and methods defined outside coschedopt register
    themselves in a fresh worker).
    """
    start = time.perf_counter()
    cpu_start = time.process_time()
    call = count_call(str(payload.get("method")))
    try:
        for mod in payload.get("modules", ()):
            importlib.import_module(mod)
        from ..core import get_family, solve
        from .suite import instance_from_data, is_recipe

        built = time.perf_counter()
        recipe = is_recipe(payload["instance"])  # build = "worker": rebuilt here, inside cpu_s, outside runtime_s
        instance = instance_from_data(payload["instance"])
        built = time.perf_counter() - built
        res = solve(
            instance,
            payload["method"],
            time_limit=payload.get("time_limit"),
            seed=payload.get("seed"),
            **payload.get("options", {}),
        )
        record = {
            "key": payload["key"],
            "status": res.status.value,
            "objective": _finite(res.objective),
            "lower_bound": _finite(res.lower_bound),
            "runtime_s": res.runtime,
            "cpu_s": None,
            "peak_rss_mb": None,
            "error": res.message if res.status.value == "ERROR" else None,
            "traceback": "",
            "metrics": {},
            "stats": jsonable({**res.stats, "build_seconds": round(built, 3)} if recipe else res.stats),
            "schedule": None
            if res.schedule is None or not payload.get("store_schedule", True)
            else jsonable(res.schedule.to_dict()),
            "worker": worker_name(),
            "method_call": call,
            "finished_at": now_iso(),
        }
        fam = get_family(payload["family"])
        if res.schedule is not None and fam.metrics is not None:
            try:
                record["metrics"] = jsonable(fam.metrics(instance, res.schedule))
            except Exception as exc:  # a broken metric must not lose the solve
                record["error"] = f"metrics failed: {type(exc).__name__}: {exc}"
        record["cpu_s"] = round(time.process_time() - cpu_start, 4)
        record["peak_rss_mb"] = peak_rss_mb()
        json.dumps(record, allow_nan=False)  # fail here, inside the cell, if anything is not storable
        return record
    except Exception as exc:
        record = failure_record(
            payload.get("key", "?"),
            "ERROR",
            f"{type(exc).__name__}: {exc}",
            runtime_s=time.perf_counter() - start,
            trace=traceback.format_exc(limit=20),
        )
        return {
            **record,
            "method_call": call,
            "cpu_s": round(time.process_time() - cpu_start, 4),
            "peak_rss_mb": peak_rss_mb(),
        }
