"""A straightforward per-time-unit reference of the three simulators, written apart from the package.

Time advances one second at a time; a boolean matrix ``busy[t, p]`` holds every
running job and every reservation; a window is free where no row of it is
busy; the allocation rules work on plain lists.  Slow (O(T × P) per step) and
obviously faithful to the rules of the module docstrings of
``coschedopt.batch.simulators.queue`` and ``coschedopt.batch.simulators.conservative``, for jobs of
positive length.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def runs(free: list[int], m: int, ring: bool) -> list[tuple[int, int]]:
    """(start, length) of each run of consecutive ids; on a ring the run through m-1 and 0 is one."""
    out: list[list[int]] = []
    for p in free:
        if out and out[-1][0] + out[-1][1] == p:
            out[-1][1] += 1
        else:
            out.append([p, 1])
    if ring and len(out) > 1 and out[0][0] == 0 and out[-1][0] + out[-1][1] == m:
        out[-1][1] += out[0][1]
        out.pop(0)
    return [(s, n) for s, n in out]


def from_run(start: int, k: int, m: int) -> list[int]:
    return sorted((start + i) % m for i in range(k))


def clusterwise(free: list[int], size: int, ell: int) -> list[int]:
    groups: dict[int, list[int]] = {}
    for p in free:
        groups.setdefault(p // ell, []).append(p)
    chosen: list[int] = []
    for c in sorted(groups, key=lambda c: (-len(groups[c]), c)):
        chosen += groups[c][: size - len(chosen)]
        if len(chosen) == size:
            break
    return sorted(chosen)


def choose(free: list[int], size: int, variant: str, m: int, levels: list[int], opts: dict) -> list[int] | None:
    if len(free) < size:
        return None
    ell = m // levels[-2]
    ring = opts.get("topology", "line") == "ring"
    if variant == "basic":
        return free[:size]
    if variant in ("becont", "cont"):
        rs = runs(free, m, ring)
        rule = opts.get("cont_rule", "first-fit") if variant == "cont" else opts.get("becont_rule", "largest-first")
        if rule == "largest":
            s, n = max(rs, key=lambda r: r[1])  # first of the longest
            return from_run(s, size, m) if n >= size else None
        if rule == "first-fit":
            for s, n in rs:
                if n >= size:
                    return from_run(s, size, m)
            return None if variant == "cont" else free[:size]
        chosen: list[int] = []
        for s, n in sorted(rs, key=lambda r: -r[1]):
            chosen += from_run(s, min(n, size - len(chosen)), m)
            if len(chosen) == size:
                return sorted(chosen)
    if variant in ("beloc", "loc"):
        counts: dict[int, int] = {}
        for p in free:
            counts[p // ell] = counts.get(p // ell, 0) + 1
        top = sorted(counts.values(), reverse=True)[: math.ceil(size / ell)]
        if variant == "loc" and sum(top) < size:
            return None
        return clusterwise(free, size, ell)
    depth = len(levels) - 1
    for d in range(depth - 1, -1, -1):
        block = m // levels[d]
        if block < size:
            continue
        for b in range(levels[d]):
            inside = [p for p in free if p // block == b]
            if len(inside) >= size:
                if opts.get("beplat_rule", "lowest-ids") == "lowest-ids":
                    return inside[:size]
                return clusterwise(inside, size, ell)
        if variant == "plat":
            return None
    raise AssertionError


def level(ids: list[int], m: int, levels: list[int]) -> int:
    depth = len(levels) - 1
    for d in range(depth - 1, -1, -1):
        if len({p // (m // levels[d]) for p in ids}) == 1:
            return depth - d
    raise AssertionError


def min_level(size: int, m: int, levels: list[int]) -> int:
    depth = len(levels) - 1
    return depth - max(d for d in range(depth) if m // levels[d] >= size)


def duration(run: int, req: int, ids: list[int], size: int, m: int, levels: list[int], opts: dict) -> tuple[int, bool]:
    r = level(ids, m, levels) - min_level(size, m, levels)
    f = Fraction(opts.get("factor", 2.0))
    penalty = opts.get("penalty", "none")
    t = run if penalty == "none" else math.ceil(run * (1 + r * f) if penalty == "linear" else run * f**r)
    return (req, True) if t > req else (t, False)


def simulate(inst, method: str, opts: dict) -> dict[int, tuple[int, int, list[int], bool]]:
    """job index -> (start, end, processors, failed)."""
    m = inst.processors
    levels = list(inst.platform.levels)
    variant = opts.get("allocation", "basic")
    submit, run = inst.submit.tolist(), inst.run_time.tolist()
    req, size = inst.requested_time.tolist(), inst.size.tolist()
    n = inst.n
    order = sorted(range(n), key=lambda j: (submit[j], j))
    horizon = max(submit) + sum(req) + 2
    busy = np.zeros((horizon + max(req) + 2, m), dtype=bool)
    out: dict[int, tuple[int, int, list[int], bool]] = {}
    queue: list[int] = []
    reservation: dict[int, tuple[int, list[int], tuple[int, bool]]] = {}
    marks: set[int] = set()  # every reservation's start and end: the first-slice test's slice boundaries

    def window_free(s: int, length: int) -> list[int]:
        return np.flatnonzero(~busy[s : s + length].any(axis=0)).tolist()

    def pick(s: int, j: int) -> list[int] | None:
        return choose(window_free(s, req[j]), size[j], variant, m, levels, opts)

    def reserve(t: int, s: int, h: int) -> list[int]:
        """EASY's head reservation at the shadow time ``s`` (the ``reservation`` option of ``easy``)."""
        lowest_ids = choose(window_free(s, req[h]), size[h], variant, m, levels, opts)
        if opts.get("reservation", "busy-first") == "lowest-ids":
            return lowest_ids
        idle = window_free(t, 1)
        freed = [p for p in window_free(s, req[h]) if p not in idle]
        forced = variant in ("cont", "loc", "plat")
        if forced and not set(lowest_ids) & set(idle):
            return lowest_ids
        if len(freed) >= size[h]:
            hold = choose(freed, size[h], variant, m, levels, opts)
            return lowest_ids if hold is None else hold
        if forced:
            return lowest_ids
        return sorted(freed + choose(idle, size[h] - len(freed), variant, m, levels, opts))

    def begin(j: int, t: int, ids: list[int], dur: tuple[int, bool] | None = None) -> None:
        d, failed = dur or duration(run[j], req[j], ids, size[j], m, levels, opts)
        out[j] = (t, t + d, ids, failed)

    def complete(t: int) -> None:
        """Early completions free the rest of their reservations; then the reassignment of conservative."""
        early = False
        for j, (s, e, ids, _) in out.items():
            if e == t and e < s + req[j]:
                busy[t : s + req[j], ids] = False
                early = True
        if method == "conservative" and early and opts.get("reassign", True):
            for j in list(queue):
                s, ids, dur = reservation[j]
                if s == t:
                    continue
                after = [x for x in marks if x > t]
                if opts.get("reassign_test") == "first-slice" and after and req[j] > min(after) - t:
                    continue
                busy[s : s + req[j], ids] = False
                new = pick(t, j)
                if new is None:
                    busy[s : s + req[j], ids] = True
                    continue
                busy[t : t + req[j], new] = True
                marks.update((t, t + req[j]))
                queue.remove(j)
                keep = opts.get("reassign_penalty", "recompute") == "keep"
                begin(j, t, new, dur if keep else None)

    def reserve_and_start(t: int) -> None:
        for j in [j for j in order if submit[j] == t]:
            s = next(s for s in range(t, horizon) if pick(s, j) is not None)
            ids = pick(s, j)
            busy[s : s + req[j], ids] = True
            marks.update((s, s + req[j]))
            reservation[j] = (s, ids, duration(run[j], req[j], ids, size[j], m, levels, opts))
            queue.append(j)
        for j in [j for j in queue if reservation[j][0] == t]:
            queue.remove(j)
            begin(j, t, reservation[j][1], reservation[j][2])

    for t in range(horizon):
        if method == "conservative":
            if opts.get("event_order", "completions-first") == "submissions-first":
                reserve_and_start(t)
                complete(t)
            else:
                complete(t)
                reserve_and_start(t)
            continue
        complete(t)
        queue += [j for j in order if submit[j] == t]
        while queue:
            ids = pick(t, queue[0])
            if ids is None:
                break
            j = queue.pop(0)
            busy[t : t + req[j], ids] = True
            begin(j, t, ids)
        if method == "easy" and len(queue) > 1:
            h = queue[0]
            s = next(s for s in range(t + 1, horizon) if pick(s, h) is not None)
            hold = reserve(t, s, h)
            busy[s : s + req[h], hold] = True
            for j in list(queue[1:]):
                ids = pick(t, j)
                if ids is not None:
                    queue.remove(j)
                    busy[t : t + req[j], ids] = True
                    begin(j, t, ids)
            busy[s : s + req[h], hold] = False
    assert len(out) == n
    return out
