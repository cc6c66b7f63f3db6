"""Sets of processor and node ids, written once for every family: runs, the interval string, procset.

A set of ids is a sorted array of distinct non-negative integers.  Its file form is the
interval string of the Batsim ecosystem (``"0-3 8 10-11"``: 0-based, ranges inclusive,
separated by spaces), which is what ``procset.ProcSet`` prints and what evalys reads;
commas are read too (``"0-3,8"``, the evolving family's former form).  Batch schedules,
evolving node ids and locality allocations all use these functions.

:func:`to_procset` and :func:`from_procset` convert to and from ``procset.ProcSet`` for
code that speaks the Batsim ecosystem's type.  The string forms and runs are computed
here on numpy arrays rather than through ``ProcSet``, because building a ``ProcSet``
costs time quadratic in its number of intervals (a fragmented allocation of 80,640
processors on Curie has thousands) while one vectorised pass over the ids is linear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..core.errors import InputError

_TOKEN = re.compile(r"^(\d+)(?:-(\d+))?$")


def runs(ids: Iterable[int] | np.ndarray, *, ring_size: int | None = None) -> list[tuple[int, int]]:
    """The maximal runs of consecutive ids as inclusive ``(first, last)`` pairs, in id order.

    With ``ring_size`` = m, ids wrap around (m-1 is next to 0): a run through m-1 and 0
    is one, reported as ``(first, last)`` with ``last < first``.  O(k log k) for k ids
    (duplicates are merged).
    """
    if not isinstance(ids, np.ndarray) and len(ids := list(ids)) < 64:  # a short list: Python beats numpy's set-up
        out: list[tuple[int, int]] = []
        for i in sorted(set(ids)):
            if out and out[-1][1] == i - 1:
                out[-1] = (out[-1][0], i)
            else:
                out.append((i, i))
    else:
        arr = np.unique(np.asarray(ids, dtype=np.int64))
        if len(arr) == 0:
            return []
        breaks = np.flatnonzero(np.diff(arr) != 1)
        firsts = arr[np.concatenate(([0], breaks + 1))].tolist()
        lasts = arr[np.concatenate((breaks, [len(arr) - 1]))].tolist()
        out = list(zip(firsts, lasts, strict=True))
    if ring_size is not None and len(out) > 1 and out[0][0] == 0 and out[-1][1] == ring_size - 1:
        first, _ = out.pop()
        out[0] = (first, out[0][1])
    return out


def format_ids(ids: Iterable[int] | np.ndarray) -> str:
    """The interval string of a set of ids: ``[0, 1, 2, 3, 8]`` -> ``"0-3 8"`` (what ``str(ProcSet)`` prints)."""
    one_run = (  # the common case of an allocation, without sorting
        isinstance(ids, np.ndarray)
        and len(ids)
        and int(ids[-1]) - int(ids[0]) == len(ids) - 1
        and (len(ids) < 3 or bool((np.diff(ids) == 1).all()))
    )
    if one_run:
        return f"{ids[0]}" if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs(ids))


def parse_ids(text: Any, *, where: str = "processors", what: str = "processor") -> np.ndarray:
    """The sorted ids of an interval string (``"0-3 8"`` or ``"0-3,8"``); one :class:`InputError` naming
    ``where`` for anything else: not a string, a malformed or reversed range, an id listed twice."""
    if not isinstance(text, str):
        raise InputError(f"must be an interval-set string such as '0-3 8', got {text!r}", where=where)
    parts: list[np.ndarray] = []
    for token in text.replace(",", " ").split():
        m = _TOKEN.match(token)
        if m is None or (m.group(2) is not None and int(m.group(2)) < int(m.group(1))):
            raise InputError(f"{token!r} is not an id or a range a-b with 0 <= a <= b (in {text!r})", where=where)
        lo = int(m.group(1))
        parts.append(np.arange(lo, int(m.group(2) or lo) + 1, dtype=np.int64))
    ids = np.sort(np.concatenate(parts)) if parts else np.empty(0, dtype=np.int64)
    if len(ids) > 1 and (np.diff(ids) == 0).any():
        repeated = int(ids[1:][np.diff(ids) == 0][0])
        raise InputError(f"{what} {repeated} is listed twice in {text!r}", where=where)
    return ids


def to_procset(ids: Iterable[int] | np.ndarray) -> Any:
    """The ids as a ``procset.ProcSet`` (built from its runs, not id by id)."""
    from procset import ProcSet

    return ProcSet(*runs(ids))


def from_procset(ps: Any) -> np.ndarray:
    """The sorted ids of a ``procset.ProcSet``."""
    parts = [np.arange(i.inf, i.sup + 1, dtype=np.int64) for i in ps.intervals()]
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
