"""The pairwise interference speed model: combinations of up to K tasks, speeds from measured pairs.

An explicit combos instance lists every allowed combination and its speeds, which stops at
a few tens of tasks (2^n - 1 combinations, or n^K for those of at most K tasks).  This
model gives the speeds by a formula instead, so that n can be in the thousands:

    a(i, S) = s_i * prod_{j in S, j != i} d_ij          for every S with |S| <= K, T_i in S

with s_i the solo speed of task i and d_ij in (0, 1] the *degradation factor* of task i
when task j shares the node: the normalised speed of T_i measured in the pair {T_i, T_j}.
Each co-runner scales a task's speed by its own pair factor, independently of the others.

Why this form:

* it is the paper's own random model (section 7: each task added to a combination
  multiplies a task's speed by a factor in [alpha_i, 1]) with the factor depending only on
  the pair of tasks, not on the rest of the combination;
* it is the model pair measurements fit exactly (Kuchumov & Korkhov cite a measured
  slowdown model trained on applications run alone and in pairs, their [6]): the
  ``combos measure --combinations pairs --model pairwise`` path runs the n(n-1)/2 pairs and
  takes the factors from them (:func:`fit_pairwise`), and larger groups are predicted by
  composing the pairs multiplicatively, as slowdowns from independent contention sources do;
* it satisfies the paper's constraint (1) by construction (every factor is at most 1,
  so adding a task never speeds one up), and it makes the LP's pricing problem a bounded
  search over sets (:mod:`coschedopt.combos.pricing`) with a simple bound: no task runs
  faster in S than alone, and adding tasks only lowers the speeds already there.

``max_size`` K is the most tasks a combination may hold (the node's slots).  The instance
has sum_{s <= K} C(n, s) combinations, never listed: ``lp`` solves it by column generation
(:mod:`coschedopt.combos.exact.colgen`), ``fcs`` by exact pricing, the searches on an
explicit sub-list (:meth:`PairwiseInstance.to_explicit`).  JSON form::

    {"kind": "combos", "tasks": [{"name": "T1", "work": 150.0, "speed": 1.0}, ...],
     "model": {"type": "pairwise", "max_size": 4, "factors": [[1.0, 0.9, ...], ...]}}

``factors[i][j]`` is d_ij (row: the task slowed down, column: its co-runner); the diagonal
is 1; ``speed`` (the solo speed s_i) defaults to 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ..core import InputError
from ..core.limits import MAX_TIME, check_number, check_resolution, check_table
from .instance import (
    MAX_TASKS_ALL_COMBINATIONS,
    MIN_RELATIVE_WORK,
    MIN_SPEED,
    CombosInstance,
    all_combination_masks,
    combination_masks_up_to,
    mask_of_tasks,
    membership,
    tasks_of_mask,
)

MODEL_TYPE = "pairwise"

#: the smallest degradation factor accepted: a product of K - 1 factors stays far above
#: the LP's tolerances for every practical K (1e-6 ** 3 = 1e-18 would not)
MIN_FACTOR = 1e-3

#: at most this many tasks in one model instance (the factor matrix is dense, n x n)
MAX_MODEL_TASKS = 20_000

#: :meth:`PairwiseInstance.to_explicit` refuses to list more combinations than this
MAX_EXPLICIT_COMBINATIONS = 2**21


def count_combinations(n: int, max_size: int) -> int:
    """sum_{s=1}^{K} C(n, s): the number of combinations of at most K of n tasks (exact integer)."""
    return sum(math.comb(n, s) for s in range(1, min(max_size, n) + 1))


@dataclass(frozen=True, eq=False)
class PairwiseInstance:
    """A combos instance whose speeds follow the pairwise model (module docstring), validated.

    ``work`` (n,) is b_i in the units of ``solo_speed`` (n,) (default all 1); ``factors``
    (n, n) the d_ij, in [MIN_FACTOR, 1] off the diagonal (the diagonal is ignored and set
    to 1); ``max_size`` the most tasks per combination.  Same family and same schedules as
    :class:`~coschedopt.combos.instance.CombosInstance`.
    """

    kind: ClassVar[str] = "combos"
    is_model: ClassVar[bool] = True

    work: np.ndarray
    factors: np.ndarray
    max_size: int
    solo_speed: np.ndarray | None = None
    task_names: tuple[str, ...] = ()
    name: str = "instance"
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        b = np.array(self.work, dtype=float).reshape(-1)
        n = b.shape[0]
        if n < 1:
            raise InputError("at least one task is needed", where="tasks")
        if n > MAX_MODEL_TASKS:
            raise InputError(f"n = {n} tasks: the pairwise model takes at most {MAX_MODEL_TASKS:,}", where="tasks")
        names = tuple(str(x) for x in self.task_names) if self.task_names else tuple(f"T{i + 1}" for i in range(n))
        if len(names) != n or len(set(names)) != n:
            raise InputError(
                f"need {n} distinct task names, got {len(set(names))} distinct of {len(names)}", where="tasks"
            )
        bad = ~np.isfinite(b) | (b <= 0) | (b > MAX_TIME)
        if bad.any():
            i = int(np.argmax(bad))
            check_number(float(b[i]), f"tasks[{i}].work", label=f"task {names[i]!r}: work")
        s = np.ones(n) if self.solo_speed is None else np.array(self.solo_speed, dtype=float).reshape(-1)
        if s.shape != (n,):
            raise InputError(f"{s.size} solo speeds for {n} tasks", where="tasks")
        bad = ~np.isfinite(s) | (s < MIN_SPEED) | (s > 1e9)
        if bad.any():
            i = int(np.argmax(bad))
            check_number(float(s[i]), f"tasks[{i}].speed", low=MIN_SPEED, high=1e9, label=f"task {names[i]!r}: speed")
        d = np.array(self.factors, dtype=float)
        if d.shape != (n, n):
            raise InputError(f"factors must be an n x n matrix, n = {n}, got shape {d.shape}", where="model.factors")
        np.fill_diagonal(d, 1.0)
        bad = ~np.isfinite(d) | (d < MIN_FACTOR) | (d > 1.0)
        if bad.any():
            i, j = map(int, np.argwhere(bad)[0])
            raise InputError(
                f"degradation factor of task {names[i]!r} beside {names[j]!r} is {d[i, j]!r}; factors must lie in "
                f"[{MIN_FACTOR:g}, 1] (a co-runner never speeds a task up: constraint (1))",
                where=f"model.factors[{i}][{j}]",
            )
        k = self.max_size
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= int(k) <= n:
            raise InputError(f"max_size must be an integer in [1, n = {n}], got {k!r}", where="model.max_size")
        alone = b / s
        if alone.max() > MAX_TIME:
            i = int(np.argmax(alone))
            raise InputError(f"task {names[i]!r} alone takes {float(alone[i]):.6g}, above {MAX_TIME:g}", where="tasks")
        check_resolution(
            alone, float(alone.sum()), "tasks[{}].work", share=MIN_RELATIVE_WORK, label="its time alone (work / speed)"
        )
        for arr in (b, s, d):
            arr.setflags(write=False)
        object.__setattr__(self, "work", b)
        object.__setattr__(self, "solo_speed", s)
        object.__setattr__(self, "factors", d)
        object.__setattr__(self, "max_size", int(k))
        object.__setattr__(self, "task_names", names)

    # ---- sizes and lookups (the explicit instance's interface where it makes sense) -------

    @property
    def n(self) -> int:
        return self.work.shape[0]

    @property
    def m(self) -> int:
        """Number of allowed combinations, sum_{s <= K} C(n, s) (a Python integer, possibly huge)."""
        return count_combinations(self.n, self.max_size)

    @property
    def is_full(self) -> bool:
        return self.max_size >= self.n

    @cached_property
    def index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.task_names)}

    @property
    def singleton_speed(self) -> np.ndarray:
        assert self.solo_speed is not None
        return self.solo_speed

    @cached_property
    def b(self) -> np.ndarray:
        """Normalised work b_i / s_i: the time task i needs alone."""
        out = self.work / self.singleton_speed
        out.setflags(write=False)
        return out

    @cached_property
    def factors_t(self) -> np.ndarray:
        """d_ji, the factor matrix transposed and contiguous (the greedy pricing reads it by rows)."""
        out = np.ascontiguousarray(self.factors.T)
        out.setflags(write=False)
        return out

    @cached_property
    def log_factors(self) -> np.ndarray:
        """log d_ij (diagonal 0): a combination's normalised speeds are exp of column sums."""
        out = np.log(self.factors)
        out.setflags(write=False)
        return out

    def normalised_speeds(self, tasks: Sequence[int]) -> np.ndarray:
        """a(i, S) / s_i = prod_{j in S, j != i} d_ij for the tasks of S (sorted indices), O(|S|^2)."""
        rows = np.asarray(tasks, dtype=np.int64)
        return np.prod(self.factors[np.ix_(rows, rows)], axis=1)

    def speeds_in(self, tasks: Sequence[int]) -> np.ndarray:
        """Raw speeds a(i, S) of the tasks of S (sorted indices); KeyError when S is not allowed."""
        tasks = tuple(int(i) for i in tasks)
        if not tasks or len(tasks) > self.max_size or len(set(tasks)) != len(tasks):
            raise KeyError(tasks)
        if min(tasks) < 0 or max(tasks) >= self.n:
            raise KeyError(tasks)
        return self.normalised_speeds(tasks) * self.singleton_speed[list(tasks)]

    def combination_value(self, tasks: Sequence[int], y: np.ndarray) -> float:
        """sum_{i in S} y_i a(i, S) (normalised speeds): the pricing objective of a column."""
        rows = list(tasks)
        return float(np.dot(np.asarray(y)[rows], self.normalised_speeds(rows)))

    def mask_of(self, tasks: Sequence[str]) -> int:
        return mask_of_tasks(self.index[t] for t in tasks)

    def tasks_of(self, mask: int) -> tuple[str, ...]:
        return tuple(self.task_names[i] for i in tasks_of_mask(mask))

    @cached_property
    def fastest(self) -> tuple[tuple[int, ...], float]:
        """The fastest combination and its speed a* = max_S sum_{i in S} a(i, S) (exact pricing with y = 1)."""
        from .pricing import price_exact

        found = price_exact(self.factors, np.ones(self.n), self.max_size, threshold=0.0, keep=1)
        return found.sets[0], found.values[0]

    @property
    def max_speed(self) -> float:
        """a*, the fastest combination's speed (Theorem 1), by exact pricing."""
        return float(self.fastest[1])

    # ---- an explicit list of some of the combinations -----------------------------------

    def to_explicit(self, max_size: int | None = None) -> CombosInstance:
        """The explicit instance of every combination of at most ``max_size`` (default K) tasks.

        The cross-check of the column generation (the full enumeration) and the candidate
        list of the online searches.  Speeds by one matrix product in log space:
        log a(i, S) = sum_{j in S} log d_ij, O(n^2 m).  Refuses above
        :data:`MAX_EXPLICIT_COMBINATIONS` combinations.
        """
        k = self.max_size if max_size is None else min(int(max_size), self.max_size)
        count = count_combinations(self.n, k)
        if count > MAX_EXPLICIT_COMBINATIONS:
            raise InputError(
                f"{count:,} combinations of at most {k} of {self.n} tasks are too many to list "
                f"(at most {MAX_EXPLICIT_COMBINATIONS:,}); use the column generation or a smaller max_size",
                where="max_size",
            )
        if k >= self.n and self.n <= MAX_TASKS_ALL_COMBINATIONS:
            masks = all_combination_masks(self.n)
        else:
            masks = combination_masks_up_to(self.n, k)
        member = membership(masks, self.n)
        logs = self.log_factors @ member.astype(float)
        speeds = np.where(member, np.exp(logs), 0.0) * self.singleton_speed[:, None]
        meta = dict(self.meta, model=MODEL_TYPE, model_max_size=self.max_size)
        return CombosInstance(self.work, masks, speeds, self.task_names, self.name, meta)

    # ---- JSON ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        tasks = []
        for nm, w, s in zip(self.task_names, self.work, self.singleton_speed, strict=True):
            t: dict[str, Any] = {"name": nm, "work": float(w)}
            if s != 1.0:
                t["speed"] = float(s)
            tasks.append(t)
        d: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "tasks": tasks,
            "model": {"type": MODEL_TYPE, "max_size": self.max_size, "factors": self.factors.tolist()},
        }
        if self.meta:
            d["meta"] = self.meta
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, repair: bool = False) -> PairwiseInstance:
        """Read the JSON form of the module docstring (one located InputError on bad data).

        ``repair`` clips the factors into [MIN_FACTOR, 1] (measured pairs a little above 1 are
        noise; constraint (1) forbids them), as ``--repair`` does for listed speeds.
        """
        tasks = data.get("tasks")
        if not isinstance(tasks, list) or not tasks:
            raise InputError(f"'tasks' must be a non-empty list of {{'name', 'work'}}, got {tasks!r}", where="tasks")
        names, work, speed = [], [], []
        for i, t in enumerate(tasks):
            if not isinstance(t, dict) or "work" not in t:
                raise InputError(f"a task must be an object with 'name' and 'work', got {t!r}", where=f"tasks[{i}]")
            names.append(str(t.get("name", f"T{i + 1}")))
            work.append(check_number(t["work"], f"tasks[{i}].work", label=f"task {names[-1]!r}: work"))
            speed.append(check_number(t.get("speed", 1.0), f"tasks[{i}].speed", label=f"task {names[-1]!r}: speed"))
        model = data.get("model")
        if not isinstance(model, dict) or model.get("type") != MODEL_TYPE:
            raise InputError(f"'model' must be {{'type': '{MODEL_TYPE}', 'max_size', 'factors'}}", where="model")
        factors = model.get("factors")
        if not isinstance(factors, list) or any(not isinstance(r, list) for r in factors):
            raise InputError("'factors' must be a list of n lists of n numbers", where="model.factors")
        try:
            d = np.array(factors, dtype=float)
        except (TypeError, ValueError):
            raise InputError("'factors' must be a list of n lists of n numbers", where="model.factors") from None
        if repair and d.ndim == 2:
            d = np.clip(d, MIN_FACTOR, 1.0)
        return cls(
            np.array(work),
            d,
            model.get("max_size", len(names)),
            np.array(speed),
            tuple(names),
            str(data.get("name", "instance")),
            check_table(data.get("meta", {}), "meta"),
        )


def random_pairwise_instance(
    n: int,
    max_size: int,
    alpha_low: float = 0.75,
    alpha_high: float = 0.85,
    *,
    seed: int | None = 0,
    work_low: float = 100.0,
    work_high: float = 200.0,
) -> PairwiseInstance:
    """Random pairwise systems in the paper's style (section 7): b_i ~ U[100, 200], solo speed 1,
    alpha_i ~ U[alpha_low, alpha_high] per task and d_ij ~ U[alpha_i, 1] per ordered pair.  Same seed, same instance."""
    from ..core import make_rng

    if not (0 < alpha_low <= alpha_high <= 1) or alpha_low < MIN_FACTOR:
        raise InputError(
            f"need {MIN_FACTOR:g} <= alpha_low <= alpha_high <= 1, got alpha_low={alpha_low!r}, alpha_high={alpha_high!r}",
            where="alpha",
        )
    rng = make_rng(seed)
    b = rng.uniform(work_low, work_high, n)
    alpha = rng.uniform(alpha_low, alpha_high, n)
    d = rng.uniform(alpha[:, None], 1.0, (n, n))
    np.fill_diagonal(d, 1.0)
    name = f"pairwise-n{n}-k{max_size}-a{alpha_low:g}-{alpha_high:g}-s{seed}"
    meta = {"generator": "pairwise-product", "seed": seed, "alpha_low": alpha_low, "alpha_high": alpha_high}
    return PairwiseInstance(b, d, int(max_size), None, (), name, meta)


def fit_pairwise(instance: CombosInstance, max_size: int) -> PairwiseInstance:
    """The pairwise model fitted to an explicit instance that holds every pair (measured ones).

    d_ij = a(i, {T_i, T_j}) / a(i, {T_i}), exactly the pair's normalised speeds, clipped to
    [MIN_FACTOR, 1]; solo speeds and work are kept.  The model then reproduces every pair,
    and predicts the larger combinations (up to ``max_size`` tasks) by the product rule.
    """
    n = instance.n
    d = np.ones((n, n))
    missing = []
    for i in range(n):
        for j in range(i + 1, n):
            try:
                col = instance.column(mask_of_tasks((i, j)))
            except KeyError:
                missing.append((instance.task_names[i], instance.task_names[j]))
                continue
            d[i, j], d[j, i] = instance.a[i, col], instance.a[j, col]
    if missing:
        raise InputError(
            f"the pairwise model needs every pair measured; {len(missing)} missing, e.g. {list(missing[0])!r}",
            where="combinations",
        )
    meta = dict(instance.meta, model=MODEL_TYPE, fitted_from=f"{n * (n - 1) // 2} pairs")
    return PairwiseInstance(
        instance.work,
        np.clip(d, MIN_FACTOR, 1.0),
        int(max_size),
        instance.singleton_speed,
        instance.task_names,
        instance.name,
        meta,
    )


#: the online searches keep (n, m) arrays of bounds: their candidate list on a model instance is
#: every combination of at most s tasks for the largest s with n x m within this many cells
SEARCH_MAX_CELLS = 5_000_000


def search_domain(instance: PairwiseInstance, max_cells: int = SEARCH_MAX_CELLS) -> CombosInstance:
    """The explicit candidate list the online searches run on for a model instance.

    The searches (section 4) learn speeds combination by combination and keep bounds for
    every candidate, O(n m) memory and time per step, so they cannot range over millions of
    combinations: they get every combination of at most s tasks, s the largest size up to K
    with n x (number of combinations) <= ``max_cells`` (at least the singletons).  At n = 200
    that is every pair.  Their schedules are valid schedules of the model instance.
    """
    size = 1
    for s in range(2, instance.max_size + 1):
        if instance.n * count_combinations(instance.n, s) > max_cells:
            break
        size = s
    return instance.to_explicit(size)


def read_instance(data: dict[str, Any], *, repair_profiles: bool = False) -> CombosInstance:
    """The family's reader: a pairwise-model instance when the file has ``"model"`` (speeds given by the
    model), else an instance listing its combinations (:meth:`CombosInstance.from_dict`).  It lives here,
    beside the model, so that the listed instance's module does not import this one."""
    if isinstance(data, dict) and "model" in data and data.get("kind", "combos") == "combos":
        return PairwiseInstance.from_dict(data, repair=repair_profiles)  # type: ignore[return-value]
    return CombosInstance.from_dict(data, repair_profiles=repair_profiles)
