"""LP (2) by column generation over the pairwise model: the optimum for thousands of tasks.

LP (2) of Kuchumov & Korkhov (minimise sum_S x_S s.t. sum_S a(i, S) x_S = b_i, x >= 0) has
one column per combination: sum_{s <= K} C(n, s) of them, 64.7 M at n = 200 and K = 4.
Column generation (Gilmore and Gomory's method for the cutting-stock LP; the configuration
LP's classic solution) never lists them:

1. the restricted master LP holds a few columns, the n singletons at first (feasible:
   every task alone), and HiGHS solves it (dual simplex, warm-started after each round);
2. its row duals y price every combination at once (:mod:`coschedopt.combos.pricing`):
   a column enters when f(S) = sum_{i in S} y_i a(i, S) > 1, and the exact branch-and-bound
   returns the ``columns`` best such sets per round;
3. when the exact pricing finds none, y is feasible for the dual (max b^T y s.t.
   f(S) <= 1 for all S): the master's optimum is the LP optimum, proven.

Every exact pricing round also gives Farley's bound: with t = max_S f(S),
y / t is dual feasible, so b^T y / t <= OPT (weak duality) -- the certified bound reported
during the run and at a time limit; at the end t <= 1 + 1e-9 and the bound equals the
optimum to that tolerance.  A greedy round (no exact maximum) uses the same argument with
t replaced by an upper bound on it, the sum of the K largest positive y_i (no speed
exceeds the solo speed): weaker, but free.  The pricing is exact by construction, so the optimum is proven
up to the LP solver's tolerances (a column the solver's round-off prices just above 1
while already in the master ends the run: nothing new can enter).

Cost per round: one warm-started simplex re-solve on n rows and the columns so far, plus
one pricing (worst case O(n^K K), in practice far less: see the pricing module).  The
number of rounds grows with n / ``columns``; the measured table is in
``benchmarks/results/combos-notes.md``.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from ...core import Deadline, Result, Status, quiet_highs, run_highs
from ...core import progress as _progress
from ..pairwise import PairwiseInstance
from ..pricing import prepare, price_exact, price_greedy
from ..schedule import CombosSchedule

#: a column enters when its value exceeds 1 + this (the LP's relative optimality tolerance)
PRICE_TOL = 1e-9

#: an exact pricing under a time limit gets this many branch-and-bound nodes per second left (measured
#: about 1.8e7 nodes/s at n = 100, K = 6 on the 2-core test machine under load 7; half of it, so that
#: a slower machine overruns the limit by a bounded factor)
NODES_PER_SECOND = 10_000_000

#: the greedy pricing starts from this many tasks (of largest dual) per column wanted: from all n
#: it was 0.34 s a round at n = 3,000, K = 2, most of the run
GREEDY_STARTS_PER_COLUMN = 4


def default_columns(n: int) -> int:
    """Columns added per round by default: enough to cut the rounds, few enough for small masters."""
    return int(min(200, max(10, n // 4)))


def solve_colgen(
    instance: PairwiseInstance,
    *,
    deadline: Deadline | None = None,
    columns: int = 0,
    pricing: str = "greedy-first",
    verbose: bool = False,
) -> dict[str, Any]:
    """Column generation (module docstring).

    ``pricing``: ``"exact"`` prices every round by branch-and-bound; ``"greedy-first"``
    (default) first tries the greedy heuristic and runs the exact pricing only in the
    rounds where the greedy sets price no new column, so the bound is certified in those
    rounds (and always at the end: the run stops only on an exact pricing).

    Returns ``{"status": "optimal"|"time_limit"|"error", "sets": [sorted task tuples], "x",
    "objective", "bound", "rounds", "columns", "pricing_seconds", "lp_seconds", "nodes",
    "duals", "message"}``; ``sets``/``x`` are the master's last solution (a feasible schedule),
    ``bound`` the best certified Farley bound and ``duals`` the master's last row duals.
    """
    import highspy

    deadline = deadline or Deadline(None)
    n, k = instance.n, instance.max_size
    b = instance.b.astype(float)
    factors = instance.factors
    keep = columns if columns and columns > 0 else default_columns(n)
    h = quiet_highs()
    h.addRows(n, b, b, 0, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
    pool: dict[tuple[int, ...], int] = {}
    sets: list[tuple[int, ...]] = []

    def add(new: list[tuple[int, ...]]) -> int:
        fresh = [s for s in new if s not in pool]
        if not fresh:
            return 0
        starts, index, value = [], [], []
        for s in fresh:
            pool[s] = len(sets)
            sets.append(s)
            starts.append(len(index))
            index.extend(s)
            value.extend(instance.normalised_speeds(s).tolist())
        m = len(fresh)
        h.addCols(
            m,
            np.ones(m),
            np.zeros(m),
            np.full(m, highspy.kHighsInf),
            len(index),
            np.array(starts, dtype=np.int32),
            np.array(index, dtype=np.int32),
            np.array(value, dtype=float),
        )
        return m

    add([(i,) for i in range(n)])
    out: dict[str, Any] = {"status": "error", "sets": [], "x": None, "objective": None, "bound": 0.0}
    rounds, nodes, greedy_rounds, exact_rounds = 0, 0, 0, 0
    t_lp = t_price = 0.0
    bound = float(b.max())  # no task runs faster than alone (the trivial bound's D / a* needs a pricing too)
    status = "error"
    message = ""
    x = None
    z = None
    y = None
    while True:
        t0 = time.perf_counter()
        run = run_highs(h, deadline, options={"presolve": "off", "simplex_strategy": 1})
        t_lp += time.perf_counter() - t0
        if run.status is Status.OPTIMAL:
            sol = h.getSolution()
            x = np.asarray(sol.col_value, dtype=float)
            y = np.asarray(sol.row_dual, dtype=float)
            z = float(x.sum())
        elif run.status is Status.TIME_LIMIT:
            status, message = "time_limit", "stopped in the master LP"
            break
        else:
            status, message = "error", f"HiGHS: {run.stats['termination']}"
            break
        rounds += 1
        if deadline.expired():
            status, message = "time_limit", "stopped before proving the master optimal"
            break
        t0 = time.perf_counter()
        prepared = prepare(factors, y, instance.factors_t)
        if pricing == "greedy-first":
            greedy = price_greedy(factors, y, k, starts=GREEDY_STARTS_PER_COLUMN * keep, prepared=prepared)
            fresh = [
                s for s, v in zip(greedy.sets, greedy.values, strict=True) if v > 1.0 + PRICE_TOL and s not in pool
            ]
            if fresh:
                t_price += time.perf_counter() - t0
                greedy_rounds += 1
                add(fresh[:keep])
                # a weaker certified bound without the exact maximum: f(S) <= the K largest positive y's sum
                by, top_k = float(b @ y), float(prepared.yv[:k].sum())
                if by > 0 and top_k > 0:
                    bound = max(bound, by / max(top_k, 1.0))
                _progress.report(incumbent=z, bound=bound)
                continue
        rem = deadline.remaining()
        budget = None if rem == float("inf") else int(max(1.0, rem * NODES_PER_SECOND))
        priced = price_exact(factors, y, k, threshold=1.0 + PRICE_TOL, keep=keep, prepared=prepared, max_nodes=budget)
        t_price += time.perf_counter() - t0
        nodes += priced.nodes
        if not priced.complete:  # the time limit's share of nodes ran out: nothing proven this round
            add(priced.sets)
            status, message = "time_limit", "stopped in an exact pricing (its node budget is the time left)"
            break
        exact_rounds += 1
        top = priced.values[0] if priced.values else 1.0 + PRICE_TOL
        by = float(b @ y)
        if by > 0:
            bound = max(bound, by / max(top, 1.0))
        _progress.report(incumbent=z, bound=bound)
        if verbose:
            print(
                f"[combos lp/colgen] round {rounds}: columns {len(sets)} master {z:.9g} max f {top:.9g} "
                f"bound {bound:.9g}",
                file=sys.stderr,
            )
        if not priced.sets:
            status = "optimal"
            break
        if add(priced.sets) == 0:
            status, message = "optimal", "the best priced columns are in the master already (solver round-off)"
            break
    out.update(
        status=status,
        message=message,
        rounds=rounds,
        greedy_rounds=greedy_rounds,
        exact_rounds=exact_rounds,
        columns=len(sets),
        pricing_seconds=t_price,
        lp_seconds=t_lp,
        nodes=nodes,
        bound=bound,
        objective=z,
        duals=y,
    )
    if x is not None:
        x = polish_columns(instance, sets, x)
        support = np.flatnonzero(x > 0)
        out["sets"] = [sets[j] for j in support]
        out["x"] = x[support]
    return out


def polish_columns(instance: PairwiseInstance, sets: list[tuple[int, ...]], x: np.ndarray) -> np.ndarray:
    """Re-solve A_B x_B = b on the support B of ``x`` (at most n columns) so work is met to round-off.

    Keeps the solver's x when it already meets b to 1e-12 or when the re-solve is not better
    (a negative entry, rank loss).  O(n^3) at worst (an LU of the basis).
    """
    x = np.where(x > 0, x, 0.0)
    scale = max(float(x.max(initial=0.0)), 1.0)
    support = np.flatnonzero(x > 1e-11 * scale)
    n = instance.n
    out = np.zeros_like(x)
    out[support] = x[support]
    if not 0 < support.size <= n:
        return out
    sub = np.zeros((n, support.size))
    for c, j in enumerate(support):
        rows = list(sets[j])
        sub[rows, c] = instance.normalised_speeds(rows)
    old = np.abs(sub @ x[support] - instance.b).max()
    if old <= 1e-12 * float(instance.b.max()):
        return out  # already exact to round-off: skip the O(n^3) re-solve
    if support.size == n:  # a basis: LU, O(n^3) but no SVD (lstsq took 7 s at n = 1,000)
        try:
            xs = np.linalg.solve(sub, instance.b)
        except np.linalg.LinAlgError:
            return out
    else:
        xs, *_ = np.linalg.lstsq(sub, instance.b, rcond=None)
    if np.all(xs >= 0) and np.abs(sub @ xs - instance.b).max() <= old:
        out[support] = xs
    return out


def lp_colgen(
    instance: PairwiseInstance,
    *,
    time_limit: float | None,
    verbose: bool,
    columns: int = 0,
    pricing: str = "greedy-first",
) -> Result:
    """The ``lp`` method on a pairwise-model instance: column generation, its proven optimum and bound.

    At a time limit: the master's last solution (a feasible schedule) with the best Farley
    bound (status TIME_LIMIT); stats name the rounds, the columns generated and the time
    spent in the master LP and in pricing.
    """
    out = solve_colgen(instance, deadline=Deadline(time_limit), columns=columns, pricing=pricing, verbose=verbose)
    stats = {
        "backend": "colgen",
        "pricing": pricing,
        "rounds": out.get("rounds", 0),
        "exact_pricing_rounds": out.get("exact_rounds", 0),
        "columns_generated": out.get("columns", 0),
        "pricing_seconds": out.get("pricing_seconds", 0.0),
        "lp_seconds": out.get("lp_seconds", 0.0),
        "pricing_nodes": out.get("nodes", 0),
        "combinations": instance.m,
        "solver_objective": out.get("objective"),
    }
    bound = float(out["bound"])
    if out["x"] is None:  # not even the first master solved: every task alone is a valid schedule
        sched = CombosSchedule.from_combinations(instance, [((i,), float(instance.b[i])) for i in range(instance.n)])
        status = Status.TIME_LIMIT if out["status"] == "time_limit" else Status.ERROR
        return Result(status, sched, lower_bound=bound, stats=stats, message=out["message"] or "no master solution")
    stats["combinations_used"] = len(out["sets"])
    order = sorted(range(len(out["sets"])), key=lambda j: (-len(out["sets"][j]), out["sets"][j][::-1]))
    sched = CombosSchedule.from_combinations(instance, [(out["sets"][j], float(out["x"][j])) for j in order])
    if out["status"] == "optimal":
        return Result(Status.OPTIMAL, sched, lower_bound=bound, stats=stats, message=out["message"])
    status = Status.TIME_LIMIT if out["status"] == "time_limit" else Status.ERROR
    return Result(status, sched, lower_bound=bound, stats=stats, message=out["message"])
