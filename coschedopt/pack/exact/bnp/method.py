"""The ``pack`` method ``branch-and-price``, registered without importing the solver.

Registering the method imports only its options; the phases (:mod:`.driver`, and with
them highspy and the numba kernels) are imported at the first call, so that
``import coschedopt`` and ``coschedopt --help`` stay fast.  Its one-time preparation
(:func:`.warmup.compile_kernels`) compiles the kernels, or loads them from numba's
disk cache, before :func:`coschedopt.solve` starts the clock.
"""

from __future__ import annotations

from ....core import Result, method
from .options import BnpOptions


@method(
    "pack",
    "branch-and-price",
    exact=True,
    options=BnpOptions,
    prepare="coschedopt.pack.exact.bnp.warmup:compile_kernels",
)
def solve(instance, *, time_limit, seed, verbose, options: BnpOptions) -> Result:
    """Exact: set-covering column generation, pack-count cuts and a branch-and-price tree (:mod:`coschedopt.pack.exact.bnp`).

    Called as ``solve(instance, time_limit=..., seed=..., verbose=..., <option>=...)`` or
    with ``options=`` a :class:`.options.BnpOptions` (the registry checks them either
    way).  The neighbourhood search's worker process is started by spawn, so a script
    calling this at top level needs the ``if __name__ == "__main__":`` guard (or
    ``lns_workers=0``).  Returns the best schedule, a certified lower bound and
    ``TIME_LIMIT`` when ``time_limit`` stops it.
    """
    from .driver import run

    return run(instance, time_limit=time_limit, seed=seed, verbose=verbose, options=options)
