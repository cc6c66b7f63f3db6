"""Time limits: a monotonic deadline that methods poll, never a signal or a thread."""

from __future__ import annotations

import math
import time


class Deadline:
    """A point in time after which a method must stop and return its best result.

    ``Deadline(None)`` never expires.  Methods call :meth:`expired` in their
    loops and pass :meth:`remaining` to the solvers they drive.
    """

    def __init__(self, time_limit: float | None) -> None:
        if time_limit is not None and (not math.isfinite(time_limit) or time_limit <= 0):
            if not (isinstance(time_limit, float) and math.isinf(time_limit) and time_limit > 0):
                raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
            time_limit = None
        self.time_limit = time_limit
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float:
        """Seconds left (``math.inf`` without a limit, never negative)."""
        if self.time_limit is None:
            return math.inf
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        return self.time_limit is not None and self.elapsed() >= self.time_limit

    def share(self, fraction: float, cap: float | None = None) -> Deadline:
        """A deadline for a sub-task: ``fraction`` of the time left, at most ``cap`` seconds,
        and never zero (a sub-task started as this one expires still gets a millisecond,
        where ``Deadline(0)`` would raise); without a limit, ``cap`` seconds (None: none)."""
        rem = self.remaining()
        if not math.isfinite(rem):
            return Deadline(cap)
        return Deadline(max(1e-3, min(fraction * rem, math.inf if cap is None else cap)))
