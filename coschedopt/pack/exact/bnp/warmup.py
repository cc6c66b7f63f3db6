"""Compile the branch-and-price kernels once per process, outside any timed solve.

numba compiles a kernel at its first call (about 20 s for all of them on a fresh
install) and caches the machine code on disk, so later processes only load it
(well under a second).  :func:`compile_kernels` is the method's ``prepare`` hook
(:func:`coschedopt.core.method`): :func:`coschedopt.solve` runs it before starting
the clock and reports its time as ``stats["prepare_seconds"]``, so a method's
runtime never includes compilation.  It solves a small instance with the column
generation, pricing, enumeration and tree enabled, which calls every kernel with
the argument types of a real run.

Stopping (:mod:`coschedopt.core.deadline`): a compilation cannot be cut inside the
process (an exception raised into numba leaves it broken for the process), and one
kernel takes seconds.  So when numba's disk cache lacks a kernel, the compilation runs
in a child process that fills the cache and that a stop request kills at once; this
process then only loads the kernels.  The warm-up solves poll their deadline, which a
stop request expires, and kernels not compiled by then run their numpy versions
(:func:`.kernels.ready`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

from ....core.deadline import stop_requested
from . import kernels

#: the kernels called from Python (the others are compiled inside them)
KERNELS = ("values", "best_set", "level_best_set", "suffix_tables", "enumerate_sets", "min_level")


def compile_kernels() -> None:
    """Call every compiled kernel once (compiling it, or loading it from the cache)."""
    if not kernels.COMPILED:
        return
    if not _cached():
        _compile_in_child()
    warm_up()


def warm_up() -> None:
    """Solve the small instances that call every kernel (each polls the stop request)."""
    from ...generate import random_pack_instance
    from .driver import run
    from .options import BnpOptions

    for n, p, k, seed in ((12, 8, 4, 0), (14, 8, 5, 1)):
        if stop_requested():
            return
        instance = random_pack_instance(n, p, k, seed=seed)
        run(instance, time_limit=120.0, seed=0, verbose=False, options=BnpOptions(complete_master=0, lns=False))


def _cached() -> bool:
    """Whether numba's disk cache has an entry for every kernel (a stale one is compiled again)."""
    try:
        return all(os.path.exists(getattr(kernels, name)._cache._cache_file._index_path) for name in KERNELS)
    except AttributeError:  # another numba's cache layout: compile here
        return True


def _compile_in_child() -> None:
    """Fill numba's disk cache in a child process; kill it on a stop request (polled every 50 ms).
    It ignores SIGINT: a terminal's Ctrl-C reaches it too, and this process decides."""
    code = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN); from {} import warm_up; warm_up()"
    child = subprocess.Popen(
        [sys.executable, "-c", code.format(__name__)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while child.poll() is None:
            if stop_requested():
                break
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(0.05)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
