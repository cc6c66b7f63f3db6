"""The example family ``toy`` plus test-only methods that fail, time out, hang and crash.

Imported by the bench tests and, through a suite's ``plugins = [...]``, by the
harness's worker processes, to show the harness is generic over families: it
knows nothing of this family but what ``coschedopt.core`` registers.  The family
itself is the template :mod:`coschedopt.examples.toy`; what is added here exists
only to exercise the harness.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass

from coschedopt.core import Deadline, MethodOptions, MethodRefused, Result, Status, method, option
from coschedopt.examples.toy import ToyInstance, ToySchedule
from coschedopt.examples.toy.exact import optimal_order
from coschedopt.examples.toy.schedule import toy_objective

__all__ = ["ToyInstance", "ToySchedule", "toy_optimum"]


def toy_optimum(instance: ToyInstance) -> float:
    return toy_objective(instance, optimal_order(instance))


def _identity(instance: ToyInstance) -> ToySchedule:
    return ToySchedule(tuple(range(instance.n)))


@dataclass(frozen=True)
class DelayOptions(MethodOptions):
    delay: float = option(0.2, "seconds to sleep", min=0.0)


@method("toy", "toy-slow", options=DelayOptions)
def toy_slow(instance, *, time_limit, seed, verbose, options):
    """The identity order after sleeping ``delay`` seconds."""
    time.sleep(options.delay)
    return Result(Status.FEASIBLE, _identity(instance))


@dataclass(frozen=True)
class HogOptions(MethodOptions):
    mib: int = option(0, "MiB of memory to fill (and keep until the method returns)", min=0)


@method("toy", "toy-hog", options=HogOptions)
def toy_hog(instance, *, time_limit, seed, verbose, options):
    """The identity order after filling ``mib`` MiB (every page written, so resident): a cell with a known peak."""
    block = bytearray(b"\x01") * (options.mib * 2**20)
    del block
    return Result(Status.FEASIBLE, _identity(instance))


@method("toy", "toy-boom")
def toy_boom(instance, *, time_limit, seed, verbose, options):
    """Always raises."""
    raise RuntimeError(f"boom on purpose ({instance.name})")


@method("toy", "toy-limited", exact=True)
def toy_limited(instance, *, time_limit, seed, verbose, options):
    """Runs out of time: returns the identity order and half the optimum as bound."""
    time.sleep(min(time_limit or 0.05, 0.05))
    return Result(Status.TIME_LIMIT, _identity(instance), lower_bound=toy_optimum(instance) / 2)


@method("toy", "toy-stubborn")
def toy_stubborn(instance, *, time_limit, seed, verbose, options):
    """Ignores its time limit (the harness must kill it)."""
    time.sleep(1000)
    return Result(Status.FEASIBLE, _identity(instance))


@method("toy", "toy-crash")
def toy_crash(instance, *, time_limit, seed, verbose, options):
    """Kills its own process, like a segfault would."""
    os._exit(7)


@method("toy", "toy-refuse")
def toy_refuse(instance, *, time_limit, seed, verbose, options):
    """Refuses instances with more than 3 values."""
    if instance.n > 3:
        raise MethodRefused(f"n = {instance.n} > 3", where="values")
    return Result(Status.OPTIMAL, optimal_order(instance))


@method("toy", "toy-anytime", exact=True)
def toy_anytime(instance, *, time_limit, seed, verbose, options):
    """Keeps the identity order and half the optimum as bound, polling its deadline until it expires."""
    deadline = Deadline(time_limit)
    print("toy-anytime: started", file=sys.stderr, flush=True)
    while not deadline.expired():
        time.sleep(0.02)
    return Result(Status.TIME_LIMIT, _identity(instance), lower_bound=toy_optimum(instance) / 2)


#: the processes (ids) in which :func:`toy_prepare` ran
PREPARED_IN: list[int] = []


def toy_prepare() -> None:
    """The ``prepare`` hook of ``toy-compiled`` (stands for compiling kernels): notes the process it ran in."""
    PREPARED_IN.append(os.getpid())


@method("toy", "toy-compiled", prepare="tests.bench.toy_family:toy_prepare")
def toy_compiled(instance, *, time_limit, seed, verbose, options):
    """The identity order, after a ``prepare`` hook (a method with compiled kernels)."""
    return Result(Status.FEASIBLE, _identity(instance))


@dataclass(frozen=True)
class UpToOptions(MethodOptions):
    limit: int = option(
        3, "largest n proven; above it, stopped at the time limit with half the optimum as bound", min=0
    )
    lucky: int = option(0, "method seeds below this prove one size more than limit", min=0)


@method("toy", "toy-upto", exact=True, options=UpToOptions)
def toy_upto(instance, *, time_limit, seed, verbose, options):
    """Proves the optimum up to a size (an exact method's frontier, known in advance), certified bound beyond."""
    if instance.n <= options.limit or (instance.n == options.limit + 1 and (seed or 0) < options.lucky):
        return Result(Status.OPTIMAL, optimal_order(instance), lower_bound=toy_optimum(instance))
    return Result(Status.TIME_LIMIT, _identity(instance), lower_bound=toy_optimum(instance) / 2)


@method("toy", "toy-probe", probe=True)
def toy_probe(instance, *, time_limit, seed, verbose, options):
    """A probe: measures nothing but reports figures of the instance in its stats, without a schedule."""
    return Result(Status.FEASIBLE, stats={"size_counted": instance.n, "half_size": instance.n / 2})
