"""The four optima of one job set and the ratios chapter 4 bounds (Theorems 1-5, Corollary 1).

C, C^C, C^L and C^{C+L} are the optimal makespans with no constraint, contiguity, locality
and both.  :data:`RATIOS` lists each ratio with the thesis's bounds on its worst case
(the maximum over all instances); Theorems 2-5 and Corollary 1 assume size_j <= ell.  The upper
bound of Theorem 2 is marked unproven: its proof uses Remy's RCS bound as quoted, which is
false (:mod:`.heuristics.listsched`); what the corrected bound gives is C^L <= 2A/m + p_max <= 3C.
:func:`constraint_ratios` solves the four problems exactly, chaining the bounds
C^{C+L} >= max(C^C, C^L) >= C into the solver; :func:`contiguous_to_local` is the
construction proving Theorem 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..core import InputError, Result, Status, solve
from .instance import CONSTRAINTS, Job, LocalityInstance, integer_times, make_instance
from .schedule import LocalitySchedule, makespan


@dataclass(frozen=True)
class RatioBound:
    """A ratio C^numerator / C^denominator with the thesis's bounds on its worst case."""

    name: str
    numerator: str
    denominator: str
    lower: Fraction
    upper: Fraction
    source: str
    #: whether the upper bound is proven (Theorem 2's proof leans on an RCS bound that is false as quoted)
    proven: bool = True


#: the ratios of section 4.4, with [lower, upper] bounds on their worst case
RATIOS: dict[str, RatioBound] = {
    r.name: r
    for r in (
        RatioBound("C^C/C", "contiguous", "none", Fraction(5, 4), Fraction(2), "Theorem 1 (Bladek et al.)"),
        RatioBound("C^L/C", "local", "none", Fraction(2), Fraction(2), "Theorem 2 (tight, instance I1)", proven=False),
        RatioBound("C^{C+L}/C^C", "contiguous+local", "contiguous", Fraction(2), Fraction(2), "Theorem 3 (tight, I1)"),
        RatioBound("C^{C+L}/C^L", "contiguous+local", "local", Fraction(5, 4), Fraction(2), "Corollary 1"),
        RatioBound("C^{C+L}/C", "contiguous+local", "none", Fraction(2), Fraction(3), "Theorem 5"),
    )
}


@dataclass
class ConstraintOptima:
    """The optimum of each constraint for one job set (``results[constraint]``, a :class:`Result`)."""

    instance: LocalityInstance
    results: dict[str, Result] = field(default_factory=dict)

    def value(self, constraint: str) -> float:
        return float(self.results[constraint].objective)

    def proven(self, constraint: str) -> bool:
        return self.results[constraint].status is Status.OPTIMAL

    def ticks(self, constraint: str) -> int:
        """The optimum in the integer ticks of :func:`~.instance.integer_times`."""
        return round(self.value(constraint) / integer_times(self.instance)[1])

    def ratio(self, name: str) -> Fraction | None:
        """The exact ratio ``name`` of :data:`RATIOS`, or None unless both optima are proven."""
        r = RATIOS[name]
        if not (self.proven(r.numerator) and self.proven(r.denominator)):
            return None
        return Fraction(self.ticks(r.numerator), self.ticks(r.denominator))

    @property
    def ratios(self) -> dict[str, Fraction | None]:
        return {name: self.ratio(name) for name in RATIOS}

    def schedule(self, constraint: str) -> LocalitySchedule:
        return self.results[constraint].schedule


def constraint_ratios(
    jobs: Sequence[tuple[float, int]] | Sequence[Job] | LocalityInstance,
    processors: int | None = None,
    clusters: int | None = None,
    *,
    topology: str = "line",
    constraints: Sequence[str] = CONSTRAINTS,
    method: str = "cpsat",
    time_limit: float | None = None,
    workers: int | None = None,
    presolve: bool = True,
) -> ConstraintOptima:
    """The optima C, C^C, C^L, C^{C+L} of one job set (``constraints`` of them) and their ratios.

    ``jobs`` are ``(time, size)`` pairs or :class:`Job` objects on ``processors`` ids in
    ``clusters`` clusters, or an instance (its constraint is ignored).  Each optimum comes
    from ``method`` (``cpsat``, or ``milp`` for small instances) with ``time_limit`` seconds;
    with ``cpsat`` (``workers`` threads, default 1; ``presolve`` off for tiny instances) the
    weaker optima are passed down as lower bounds (C^C and C^L start from C's bound,
    C^{C+L} from the larger of C^C's and C^L's).
    """
    if isinstance(jobs, LocalityInstance):
        base = jobs.with_constraint("none")
    else:
        if processors is None or clusters is None:
            raise InputError("give processors and clusters with a list of jobs", where="processors")
        base = make_instance(list(jobs), processors, clusters, topology=topology)
    for c in constraints:
        if c not in CONSTRAINTS:
            raise InputError(f"unknown constraint {c!r}; one of {', '.join(CONSTRAINTS)}", where="constraints")
    out = ConstraintOptima(base)
    for c in [c for c in CONSTRAINTS if c in constraints]:
        below = [d for d in _weaker(c) if d in out.results]
        options: dict = {}
        if method == "cpsat":
            options = {
                "workers": workers or 1,
                "lower_bound": max([out.results[d].lower_bound or 0.0 for d in below], default=0.0),
            }
        out.results[c] = solve(base.with_constraint(c), method, time_limit=time_limit, seed=0, options=options)
    return out


def _weaker(constraint: str) -> tuple[str, ...]:
    """The constraints whose optimum is at most this one's (their feasible sets are larger)."""
    return {
        "none": (),
        "contiguous": ("none",),
        "local": ("none",),
        "contiguous+local": ("none", "contiguous", "local"),
    }[constraint]


def contiguous_to_local(instance: LocalityInstance, schedule: LocalitySchedule) -> LocalitySchedule:
    """Theorem 3's construction: a contiguous schedule S of makespan T becomes a contiguous and
    local one of makespan at most 2T.

    Jobs inside one cluster keep their place; a job on clusters i and i+1 (on a ring also
    k-1 and 0, then i = k-1) running over [t1, t2) moves to [T + t1, T + t2) on the first
    size_j ids of cluster i.  At any time at most one job crosses each boundary, so the
    moved jobs never meet.  Needs size_j <= ell.
    """
    if not instance.fits_clusters:
        raise InputError("Theorem 3 needs every job to fit in a cluster (size <= ell)", where="jobs")
    ell, m = instance.cluster_size, instance.processors
    horizon = makespan(instance, schedule)
    starts, procs = [], []
    for a in schedule.by_job(instance):
        ids = list(a.processors)
        clusters = {p // ell for p in ids}
        if len(clusters) == 1:
            starts.append(a.start)
            procs.append(ids)
            continue
        first = next(p for p in ids if (p - 1) % m not in ids)  # where the range starts (it may wrap)
        lower = first // ell
        starts.append(horizon + a.start)
        procs.append(list(range(lower * ell, lower * ell + len(ids))))
    return LocalitySchedule.from_lists(instance, starts, procs)
