"""Evolution profiles (EPs) and their algebra (Klein & Pérez, RR-7205, section 3.1).

An EP is a sequence of stages (d_1, n_1), ..., (d_N, n_N) starting at time 0:
ep(t) = n_k for t in [d_1 + ... + d_{k-1}, d_1 + ... + d_k), and 0 outside.  The same
object is a *requested* EP (an application's needs), a *scheduled* EP (delayed by a
0-node stage and stretched) or the *resource* EP (the occupation of the cluster).

The paper's helper functions are methods of :class:`Profile`: ``value`` (ep(t)),
``max`` and ``loc`` over an interval, ``delay``, ``stretch``, ``+`` (the pointwise
sum), ``change_points`` (chps), and :func:`fits` (the post-condition of a fit).

A profile is stored as the stages' end times (increasing) and node counts, so that
``max`` and ``loc`` over [t0, t1) cost two binary searches and a slice: O(log K + s)
for K stages of which s meet the interval.  ``+`` merges the two lists of end times
(O(K1 + K2)); :meth:`Profile.plus_stages` adds one scheduled application in
O(K + s) with the copying done by list slicing, which is what Algorithm 2 does once
per application.  Profiles are immutable; equality compares the canonical form
(adjacent equal stages merged, trailing 0-node stages dropped).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

__all__ = ["Profile", "fits"]


class Profile:
    """An evolution profile: stages (duration, nodes) from time 0, 0 nodes after the last one."""

    __slots__ = ("ends", "nodes")

    def __init__(self, stages: Iterable[tuple[float, int]] = ()) -> None:
        ends: list[float] = []
        nodes: list[int] = []
        t = 0
        for d, n in stages:
            if not d >= 0 or not math.isfinite(d):
                raise ValueError(f"a stage duration must be a finite number >= 0, got {d!r}")
            if n < 0:
                raise ValueError(f"a stage node count must be >= 0, got {n!r}")
            if d > 0:
                t += d
                ends.append(t)
                nodes.append(n)
        self.ends: list[float] = ends
        self.nodes: list[int] = nodes

    @classmethod
    def from_arrays(cls, ends: list[float], nodes: list[int]) -> Profile:
        """A profile from its stages' end times (strictly increasing, > 0) and node counts, unchecked."""
        p = cls.__new__(cls)
        p.ends, p.nodes = ends, nodes
        return p

    @classmethod
    def from_stages(cls, durations: Sequence[float], nodes: Sequence[int]) -> Profile:
        return cls(zip(durations, nodes, strict=True))

    # ------------------------------------------------------------------ views

    @property
    def stages(self) -> list[tuple[float, int]]:
        """The stages as (duration, nodes) pairs."""
        out, prev = [], 0
        for e, n in zip(self.ends, self.nodes, strict=True):
            out.append((e - prev, n))
            prev = e
        return out

    @property
    def end(self) -> float:
        """Where the last stage ends (0 for the empty profile)."""
        return self.ends[-1] if self.ends else 0

    @property
    def peak(self) -> int:
        return max(self.nodes, default=0)

    @property
    def area(self) -> float:
        """Node-seconds: the integral of ep(t)."""
        return sum(d * n for d, n in self.stages)

    def canonical(self) -> Profile:
        """The same function with adjacent equal stages merged and trailing 0-node stages dropped."""
        ends: list[float] = []
        nodes: list[int] = []
        for e, n in zip(self.ends, self.nodes, strict=True):
            if nodes and nodes[-1] == n:
                ends[-1] = e
            else:
                ends.append(e)
                nodes.append(n)
        while nodes and nodes[-1] == 0:
            ends.pop()
            nodes.pop()
        return Profile.from_arrays(ends, nodes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        a, b = self.canonical(), other.canonical()
        return a.ends == b.ends and a.nodes == b.nodes

    def __hash__(self) -> int:
        c = self.canonical()
        return hash((tuple(c.ends), tuple(c.nodes)))

    def __repr__(self) -> str:
        return f"Profile({self.stages!r})"

    # ------------------------------------------------------------------ the paper's helpers

    def value(self, t: float) -> int:
        """ep(t): the nodes of the stage containing t (0 before 0 and after the end)."""
        if t < 0:
            return 0
        k = bisect_right(self.ends, t)
        return self.nodes[k] if k < len(self.nodes) else 0

    def _window(self, t0: float, t1: float) -> tuple[int, int]:
        """Indices [i, j) of the stages meeting [t0, t1) (t1 > t0, t1 > 0)."""
        i = bisect_right(self.ends, t0)
        j = bisect_left(self.ends, t1, i)
        return i, min(j + 1, len(self.ends))

    def max(self, t0: float, t1: float) -> int:
        """max(ep, t0, t1): the largest ep(t) for t in [t0, t1); 0 when t1 <= t0."""
        if t1 <= t0 or t1 <= 0:
            return 0
        i, j = self._window(t0, t1)
        return max(self.nodes[i:j], default=0)

    def loc(self, t0: float, t1: float) -> float:
        """loc(ep, t0, t1): the end of the last stage reaching max(ep, t0, t1), clipped to t1.

        It is the t with max(ep, t0, t) = max(ep, t0, t1) > max(ep, t, t1): the first time
        after which the interval's maximum no longer occurs.  When that maximum is 0 (no
        stage meets the interval, or only 0-node ones) every t satisfies the left equality
        and none the right inequality; ``t1`` is returned, the end of the interval.
        """
        if t1 <= t0 or t1 <= 0:
            return t1
        i, j = self._window(t0, t1)
        seg = self.nodes[i:j]
        m = max(seg, default=0)
        if m == 0:
            return t1
        k = i + len(seg) - 1 - seg[::-1].index(m)
        return min(self.ends[k], t1)

    def delay(self, t0: float) -> Profile:
        """delay(ep, t0): the profile with a stage (t0, 0) prepended (t0 >= 0)."""
        if not t0 >= 0:
            raise ValueError(f"a delay must be >= 0, got {t0!r}")
        if not t0:
            return self
        return Profile.from_arrays([t0] + [e + t0 for e in self.ends], [0, *self.nodes])

    def stretch(self, durations: Sequence[float]) -> Profile:
        """The stretched profile: stage k lasts ``durations[k]`` >= its own duration."""
        own = self.stages
        if len(durations) != len(own):
            raise ValueError(f"stretch needs {len(own)} durations, got {len(durations)}")
        for k, (d2, (d, _)) in enumerate(zip(durations, own, strict=True)):
            if d2 < d:
                raise ValueError(f"stage {k}: a stretched duration must be >= {d}, got {d2}")
        return Profile((d2, n) for d2, (_, n) in zip(durations, own, strict=True))

    def __add__(self, other: Profile) -> Profile:
        """ep1 + ep2: (ep1 + ep2)(t) = ep1(t) + ep2(t), by merging the two lists of end times."""
        a_ends, a_nodes, b_ends, b_nodes = self.ends, self.nodes, other.ends, other.nodes
        la, lb = len(a_ends), len(b_ends)
        i = j = 0
        ends: list[float] = []
        nodes: list[int] = []
        while i < la or j < lb:
            ea = a_ends[i] if i < la else math.inf
            eb = b_ends[j] if j < lb else math.inf
            e = ea if ea < eb else eb
            v = (a_nodes[i] if i < la else 0) + (b_nodes[j] if j < lb else 0)
            if nodes and nodes[-1] == v:
                ends[-1] = e
            else:
                ends.append(e)
                nodes.append(v)
            i += ea == e
            j += eb == e
        return Profile.from_arrays(ends, nodes).canonical()

    def change_points(self) -> list[float]:
        """chps(ep): the times between stages, with the profile's start 0 and its end."""
        return [0, *self.ends] if self.ends and self.ends[0] != 0 else list(self.ends)

    # ------------------------------------------------------------------ Algorithm 2's update

    def plus_stages(self, start: float, durations: Sequence[float], nodes: Sequence[int]) -> Profile:
        """self + delay(EP(durations, nodes), start), touching only the stages under [start, end).

        O(K + s): the end times before ``start`` and after the application's end are
        copied by slicing; the s stages in between are split at the application's
        stage boundaries and raised by its node counts.
        """
        ends, vals = self.ends, self.nodes
        bounds = [start]
        for d in durations:
            bounds.append(bounds[-1] + d)
        finish = bounds[-1]
        lo = bisect_right(ends, start)
        new_ends = ends[:lo]
        new_vals = vals[:lo]
        prev = ends[lo - 1] if lo else 0
        if start > prev and lo == len(ends):  # a gap after the resource EP: a 0-node stage
            new_ends.append(start)
            new_vals.append(0)
        elif start > prev:  # split the stage containing start
            new_ends.append(start)
            new_vals.append(vals[lo])
        # merge the application's boundaries with the resource EP's inside [start, finish)
        k, m = lo, 0
        t = start
        while t < finish:
            e_res = ends[k] if k < len(ends) else math.inf
            e_app = bounds[m + 1]
            e = e_res if e_res < e_app else e_app
            new_ends.append(e)
            new_vals.append((vals[k] if k < len(vals) else 0) + nodes[m])
            k += e_res == e
            m += e_app == e
            t = e
        new_ends += ends[k:]
        new_vals += vals[k:]
        return Profile.from_arrays(new_ends, new_vals)


def fits(src: Profile, dst: Profile, nmax: int, start: float = 0) -> bool:
    """The post-condition of fit: dst(t) + delay(src, start)(t) <= nmax for every t."""
    return (dst + src.delay(start)).peak <= nmax
