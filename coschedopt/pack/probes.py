"""Probes of the pack family: the compiled pricing kernels timed against their numpy reference.

A probe is a method that measures code on an instance instead of solving it
(:attr:`coschedopt.core.registry.Method.probe`); the family does not import this module, so
``coschedopt methods pack`` lists the probe only where a suite loads it
(``plugins = ["coschedopt.pack.probes"]``, suite ``pack-kernels``).

``kernel-speed`` times one operation of branch-and-price's pricing
(:mod:`coschedopt.pack.exact.bnp`) twice on the same inputs, with the compiled kernels
(:mod:`.exact.bnp.kernels`, numba) and with the numpy/Python code they replace, in the same
process: the median of ``repeat`` runs after one warm-up run each.  The inputs are drawn from
the cell's seed, as the pricing meets them:

* ``batched-dp``: the cardinality-constrained knapsack DP at 64 random cost levels and random
  duals (:func:`.exact.bnp.knapsack.knapsack_values`);
* ``best-set``: the best set of each of those 64 levels (:func:`.exact.bnp.knapsack.best_set_at_level`);
* ``min-level``: the cheapest level of 1,000 random task sets (:meth:`.exact.bnp.levels.LevelTable.min_level`);
* ``enumeration``: the depth-first enumeration of the columns below the reduced-cost gap at four
  levels (60 %, 70 %, 80 %, 90 % of the table) with every dual at the largest cost / k
  (:func:`.exact.bnp.enumeration.enumerate_level`).

Both codes must give the same values (``stats["same_values"]``; bit for bit in
tests/pack/bnp/test_kernels.py).  Cost: the operation's, twice ``repeat + 1`` times.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core import MethodOptions, MethodRefused, Result, Status, method, option
from .exact.bnp import kernels
from .exact.bnp.enumeration import enumerate_level
from .exact.bnp.knapsack import best_set_at_level, knapsack_values
from .exact.bnp.levels import LevelTable

OPERATIONS = ("batched-dp", "best-set", "min-level", "enumeration")


@dataclass(frozen=True)
class KernelSpeedOptions(MethodOptions):
    operation: str = option("batched-dp", "the pricing operation timed", choices=OPERATIONS)
    repeat: int = option(20, "timed runs of each code (after one warm-up run); the median is reported", min=1)


def _operation(instance: Any, name: str, seed: int) -> Callable[[], Any]:
    """The operation ``name`` on inputs drawn from ``seed``, as a call returning comparable values."""
    rng = np.random.default_rng(seed)
    k = instance.k
    if name == "enumeration":
        table = LevelTable(instance.times, float(instance.times[:, -1].mean()))
        pi = np.full(instance.n, float(table.tau.max()) / k)

        def enumerate_four_levels() -> int:
            out: list = []
            for share in (0.6, 0.7, 0.8, 0.9):
                enumerate_level(table, int(share * table.L), pi, k, float(table.tau.max()), out, 10**6)
            return len(out)

        return enumerate_four_levels
    table = LevelTable(instance.times)
    levels = np.sort(rng.choice(table.L, min(64, table.L), replace=False))
    pi = rng.random(instance.n) * float(table.tau.mean()) / k * 1.5
    if name == "batched-dp":
        return lambda: knapsack_values(table, levels, pi, k)
    if name == "best-set":
        return lambda: [best_set_at_level(table, int(lv), pi, k, want_set=True)[0] for lv in levels]
    sets = [rng.choice(instance.n, rng.integers(1, k + 1), replace=False) for _ in range(1000)]
    return lambda: [table.min_level(s) for s in sets]


def _median_seconds(fn: Callable[[], Any], repeat: int, clock: Callable[[], float]) -> tuple[float, Any]:
    """Median seconds of ``fn()`` over ``repeat`` runs after one warm-up run, and the warm-up's value."""
    value = fn()
    runs = []
    for _ in range(repeat):
        start = clock()
        fn()
        runs.append(clock() - start)
    return statistics.median(runs), value


@method("pack", "kernel-speed", options=KernelSpeedOptions, probe=True)
def kernel_speed(instance, *, time_limit, seed, verbose, options: KernelSpeedOptions) -> Result:
    """Probe: a pricing operation with the compiled kernels against the numpy reference code (median seconds)."""
    if not kernels.COMPILED:
        raise MethodRefused("numba is not installed: there are no compiled kernels to time")
    fn = _operation(instance, options.operation, 0 if seed is None else seed)
    seconds, values = {}, {}
    try:
        for compiled in (True, False):
            kernels.COMPILED = compiled
            seconds[compiled], values[compiled] = _median_seconds(fn, options.repeat, time.perf_counter)
    finally:
        kernels.COMPILED = True
    same = bool(np.allclose(np.asarray(values[True], dtype=float), np.asarray(values[False], dtype=float)))
    stats = {
        "operation": options.operation,
        "repeat": options.repeat,
        "compiled_s": seconds[True],
        "reference_s": seconds[False],
        "speedup": seconds[False] / seconds[True],
        "same_values": same,
    }
    return Result(Status.FEASIBLE if same else Status.ERROR, stats=stats, message="" if same else "values differ")
