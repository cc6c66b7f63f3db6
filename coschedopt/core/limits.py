"""Size and value guards shared by every family's instance reader and generators.

A family declares its own limits (constants with a docstring saying why) and checks
its fields with these helpers, so that every refusal is the same one line: an
:class:`~coschedopt.core.errors.InputError` naming the field and the value.  The
point is that no small file (or command-line number) can make a method allocate in
proportion to a *value* (``"cpus": 10**30``) rather than to the input's length, nor
carry a time whose sums overflow to ``inf`` or ``nan`` in the metrics.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from .errors import InputError

#: the largest time (seconds), duration or work any family accepts: about 31 million
#: years, so that the sums and products the metrics take over a million tasks (times a
#: million processors) stay far below float overflow, and an instance that would only
#: write ``inf`` or ``nan`` into a result is refused at reading instead
MAX_TIME = 1e15

#: the smallest time an instance may hold, as a share of its horizon (the latest clock a method
#: can reach, e.g. the last release plus all the work): a float clock does not move when a time
#: below 2.2e-16 of it is added, and a run of length zero breaks the validators; 1e-12 leaves
#: four digits to spare
MIN_RELATIVE_TIME = 1e-12

#: tasks, jobs or applications a generator makes at most: the JSON it writes is built in
#: memory first (about 1 kB an item; measured 1.2-1.5 GB for 10^6 hybrid, online or batch
#: items, 0.16 GB for 10^5), and the largest generated benchmark has 10^5 (dual2's speed table).
#: Larger workloads come from files and traces, whose size the readers' own limits bound
MAX_GENERATED = 10**5


def _is_int(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool)


def check_count(value: Any, where: str, *, high: int, low: int = 1, what: str = "") -> int:
    """``value`` as an int in ``[low, high]``, else one :class:`InputError` located at ``where``.

    ``what`` says why ``high`` (``"the processors the methods can take"``); bools and
    floats are refused (a count is an integer in JSON and on the command line).
    """
    if low == 1:
        need = f"a positive integer <= {high:,}"
    elif low == 0:
        need = f"an integer >= 0 and <= {high:,}"
    else:
        need = f"an integer in {low:,}..{high:,}"
    if not _is_int(value) or not low <= value <= high:
        why = f" ({what})" if what else ""
        raise InputError(f"must be {need}{why}, got {value!r:.60}", where=where)
    return int(value)


def check_number(
    value: Any, where: str, *, high: float = MAX_TIME, low: float = 0.0, allow_low: bool = False, label: str = ""
) -> float:
    """``value`` as a finite float in ``(low, high]`` (``[low, high]`` when ``allow_low``), else one
    :class:`InputError` located at ``where``, its message starting with ``label`` (``"task 'T1': work"``)
    when given; bools and non-numbers are refused."""
    head = f"{label} " if label else ""
    if low == 0 and allow_low:
        need = f"a finite number >= 0 and <= {high:g}"
    elif low == 0:
        need = f"a positive finite number <= {high:g}"
    else:
        kind = "a positive finite number" if low > 0 else "a finite number"
        need = f"{kind} {'>=' if allow_low else '>'} {low:g} and <= {high:g}"
    if not _is_number(value):
        raise InputError(f"{head}must be {need}, got {value!r:.60}", where=where)
    try:
        x = float(value)
    except OverflowError:  # an int beyond float range
        x = math.inf
    if not (math.isfinite(x) and (low <= x if allow_low else low < x) and x <= high):
        raise InputError(f"{head}must be {need}, got {value!r:.60}", where=where)
    return x


def check_numbers(
    values: Any, where: str, *, high: float = MAX_TIME, low: float = 0.0, allow_low: bool = False
) -> np.ndarray:
    """A 1-D float array of numbers each as :func:`check_number` takes them; ``where`` is a format
    string for the position of the first bad one (``"tasks[{}].time"``).  A list or tuple is checked
    item by item (bools refused); a numeric numpy array at once."""
    bounds = {"high": high, "low": low, "allow_low": allow_low}
    if isinstance(values, np.ndarray) and values.ndim == 1 and values.dtype.kind in "iuf":
        arr = values.astype(float)
    elif isinstance(values, list | tuple) or (isinstance(values, np.ndarray) and values.ndim == 1):
        return np.array([check_number(v, where.format(j), **bounds) for j, v in enumerate(values)], dtype=float)
    else:
        raise InputError(f"must be a list of numbers, got {values!r:.60}", where=where.format(0))
    with np.errstate(invalid="ignore"):
        good = np.isfinite(arr) & (arr <= high) & ((arr >= low) if allow_low else (arr > low))
    if not good.all():
        j = int(np.argmin(good))
        check_number(float(arr[j]), where.format(j), **bounds)
    return arr


def check_resolution(
    times: Any, horizon: float, where: str, *, share: float = MIN_RELATIVE_TIME, label: str = ""
) -> None:
    """Refuse the first of ``times`` below ``share`` x ``horizon`` (one :class:`InputError`;
    ``where`` a format string for its position): beside that horizon a float clock would not
    advance by it (:data:`MIN_RELATIVE_TIME`), or a solver's tolerances would lose it; ``label``
    starts the message (what the times are)."""
    arr = np.asarray(times, dtype=float)
    small = np.flatnonzero(arr < horizon * share)
    if small.size:
        j = int(small[0])
        raise InputError(
            f"{label + ' ' if label else ''}{float(arr[j])!r} is too small beside the instance's horizon of {horizon:.6g} (more than "
            f"{1 / share:.0e} times smaller: the methods could not tell it from 0)",
            where=where.format(j),
        )


def check_table(value: Any, where: str) -> dict:
    """A free-form table (``meta``, ``source``) as a dict that writes back as strict JSON (no NaN or
    infinity, plain keys and values), else one :class:`InputError` located at ``where``."""
    if not isinstance(value, dict):
        raise InputError(f"must be a table (JSON object), got {value!r:.60}", where=where)
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InputError(f"must hold plain JSON values only (no NaN or infinity): {exc}", where=where) from None
    return dict(value)
