"""Solve statuses, one table for every family and method.

======================  ==========================================================
``OPTIMAL``             the schedule is proven optimal (within the requested gap)
``FEASIBLE``            a valid schedule, optimality not proven (heuristics)
``INFEASIBLE``          the instance has no schedule
``TIME_LIMIT``          stopped by the time limit; best schedule and bound returned
``ERROR``               the method failed; ``Result.message`` says why
======================  ==========================================================
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
