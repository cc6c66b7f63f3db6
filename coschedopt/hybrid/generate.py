"""CPU/GPU instance families, seeded and reproducible.

* ``coschedopt generate hybrid random`` (:func:`random_hybrid_instance`): the
  generator of the moldable CPU/GPU literature (the note's section 5): CPU time
  10 + 90·Beta(3, 5), GPU time = CPU time x a normal(0.5, 0.5) factor truncated to
  [0.1, 1.5] (redrawn until inside).  Times are rounded to ``decimals`` decimals
  (default 0: integers >= 1, the grid on which the exact stop of the binary
  searches and the integer exact methods work).
* ``coschedopt generate hybrid swdual`` (:func:`swdual_instance`): the thesis's
  sequence comparison: 40 queries against a protein database, one task per query
  (l. 720), CPU time = cells / the SWIPE rate, GPU time = cells / the CUDASW++ rate
  (rates from Table 2.2's single workers, :mod:`.paper`), cells = |query| x |database|.
  The per-query lengths are not published [I]: main set U[100, 5000], homogeneous
  U[4500, 5000], heterogeneous U[4, 35213]; the database's size in residues is set
  so that the instance's total cells equal the paper's (GCUPS x seconds).
"""

from __future__ import annotations

import argparse

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, check_count
from . import paper
from .instance import MAX_UNITS, HybridInstance

#: query length ranges of the thesis's query sets [I]
QUERY_SETS = {"main": (100, 5000), "homogeneous": (4500, 5000), "heterogeneous": (4, 35213)}


def _positive(value: int, where: str, low: int = 1, high: int = MAX_GENERATED) -> int:
    return check_count(value, where, low=low, high=high)


def truncated_normal(
    rng: np.random.Generator, size: int, mean: float, sd: float, low: float, high: float
) -> np.ndarray:
    """Draws of N(mean, sd) conditioned on [low, high] (rejection: redraw the ones outside)."""
    out = rng.normal(mean, sd, size)
    bad = (out < low) | (out > high)
    while bad.any():
        out[bad] = rng.normal(mean, sd, int(bad.sum()))
        bad = (out < low) | (out > high)
    return out


def random_hybrid_instance(n: int, m: int, k: int, *, seed: int | None = 0, decimals: int = 0) -> HybridInstance:
    """The literature's random instance: n tasks, m CPUs, k GPUs (see the module docstring)."""
    _positive(n, "--tasks")
    _positive(m, "--cpus", 0, MAX_UNITS)
    _positive(k, "--gpus", 0, MAX_UNITS)
    _positive(decimals, "--decimals", 0, 15)
    if m + k == 0:
        raise InputError("at least one machine is needed, got --cpus 0 and --gpus 0", where="--cpus")
    rng = make_rng(seed)
    cpu = 10.0 + 90.0 * rng.beta(3.0, 5.0, n)
    gpu = cpu * truncated_normal(rng, n, 0.5, 0.5, 0.1, 1.5)
    step = 10.0**-decimals
    cpu = np.maximum(step, np.round(cpu, decimals))
    gpu = np.maximum(step, np.round(gpu, decimals))
    meta = {"generator": "random", "seed": seed}
    return HybridInstance(cpu, gpu, m, k, name=f"random-n{n}-m{m}-k{k}-s{seed}", meta=meta)


def swdual_instance(
    workers: int | None = 2,
    *,
    database: str = "uniprot",
    query_set: str = "main",
    queries: int = 40,
    cpus: int | None = None,
    gpus: int | None = None,
    seed: int | None = 0,
    decimals: int = 2,
) -> HybridInstance:
    """The SWDUAL workload: ``queries`` tasks against ``database`` on the worker mix of ``workers``
    (or on ``cpus`` CPUs and ``gpus`` GPUs when both are given).  Times in seconds, rounded to
    ``decimals`` decimals (default 2: the exact methods work on that grid)."""
    if database not in paper.TABLE_2_4:
        raise InputError(f"unknown database {database!r}; known: {', '.join(paper.TABLE_2_4)}", where="--database")
    if query_set not in QUERY_SETS:
        raise InputError(f"unknown query set {query_set!r}; known: {', '.join(QUERY_SETS)}", where="--query-set")
    _positive(queries, "--queries")
    if cpus is None or gpus is None:
        if workers is None or not (isinstance(workers, int) and 2 <= workers <= 8):
            raise InputError(f"must be an integer in 2..8 (SWDUAL's runs), got {workers!r}", where="--workers")
        cpus, gpus = paper.worker_mix(workers)
    try:
        cells_total = paper.total_cells(query_set, database)
    except KeyError as exc:
        raise InputError(str(exc.args[0]), where="--query-set") from None
    low, high = QUERY_SETS[query_set]
    lengths = make_rng(seed).integers(low, high + 1, queries).astype(float)
    residues = cells_total / lengths.sum()
    cells = lengths * residues
    _positive(decimals, "--decimals", 0, 15)
    step = 10.0**-decimals
    return HybridInstance(
        np.maximum(step, np.round(cells / paper.CPU_RATE, decimals)),
        np.maximum(step, np.round(cells / paper.GPU_RATE, decimals)),
        cpus,
        gpus,
        names=tuple(f"q{j + 1}" for j in range(queries)),
        name=f"swdual-{database}-{query_set}-m{cpus}-k{gpus}-s{seed}",
        meta={"generator": "swdual", "seed": seed, "cells": float(cells_total), "query_lengths": lengths.tolist()},
    )


def _random_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tasks", "-n", dest="n", type=int, default=20, help="number of tasks (default 20)")
    parser.add_argument("--cpus", "-m", dest="m", type=int, default=4, help="number of CPUs (default 4)")
    parser.add_argument("--gpus", "-k", dest="k", type=int, default=2, help="number of GPUs (default 2)")
    parser.add_argument("--decimals", type=int, default=0, help="decimals kept in the times (default 0: integer times)")


def _swdual_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--workers", "-w", type=int, default=2, help="SWDUAL workers 2..8, mapped to CPUs/GPUs (default 2)"
    )
    parser.add_argument(
        "--database", default="uniprot", choices=sorted(paper.TABLE_2_4), help="database (default uniprot)"
    )
    parser.add_argument(
        "--query-set", dest="query_set", default="main", choices=sorted(QUERY_SETS), help="default main"
    )
    parser.add_argument("--queries", type=int, default=40, help="number of queries (default 40)")
    parser.add_argument("--cpus", type=int, default=None, help="CPUs (with --gpus: instead of the worker mix)")
    parser.add_argument("--gpus", type=int, default=None, help="GPUs (with --cpus: instead of the worker mix)")
    parser.add_argument("--decimals", type=int, default=2, help="decimals kept in the times in seconds (default 2)")


register_generator(
    Generator(
        family="hybrid",
        name="random",
        help="the literature's random CPU/GPU instances (10 + 90 Beta(3,5); GPU factor N(0.5, 0.5) in [0.1, 1.5])",
        add_arguments=_random_arguments,
        make=lambda *, n=20, m=4, k=2, decimals=0, seed=0: random_hybrid_instance(
            n, m, k, seed=seed, decimals=decimals
        ),
    )
)

register_generator(
    Generator(
        family="hybrid",
        name="swdual",
        help="the thesis's SWDUAL sequence comparison (40 queries vs a protein database, Tables 2.2-2.5)",
        add_arguments=_swdual_arguments,
        make=lambda *, workers=2, database="uniprot", query_set="main", queries=40, cpus=None, gpus=None, seed=0, decimals=2: (
            swdual_instance(
                workers,
                database=database,
                query_set=query_set,
                queries=queries,
                cpus=cpus,
                gpus=gpus,
                seed=seed,
                decimals=decimals,
            )
        ),
    )
)
