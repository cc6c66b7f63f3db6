"""Workloads of section 5.1 of Klein & Pérez, seeded and reproducible.

A test draws, uniformly and independently: the number of applications in [15, 20],
each application's number of stages in [1, 10], each stage's duration in
[500, 3600] s and node count in [1, 75] (integer draws; the paper does not say, and
the tables do not tell the two apart).  The paper never gives the cluster size: 100
nodes reproduces both tables (75, 128 and 150 do not), hence the default.

``time_unit`` draws durations as multiples of a unit (``time_unit = 100``: 500, 600,
..., 3600 s), the coarse time the exact methods need: CP-SAT and the time-indexed
MILP work in units of the durations' greatest common divisor.

* ``coschedopt generate evolving paper`` -- the paper's distribution (every bound an option);
* ``coschedopt generate evolving small`` -- the same with 4-6 applications of 1-4 stages in
  100 s units: instances the exact methods prove in about a second.
"""

from __future__ import annotations

import argparse
import math

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, MAX_TIME, check_count
from .instance import MAX_NODES, MAX_STAGES, Application, EvolvingInstance

#: the paper's distribution (section 5.1) and the inferred cluster size
PAPER = {
    "min_apps": 15,
    "max_apps": 20,
    "min_stages": 1,
    "max_stages": 10,
    "min_duration": 500,
    "max_duration": 3600,
    "min_nodes": 1,
    "max_nodes": 75,
    "cluster": 100,
    "time_unit": 1,
}
#: small instances for the exact methods (coarse time units)
SMALL = {**PAPER, "min_apps": 4, "max_apps": 6, "min_stages": 1, "max_stages": 4, "time_unit": 100}


def _check_range(low: int, high: int, name: str, minimum: int, maximum: int) -> None:
    check_count(low, f"--min-{name}", low=minimum, high=maximum)
    check_count(high, f"--max-{name}", low=minimum, high=maximum)
    if high < low:
        raise InputError(f"must be >= --min-{name} ({low}), got {high}", where=f"--max-{name}")


def random_evolving_instance(
    *,
    seed: int | None = 0,
    min_apps: int = 15,
    max_apps: int = 20,
    min_stages: int = 1,
    max_stages: int = 10,
    min_duration: int = 500,
    max_duration: int = 3600,
    min_nodes: int = 1,
    max_nodes: int = 75,
    cluster: int = 100,
    time_unit: int = 1,
) -> EvolvingInstance:
    """One test of section 5.1 (defaults: the paper's distribution on 100 nodes)."""
    _check_range(min_apps, max_apps, "apps", 1, MAX_GENERATED)
    _check_range(min_stages, max_stages, "stages", 1, MAX_STAGES // max_apps)
    _check_range(min_nodes, max_nodes, "nodes", 1, MAX_NODES)
    check_count(cluster, "--cluster", high=MAX_NODES)
    check_count(time_unit, "--time-unit", high=int(MAX_TIME))
    check_count(min_duration, "--min-duration", high=int(MAX_TIME))
    check_count(max_duration, "--max-duration", high=int(MAX_TIME))
    low, high = math.ceil(min_duration / time_unit), max_duration // time_unit
    if min_duration < 1 or high < low:
        raise InputError(
            f"no multiple of {time_unit} in [{min_duration}, {max_duration}]", where="--min-duration/--max-duration"
        )
    if max_nodes > cluster:
        raise InputError(f"{max_nodes} nodes do not fit the cluster's {cluster}", where="--max-nodes")
    rng = make_rng(seed)
    apps = []
    for i in range(int(rng.integers(min_apps, max_apps + 1))):
        stages = int(rng.integers(min_stages, max_stages + 1))
        durations = rng.integers(low, high + 1, stages) * time_unit
        nodes = rng.integers(min_nodes, max_nodes + 1, stages)
        apps.append(Application(f"A{i + 1}", tuple(int(d) for d in durations), tuple(int(n) for n in nodes)))
    return EvolvingInstance(cluster, tuple(apps), name=f"evolving-s{seed}")


def _arguments(defaults: dict[str, int]):
    def add(parser: argparse.ArgumentParser) -> None:
        def arg(name: str, what: str) -> None:
            dest = name.replace("-", "_")
            parser.add_argument(
                f"--{name}", type=int, default=defaults[dest], help=f"{what} (default {defaults[dest]})"
            )

        arg("min-apps", "fewest applications")
        arg("max-apps", "most applications")
        arg("min-stages", "fewest stages per application")
        arg("max-stages", "most stages per application")
        arg("min-duration", "shortest stage, seconds")
        arg("max-duration", "longest stage, seconds")
        arg("min-nodes", "fewest nodes per stage")
        arg("max-nodes", "most nodes per stage")
        arg("cluster", "nodes in the cluster (the paper's tables imply 100)")
        arg("time-unit", "durations are multiples of this many seconds")

    return add


register_generator(
    Generator(
        family="evolving",
        name="paper",
        help="the workload of section 5.1 (15-20 applications, 1-10 stages, 500-3600 s, 1-75 nodes, 100 nodes)",
        add_arguments=_arguments(PAPER),
        make=lambda *, seed=0, **kw: random_evolving_instance(seed=seed, **{**PAPER, **kw}),
    )
)
register_generator(
    Generator(
        family="evolving",
        name="small",
        help="small instances for the exact methods (4-6 applications, 1-4 stages, 100 s time units)",
        add_arguments=_arguments(SMALL),
        make=lambda *, seed=0, **kw: random_evolving_instance(seed=seed, **{**SMALL, **kw}),
    )
)
