"""Column enumeration: every column whose reduced cost is at most delta.

:func:`enumerate_columns` asks :func:`.pricing.price` for the levels whose best set
may reach the threshold, then :func:`enumerate_level` lists, per level, every set
whose optimal (allowed) level is exactly that one, by a depth-first search with
suffix-DP bounds (output-sensitive: each search node can still reach a qualifying
set).  O(C n) search steps for C output columns.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ....core import Deadline
from . import kernels
from .knapsack import suffix_tables
from .levels import LevelTable, Windows
from .pricing import Cuts, price


class TooManyColumns(Exception):
    """The enumeration went past its column budget."""


def _level_items(
    table: LevelTable, level: int, pi: np.ndarray, windows: Windows | None
) -> tuple[np.ndarray, int, np.ndarray, np.ndarray, np.ndarray] | None:
    """The search's items at ``level``: (task of each position, the number of critical
    ones (they come first), m at the level, m one level lower, whether the task's window
    opens here), each group by decreasing dual; None when no task is critical."""
    p = table.p
    m = table.m(level).astype(np.int64)
    crit = table.critical(level)
    opens = np.zeros(table.n, dtype=bool)
    allowed = np.ones(table.n, dtype=bool)
    if windows is not None:
        allowed = windows.mask(level)
        opens = allowed & (windows.lo == level)
        crit = np.union1d(crit[allowed[crit]], np.flatnonzero(opens & (m <= p)))
    if crit.size == 0:
        return None
    mprev = table.m(level - 1).astype(np.int64) if level > 0 else np.full(table.n, p + 1, dtype=np.int64)
    fits = np.flatnonzero((m <= p) & allowed)
    is_crit = np.zeros(table.n, dtype=bool)
    is_crit[crit] = True
    others = fits[~is_crit[fits]]
    # inside each group, heavy profits first tends to find the qualifying sets early
    crit = crit[np.argsort(-pi[crit], kind="stable")]
    others = others[np.argsort(-pi[others], kind="stable")]
    items = np.concatenate([crit, others])
    return items, crit.size, m[items], mprev[items], opens[items]


def _search(
    items, ncrit, mo, po, mp, op, kk, p, target, level, out, budget, deadline: Deadline | None, cuts: Cuts | None
) -> None:
    """The depth-first search in Python (the reference of :func:`.kernels.enumerate_sets`,
    and the one that checks the subset-row penalties)."""
    g = suffix_tables(mo, po, p, kk)
    # stack entries: (next index, items left, capacity left, profit, chosen positions)
    stack: list[tuple[int, int, int, float, tuple[int, ...]]] = []
    for r in range(ncrit - 1, -1, -1):
        w = int(mo[r])
        if w <= p and po[r] + g[r + 1, kk - 1, p - w] >= target:
            stack.append((r + 1, kk - 1, p - w, float(po[r]), (r,)))
    nitems = items.size
    count = 0
    while stack:
        start, c, cap, prof, chosen = stack.pop()
        if prof >= target and (int(mp[list(chosen)].sum()) > p or op[list(chosen)].any()):
            col = tuple(sorted(int(items[q]) for q in chosen))
            if cuts is None or prof - cuts.penalty(col) >= target:
                out.append((level, col))
                if len(out) > budget:
                    raise TooManyColumns
        count += 1
        if deadline is not None and count % 2048 == 0 and deadline.expired():
            raise TimeoutError
        if c == 0 or cap == 0 or start >= nitems:
            continue
        nxt = np.arange(start, nitems)
        wn = mo[nxt]
        ok = wn <= cap
        if not ok.any():
            continue
        nxt, wn = nxt[ok], wn[ok]
        bound = prof + po[nxt] + g[nxt + 1, c - 1, cap - wn]
        good = nxt[bound >= target]
        for r in good[::-1].tolist():
            stack.append((r + 1, c - 1, cap - int(mo[r]), prof + float(po[r]), (*chosen, r)))


def enumerate_level(
    table: LevelTable,
    level: int,
    pi: np.ndarray,
    k: int,
    delta: float,
    out: list[tuple[int, tuple[int, ...]]],
    budget: int,
    deadline: Deadline | None = None,
    tol: float = 1e-9,
    cuts: Cuts | None = None,
    bonus: float = 0.0,
    windows: Windows | None = None,
) -> None:
    """Append to ``out`` every (level, S) with optimal level exactly ``level`` and tau - pi(S) <= delta.

    S must contain a *critical* task (its requirement drops at this level), so the
    critical tasks come first in the item order and the first chosen item is
    critical: each set is produced once.  Depth-first search; a branch is followed
    only if its suffix-DP bound can still reach pi(S) >= tau - delta.  Raises
    :class:`TooManyColumns` once ``out`` holds more than ``budget`` columns.
    With ``windows`` only tasks allowed at this level are used, and "cheapest level"
    means cheapest *allowed* level: a task whose window opens here is critical too.
    Without cuts the search runs compiled (:func:`.kernels.enumerate_sets`, same order).
    """
    found = _level_items(table, level, pi, windows)
    if found is None:
        return
    items, ncrit, mo, mp, op = found
    p = table.p
    po = np.maximum(pi[items], 0.0)
    kk = min(k, p, items.size)
    target = float(table.tau[level]) - bonus - delta - tol
    if not (cuts is None and kernels.ready(kernels.suffix_tables, kernels.enumerate_sets)):
        _search(items, ncrit, mo, po, mp, op, kk, p, target, level, out, budget, deadline, cuts)
        return
    g = kernels.suffix_tables(mo, po, p, kk)
    stop_at = math.inf if deadline is None else time.perf_counter() + deadline.remaining()
    status, pos, off = kernels.enumerate_sets(mo, po, mp, op, g, ncrit, kk, p, target, budget - len(out), stop_at)
    for j in range(off.size - 1):
        out.append((level, tuple(sorted(items[pos[off[j] : off[j + 1]]].tolist()))))
    if status == 1:
        raise TooManyColumns
    if status == 2:
        raise TimeoutError


def enumerate_columns(
    table: LevelTable,
    pi: np.ndarray,
    k: int,
    delta: float,
    *,
    budget: int,
    deadline: Deadline | None = None,
    cuts: Cuts | None = None,
    bonus: np.ndarray | None = None,
    windows: Windows | None = None,
) -> list[tuple[int, tuple[int, ...]]]:
    """All columns (optimal level, task set) with reduced cost <= delta.

    Candidate levels come from :func:`.pricing.price` with the fixed threshold delta
    (every level whose best set has reduced cost <= delta is evaluated); each is then
    enumerated by :func:`enumerate_level`.  Raises :class:`TooManyColumns` past
    ``budget`` columns and ``TimeoutError`` at the deadline.
    """
    pr = price(
        table,
        pi,
        k,
        column_threshold=-math.inf,
        fixed_threshold=delta + 1e-9,
        deadline=deadline,
        cuts=cuts,
        bonus=bonus,
        windows=windows,
    )
    if not pr.complete:
        raise TimeoutError
    out: list[tuple[int, tuple[int, ...]]] = []
    for level in sorted(set(pr.levels_le)):
        b = 0.0 if bonus is None else float(bonus[level])
        enumerate_level(table, level, pi, k, delta, out, budget, deadline, cuts=cuts, bonus=b, windows=windows)
    return out
