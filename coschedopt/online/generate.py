"""Seeded online instances: small random ones for the exact methods, and Figure 3.2's example.

``coschedopt generate online random``: n tasks with heavy-tailed integer sizes
(Pareto, shape 1.1, clipped to [1, max_time]) released uniformly over a span
chosen so that the offered load (work / (m · span)) is ``load``: the family
note's gap protocol (n <= 15, m <= 3, p in [1, 50], releases dense enough to queue).

``coschedopt generate online fig-3-2``: the example of §3.4.2 / Figure 3.2: T0 of
size p released at 0, then p unit tasks T1..Tp released at 1..p.  On one
processor, non-preemptive SPT gives ΣF = p(p+1) = 110 for p = 10 and the offline
optimum 3p + 1 = 31; SPT-RD with τ = 3 on one main and one dedicated processor
gives 43 (T0 killed at 3, restarted at 3 on the dedicated processor).

The Method C instances cut from real traces are in :mod:`.method_c`.
"""

from __future__ import annotations

import argparse

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, MAX_TIME, check_count, check_number
from .instance import MAX_PROCESSORS, OBJECTIVES, OnlineInstance


def random_instance(
    tasks: int = 10,
    processors: int = 2,
    *,
    max_time: int = 50,
    load: float = 0.9,
    objective: str = "sum-stretch",
    stretch_bound: float = 10.0,
    seed: int | None = 0,
) -> OnlineInstance:
    """Heavy-tailed integer sizes in [1, max_time], integer releases at offered load ``load``."""
    check_count(tasks, "--tasks", high=MAX_GENERATED)
    check_count(processors, "--processors", high=MAX_PROCESSORS)
    check_count(max_time, "--max-time", high=int(MAX_TIME))
    # the release span is the work over (m x load): a tiny load would stretch it beyond the times' limit
    check_number(load, "--load", low=1e-6, allow_low=True, high=1e6)
    rng = make_rng(seed)
    sizes = np.minimum(np.floor(rng.pareto(1.1, tasks) * 4 + 1), max_time).astype(int)
    span = float(sizes.sum()) / (processors * load)
    if span > MAX_TIME:
        raise InputError(f"the releases would span {span:.3g} s, above {MAX_TIME:g}; raise the load", where="--load")
    span = int(round(span))
    releases = np.sort(rng.integers(0, span + 1, tasks))
    return OnlineInstance(
        releases,
        sizes,
        processors,
        objective=objective,
        stretch_bound=stretch_bound,
        name=f"random-n{tasks}-m{processors}-s{seed}",
    )


def figure_3_2(size: int = 10, processors: int = 1, objective: str = "sum-flow") -> OnlineInstance:
    """Figure 3.2: T0 (size ``size``) at 0, then ``size`` unit tasks released at 1, 2, ..., size."""
    check_count(size, "--size", high=MAX_GENERATED - 1, what="the example has size + 1 tasks")
    releases = np.arange(size + 1)
    sizes = np.r_[size, np.ones(size)]
    return OnlineInstance(releases, sizes, processors, objective=objective, name=f"fig-3-2-p{size}-m{processors}")


def _random_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tasks", "-n", type=int, default=10, help="number of tasks (default 10)")
    parser.add_argument("--processors", "-m", type=int, default=2, help="processors (default 2)")
    parser.add_argument("--max-time", type=int, default=50, help="largest processing time (default 50)")
    parser.add_argument("--load", type=float, default=0.9, help="offered load: work / (m x release span) (default 0.9)")
    parser.add_argument(
        "--objective", choices=OBJECTIVES, default="sum-stretch", help="objective (default sum-stretch)"
    )


def _figure_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=10, help="size p of the long task T0 (default 10)")
    parser.add_argument("--processors", "-m", type=int, default=1, help="processors (default 1)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="sum-flow", help="objective (default sum-flow)")


register_generator(
    Generator(
        family="online",
        name="random",
        help="small random instances with heavy-tailed integer sizes (for the exact methods)",
        add_arguments=_random_arguments,
        make=lambda *, tasks=10, processors=2, max_time=50, load=0.9, objective="sum-stretch", seed=0: random_instance(
            tasks, processors, max_time=max_time, load=load, objective=objective, seed=seed
        ),
    )
)
register_generator(
    Generator(
        family="online",
        name="fig-3-2",
        help="the example of Figure 3.2 (a long task overtaken by unit tasks)",
        add_arguments=_figure_arguments,
        make=lambda *, size=10, processors=1, objective="sum-flow", seed=0: figure_3_2(size, processors, objective),
    )
)
