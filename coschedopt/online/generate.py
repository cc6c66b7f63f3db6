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
from functools import lru_cache

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, MAX_TIME, check_count, check_number
from ..workloads.traces import trace_help
from .instance import MAX_PROCESSORS, OBJECTIVES, OnlineInstance
from .method_c import ROUNDINGS, method_c_instance, small_cut
from .traces import PRESETS


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


# --------------------------------------------------------------------------- Method C (thesis §3.5.1)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--trace", required=True, help=f"a preset of Table 3.1 ({', '.join(PRESETS)}) or {trace_help()}"
    )
    parser.add_argument("--window-days", type=float, default=None, help="window length s in days (default: Table 3.1)")
    parser.add_argument(
        "--trace-processors",
        type=int,
        default=None,
        help="the platform's processors m (default: Table 3.1, or MaxProcs)",
    )
    parser.add_argument("--processors", "-m", type=int, default=None, help="the instance's processors (default: m / Q)")
    parser.add_argument("--rounding", choices=ROUNDINGS, default="round", help="rounding of m / Q (default round)")
    parser.add_argument("--inside", action="store_true", help="keep the whole window inside the trace's horizon")
    parser.add_argument(
        "--start", type=float, default=None, help="window start in the trace's seconds (default: drawn)"
    )
    parser.add_argument(
        "--objective", choices=OBJECTIVES, default="sum-stretch", help="objective (default sum-stretch)"
    )


def _make(
    *,
    trace: str,
    window_days: float | None = None,
    trace_processors: int | None = None,
    processors: int | None = None,
    rounding: str = "round",
    inside: bool = False,
    start: float | None = None,
    objective: str = "sum-stretch",
    seed: int = 0,
) -> OnlineInstance:
    return method_c_instance(
        trace,
        window_days=window_days,
        trace_processors=trace_processors,
        processors=processors,
        rounding=rounding,
        inside=inside,
        start=start,
        objective=objective,
        seed=seed,
    )


register_generator(
    Generator(
        family="online",
        name="method-c",
        help="Method C instances from a real trace window (thesis §3.5.1, Table 3.1's presets)",
        add_arguments=_arguments,
        make=_make,
    )
)


def _cut_arguments(parser: argparse.ArgumentParser) -> None:
    _arguments(parser)
    parser.add_argument("--tasks", "-n", type=int, default=12, help="tasks of the cut (default 12)")
    parser.add_argument("--cut-processors", type=int, default=3, help="processors of the cut (default 3)")
    parser.add_argument("--max-time", type=int, default=50, help="the largest size, in time units (default 50)")


def _make_cut(
    *, tasks: int = 12, cut_processors: int = 3, max_time: int = 50, seed: int = 0, **method_c
) -> OnlineInstance:
    return small_cut(
        _cached_make(seed, tuple(sorted(method_c.items()))), tasks, cut_processors, max_time=max_time, seed=seed
    )


@lru_cache(maxsize=4)
def _cached_make(seed: int, method_c: tuple) -> OnlineInstance:
    """A suite cuts one Method C instance once per objective: build it once (instances are immutable)."""
    return _make(seed=seed, **dict(method_c))


register_generator(
    Generator(
        family="online",
        name="trace-cut",
        help="small integer instances cut from a Method C instance (for the exact methods)",
        add_arguments=_cut_arguments,
        make=_make_cut,
    )
)
