"""A tiny test-only family, ``toy``, with methods that succeed, fail, time out, hang and crash.

Imported by the bench tests and, through a suite's ``plugins = [...]``, by the
harness's worker processes, to show the harness is generic over families: it
knows nothing of this family but what ``coschedopt.core`` registers.

An instance is a list of positive values; a schedule is an order of them; the
objective is sum_i (i + 1) * value[order[i]], minimised by the non-increasing order.
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from coschedopt.core import (
    Family,
    InputError,
    MethodOptions,
    MethodRefused,
    Result,
    Status,
    make_rng,
    method,
    option,
    register_family,
)
from coschedopt.core.commands import Generator, register_generator


@dataclass(frozen=True)
class ToyInstance:
    kind: ClassVar[str] = "toy"
    values: tuple[float, ...]
    k: int = 1
    name: str = "toy"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "toy", "name": self.name, "k": self.k, "values": list(self.values)}

    @classmethod
    def from_dict(cls, data: dict) -> ToyInstance:
        values = data.get("values")
        if not isinstance(values, list) or not values or not all(isinstance(v, int | float) and v > 0 for v in values):
            raise InputError(f"values must be a non-empty list of positive numbers, got {values!r}", where="values")
        return cls(tuple(float(v) for v in values), int(data.get("k", 1)), str(data.get("name", "toy")))


@dataclass(frozen=True)
class ToySchedule:
    order: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order)}

    @classmethod
    def from_dict(cls, instance: ToyInstance, data: dict) -> ToySchedule:
        return cls(tuple(data["order"]))


def toy_validate(instance: ToyInstance, schedule: ToySchedule) -> None:
    if sorted(schedule.order) != list(range(len(instance.values))):
        raise ValueError(f"order {schedule.order} is not a permutation of 0..{len(instance.values) - 1}")


def toy_objective(instance: ToyInstance, schedule: ToySchedule) -> float:
    return float(sum((i + 1) * instance.values[j] for i, j in enumerate(schedule.order)))


def toy_optimum(instance: ToyInstance) -> float:
    return toy_objective(
        instance, ToySchedule(tuple(sorted(range(len(instance.values)), key=lambda j: -instance.values[j])))
    )


register_family(
    Family(
        kind="toy",
        description="test-only: order values to minimise the weighted sum",
        instance_from_dict=ToyInstance.from_dict,
        schedule_from_dict=ToySchedule.from_dict,
        validate=toy_validate,
        objective=toy_objective,
        metrics=lambda inst, s: {"relative_objective": toy_objective(inst, s) / sum(inst.values)},
        describe=lambda inst: {"n": len(inst.values), "k": inst.k},
    )
)


@dataclass(frozen=True)
class DelayOptions(MethodOptions):
    delay: float = option(0.2, "seconds to sleep", min=0.0)


def _sorted(instance: ToyInstance) -> ToySchedule:
    return ToySchedule(tuple(sorted(range(len(instance.values)), key=lambda j: -instance.values[j])))


@method("toy", "toy-exact", exact=True)
def toy_exact(instance, *, time_limit, seed, verbose, options):
    """Sort by non-increasing value (optimal)."""
    return Result(Status.OPTIMAL, _sorted(instance))


@method("toy", "toy-identity")
def toy_identity(instance, *, time_limit, seed, verbose, options):
    """The given order."""
    return Result(Status.FEASIBLE, ToySchedule(tuple(range(len(instance.values)))))


@method("toy", "toy-random")
def toy_random(instance, *, time_limit, seed, verbose, options):
    """A seeded random order."""
    order = make_rng(seed).permutation(len(instance.values))
    return Result(Status.FEASIBLE, ToySchedule(tuple(int(x) for x in order)))


@method("toy", "toy-slow", options=DelayOptions)
def toy_slow(instance, *, time_limit, seed, verbose, options):
    """The identity order after sleeping ``delay`` seconds."""
    time.sleep(options.delay)
    return Result(Status.FEASIBLE, ToySchedule(tuple(range(len(instance.values)))))


@method("toy", "toy-boom")
def toy_boom(instance, *, time_limit, seed, verbose, options):
    """Always raises."""
    raise RuntimeError(f"boom on purpose ({instance.name})")


@method("toy", "toy-limited", exact=True)
def toy_limited(instance, *, time_limit, seed, verbose, options):
    """Runs out of time: returns the identity order and half the optimum as bound."""
    time.sleep(min(time_limit or 0.05, 0.05))
    return Result(
        Status.TIME_LIMIT, ToySchedule(tuple(range(len(instance.values)))), lower_bound=toy_optimum(instance) / 2
    )


@method("toy", "toy-stubborn")
def toy_stubborn(instance, *, time_limit, seed, verbose, options):
    """Ignores its time limit (the harness must kill it)."""
    time.sleep(1000)
    return Result(Status.FEASIBLE, ToySchedule(tuple(range(len(instance.values)))))


@method("toy", "toy-crash")
def toy_crash(instance, *, time_limit, seed, verbose, options):
    """Kills its own process, like a segfault would."""
    os._exit(7)


@method("toy", "toy-refuse")
def toy_refuse(instance, *, time_limit, seed, verbose, options):
    """Refuses instances with more than 3 values."""
    if len(instance.values) > 3:
        raise MethodRefused(f"n = {len(instance.values)} > 3", where="values")
    return Result(Status.OPTIMAL, _sorted(instance))


def _toy_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", "-n", type=int, default=5)
    parser.add_argument("--k", type=int, default=1)


def make_toy(*, size: int, k: int = 1, seed: int | None = 0) -> ToyInstance:
    if size < 1:
        raise InputError(f"size must be >= 1, got {size}", where="size")
    values = make_rng(seed).integers(1, 100, size)
    return ToyInstance(tuple(float(v) for v in values), k, name=f"toy-n{size}-k{k}-s{seed}")


register_generator(Generator("toy", "toy-gen", "test-only toy instances", _toy_args, make_toy))
