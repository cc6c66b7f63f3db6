"""Searching for worst-case ratios between the optima (beyond the thesis): ``coschedopt locality search``.

The thesis leaves C^C/C in [5/4, 2], C^{C+L}/C^L in [5/4, 2] and C^{C+L}/C in [2, 3].  For
each ratio of :data:`~.ratios.RATIOS`, :func:`search_worst_ratios` looks for the instance
maximising it, with the exact optima (``cpsat``) inside, in two phases:

1. enumeration: on every platform, every multiset of a few jobs with short times, fewest
   jobs first (the thesis's tight instance I1 has three unit jobs);
2. local search: restarts from the best instances of phase 1 or from random ones, then
   moves on one job's time or size, adding, removing or copying a job, doubling every
   time or changing the platform, kept when the ratio does not drop (and, rarely, when it
   does, to leave a plateau).

Ratios are exact fractions of the integer optima; an instance whose two optima are not
both proven within the per-solve limit is skipped.  Instances keep the theorems'
hypothesis size_j <= ell; C^C/C, which does not involve clusters, is searched on one
cluster (k = 1, sizes up to m), and C^{C+L}/C^L on one cluster or more (on one cluster it is
C^C/C: Corollary 1's reading of Bladek et al.'s instance).  The time is shared between tasks run on ``processes`` processes;
the best record of a ratio wins, ties going to the smaller instance.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..core import InputError, make_rng
from .instance import LocalityInstance, integer_times, is_local_constraint, make_instance
from .ratios import RATIOS, constraint_ratios


@dataclass(frozen=True)
class SearchSpace:
    """The small instances searched: up to ``max_jobs`` jobs with integer times 1..``max_time``
    on 2..``max_clusters`` clusters of 2..``max_cluster_size`` ids, or, where only contiguity
    is compared (C^C/C, and C^{C+L}/C^L on one cluster), on one cluster of
    4..``max_flat_processors`` ids.  The first phase enumerates every job multiset of up to
    ``enum_jobs`` jobs with times up to ``enum_time`` on each clustered platform."""

    max_jobs: int = 10
    max_time: int = 8
    max_clusters: int = 3
    max_cluster_size: int = 6
    max_flat_processors: int = 8
    topology: str = "line"
    enum_jobs: int = 4
    enum_time: int = 2


@dataclass
class Record:
    """One value of one ratio, with its instance and optima."""

    ratio: str
    value: Fraction
    instance: LocalityInstance
    optima: dict[str, float]

    def to_dict(self, command: str = "") -> dict[str, Any]:
        bound = RATIOS[self.ratio]
        return {
            "ratio": self.ratio,
            "value": str(self.value),
            "value_float": float(self.value),
            "optima": self.optima,
            "thesis": {"lower": str(bound.lower), "upper": str(bound.upper), "source": bound.source},
            "found_by": command,
            "instance": {**self.instance.to_dict(), "name": f"record-{record_slug(self.ratio)}"},
        }


def _size_key(inst: LocalityInstance) -> tuple:
    return (inst.n, inst.processors, float(inst.times.sum()))


def _canonical(inst: LocalityInstance) -> tuple:
    return (inst.processors, inst.clusters, inst.topology, tuple(sorted((j.time, j.size) for j in inst.jobs)))


class _Elites:
    """The ``size`` best distinct records of one ratio (largest value, then smallest instance)."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self.records: list[Record] = []

    def offer(self, rec: Record) -> bool:
        """Keep ``rec`` if it is among the best; True if it is the new best."""
        key = _canonical(rec.instance)
        if any(_canonical(r.instance) == key for r in self.records):
            return False
        self.records.append(rec)
        self.records.sort(key=lambda r: (-r.value, _size_key(r.instance)))
        del self.records[self.size :]
        return self.records[0] is rec

    @property
    def best(self) -> Record | None:
        return self.records[0] if self.records else None


class _Evaluator:
    """Exact optima of instances, cached by canonical form and constraint; counts the instances solved."""

    def __init__(self, solve_limit: float) -> None:
        self.solve_limit = solve_limit
        self.cache: dict[tuple, dict[str, float | None]] = {}
        self.count = 0

    def ratio(self, inst: LocalityInstance, name: str) -> Record | None:
        """The record of ratio ``name`` on ``inst``, or None if an optimum was not proven in time."""
        b = RATIOS[name]
        key = _canonical(inst)
        known = self.cache.setdefault(key, {})
        todo = tuple(c for c in (b.denominator, b.numerator) if c not in known)
        if todo:
            self.count += 1
            opt = constraint_ratios(inst, constraints=todo, time_limit=self.solve_limit, presolve=False)
            for c in todo:
                known[c] = opt.ticks(c) if opt.proven(c) else None
        num, den = known[b.numerator], known[b.denominator]
        if num is None or den is None:
            return None
        unit = integer_times(inst)[1]
        return Record(name, Fraction(int(num), int(den)), inst, {b.numerator: num * unit, b.denominator: den * unit})


def _flat(ratio: str) -> bool:
    """Whether the ratio compares contiguity alone (locality on neither side, or on both)."""
    b = RATIOS[ratio]
    return is_local_constraint(b.numerator) == is_local_constraint(b.denominator)


def _platform(rng: np.random.Generator, space: SearchSpace, ratio: str) -> tuple[int, int]:
    """(m, k) for a ratio: k >= 2 clusters of ell ids where locality is on one side; one cluster
    of 4..max_flat_processors ids for C^C/C (on 2 or 3 processors contiguity cost nothing on
    every small instance checked, see benchmarks/results/locality-notes.md); either, half and
    half, for C^{C+L}/C^L."""
    if _flat(ratio) and (not is_local_constraint(RATIOS[ratio].numerator) or rng.random() < 0.5):
        return int(rng.integers(4, space.max_flat_processors + 1)), 1
    k = int(rng.integers(2, space.max_clusters + 1))
    ell = int(rng.integers(2, space.max_cluster_size + 1))
    return k * ell, k


def _random_instance(rng: np.random.Generator, space: SearchSpace, ratio: str) -> LocalityInstance:
    """Times up to a cap drawn in 1..max_time (so that unit and near-unit times, where the extreme
    ratios of the thesis live, are common), sizes up to ell.  On one cluster: more than half of
    max_jobs jobs of sizes below m (measured on random instances with 5-8 processors, contiguity
    costs something about once in 1000-2000 draws with 6-10 jobs, and rarely with fewer jobs or
    more processors; a job on every processor is contiguous anyway)."""
    m, k = _platform(rng, space, ratio)
    flat = k == 1
    n = int(rng.integers(space.max_jobs // 2 + 1 if flat else 2, space.max_jobs + 1))
    cap = int(rng.integers(1, space.max_time + 1))
    top = m - 1 if flat else m // k
    jobs = [(int(rng.integers(1, cap + 1)), int(rng.integers(1, top + 1))) for _ in range(n)]
    return make_instance(jobs, m, k, topology=space.topology)


def _neighbour(rng: np.random.Generator, inst: LocalityInstance, space: SearchSpace, ratio: str) -> LocalityInstance:
    """One random move: a job's time or size, add / remove / copy a job, or a new platform."""
    jobs = [(int(t), int(s)) for t, s in zip(inst.times, inst.sizes, strict=True)]
    m, k = inst.processors, inst.clusters
    move = int(rng.integers(0, 8))
    j = int(rng.integers(0, len(jobs)))
    if move <= 1:  # time up or down by one, or anywhere
        t = jobs[j][0] + int(rng.choice([-1, 1])) if move == 0 else int(rng.integers(1, space.max_time + 1))
        jobs[j] = (min(max(t, 1), space.max_time), jobs[j][1])
    elif move <= 3:  # size up or down by one, or anywhere
        s = jobs[j][1] + int(rng.choice([-1, 1])) if move == 2 else int(rng.integers(1, m // k + 1))
        jobs[j] = (jobs[j][0], min(max(s, 1), m // k))
    elif move == 4 and len(jobs) < space.max_jobs:
        jobs.append((int(rng.integers(1, space.max_time + 1)), int(rng.integers(1, m // k + 1))))
    elif move == 5 and len(jobs) > 2:
        jobs.pop(j)
    elif move == 6 and len(jobs) < space.max_jobs:
        jobs.append(jobs[j])
    elif move == 7 and max(t for t, _ in jobs) * 2 <= space.max_time:  # every time doubled: finer moves after
        jobs = [(2 * t, s) for t, s in jobs]
    else:
        m, k = _platform(rng, space, ratio)
        jobs = [(t, min(s, m // k)) for t, s in jobs]
    return make_instance(jobs, m, k, topology=space.topology)


def enumerate_instances(
    processors: int, clusters: int, max_jobs: int, max_time: int, topology: str = "line"
) -> Iterator[LocalityInstance]:
    """Every multiset of 2..max_jobs jobs with times 1..max_time and sizes 1..ell, fewest jobs first."""
    ell = processors // clusters
    types = [(t, s) for t in range(1, max_time + 1) for s in range(1, ell + 1)]
    for n in range(2, max_jobs + 1):
        for jobs in itertools.combinations_with_replacement(types, n):
            yield make_instance(list(jobs), processors, clusters, topology=topology)


def _enumerate_task(args: tuple) -> tuple[dict[str, list[Record]], int]:
    """Phase 1 on one platform: the ratios of every small job multiset until the time is up."""
    (m, k), ratios, seconds, space, solve_limit = args
    evaluate = _Evaluator(solve_limit)
    elites = {r: _Elites() for r in ratios}
    start = time.perf_counter()
    for inst in enumerate_instances(m, k, space.enum_jobs, space.enum_time, space.topology):
        if time.perf_counter() - start >= seconds:
            break
        for r in ratios:
            rec = evaluate.ratio(inst, r)
            if rec is not None:
                elites[r].offer(rec)
    return {r: e.records for r, e in elites.items()}, evaluate.count


def _local_task(args: tuple) -> tuple[str, list[Record], int]:
    """Phase 2 on one ratio: restarts (from the elites or at random) and local moves until the time is up."""
    ratio, seconds, seed, space, solve_limit, starts, patience = args
    rng = make_rng(seed)
    evaluate = _Evaluator(solve_limit)
    elites = _Elites()
    for rec in starts:
        elites.offer(rec)
    known = elites.best.value if elites.best else Fraction(0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        promising = [r for r in elites.records if r.value > 1]  # a ratio of 1 is no better than a random start
        if promising and rng.random() < 0.6:
            current = promising[int(rng.integers(0, len(promising)))]
        else:
            current = evaluate.ratio(_random_instance(rng, space, ratio), ratio)
            if current is None:
                continue
        stale = 0
        # on the plateau of ratio 1 a neighbour is no likelier to improve than a fresh draw: restart sooner
        limit = patience if current.value > 1 else max(1, patience // 6)
        while stale < limit and time.perf_counter() - start < seconds:
            cand = evaluate.ratio(_neighbour(rng, current.instance, space, ratio), ratio)
            if cand is None:
                stale += 1
                continue
            if elites.offer(cand) and cand.value > known:
                known = cand.value
                i = cand.instance
                print(
                    f"  {ratio}: {cand.value} = {float(cand.value):.4f} (n = {i.n}, m = {i.processors}, k = {i.clusters}, "
                    f"seed {seed})",
                    file=sys.stderr,
                    flush=True,
                )
            if (
                cand.value > current.value
                or (cand.value == current.value and rng.random() < 0.5)
                or rng.random() < 0.02
            ):
                stale = 0 if cand.value > current.value else stale + 1
                current = cand
            else:
                stale += 1
    return ratio, elites.records, evaluate.count


@dataclass
class SearchResult:
    """The record of each ratio, the instances solved for it, the wall time, and why the search stopped
    (``"closed"``: every ratio reached its proven bound; ``"time"``: the time ran out)."""

    records: dict[str, Record]
    evaluations: int
    seconds: float
    stopped_by: str = "time"

    def table(self) -> str:
        """The records beside the thesis's bounds, as a Markdown table."""
        lines = [
            "| ratio | thesis bounds on the worst case | largest found | n | m | k | source |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, b in RATIOS.items():
            rec = self.records.get(name)
            found = "–" if rec is None else f"{rec.value} = {float(rec.value):.4f}"
            size = ("–",) * 3 if rec is None else (rec.instance.n, rec.instance.processors, rec.instance.clusters)
            lines.append(
                f"| {name} | [{b.lower}, {b.upper}] | {found} | {size[0]} | {size[1]} | {size[2]} | {b.source} |"
            )
        return "\n".join(lines)


def _platforms(ratios: tuple[str, ...], space: SearchSpace) -> list[tuple[tuple[int, int], tuple[str, ...]]]:
    """The enumeration's platforms (2..max_clusters clusters of 2..max_cluster_size ids) and the ratios
    evaluated there: those with locality on one side only, where tiny instances such as I1 are extreme."""
    chosen = tuple(r for r in ratios if not _flat(r))
    if not chosen:
        return []
    return [
        ((k * ell, k), chosen) for k in range(2, space.max_clusters + 1) for ell in range(2, space.max_cluster_size + 1)
    ]


def search_worst_ratios(
    ratios: tuple[str, ...] = tuple(RATIOS),
    *,
    seconds: float = 60.0,
    seed: int = 0,
    processes: int = 1,
    space: SearchSpace | None = None,
    solve_limit: float = 2.0,
    enumerate_share: float = 0.15,
    chunk_seconds: float = 20.0,
    patience: int = 60,
) -> SearchResult:
    """Search each ratio for about ``seconds`` of wall time in all, on ``processes`` processes.

    Phase 1 (``enumerate_share`` of the time) enumerates the smallest instances of every
    clustered platform for the ratios with locality on one side.  Phase 2 runs in rounds:
    each round gives every open ratio ``processes`` tasks of ``chunk_seconds`` (seeds derived
    from ``seed``), restarting from the best instances found so far (by any earlier task) or
    at random.  A ratio whose record reaches its proven upper bound is closed.  At the end,
    each record instance is evaluated for every other ratio too (an instance on one cluster
    gives C^C/C and C^{C+L}/C^L alike).  Deterministic for a given seed only up to what the
    time limits let each task reach.
    """
    for r in ratios:
        if r not in RATIOS:
            raise InputError(f"unknown ratio {r!r}; one of {', '.join(RATIOS)}", where="ratios")
    if not seconds > 0 or processes < 1:
        raise InputError(f"seconds must be > 0 and processes >= 1, got {seconds!r}, {processes!r}", where="seconds")
    space = space or SearchSpace()
    budget, start = seconds * processes, time.perf_counter()
    elites = {r: _Elites() for r in ratios}
    platforms = _platforms(ratios, space)
    share = enumerate_share if platforms else 0.0
    phase1 = [(p, rs, share * budget / len(platforms), space, solve_limit) for p, rs in platforms]
    evaluations = 0
    for found, count in _map(_enumerate_task, phase1, processes):
        evaluations += count
        for r, recs in found.items():
            for rec in recs:
                elites[r].offer(rec)
    _log_best(elites, "after the enumeration")
    deadline = start + seconds
    round_no = 0
    while True:
        open_ratios = [r for r in ratios if not _closed(elites[r].best)]
        task_seconds = min(chunk_seconds, (deadline - time.perf_counter()) / max(1, len(open_ratios)))
        if not open_ratios or task_seconds < 1.0:
            stopped_by = "time" if open_ratios else "closed"
            break
        tasks = [
            (
                r,
                task_seconds,
                seed * 100_000 + round_no * 100 + i,
                space,
                solve_limit,
                list(elites[r].records),
                patience,
            )
            for r in open_ratios
            for i in range(processes)
        ]
        for r, recs, count in _map(_local_task, tasks, processes):
            evaluations += count
            for rec in recs:
                elites[r].offer(rec)
        round_no += 1
    evaluations += _cross_offer(elites, solve_limit)
    records = {r: e.best for r, e in elites.items() if e.best is not None}
    return SearchResult(records, evaluations, time.perf_counter() - start, stopped_by)


def _closed(best: Record | None) -> bool:
    """Whether a record meets its ratio's proven upper bound (nothing larger exists)."""
    return best is not None and RATIOS[best.ratio].proven and best.value >= RATIOS[best.ratio].upper


def _cross_offer(elites: dict[str, _Elites], solve_limit: float) -> int:
    """Offer every record instance to every searched ratio; returns the instances solved."""
    evaluate = _Evaluator(solve_limit)
    for rec in [r for e in elites.values() for r in e.records]:
        for name, e in elites.items():
            inst = rec.instance
            if name == "C^C/C" and inst.clusters > 1:  # C and C^C do not depend on the clusters
                inst = make_instance([(j.time, j.size) for j in inst.jobs], inst.processors, 1, topology=inst.topology)
            got = evaluate.ratio(inst, name)
            if got is not None:
                e.offer(got)
    return evaluate.count


def _log_best(elites: dict[str, _Elites], when: str) -> None:
    for r, e in elites.items():
        if e.best is not None:
            i = e.best.instance
            print(f"  {r}: {e.best.value} {when} (n = {i.n}, m = {i.processors}, k = {i.clusters})", file=sys.stderr)


def _map(func: Any, tasks: list, processes: int) -> list:
    if processes == 1 or len(tasks) == 1:
        return [func(t) for t in tasks]
    with ProcessPoolExecutor(max_workers=processes) as pool:
        return list(pool.map(func, tasks))


# --------------------------------------------------------------------------- command


def record_slug(ratio: str) -> str:
    """A file name for a ratio: ``C^{C+L}/C^L`` -> ``CCL-over-CL``."""
    num, den = (part.replace("^", "").replace("{", "").replace("}", "").replace("+", "") for part in ratio.split("/"))
    return f"{num}-over-{den}"
