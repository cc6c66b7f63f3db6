"""Random combos instances, the paper's generator (section 7), seeded and reproducible.

* work b_i ~ U[100, 200];
* solo speeds fixed to 1;
* each task draws its own alpha_i ~ U[alpha_low, alpha_high] ("within each range we have
  chosen a value for each task uniformly at random");
* speeds built by increasing combination size, from 2: a(i, S) is the minimum of
  a(i, S \\ {T_j}) over the tasks T_j != T_i of S (the sub-combinations one size smaller,
  whose own values already bound all smaller ones) times U[alpha_i, 1].

The result satisfies constraint (1) by construction.  Vectorised layer by layer:
O(sum_S |S|^2) = O(n^2 2^n) for all combinations, about a second at n = 20.

Registers ``coschedopt generate combos`` (this generator, ``random``) and ``generate combos
pairwise`` (the pairwise interference model, :mod:`coschedopt.combos.pairwise`).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import check_count
from .instance import (
    MAX_TASKS,
    CombosInstance,
    all_combination_masks,
    check_all_combinations,
    combination_masks_up_to,
    popcount,
    task_bits,
)
from .pairwise import MAX_MODEL_TASKS, PairwiseInstance, random_pairwise_instance

#: the paper's alpha range closest to its measurements ("from 0.75 to 0.85")
DEFAULT_ALPHA = (0.75, 0.85)

#: combinations the generator writes at most (``generate combos random``'s ``-o`` or stdout, a suite's
#: instance built in the runner): the JSON is built in memory first (measured 0.47 GB for the 2^17 - 1 of
#: 17 tasks, about 1 GB at 18).  The limit is on writing (:func:`_check_written`), not on building:
#: bigger systems are built in Python (:func:`random_combos_instance`, up to 2^22 - 1), and a suite's
#: ``build = "worker"`` table builds them in each cell's worker from their recipe, never writing them
MAX_WRITTEN_COMBINATIONS = 2**17


def random_combos_instance(
    n: int,
    alpha_low: float = DEFAULT_ALPHA[0],
    alpha_high: float = DEFAULT_ALPHA[1],
    *,
    seed: int | None = 0,
    max_size: int | None = None,
    work_low: float = 100.0,
    work_high: float = 200.0,
) -> CombosInstance:
    """The paper's random system of n tasks (section 7), all combinations or those of at most ``max_size`` tasks.

    ``alpha_low <= alpha_high`` in (0, 1]: the smaller alpha, the faster speeds drop as
    tasks are added (figure 5).  Same seed, same instance.
    """
    check_count(n, "tasks", high=MAX_TASKS)
    if not (0 < alpha_low <= alpha_high <= 1):
        raise InputError(
            f"need 0 < alpha_low <= alpha_high <= 1, got alpha_low={alpha_low!r}, alpha_high={alpha_high!r}",
            where="alpha",
        )
    if max_size is None or max_size >= n:
        check_all_combinations(n, what="generating all combinations")
        masks = all_combination_masks(n)
        max_size = n
    else:
        masks = combination_masks_up_to(n, max_size)
    rng = make_rng(seed)
    b = rng.uniform(work_low, work_high, n)
    alpha = rng.uniform(alpha_low, alpha_high, n)
    m = masks.size
    full = masks.size == 2**n - 1
    # column of each mask: the identity shift for all combinations, a lookup table otherwise
    if full:
        a = np.zeros((n, m + 1))  # column = mask; column 0 (empty set) dropped at the end

        def col(x: np.ndarray) -> np.ndarray:
            return x
    else:
        a = np.zeros((n, m))

        def col(x: np.ndarray) -> np.ndarray:
            return np.searchsorted(masks, x)

    sizes = popcount(masks)
    bits = task_bits(n)
    a[np.arange(n), col(bits)] = 1.0
    for s in range(2, max_size + 1):
        layer = masks[sizes == s]
        for i in range(n):
            mi = layer[(layer & bits[i]) != 0]
            if mi.size == 0:
                continue
            best = np.full(mi.size, np.inf)
            for j in range(n):
                if j == i:
                    continue
                has = (mi & bits[j]) != 0
                sub = mi[has] ^ bits[j]
                best[has] = np.minimum(best[has], a[i, col(sub)])
            a[i, col(mi)] = best * rng.uniform(alpha[i], 1.0, mi.size)
    if full:
        a = a[:, 1:]
    name = f"random-n{n}-a{alpha_low:g}-{alpha_high:g}" + (f"-k{max_size}" if max_size < n else "") + f"-s{seed}"
    meta = {
        "generator": "kuchumov-korkhov-section7",
        "seed": seed,
        "alpha_low": alpha_low,
        "alpha_high": alpha_high,
        "alpha": alpha.tolist(),
    }
    if max_size < n:
        meta["max_size"] = int(max_size)
    return CombosInstance(b, masks, a, name=name, meta=meta)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tasks", type=int, required=True, metavar="N", help="number of tasks n")
    p.add_argument(
        "--alpha-low",
        type=float,
        default=DEFAULT_ALPHA[0],
        metavar="A",
        help=f"lower end of the per-task alpha range (default {DEFAULT_ALPHA[0]})",
    )
    p.add_argument(
        "--alpha-high",
        type=float,
        default=DEFAULT_ALPHA[1],
        metavar="B",
        help=f"upper end of the per-task alpha range (default {DEFAULT_ALPHA[1]})",
    )
    p.add_argument(
        "--max-size",
        type=int,
        default=None,
        metavar="K",
        help="only combinations of at most K tasks (a sparse set; default: all 2^n - 1)",
    )


def _make(
    *,
    tasks: int,
    alpha_low: float = DEFAULT_ALPHA[0],
    alpha_high: float = DEFAULT_ALPHA[1],
    max_size: int | None = None,
    seed: int | None = 0,
) -> CombosInstance:
    check_count(tasks, "--tasks", high=MAX_TASKS)
    if max_size is not None:
        check_count(max_size, "--max-size", high=MAX_TASKS)
    return random_combos_instance(tasks, alpha_low, alpha_high, seed=seed, max_size=max_size)


def _check_written(*, tasks: int, max_size: int | None = None, **_: object) -> None:
    """Refuse a system of more than :data:`MAX_WRITTEN_COMBINATIONS` combinations before it is built to be
    written (the generator's ``check_written``: the command line, a suite's instance built in the runner)."""
    check_count(tasks, "--tasks", high=MAX_TASKS)
    if max_size is not None:
        check_count(max_size, "--max-size", high=MAX_TASKS)
    size = min(tasks, max_size or tasks)
    count = sum(math.comb(tasks, s) for s in range(1, size + 1))
    if count > MAX_WRITTEN_COMBINATIONS:
        raise InputError(
            f"{count:,} combinations to write, above {MAX_WRITTEN_COMBINATIONS:,} (its JSON is built in memory: "
            "0.47 GB at 2^17); use fewer tasks or a sparse set: a smaller --max-size (2 or 3)",
            where="--tasks",
        )


register_generator(
    Generator(
        family="combos",
        name="random",
        help="the combos paper's random systems (section 7): b ~ U[100, 200], speeds shrinking by U[alpha, 1] per added task",
        add_arguments=_add_arguments,
        make=_make,
        aliases=("combos",),
        check_written=_check_written,
    )
)


def _add_pairwise_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tasks", type=int, required=True, metavar="N", help="number of tasks n")
    p.add_argument(
        "--max-size", type=int, required=True, metavar="K", help="at most K tasks per combination (the node's slots)"
    )
    p.add_argument(
        "--alpha-low",
        type=float,
        default=DEFAULT_ALPHA[0],
        metavar="A",
        help=f"lower end of the per-task alpha range (default {DEFAULT_ALPHA[0]})",
    )
    p.add_argument(
        "--alpha-high",
        type=float,
        default=DEFAULT_ALPHA[1],
        metavar="B",
        help=f"upper end of the per-task alpha range (default {DEFAULT_ALPHA[1]}); d_ij ~ U[alpha_i, 1]",
    )


def _make_pairwise(
    *,
    tasks: int,
    max_size: int,
    alpha_low: float = DEFAULT_ALPHA[0],
    alpha_high: float = DEFAULT_ALPHA[1],
    seed: int | None = 0,
) -> PairwiseInstance:
    check_count(tasks, "--tasks", high=MAX_MODEL_TASKS)
    check_count(max_size, "--max-size", high=tasks)
    return random_pairwise_instance(tasks, max_size, alpha_low, alpha_high, seed=seed)


register_generator(
    Generator(
        family="combos",
        name="pairwise",
        help="pairwise interference model: a(i, S) = prod of pair factors d_ij ~ U[alpha_i, 1] over i's co-runners, "
        "at most K tasks together; b ~ U[100, 200] (solved by column generation)",
        add_arguments=_add_pairwise_arguments,
        make=_make_pairwise,
    )
)
