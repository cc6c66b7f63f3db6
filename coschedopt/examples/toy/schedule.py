"""The toy schedule (an order), its objective recomputed from the data, and the independent validator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core import InputError
from .instance import ToyInstance


@dataclass(frozen=True)
class ToySchedule:
    """``order[i]`` is the index of the job in position i."""

    order: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"order": list(self.order)}

    @classmethod
    def from_dict(cls, instance: ToyInstance, data: dict[str, Any]) -> ToySchedule:
        order = data.get("order")
        if not isinstance(order, list) or not all(isinstance(j, int) and not isinstance(j, bool) for j in order):
            raise InputError(f"must be a list of job indices, got {order!r}", where="order")
        return cls(tuple(order))


def validate_schedule(instance: ToyInstance, schedule: ToySchedule) -> None:
    """Raise ``ValueError`` unless the order is a permutation of the jobs."""
    if sorted(schedule.order) != list(range(instance.n)):
        raise ValueError(f"order {list(schedule.order)} is not a permutation of 0..{instance.n - 1}")


def toy_objective(instance: ToyInstance, schedule: ToySchedule) -> float:
    """sum_i (i + 1) * v[order[i]]."""
    return float(sum((i + 1) * instance.values[j] for i, j in enumerate(schedule.order)))


# --------------------------------------------------------------------------- the family contract's breakers
# Each changes a valid schedule's JSON form so that the validator must refuse it (tests/test_family_contract.py).


def _index_twice(instance: ToyInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["order"][-1] = data["order"][0]
    return data


def _index_missing(instance: ToyInstance, data: dict[str, Any]) -> dict[str, Any]:
    data["order"].pop()
    return data


BREAKERS = {"an index twice": _index_twice, "an index missing": _index_missing}
