"""The toy instance: a frozen dataclass validated at construction, with its JSON form.

JSON: ``{"kind": "toy", "name": "t", "k": 1, "values": [3.0, 1.0, 2.0]}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...core import InputError, refuse_unknown
from ...core.limits import MAX_TIME, check_count, check_numbers, check_resolution

_FIELDS = {"kind", "name", "k", "values"}

#: values at most: the methods sort or permute them (O(n log n)); a 1 MB file holds ~100,000
MAX_VALUES = 10**6
#: ``k`` is only a label carried to result tables; bounded like the values
MAX_K = 10**6


@dataclass(frozen=True)
class ToyInstance:
    kind: ClassVar[str] = "toy"
    values: tuple[float, ...]
    k: int = 1
    name: str = "toy"

    def __post_init__(self) -> None:
        if not self.values:
            raise InputError("values must be a non-empty list of positive numbers, got []", where="values")
        check_count(len(self.values), "values", high=MAX_VALUES, what="the values the methods can take")
        values = check_numbers(self.values, "values[{}]", high=MAX_TIME)
        check_resolution(values, float(values.sum()), "values[{}]")
        check_count(self.k, "k", high=MAX_K)

    @property
    def n(self) -> int:
        return len(self.values)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "toy", "name": self.name, "k": self.k, "values": list(self.values)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToyInstance:
        refuse_unknown(data, _FIELDS)
        values = data.get("values")
        if not isinstance(values, list):
            raise InputError(f"must be a list of positive numbers, got {values!r:.80}", where="values")
        return cls(tuple(values), data.get("k", 1), str(data.get("name", "toy")))
