"""The fit function: place one requested EP over the resource EP (Klein & Pérez, section 4.3).

``fit(src, dst, nmax) -> (ts, eps)`` returns a start time ts and a stretched copy eps of
``src`` such that dst(t) + delay(eps, ts)(t) <= nmax for every t.

* :func:`trivial_fit` -- the paper's "very simple fit": start after dst ends.
* :func:`base_fit` -- Algorithm 3, with stretch limit l >= 1 (1: no stretch; ``inf``).
  Each stage k >= 2 is placed at the earliest time its nodes are free from where the
  previous stage's requested duration ends; the previous stage is then stretched up to
  it (it keeps its nodes, waiting), unless that stretch exceeds l times its duration
  (the previous stage restarts at the earliest start the limit allows, line 15) or its
  nodes are not free over the stretch (it restarts after the blocking maximum, line 19).
  The first stage is moved, never stretched; the last is never stretched.  The paper's
  recursion (line 24) is run here as a loop over the stage index with an explicit
  stack of start times, so the depth is not bounded by Python's recursion limit; the
  paper's ``if i > 0`` (line 30) is read as ``i > 1`` and its recursive call is given l.
* :func:`compact_fit` -- the "+c" post-processing (section 4.3.3): keep base fit's
  completion time C, place the stages right to left.  Read here (the paper only says
  "similarly to the base algorithm") as Algorithm 3 on the reversed stages against dst
  mirrored around C (tau = C - t), with t < 0 blocked by a stage of nmax nodes.  The
  result never ends after C (a placement past the block cannot map back, and then base
  fit's placement is kept) and may end before it.

Cost: each failed attempt moves a start strictly later, to a stage end of dst or to a
start forced by the stretch limit; a placement check is two binary searches and a
slice of the stages under the window (:meth:`Profile.max`/:meth:`Profile.loc` fused
into :func:`_blocked`).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from .evolution import Profile

__all__ = ["Placement", "base_fit", "compact_fit", "fit", "trivial_fit"]


@dataclass(frozen=True)
class Placement:
    """Where a fit put an application: its start and its (stretched) stage durations."""

    start: float
    durations: tuple[float, ...]

    @property
    def end(self) -> float:
        return self.start + sum(self.durations)


def _blocked(ends: list[float], vals: list[int], t0: float, t1: float, free: int) -> float | None:
    """None if max(dst, t0, t1) <= ``free``, else loc(dst, t0, t1) (t1 > t0 >= 0)."""
    i = bisect_right(ends, t0)
    seg = vals[i : bisect_left(ends, t1, i) + 1]
    if not seg:
        return None
    m = max(seg)
    if m <= free:
        return None
    e = ends[i + len(seg) - 1 - seg[::-1].index(m)]
    return e if e < t1 else t1


def _free_from(ends: list[float], vals: list[int], t0: float, t1: float, free: int) -> float | None:
    """None if max(dst, t0, t1) <= ``free``, else the end of the last stage over [t0, t1) above ``free``.

    No start in [t0, that end) can hold the stage, so the placement loop may jump there
    instead of to loc (the end of the last *maximum*): the first start that fits is the same.
    """
    i = bisect_right(ends, t0)
    seg = vals[i : bisect_left(ends, t1, i) + 1]
    if not seg or max(seg) <= free:
        return None
    k = len(seg) - 1
    while seg[k] <= free:
        k -= 1
    e = ends[i + k]
    return e if e < t1 else t1


def trivial_fit(durations: Sequence[float], nodes: Sequence[int], dst: Profile, nmax: int) -> Placement:
    """Start after everything in dst, unstretched (the paper's "very simple fit")."""
    return Placement(dst.end, tuple(durations))


def base_fit(
    durations: Sequence[float],
    nodes: Sequence[int],
    dst: Profile,
    nmax: int,
    stretch_limit: float = 1.0,
    t0: float = 0,
) -> Placement:
    """Algorithm 3: the earliest start of each stage over ``dst``, stretching middle stages up to l.

    ``durations``/``nodes`` are the requested stages (each n_k <= nmax), ``t0`` the
    earliest start.  Returns the first stage's start and every stage's scheduled
    duration (first and last as requested, middle ones in [d_k, l d_k]).
    """
    ends, vals = dst.ends, dst.nodes
    count = len(durations)
    limit = stretch_limit
    starts = [t0] * count  # ts of each stage on the stack
    origins = [t0] * count  # t0 of each stage: where the previous stage's requested duration ends
    i = 0
    while True:
        d = durations[i]
        free = nmax - nodes[i]
        t = starts[i]
        # lines 8-11: the earliest start >= t where the stage's nodes are free
        while (jump := _free_from(ends, vals, t, t + d, free)) is not None:
            t = jump
        starts[i] = t
        if i > 0:
            prev = durations[i - 1]
            origin = origins[i]
            earliest_allowed = t - limit * prev if limit != math.inf else -math.inf  # line 15
            if earliest_allowed > origin - prev:  # lines 16-17: the stretch limit is exceeded
                i -= 1
                starts[i] = earliest_allowed
                continue
            if t > origin:  # lines 18-21: the previous stage's nodes must stay free over the stretch
                jump = _blocked(ends, vals, origin, t, nmax - nodes[i - 1])
                if jump is not None:
                    i -= 1
                    starts[i] = jump
                    continue
        if i == count - 1:
            break
        i += 1
        starts[i] = origins[i] = t + d  # line 24: the next stage from the end of this one
    if count == 1:
        return Placement(starts[0], (durations[0],))
    middle = tuple(starts[k + 1] - starts[k] for k in range(1, count - 1))
    return Placement(starts[1] - durations[0], (durations[0], *middle, durations[-1]))  # line 33: moved


def _mirror(dst: Profile, completion: float, nmax: int, block: float) -> Profile:
    """dst over [0, C) seen backwards from C (tau = C - t), then ``block`` time of nmax nodes (t < 0)."""
    ends, vals = dst.ends, dst.nodes
    m_ends: list[float] = []
    m_vals: list[int] = []
    if not ends or ends[-1] < completion:
        m_ends.append(completion - (ends[-1] if ends else 0))
        m_vals.append(0)
    top = min(bisect_left(ends, completion), len(ends) - 1)
    for k in range(top, -1, -1):
        m_ends.append(completion - (ends[k - 1] if k else 0))
        m_vals.append(vals[k])
    m_ends.append(completion + block)
    m_vals.append(nmax)
    return Profile.from_arrays(m_ends, m_vals)


def compact_fit(
    durations: Sequence[float],
    nodes: Sequence[int],
    dst: Profile,
    nmax: int,
    stretch_limit: float,
    placed: Placement,
) -> tuple[Placement, bool]:
    """Compacting ("+c"): re-place ``placed`` right to left from its completion C.

    Returns the compacted placement and True, or ``placed`` and False when the
    mirrored fit runs past t = 0 (it then cannot be mapped back).
    """
    completion = placed.end
    mirror = _mirror(dst, completion, nmax, max(completion, 1) + sum(durations))
    back = base_fit(durations[::-1], nodes[::-1], mirror, nmax, stretch_limit)
    back_end = back.end
    if back_end > completion:
        return placed, False
    return Placement(completion - back_end, back.durations[::-1]), True


def fit(
    durations: Sequence[float],
    nodes: Sequence[int],
    dst: Profile,
    nmax: int,
    stretch_limit: float = 1.0,
    compact: bool = False,
) -> Placement:
    """Base fit (Algorithm 3) with stretch limit l, then compacting when ``compact``."""
    placed = base_fit(durations, nodes, dst, nmax, stretch_limit)
    if compact and len(durations) > 2 and stretch_limit > 1:
        placed, _ = compact_fit(durations, nodes, dst, nmax, stretch_limit, placed)
    return placed
