"""Which simulations run compiled, and the simulators' ``prepare`` hooks: numba is loaded only where it pays.

Loading numba and its first cached kernel costs about 0.35 s of CPU in a fresh
process (importing numba, then initialising its code generator), far more
than a week of a trace takes to simulate without it: conservative
backfilling of 1,285 jobs on 1,152 processors takes 0.05 s on the
big-integer profile (:mod:`.profile`), EASY 0.03 s on the Python loop.  So a
simulation whose work is small runs the Python reference (the same schedule,
tested job by job against the compiled one) and a process solving it never
imports numba; a larger one runs the compiled kernels, and the method's
``prepare`` hook loads just the kernels its variant and options call, before
the method's clock starts.

The work of a simulation is counted as its jobs times ``1 + W / 64`` (``W =
⌈P/64⌉`` words a processor set): the Python profile's operations cost a
pass over the big integers' words, about 40 us a job plus 0.7 us a word
(measured from KTH-SP2 to Curie).  Below :data:`PYTHON_WORK`, a few thousand
jobs on a few thousand processors, the Python run costs less than loading
numba (under about 0.3 s).

This module imports neither numba nor the kernels' modules.
"""

from __future__ import annotations

import importlib.util
from typing import Any

#: the work (jobs × (1 + W/64)) from which the simulators run compiled
PYTHON_WORK = 5_000

#: jobs from which the validator's overlap sweep runs compiled (:mod:`.schedule_kernels`); below, the sweep in
#: Python with bitsets costs less than loading numba
COMPILED_SWEEP_JOBS = 20_000


def numba_installed() -> bool:
    return importlib.util.find_spec("numba") is not None


def simulation_work(instance: Any) -> float:
    """Jobs × (1 + W/64), W the words of a processor set: what a Python run's time grows with."""
    return instance.n * (1 + (instance.processors + 63) // 64 / 64)


def compiled_profile_applies(instance: Any) -> bool:
    """Whether conservative backfilling on ``instance`` runs on the word profile (compiled kernels)."""
    return simulation_work(instance) >= PYTHON_WORK and numba_installed()


def compiled_sweep_applies(jobs: int) -> bool:
    """Whether the validator's overlap sweep over ``jobs`` jobs runs compiled (numba installed, enough jobs)."""
    return jobs >= COMPILED_SWEEP_JOBS and numba_installed()


def compiled_loop_applies(instance: Any, options: Any) -> bool:
    """Whether ``fcfs`` and ``easy`` run their compiled loop: basic allocation (whose choice, the lowest free
    ids, no topology changes), numba installed, and enough work to pay for loading it."""
    return options.allocation == "basic" and simulation_work(instance) >= PYTHON_WORK and numba_installed()


def profile_groups(options: Any) -> tuple[str, ...]:
    """The word profile's kernel groups (:data:`.wordprofile.KERNEL_GROUPS`) a conservative run with ``options``
    calls: the profile's own, the variant's compiled rule (:meth:`.wordprofile.WordProfile.chooser`), the
    reassignment's scan."""
    groups = ["profile"]
    if options.allocation in ("beplat", "plat") and options.beplat_rule == "lowest-ids":
        groups.append("platform")
    elif options.allocation == "cont" and options.cont_rule == "first-fit" and options.topology == "line":
        groups.append("cont")
    elif options.allocation == "loc":
        groups.append("loc")
    if getattr(options, "reassign", False):
        groups.append("reassign")
    return tuple(groups)


_LOADED: set[str] = set()  # kernel groups loaded in this process ("queue", "sweep" and the profile's)


def _load(groups: tuple[str, ...]) -> bool:
    todo = tuple(g for g in groups if g not in _LOADED)
    if not todo:
        return False
    profile = tuple(g for g in todo if g not in ("queue", "sweep"))
    if profile:
        from .wordprofile import compile_kernels

        compile_kernels(profile)
    if "queue" in todo:
        from .queue_kernels import compile_kernels as compile_queue

        compile_queue()
    if "sweep" in todo:
        from .schedule_kernels import compile_kernel

        compile_kernel()
    _LOADED.update(todo)
    return True


def _load_all() -> bool:
    """Every batch kernel, with one message if any must be compiled (:func:`.wordprofile.compile_kernels`)."""
    everything = ("profile", "platform", "cont", "loc", "reassign", "queue", "sweep")
    if _LOADED.issuperset(everything):
        return False
    from .wordprofile import compile_kernels

    compile_kernels()
    _LOADED.update(everything)
    return True


def _sweep(instance: Any) -> tuple[str, ...]:
    return ("sweep",) if compiled_sweep_applies(instance.n) else ()


def prepare_conservative(instance: Any = None, options: Any = None) -> bool:
    """``conservative``'s ``prepare`` hook: load (or compile, once per install) the kernels a run on
    ``instance`` with ``options`` calls, and the validator's sweep if it runs compiled; nothing for a run on
    the Python profile.  Without an instance, every batch kernel.  Whether it loaded anything."""
    if instance is None:
        return _load_all()
    if not compiled_profile_applies(instance):
        return _load(_sweep(instance))
    return _load(profile_groups(options) + _sweep(instance))


def prepare_queue(instance: Any = None, options: Any = None) -> bool:
    """``fcfs``'s and ``easy``'s ``prepare`` hook, as :func:`prepare_conservative` for their compiled loop."""
    if instance is None:
        return prepare_conservative()
    if not compiled_loop_applies(instance, options):
        return _load(_sweep(instance))
    return _load(("queue", *_sweep(instance)))


def kernels_cached() -> bool:
    """Whether numba's disk cache holds every batch kernel, fresh (imports numba; False without it)."""
    if not numba_installed():
        return True  # nothing to compile: the Python paths run
    from .wordprofile import kernels_cached as cached

    return cached()


# ``bench run`` asks a hook whether its work is on disk already, so that it says "compiling" only when it is not
prepare_conservative.cached = kernels_cached  # type: ignore[attr-defined]
prepare_queue.cached = kernels_cached  # type: ignore[attr-defined]
