"""``coschedopt generate toy random``: seeded random toy instances."""

from __future__ import annotations

import argparse

from ...core import make_rng
from ...core.commands import Generator, register_generator
from ...core.limits import check_count
from .instance import MAX_VALUES, ToyInstance


def random_toy_instance(size: int, k: int = 1, *, seed: int | None = 0) -> ToyInstance:
    """``size`` integer values uniform in [1, 99]."""
    check_count(size, "--size", high=MAX_VALUES)
    values = make_rng(seed).integers(1, 100, size)
    return ToyInstance(tuple(float(v) for v in values), k, name=f"toy-n{size}-k{k}-s{seed}")


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", "-n", type=int, default=5, help="number of values (default 5)")
    parser.add_argument("--k", type=int, default=1, help="a size label carried to result tables (default 1)")


register_generator(
    Generator(
        family="toy",
        name="random",
        help="random toy instances",
        add_arguments=_arguments,
        make=lambda *, size, k=1, seed=0: random_toy_instance(size, k, seed=seed),
        aliases=("toy-gen",),
    )
)
