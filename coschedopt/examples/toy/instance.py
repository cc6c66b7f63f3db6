"""The toy instance: a frozen dataclass validated at construction, with its JSON form.

JSON: ``{"kind": "toy", "name": "t", "k": 1, "values": [3.0, 1.0, 2.0]}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from ...core import InputError, refuse_unknown

_FIELDS = {"kind", "name", "k", "values"}


@dataclass(frozen=True)
class ToyInstance:
    kind: ClassVar[str] = "toy"
    values: tuple[float, ...]
    k: int = 1
    name: str = "toy"

    def __post_init__(self) -> None:
        if not self.values:
            raise InputError("values must be a non-empty list of positive numbers, got []", where="values")
        for i, v in enumerate(self.values):
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
                raise InputError(f"must be a positive finite number, got {v!r}", where=f"values[{i}]")
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise InputError(f"must be a positive integer, got {self.k!r}", where="k")

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
            raise InputError(f"must be a list of positive numbers, got {values!r}", where="values")
        return cls(tuple(values), data.get("k", 1), str(data.get("name", "toy")))
