"""SWDUAL's Tables 2.2 and 2.4 simulated: the makespan of the allocation on the ``swdual`` workload, in seconds.

The simulation takes a SWDUAL run to last the makespan of its static allocation
(one round, l. 545) of the 40 query tasks, each running at its worker's measured
single-worker rate (:mod:`.paper`).  It cannot match the thesis's seconds exactly
[note, section 3]: the per-query lengths are not published (drawn here), the
master's reading, format conversion and result gathering are not modelled, a
GPU worker also uses CPU cycles, and the measured scaling is irregular (4 to 5
workers gained 2 %).  With one rate per worker type every task is accelerated by
the same factor, so the knapsack's tie rule decides which queries go to the GPUs.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from ..core import solve
from . import paper
from .bounds import best_lower_bound
from .generate import swdual_instance
from .metrics import gcups


def simulate(
    workers: int,
    *,
    database: str = "uniprot",
    query_set: str = "main",
    seed: int = 0,
    method: str = "dual2",
    **options: Any,
) -> dict[str, Any]:
    """One simulated SWDUAL run: seconds (the makespan) and GCUPS of ``method``'s schedule."""
    inst = swdual_instance(workers, database=database, query_set=query_set, seed=seed)
    res = solve(inst, method, **options)
    return {
        "workers": workers,
        "cpus": inst.cpus,
        "gpus": inst.gpus,
        "seconds": res.objective,
        "gcups": gcups(inst.meta["cells"], res.objective),
        "lower_bound": best_lower_bound(inst),
    }


def table_2_2(seeds: Iterable[int] = range(5), methods: tuple[str, ...] = ("dual2", "heft")) -> list[dict[str, Any]]:
    """UniProt, 2..8 workers: the thesis's SWDUAL seconds beside each method's mean simulated seconds and
    the mean lower bound (LB_λ: no allocation of the simulated workload can be faster)."""
    rows = []
    for w in range(2, 9):
        row: dict[str, Any] = {
            "workers": w,
            "mix": "{}C+{}G".format(*paper.worker_mix(w)),
            "paper_s": paper.TABLE_2_2["SWDUAL"][w - 1],
        }
        for name in methods:
            runs = [simulate(w, seed=s, method=name) for s in seeds]
            row[name] = statistics.fmean(r["seconds"] for r in runs)
        row["lower_bound"] = statistics.fmean(r["lower_bound"] for r in runs)
        rows.append(row)
    return rows


def table_2_4(seeds: Iterable[int] = range(5), methods: tuple[str, ...] = ("dual2", "heft")) -> list[dict[str, Any]]:
    """Every database at 2, 4, 8 workers: the thesis's seconds and GCUPS beside each method's mean."""
    rows = []
    for db, by_workers in paper.TABLE_2_4.items():
        for w, (seconds, rate) in by_workers.items():
            row: dict[str, Any] = {"database": db, "workers": w, "paper_s": seconds, "paper_gcups": rate}
            for name in methods:
                runs = [simulate(w, database=db, seed=s, method=name) for s in seeds]
                row[name] = statistics.fmean(r["seconds"] for r in runs)
                row[f"{name}_gcups"] = statistics.fmean(r["gcups"] for r in runs)
            row["lower_bound"] = statistics.fmean(r["lower_bound"] for r in runs)
            rows.append(row)
    return rows
