"""``coschedopt generate batch ...``: the thesis's cuts of real traces, and small random workloads.

- ``weeks`` (ch. 5, §5.7.3): the jobs submitted in ``periods`` contiguous
  7-day periods of a trace, on the trace's thesis platform; the window starts
  at a seeded random second (the author's code) or at the seed-th aligned
  window (``--align``, the text's "periods of seven days").
- ``offline`` (ch. 4, §4.6): ``jobs`` jobs drawn with replacement (the
  author's code) from the trace's jobs of at most ``processors`` processors,
  all submitted at 0 with their real run time as requested time, on
  ``processors`` processors in clusters of ``cluster_size``.
- ``trace``: the whole filtered trace on its thesis platform, or its first
  ``jobs`` jobs in FCFS order (whole-trace speed and memory, suite ``batch-traces``).
- ``random``: small synthetic workloads (tests, notebooks, quick suites).

A trace is a path, or a file name looked up in the folders of the
``COSCHEDOPT_TRACES`` environment variable (``os.pathsep``-separated,
:func:`coschedopt.workloads.traces.locate`).
"""

from __future__ import annotations

import argparse
import functools
from pathlib import Path

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, check_count
from ..workloads import SWFTrace, locate_trace, read_swf
from ..workloads.traces import trace_help
from .instance import MAX_SECONDS, BatchInstance
from .platform import MAX_PROCESSORS, Platform
from .traces import WEEK, first_jobs, read_trace, thesis_platform, trace_instance


@functools.lru_cache(maxsize=4)
def _cached_trace(path: str, mtime: float) -> SWFTrace:
    return read_trace(path)


def load_trace(trace: str) -> SWFTrace:
    p = locate_trace(trace, where="--trace")
    return _cached_trace(str(p), p.stat().st_mtime)


def week_instance(trace: str, periods: int | None = None, *, align: bool = False, seed: int = 0) -> BatchInstance:
    """Thesis ch. 5: ``periods`` contiguous weeks of ``trace`` (default: the thesis's count for it)."""
    swf = load_trace(trace)
    known = thesis_platform(swf.path)
    periods = periods or (known.periods if known else 1)
    if periods < 1:
        raise InputError(f"must be >= 1, got {periods}", where="--periods")
    submit = swf.jobs["submit_time"]
    first, last = int(submit.min()), int(submit.max())
    span = periods * WEEK
    if last - first < span:
        raise InputError(f"the trace spans {(last - first) / WEEK:.1f} weeks, fewer than {periods}", where="--periods")
    if align:
        windows = (last - first) // span
        start = first + (seed % windows) * span
    else:
        start = first + int(make_rng(seed).integers(0, last - first - span + 1))
    name = f"{Path(swf.path).name.split('.swf')[0]}-{periods}w-{'a' if align else 's'}{seed}"
    return trace_instance(swf, start=start, end=start + span, name=name)


def offline_sample(
    trace: str, jobs: int = 300, processors: int = 512, cluster_size: int = 16, *, seed: int = 0
) -> BatchInstance:
    """Thesis ch. 4: ``jobs`` jobs drawn with replacement, submitted at 0, requested time = run time."""
    check_count(jobs, "--jobs", high=MAX_GENERATED)
    check_count(processors, "--processors", high=MAX_PROCESSORS)
    check_count(cluster_size, "--cluster-size", high=processors)
    if processors % cluster_size:
        raise InputError(f"clusters of {cluster_size} do not divide {processors} processors", where="--cluster-size")
    swf = load_trace(trace)
    fits = np.flatnonzero(swf.size <= processors)
    if not len(fits):
        raise InputError(f"no job of the trace fits on {processors} processors", where="--processors")
    pick = fits[make_rng(seed).integers(0, len(fits), jobs)]
    run = swf.jobs["run_time"][pick]
    levels = (1, processors // cluster_size, processors) if cluster_size < processors else ()
    return BatchInstance(
        platform=Platform(processors, levels),
        ids=tuple(str(k + 1) for k in range(jobs)),
        submit=np.zeros(jobs, dtype=np.int64),
        run_time=run,
        requested_time=run,
        size=swf.size[pick],
        name=f"{Path(swf.path).name.split('-')[0]}-offline-{jobs}-s{seed}",
        source={"trace": Path(swf.path).name, "trace_job_ids": swf.jobs["job_id"][pick].tolist()},
    )


def random_workload(
    jobs: int = 20,
    processors: int = 16,
    levels: tuple[int, ...] = (),
    horizon: int = 50,
    max_run: int = 20,
    *,
    seed: int = 0,
) -> BatchInstance:
    """Seeded random jobs: submit in [0, horizon], run in [1, max_run], requested >= run (up to twice), any size."""
    check_count(jobs, "--jobs", high=MAX_GENERATED)
    check_count(processors, "--processors", high=MAX_PROCESSORS)
    check_count(horizon, "--horizon", low=0, high=MAX_SECONDS)
    check_count(max_run, "--max-run", high=MAX_SECONDS // 2, what="a requested time is up to twice the run")
    rng = make_rng(seed)
    run = rng.integers(1, max_run + 1, jobs)
    return BatchInstance(
        platform=Platform(processors, tuple(levels)),
        ids=tuple(str(k + 1) for k in range(jobs)),
        submit=np.sort(rng.integers(0, horizon + 1, jobs)),
        run_time=run,
        requested_time=run + rng.integers(0, max_run + 1, jobs) * (rng.random(jobs) < 0.7),
        size=rng.integers(1, processors + 1, jobs),
        name=f"random-n{jobs}-P{processors}-s{seed}",
    )


def _weeks_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", required=True, help=trace_help())
    parser.add_argument("--periods", type=int, default=None, help="7-day periods (default: the thesis's, else 1)")
    parser.add_argument("--align", action="store_true", help="the seed-th aligned window instead of a random start")


def whole_trace(trace: str, jobs: int | None = None) -> BatchInstance:
    """The whole ``trace`` (the archive's filters, the thesis's platform), or its first ``jobs`` jobs in FCFS order."""
    if jobs is not None and jobs < 1:
        raise InputError(f"must be >= 1, got {jobs}", where="--jobs")
    return first_jobs(trace_instance(load_trace(trace)), jobs)


def accasim_trace(trace: str, jobs: int | None = None, processors: int = 100) -> BatchInstance:
    """Every line of ``trace`` as AccaSim 1.1.3's reader takes it, or its first ``jobs`` lines, on ``processors``
    processors (the instances of probe ``accasim``, :mod:`.probes`): no status filter, the requested processors
    (else the allocated ones), the run time as the duration (AccaSim never kills a job, so a requested time of
    at least the run time), submissions shifted to start at 0."""
    if jobs is not None and jobs < 1:
        raise InputError(f"must be >= 1, got {jobs}", where="--jobs")
    check_count(processors, "--processors", high=MAX_PROCESSORS)
    path = locate_trace(trace, where="--trace")
    swf = read_swf(
        path,
        statuses=None,
        require_positive_run_time=False,
        processors="requested_else_allocated",
        missing_requested_time="keep",
        oversize="keep",
    )
    pick = slice(None) if jobs is None else slice(0, jobs)
    run = np.maximum(swf.jobs["run_time"][pick], 0)
    submit = swf.jobs["submit_time"][pick]
    return BatchInstance(
        platform=Platform(processors),
        ids=tuple(str(x) for x in swf.jobs["job_id"][pick].tolist()),
        submit=submit - submit.min(),
        run_time=run,
        requested_time=np.maximum(swf.requested_time[pick], run),
        size=swf.size[pick],
        name=f"{Path(path).name.split('-')[0]}-accasim-{len(run)}",
    )


def _trace_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", required=True, help=trace_help())
    parser.add_argument("--jobs", type=int, default=None, help="the first JOBS jobs in FCFS order (default: all)")


def _accasim_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", required=True, help=trace_help())
    parser.add_argument("--jobs", type=int, default=None, help="the first JOBS lines (default: all)")
    parser.add_argument("--processors", type=int, default=100, help="platform size (default 100, KTH-SP2's)")


def _offline_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", required=True, help=trace_help())
    parser.add_argument("--jobs", type=int, default=300, help="jobs drawn (default 300)")
    parser.add_argument("--processors", type=int, default=512, help="platform size (default 512)")
    parser.add_argument("--cluster-size", type=int, default=16, help="processors per cluster (default 16)")


def _random_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int, default=20, help="number of jobs (default 20)")
    parser.add_argument("--processors", type=int, default=16, help="platform size (default 16)")
    parser.add_argument("--levels", type=int, nargs="*", default=[], help="fat-tree levels, e.g. 1 2 4 16")
    parser.add_argument("--horizon", type=int, default=50, help="last submission time (default 50)")
    parser.add_argument("--max-run", type=int, default=20, help="longest run time (default 20)")


register_generator(
    Generator(
        "batch",
        "weeks",
        "thesis ch. 5: contiguous 7-day periods of a trace",
        _weeks_arguments,
        lambda *, trace, periods=None, align=False, seed=0: week_instance(trace, periods, align=align, seed=seed),
    )
)
register_generator(
    Generator(
        "batch",
        "trace",
        "the whole trace (or its first jobs): whole-trace speed and memory",
        _trace_arguments,
        lambda *, trace, jobs=None, seed=0: whole_trace(trace, jobs),
    )
)
register_generator(
    Generator(
        "batch",
        "accasim-trace",
        "every line of a trace as AccaSim reads it (no filter): the instances of probe accasim",
        _accasim_arguments,
        lambda *, trace, jobs=None, processors=100, seed=0: accasim_trace(trace, jobs, processors),
    )
)
register_generator(
    Generator(
        "batch",
        "offline",
        "thesis ch. 4: jobs drawn from a trace, all submitted at 0",
        _offline_arguments,
        lambda *, trace, jobs=300, processors=512, cluster_size=16, seed=0: offline_sample(
            trace, jobs, processors, cluster_size, seed=seed
        ),
    )
)
register_generator(
    Generator(
        "batch",
        "random",
        "small random workloads",
        _random_arguments,
        lambda *, jobs=20, processors=16, levels=(), horizon=50, max_run=20, seed=0: random_workload(
            jobs, processors, tuple(levels), horizon, max_run, seed=seed
        ),
    )
)
