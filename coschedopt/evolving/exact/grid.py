"""Integer time for the exact models: durations in units of their greatest common divisor.

With integer durations and an integer stretch limit the exact models lose nothing by
working on this grid: for a fixed order of the events, the schedules form a polyhedron
of difference constraints with integer right-hand sides, whose vertices are integral,
so an optimal schedule has every event on the grid.  A fractional stretch limit l is
applied as floor(l d) units (exact in integer time, a restriction in continuous time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core import MethodRefused
from ..instance import EvolvingInstance
from ..schedule import EvolvingSchedule


@dataclass(frozen=True)
class Grid:
    """The time unit and every stage's duration in units (``durations[i][k]``)."""

    unit: int
    durations: tuple[tuple[int, ...], ...]

    def units(self, t: float) -> int | None:
        """``t`` in units, or None when it is not on the grid."""
        q = t / self.unit
        return round(q) if abs(q - round(q)) <= 1e-9 * max(1.0, abs(q)) else None

    def max_stretch(self, d: int, stretch_limit: float, horizon: int) -> int:
        """The longest a stage of ``d`` units may last: floor(l d), at most the horizon."""
        return horizon if math.isinf(stretch_limit) else min(horizon, math.floor(stretch_limit * d + 1e-9))

    def on_grid(self, schedule: EvolvingSchedule) -> bool:
        """Whether every start and duration of ``schedule`` is a whole number of units (a usable hint)."""
        return all(self.units(t) is not None for a in schedule.applications for t in (a.start, *a.durations))


def time_grid(instance: EvolvingInstance, method: str) -> Grid:
    """The grid of ``instance``; an exact method refuses durations that are not whole seconds."""
    for i, app in enumerate(instance.applications):
        for k, d in enumerate(app.durations):
            if not float(d).is_integer():
                raise MethodRefused(
                    f"{method} works in integer time: durations must be whole numbers, got {d!r} "
                    "(scale the instance's time unit)",
                    where=f"applications[{i}].stages[{k}].duration",
                )
    unit = 0
    for app in instance.applications:
        for d in app.durations:
            unit = math.gcd(unit, int(d))
    return Grid(unit, tuple(tuple(int(d) // unit for d in a.durations) for a in instance.applications))
