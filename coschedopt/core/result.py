"""The single result type that every method of every family returns."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .status import Status


@dataclass
class Result:
    """Outcome of one ``solve`` call.

    ``objective`` is always recomputed from ``schedule`` by :func:`coschedopt.solve`
    (never trusted from a solver); ``lower_bound`` is a certified bound when the
    method has one (``None`` otherwise); ``stats`` holds method-specific counters
    (nodes, columns, iterations...) that are JSON-able.
    """

    status: Status
    schedule: Any | None = None
    objective: float | None = None
    lower_bound: float | None = None
    runtime: float = 0.0
    method: str = ""
    family: str = ""
    message: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def gap(self) -> float | None:
        """Relative gap ``(objective - lower_bound) / objective`` (0 when proven optimal)."""
        if self.objective is None or self.lower_bound is None:
            return None
        if self.objective == 0:
            return 0.0
        return max(0.0, (self.objective - self.lower_bound) / abs(self.objective))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (finite floats or ``None``), schedule included."""
        return {
            "family": self.family,
            "method": self.method,
            "status": self.status.value,
            "objective": _finite(self.objective),
            "lower_bound": _finite(self.lower_bound),
            "gap": _finite(self.gap),
            "runtime": self.runtime,
            "message": self.message,
            "stats": self.stats,
            "schedule": None if self.schedule is None else self.schedule.to_dict(),
        }


def _finite(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)
