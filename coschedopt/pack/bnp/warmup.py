"""Compile the branch-and-price kernels once per process, outside any timed solve.

numba compiles a kernel at its first call (about 20 s for all of them on a fresh
install) and caches the machine code on disk, so later processes only load it
(well under a second).  :func:`compile_kernels` is the method's ``prepare`` hook
(:func:`coschedopt.core.method`): :func:`coschedopt.solve` runs it before starting
the clock and reports its time as ``stats["prepare_seconds"]``, so a method's
runtime never includes compilation.  It solves a small instance with the column
generation, pricing, enumeration and tree enabled, which calls every kernel with
the argument types of a real run.  A stop request (Ctrl-C) cuts it short: each warm-up
solve polls its deadline, which expires then, like any solve.
"""

from __future__ import annotations

from ...core.deadline import stop_requested
from . import kernels


def compile_kernels() -> None:
    """Call every compiled kernel once (compiling it, or loading it from the cache)."""
    if not kernels.COMPILED:
        return
    from ..generate import random_pack_instance
    from .driver import run
    from .options import BnpOptions

    for n, p, k, seed in ((12, 8, 4, 0), (14, 8, 5, 1)):
        if stop_requested():  # Ctrl-C while compiling: the solve that follows stops at once
            return
        instance = random_pack_instance(n, p, k, seed=seed)
        run(
            instance,
            time_limit=120.0,
            seed=0,
            verbose=False,
            options=BnpOptions(complete_master=0, lns=False),
        )
