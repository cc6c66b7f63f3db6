"""Solve statuses, one table for every family and method.

======================  ==========================================================
``OPTIMAL``             the schedule is proven optimal (within the requested gap)
``FEASIBLE``            a valid schedule, optimality not proven (heuristics)
``INFEASIBLE``          the instance has no schedule
``TIME_LIMIT``          stopped before the end, by the time limit or by a stop request
                        (Ctrl-C); best schedule and bound returned, and
                        ``Result.stats["stopped_by"]`` is ``"time_limit"`` or ``"interrupt"``
``ERROR``               the method failed; ``Result.message`` says why
======================  ==========================================================

A stop request has no status of its own: it ends a method exactly as its time limit
does (the contract in :mod:`coschedopt.core.deadline`), and code reading results (the
benchmark harness, reports) treats both alike; ``stats["stopped_by"]`` tells them apart.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    TIME_LIMIT = "TIME_LIMIT"
    ERROR = "ERROR"

    def __str__(self) -> str:  # print as the bare name
        return self.value
