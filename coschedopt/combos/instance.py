"""Co-scheduling instances over task combinations (Kuchumov & Korkhov, *Analytical and
numerical evaluation of co-scheduling strategies and their application*, section 3).

``n`` tasks T_1..T_n with work b_i; a set of allowed *combinations* S_j (non-empty sets
of tasks that may share the node), and for each combination the speed a(i, S_j) of each
of its tasks.  All 2^n - 1 combinations by default; any sparse set that contains every
singleton is valid too (the paper's discussion: memory limits forbid some combinations).

Internally a combination is a bitmask (bit i set = task i in it): an ``int64`` array up to
:data:`MAX_INT64_TASKS` tasks (vectorised bit operations), above that an ``object`` array of
Python integers, which have no width limit, so any number of tasks is accepted; the same
code runs on both.  At the edges (schedules, files, the pairwise model) a combination is
the sorted tuple of its task indices (:func:`mask_of_tasks`, :func:`tasks_of_mask`).  Columns
are sorted by mask value, i.e. colexicographically by those tuples, for every n.  The speeds
form the paper's matrix A, shape (n, m), with ``speeds[i, j] = a(i, S_j)`` and 0 when T_i is
not in S_j.  Speeds are normalised by the singleton speed (``a`` and ``b`` below), as the paper
does "without loss of generality", and must then satisfy constraint (1):

    a(i, S_p) >= a(i, S_q)   for every allowed S_p subset of S_q, T_i in S_p,

which includes 0 < a(i, S) <= 1 since {T_i} is a subset of every S containing T_i.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError
from ..core.limits import MAX_TIME, check_number, check_resolution, check_table

#: relative tolerance when checking constraint (1) (absorbs float round-off of JSON files)
MONOTONE_RTOL = 1e-9

#: combinations are int64 bitmasks up to this many tasks, arbitrary-precision Python integers above
MAX_INT64_TASKS = 62

#: at most this many tasks in one explicit instance (the speed matrix is dense, n x m)
MAX_TASKS = 100_000

#: "all combinations" (2^n - 1 of them) is supported up to this many tasks; above, give a sparse set
MAX_TASKS_ALL_COMBINATIONS = 22

#: speeds lie in [MIN_SPEED, MAX_SPEED]: the methods divide work (<= MAX_TIME) by a task's solo
#: speed, and these bounds keep every such time, and the LP's coefficients, finite
MIN_SPEED, MAX_SPEED = 1e-9, 1e9
#: a task's time alone (work / solo speed) is at most MAX_TIME and at least this share of all of
#: them together: the LP's tolerances lose a smaller one (measured with HiGHS: a share of 1e-10
#: solved, 1e-12 returned a schedule giving the task no work; times of 1e24 broke the dual read)
MIN_RELATIVE_WORK = 1e-9


def mask_dtype(n: int) -> type:
    """dtype of the bitmask array of an n-task instance: int64 up to 62 tasks, else Python integers."""
    return np.int64 if n <= MAX_INT64_TASKS else object


def as_masks(masks: Any, n: int) -> np.ndarray:
    """``masks`` as a 1-d array of the dtype :func:`mask_dtype` gives for n tasks."""
    if mask_dtype(n) is object:
        return np.array([int(x) for x in np.asarray(masks, dtype=object).reshape(-1)] or [], dtype=object)
    return np.array(masks, dtype=np.int64).reshape(-1)


def task_bits(n: int) -> np.ndarray:
    """The singleton masks 1 << i of the n tasks, in the instance's mask dtype."""
    if mask_dtype(n) is object:
        return np.array([1 << i for i in range(n)], dtype=object)
    return np.int64(1) << np.arange(n, dtype=np.int64)


def mask_of_tasks(tasks: Iterable[int]) -> int:
    """Bitmask of a combination given as task indices (any order), as a Python integer."""
    mask = 0
    for i in tasks:
        mask |= 1 << int(i)
    return mask


def tasks_of_mask(mask: int) -> tuple[int, ...]:
    """The sorted tuple of task indices of a bitmask (O(|S|) with the lowest-bit trick)."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of tasks in each combination bitmask (vectorised for int64, O(len(masks)))."""
    if np.asarray(masks).dtype == object:
        return np.array([int(x).bit_count() for x in masks], dtype=np.int64)
    m = np.asarray(masks, dtype=np.int64).astype(np.uint64)
    out = np.zeros(m.shape, dtype=np.int64)
    while np.any(m):
        out += (m & np.uint64(1)).astype(np.int64)
        m = m >> np.uint64(1)
    return out


def membership(masks: np.ndarray, n: int) -> np.ndarray:
    """Boolean matrix (n, m): ``[i, j]`` is True when task i is in combination j."""
    if np.asarray(masks).dtype == object:
        out = np.zeros((n, len(masks)), dtype=bool)
        for j, mk in enumerate(masks):
            out[list(tasks_of_mask(mk)), j] = True
        return out
    masks = np.asarray(masks, dtype=np.int64)
    return ((masks[None, :] >> np.arange(n, dtype=np.int64)[:, None]) & 1).astype(bool)


def check_all_combinations(n: int, *, limit: int = MAX_TASKS_ALL_COMBINATIONS, what: str = "all combinations") -> None:
    """Refuse ``n`` tasks with all 2^n - 1 combinations when n exceeds ``limit``.

    The message says how many combinations that would be and suggests a sparse set.
    """
    if n > limit:
        raise InputError(
            f"n = {n} tasks have 2^{n} - 1 = {2**n - 1:,} combinations; {what} is supported up to "
            f"n = {limit} ({2**limit - 1:,} combinations). Use a sparse set of allowed combinations instead, "
            "e.g. only combinations of at most 2 or 3 tasks (generate --max-size 2, measure --combinations pairs), "
            "or list the allowed combinations in the instance file",
            where="tasks",
        )


def all_combination_masks(n: int) -> np.ndarray:
    """Bitmasks 1 .. 2^n - 1: every non-empty combination of n tasks (checked against the size limit)."""
    check_all_combinations(n)
    return np.arange(1, 2**n, dtype=np.int64)


def combination_masks_up_to(n: int, max_size: int) -> np.ndarray:
    """Sorted bitmasks of all combinations with at most ``max_size`` tasks (a sparse set).

    O(sum_{s <= max_size} C(n, s)) masks, built size by size without enumerating 2^n
    (vectorised up to 62 tasks, from :func:`itertools.combinations` as Python integers above).
    """
    if n > MAX_TASKS:
        raise InputError(f"n = {n} tasks: at most {MAX_TASKS:,} tasks per instance", where="tasks")
    if max_size >= n:
        return all_combination_masks(n)
    if max_size < 1:
        raise InputError(f"max_size must be at least 1, got {max_size}", where="max_size")
    count = sum(math.comb(n, s) for s in range(1, max_size + 1))
    if count > 2**MAX_TASKS_ALL_COMBINATIONS:
        raise InputError(
            f"{count:,} combinations of at most {max_size} of {n} tasks are too many; use a smaller max_size",
            where="max_size",
        )
    if mask_dtype(n) is object:
        out_big = [mask_of_tasks(c) for s in range(1, max_size + 1) for c in itertools.combinations(range(n), s)]
        return np.array(sorted(out_big), dtype=object)
    layer = np.array([0], dtype=np.int64)
    out = []
    bits = np.int64(1) << np.arange(n, dtype=np.int64)
    for _ in range(max_size):
        # extend each combination by one task above its highest bit: every set exactly once
        high = np.zeros(layer.shape, dtype=np.int64) if not out else _highest_bit(layer) + 1
        nxt = [layer[high <= j] | bits[j] for j in range(n)]
        layer = np.concatenate(nxt)
        out.append(layer)
    return np.sort(np.concatenate(out))


def _highest_bit(masks: np.ndarray) -> np.ndarray:
    """Index of the highest set bit of each (positive) mask (exact integer arithmetic)."""
    m = np.array(masks, dtype=np.int64)
    out = np.zeros(m.shape, dtype=np.int64)
    while np.any(m > 1):
        big = m > 1
        out[big] += 1
        m[big] >>= 1
    return out


@dataclass(frozen=True, eq=False)
class CombosInstance:
    """A co-scheduling instance over combinations, validated at construction.

    ``work`` (n,) is b_i; ``masks`` (m,) the allowed combinations as bitmasks (any order,
    stored sorted); ``speeds`` (n, m) the paper's matrix A (0 where the task is not in the
    combination).  Raises :class:`~coschedopt.core.InputError` naming the task and the
    combination(s) when data breaks the model: unknown task, missing singleton, speed <= 0
    or NaN, duplicate combination, constraint (1) broken.
    """

    kind: ClassVar[str] = "combos"

    work: np.ndarray
    masks: np.ndarray
    speeds: np.ndarray
    task_names: tuple[str, ...] = ()
    name: str = "instance"
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        b = np.array(self.work, dtype=float).reshape(-1)
        n = b.shape[0]
        if n < 1:
            raise InputError("at least one task is needed", where="tasks")
        if n > MAX_TASKS:
            raise InputError(f"n = {n} tasks: at most {MAX_TASKS:,} tasks per instance", where="tasks")
        names = tuple(str(x) for x in self.task_names) if self.task_names else tuple(f"T{i + 1}" for i in range(n))
        if len(names) != n:
            raise InputError(f"{len(names)} task names for {n} tasks", where="tasks")
        if len(set(names)) != n:
            dup = next(x for x in names if names.count(x) > 1)
            raise InputError(f"duplicate task name {dup!r}", where="tasks")
        bad = ~np.isfinite(b) | (b <= 0) | (b > MAX_TIME)
        if bad.any():
            i = int(np.argmax(bad))
            check_number(float(b[i]), f"tasks[{i}].work", label=f"task {names[i]!r}: work")
        masks = as_masks(self.masks, n)
        if masks.size == 0:
            raise InputError("must list at least the singleton combination of every task, got []", where="combinations")
        # no copy of a float64 matrix (1M columns at n = 20): the instance takes it over and freezes it
        a = np.asarray(self.speeds, dtype=float)
        if a.shape != (n, masks.shape[0]):
            raise InputError(
                f"speeds must have shape (n, m) = ({n}, {masks.shape[0]}), got {a.shape}", where="combinations"
            )
        if masks.size and (masks.min() < 1 or masks.max() >= 2**n):
            j = int(np.argmax((masks < 1) | (masks >= 2**n)))
            raise InputError(
                f"combination bitmask {int(masks[j])} is not a non-empty set of the {n} tasks",
                where=f"combinations[{j}]",
            )
        if masks.size > 1 and np.any(masks[1:] < masks[:-1]):
            order = np.argsort(masks, kind="stable")
            masks, a = masks[order], a[:, order]
        else:
            order = np.arange(masks.size)
        dup = np.flatnonzero(masks[1:] == masks[:-1])
        if dup.size:
            j = int(dup[0])
            raise InputError(
                f"duplicate combination {_fmt(names, masks[j])} (combinations[{int(order[j])}] and "
                f"combinations[{int(order[j + 1])}])",
                where=f"combinations[{int(order[j + 1])}]",
            )
        member = membership(masks, n)
        bad = member & (~np.isfinite(a) | (a < MIN_SPEED) | (a > MAX_SPEED))
        if bad.any():
            i, j = map(int, np.argwhere(bad)[0])
            check_number(
                float(a[i, j]),
                f"combinations[{int(order[j])}].speeds",
                low=MIN_SPEED,
                allow_low=True,
                high=MAX_SPEED,
                label=f"speed of task {names[i]!r} in combination {_fmt(names, masks[j])}",
            )
        if np.any((a != 0) & ~member):
            i, j = map(int, np.argwhere(~member & (a != 0))[0])
            raise InputError(
                f"task {names[i]!r} is not in combination {_fmt(names, masks[j])} but has speed "
                f"{a[i, j]!r} there (must be 0)",
                where="combinations",
            )
        singles = task_bits(n)
        pos = np.searchsorted(masks, singles).astype(np.int64)
        present = (pos < masks.size) & (masks[np.minimum(pos, masks.size - 1)] == singles)
        if not present.all():
            i = int(np.argmin(present))
            raise InputError(
                f"task {names[i]!r} has no singleton combination [{names[i]!r}]: every task must be allowed to run "
                "alone (its solo speed normalises its other speeds)",
                where="combinations",
            )
        masks.setflags(write=False)
        a.setflags(write=False)
        b.setflags(write=False)
        object.__setattr__(self, "work", b)
        object.__setattr__(self, "masks", masks)
        object.__setattr__(self, "speeds", a)
        object.__setattr__(self, "task_names", names)
        object.__setattr__(self, "_singleton_columns", pos)
        _check_monotone(self.a, masks, names)
        alone = b / self.singleton_speed
        if alone.max() > MAX_TIME:
            i = int(np.argmax(alone))
            raise InputError(
                f"task {names[i]!r} alone takes work / speed = {float(alone[i]):.6g}, above {MAX_TIME:g}",
                where=f"tasks[{i}].work",
            )
        check_resolution(
            alone, float(alone.sum()), "tasks[{}].work", share=MIN_RELATIVE_WORK, label="its time alone (work / speed)"
        )

    # ---- sizes and lookups -------------------------------------------------------------

    @property
    def n(self) -> int:
        return self.work.shape[0]

    @property
    def m(self) -> int:
        """Number of allowed combinations."""
        return self.masks.shape[0]

    @property
    def is_full(self) -> bool:
        """True when all 2^n - 1 combinations are allowed."""
        return self.m == 2**self.n - 1

    @cached_property
    def index(self) -> dict[str, int]:
        """Task name -> task index (row of ``speeds``)."""
        return {name: i for i, name in enumerate(self.task_names)}

    @cached_property
    def sizes(self) -> np.ndarray:
        """|S_j| for every combination."""
        return popcount(self.masks)

    def column(self, mask: int) -> int:
        """Column j of combination ``mask``; raises KeyError when it is not allowed."""
        mask = int(mask)
        if mask < 1 or mask.bit_length() > self.n:
            raise KeyError(mask)
        j = int(np.searchsorted(self.masks, mask if self.masks.dtype == object else np.int64(mask)))
        if j >= self.m or int(self.masks[j]) != mask:
            raise KeyError(mask)
        return j

    def mask_of(self, tasks: Sequence[str]) -> int:
        """Bitmask of a list of task names (KeyError on an unknown name)."""
        return mask_of_tasks(self.index[t] for t in tasks)

    def tasks_of(self, mask: int) -> tuple[str, ...]:
        """Task names of combination ``mask``, in instance order."""
        return tuple(self.task_names[i] for i in tasks_of_mask(mask))

    def combination(self, j: int) -> tuple[int, ...]:
        """Combination of column j as the sorted tuple of its task indices."""
        return tasks_of_mask(self.masks[j])

    def speeds_in(self, tasks: Sequence[int]) -> np.ndarray:
        """Raw speeds of the tasks of a combination (sorted task indices), in that order.

        Raises KeyError when the combination is not allowed.  The schedule's validator
        reads speeds only through this method (shared with the pairwise model).
        """
        j = self.column(mask_of_tasks(tasks))
        return self.speeds[list(tasks), j]

    # ---- normalised data (the paper's a_{i,j} and b_i) ----------------------------------

    @cached_property
    def singleton_speed(self) -> np.ndarray:
        """a(i, {T_i}) as given (the solo speed of each task)."""
        return self.speeds[np.arange(self.n), self._singleton_columns]

    @cached_property
    def a(self) -> np.ndarray:
        """Normalised speeds a_{i,j} = speed(i, S_j) / speed(i, {T_i}), shape (n, m), in (0, 1]."""
        s = self.singleton_speed
        if np.all(s == 1.0):
            return self.speeds
        out = self.speeds / s[:, None]
        out.setflags(write=False)
        return out

    @cached_property
    def b(self) -> np.ndarray:
        """Normalised work b_i / speed(i, {T_i}): the time task i needs alone."""
        s = self.singleton_speed
        if np.all(s == 1.0):
            return self.work
        out = self.work / s
        out.setflags(write=False)
        return out

    @cached_property
    def combination_speed(self) -> np.ndarray:
        """a_j = sum_i a_{i,j}, the speed of each combination (section 3)."""
        out = self.a.sum(axis=0)
        out.setflags(write=False)
        return out

    @property
    def max_speed(self) -> float:
        """a* = max_j a_j, the fastest combination (Theorem 1)."""
        return float(self.combination_speed.max())

    # ---- JSON ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The issue's JSON: tasks with work, combinations with speeds in their task order."""
        names = self.task_names
        member = membership(self.masks, self.n)
        combos = []
        for j in range(self.m):
            rows = np.flatnonzero(member[:, j])
            combos.append({"tasks": [names[i] for i in rows], "speeds": self.speeds[rows, j].tolist()})
        d: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "tasks": [{"name": nm, "work": float(w)} for nm, w in zip(names, self.work, strict=True)],
            "combinations": combos,
        }
        if self.meta:
            d["meta"] = self.meta
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, repair_profiles: bool = False) -> CombosInstance:
        """Read ``{"kind": "combos", "tasks": [{"name", "work"}], "combinations": [{"tasks", "speeds"}]}``.

        A file with ``"model"`` instead of ``"combinations"`` is a pairwise-model instance, read by
        :func:`coschedopt.combos.pairwise.read_instance` (the family's reader of both kinds).

        A combination may list its tasks in any order; ``speeds`` follows that order.
        ``repair_profiles`` clips speeds to satisfy constraint (1) (:func:`repair_monotone`).
        """
        if not isinstance(data, dict):
            raise InputError(f"a combos instance must be a JSON object, got {type(data).__name__}")
        if data.get("kind", "combos") != "combos":
            raise InputError(f"expected kind 'combos', got {data.get('kind')!r}", where="kind")
        if "model" in data:
            raise InputError(
                "a pairwise-model instance ('model'): read it with coschedopt.combos.pairwise.read_instance",
                where="model",
            )
        names, work = _read_tasks(data.get("tasks"))
        n = len(names)
        combos = data.get("combinations")
        if combos is None:
            raise InputError(
                "missing field 'combinations' (the allowed combinations and their speeds)", where="combinations"
            )
        if not isinstance(combos, list):
            raise InputError(f"'combinations' must be a list, got {type(combos).__name__}", where="combinations")
        masks, rows_all, cols_all, vals_all = _read_combinations(combos, names)
        speeds = np.zeros((n, len(combos)))
        speeds[rows_all, cols_all] = vals_all
        if repair_profiles:
            _check_singletons(masks, names)
            speeds = repair_monotone(speeds, masks)
        return cls(
            np.array(work),
            masks,
            speeds,
            tuple(names),
            str(data.get("name", "instance")),
            check_table(data.get("meta", {}), "meta"),
        )


def _check_singletons(masks: np.ndarray, names: Sequence[str]) -> None:
    have = set(int(x) for x in masks)
    for i, nm in enumerate(names):
        if (1 << i) not in have:
            raise InputError(
                f"task {nm!r} has no singleton combination [{nm!r}]: every task must be allowed to run "
                "alone (its solo speed normalises its other speeds)",
                where="combinations",
            )


def _fmt(names: Sequence[str], mask: int | np.integer) -> str:
    mask = int(mask)
    return "[" + ", ".join(repr(nm) for i, nm in enumerate(names) if (mask >> i) & 1) + "]"


def subset_min(values: np.ndarray, n: int) -> np.ndarray:
    """Sum-over-subsets minimum: ``out[S] = min_{T subset of S} values[T]`` for a dense array of 2^n values.

    The standard zeta transform, one pass per bit: O(n 2^n) time, in place on a copy.
    """
    g = np.array(values, dtype=float, copy=True)
    for j in range(n):
        v = g.reshape(-1, 2, 1 << j)
        np.minimum(v[:, 1, :], v[:, 0, :], out=v[:, 1, :])
    return g


def _check_monotone(a: np.ndarray, masks: np.ndarray, names: Sequence[str]) -> None:
    """Raise on the first violation of constraint (1), naming the task and both combinations.

    Dense route (n <= 22): for each task i, a sum-over-subsets minimum over the allowed
    combinations containing i, then compare each combination with its immediate subsets:
    O(n^2 2^n).  Sparse route (large n, few combinations): all pairs, O(n m^2) vectorised.
    """
    n, m = a.shape
    use_dense = n <= MAX_TASKS_ALL_COMBINATIONS and (m * m > n * (1 << n))
    member = None if use_dense else membership(masks, n)
    bits = task_bits(n)
    for i in range(n):
        bit = bits[i]
        sel = (masks & bit) != 0
        mi, vi = masks[sel], a[i, sel]
        if use_dense:
            dense = np.full(1 << n, np.inf)
            dense[mi] = vi
            g = subset_min(dense, n)
            for j in range(n):
                if j == i:
                    continue
                vv = dense.reshape(-1, 2, 1 << j)[:, 1, :]
                gg = g.reshape(-1, 2, 1 << j)[:, 0, :]
                bad = np.isfinite(vv) & (vv > gg * (1 + MONOTONE_RTOL))
                if bad.any():
                    flat = np.flatnonzero(bad)[0]
                    hi, lo = divmod(int(flat), 1 << j)
                    big = (hi << (j + 1)) | (1 << j) | lo
                    sub = big & ~(1 << j)
                    cands = mi[((mi & ~np.int64(sub)) == 0)]
                    small = int(cands[np.argmin(dense[cands])])
                    _raise_monotone(names, i, small, big, dense[small], dense[big])
        else:
            assert member is not None
            for q in range(mi.size):
                big = mi[q]
                subs = ((mi & ~big) == 0) & (mi != big)
                bad = subs & (vi[q] > vi * (1 + MONOTONE_RTOL))
                if bad.any():
                    p = int(np.argmax(bad))
                    _raise_monotone(names, i, int(mi[p]), int(big), vi[p], vi[q])


def _raise_monotone(names: Sequence[str], i: int, small: int, big: int, v_small: float, v_big: float) -> None:
    raise InputError(
        f"task {names[i]!r} runs faster in combination {_fmt(names, big)} (normalised speed {float(v_big):.6g}) than in "
        f"its sub-combination {_fmt(names, small)} ({float(v_small):.6g}): constraint (1) of the paper requires a "
        "task's speed never to increase when tasks are added (fix the data, or load with repair)",
        where="combinations",
    )


def repair_monotone(speeds: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Clip speeds so that constraint (1) holds: a(i, S) <- min over allowed T subset of S of a(i, T).

    Works on normalised or raw speeds alike (each row is scaled by one constant).  The
    result is the largest profile below the data that satisfies (1); data that already
    satisfies it is returned unchanged.  Dense route O(n^2 2^n), sparse O(n m^2).
    """
    a = np.array(speeds, dtype=float, copy=True)
    n, m = a.shape
    masks = as_masks(masks, n)
    bits = task_bits(n)
    for i in range(n):
        sel = np.flatnonzero((masks & bits[i]) != 0)
        mi = masks[sel]
        if n <= MAX_TASKS_ALL_COMBINATIONS and m * m > n * (1 << n):
            dense = np.full(1 << n, np.inf)
            dense[mi] = a[i, sel]
            a[i, sel] = subset_min(dense, n)[mi]
        else:
            vi = a[i, sel].copy()
            for q in range(mi.size):
                subs = (mi & ~mi[q]) == 0
                a[i, sel[q]] = vi[subs].min()
    return a


def _read_tasks(tasks: Any) -> tuple[list[str], list[float]]:
    """The task names and works of an instance's ``tasks`` list, or one located InputError."""
    if not isinstance(tasks, list) or not tasks:
        raise InputError(f"'tasks' must be a non-empty list of {{'name', 'work'}}, got {tasks!r}", where="tasks")
    names, work = [], []
    for i, t in enumerate(tasks):
        if not isinstance(t, dict) or "work" not in t:
            raise InputError(f"a task must be an object with 'name' and 'work', got {t!r}", where=f"tasks[{i}]")
        names.append(str(t.get("name", f"T{i + 1}")))
        work.append(check_number(t["work"], f"tasks[{i}].work", label=f"task {names[-1]!r}: work"))
    n = len(names)
    if n > MAX_TASKS:
        raise InputError(f"n = {n} tasks: at most {MAX_TASKS:,} tasks per instance", where="tasks")
    if len(set(names)) != n:
        dup = next(x for x in names if names.count(x) > 1)
        raise InputError(f"duplicate task name {dup!r}", where="tasks")
    return names, work


def _read_combinations(combos: list, names: list[str]) -> tuple[np.ndarray, list[int], list[int], list[float]]:
    """Masks and (task, combination, speed) triples of an instance's ``combinations`` list."""
    index = {nm: i for i, nm in enumerate(names)}
    masks = np.empty(len(combos), dtype=mask_dtype(len(names)))
    rows_all, cols_all, vals_all = [], [], []
    for j, c in enumerate(combos):
        where = f"combinations[{j}]"
        if not isinstance(c, dict) or not isinstance(c.get("tasks"), list) or not isinstance(c.get("speeds"), list):
            raise InputError(f"a combination must be {{'tasks': [names], 'speeds': [numbers]}}, got {c!r}", where=where)
        ct, cs = c["tasks"], c["speeds"]
        if not ct:
            raise InputError("a combination needs at least one task", where=where)
        if len(cs) != len(ct):
            raise InputError(
                f"{len(ct)} tasks but {len(cs)} speeds (one speed per task, in the same order)", where=where
            )
        mask = 0
        for t, s in zip(ct, cs, strict=True):
            if not isinstance(t, str) or t not in index:
                raise InputError(
                    f"unknown task {t!r} in combination {ct!r}; tasks are {', '.join(names)}",
                    where=f"{where}.tasks",
                )
            i = index[t]
            if (mask >> i) & 1:
                raise InputError(f"task {t!r} listed twice in combination {ct!r}", where=f"{where}.tasks")
            mask |= 1 << i
            check_number(
                s,
                f"{where}.speeds",
                low=MIN_SPEED,
                allow_low=True,
                high=MAX_SPEED,
                label=f"speed of task {t!r} in combination {ct!r}",
            )
            rows_all.append(i)
            cols_all.append(j)
            vals_all.append(float(s))
        masks[j] = mask
    return masks, rows_all, cols_all, vals_all
