"""Marginal-flow dispatch (thesis §3.4.4) over a pool of processors with one queue each.

A new task T_j (size p) goes to the processor M_i of least marginal increase of
the total flow, assuming each queue runs in shortest-(remaining-)time order.  With
T_k running on M_i (p_k(r_j) = 0 if idle) and Q_i its queue:

* general (SPT, SPT-RR, the dedicated pools):
  ΔF_i = p_k(r_j) + Σ_{ℓ∈Q_i, p_ℓ<=p_j} p_ℓ + p_j + p_j·|{ℓ∈Q_i : p_ℓ > p_j}|
       = p_k(r_j) + p_j + Σ_{ℓ∈Q_i} min(p_ℓ, p_j);
* SRPT, when T_j would preempt T_k (p_j <= p_k(r_j), or < with the strict comparator):
  ΔF_i = p_j + p_j·|{ℓ ∈ Q_i ∪ {T_k} : p_ℓ(r_j) > p_j}|;
* SPT-RD, when T_j would make T_k's counter reach τ (p_j < p_k(r_j) and c_k = τ-1):
  ΔF_i = general - (|Q_i| + 1)·p_k(r_j): T_k leaves, its remaining time no longer delays
  T_j nor the |Q_i| queued tasks; the cost of redirecting T_k is ignored, as written, so
  ΔF_i can be negative (formulas reconstructed from the flattened PDF, see the family note).

Ties go to the lowest processor index.  Cost per dispatch: the pool keeps, per queue,
its count, total work and smallest and largest size in numpy arrays, so ΔF_i is exact
in one vectorised pass for every queue whose sizes all lie on one side of p_j
(Σ min(p_ℓ, p_j) is then the total work or |Q_i|·p_j); the other queues are
evaluated exactly from their sorted sizes (bisection and a C-level slice sum), and
only when a lower bound says they can win.  O(m + log |Q_i|) per dispatch in the
common case, O(m + Σ_{mixed} |Q_i|) at worst.
"""

from __future__ import annotations

import bisect

import numpy as np


class QueuePool:
    """Processors ``first .. first + size - 1``, each with a queue sorted by (size, release, index).

    ``keys[i]`` holds the queued ``(size, release, task)`` tuples of processor i in
    order, ``sizes[i]`` their sizes (the same order); the arrays ``count``,
    ``work``, ``smallest``, ``largest`` summarise them for the vectorised ΔF;
    ``end[i]`` is when the running task finishes (<= now when idle) and
    ``counter[i]`` the redirection counter c_k of the running task.
    """

    def __init__(self, first: int, size: int) -> None:
        self.first = first
        self.size = size
        self.keys: list[list[tuple[float, float, int]]] = [[] for _ in range(size)]
        self.sizes: list[list[float]] = [[] for _ in range(size)]
        self.count = np.zeros(size)
        self.work = np.zeros(size)
        self.smallest = np.zeros(size)
        self.largest = np.zeros(size)
        self.end = np.full(size, -np.inf)
        self.counter = np.zeros(size, dtype=np.int64)
        self._mixed = np.zeros(size, dtype=np.int64)  # scratch: queues to evaluate exactly
        self._bound = np.zeros(size)  # scratch: their lower bounds

    # ------------------------------------------------------------------ queues

    def push(self, i: int, key: tuple[float, float, int]) -> None:
        keys, sizes = self.keys[i], self.sizes[i]
        pos = bisect.bisect_right(keys, key)
        keys.insert(pos, key)
        sizes.insert(pos, key[0])
        self._summarise(i, key[0])

    def pop(self, i: int) -> tuple[float, float, int]:
        key = self.keys[i].pop(0)
        self.sizes[i].pop(0)
        self._summarise(i, -key[0])
        return key

    def _summarise(self, i: int, added: float) -> None:
        sizes = self.sizes[i]
        self.count[i] = len(sizes)
        if sizes:
            self.work[i] += added
            self.smallest[i], self.largest[i] = sizes[0], sizes[-1]
        else:
            self.work[i] = self.smallest[i] = self.largest[i] = 0.0

    # ------------------------------------------------------------------ dispatch

    def choose(
        self, now: float, p: float, *, srpt: bool = False, strict: bool = False, tau: int | None = None
    ) -> tuple[int, float]:
        """The local index of the processor of least ΔF for a task of size ``p`` arriving at ``now``,
        and the remaining time p_k(now) of its running task (0 if idle).

        ``srpt``: the SRPT variant where T_j would preempt (``strict``: only when
        p_j < p_k(now)); ``tau``: the SPT-RD variant where T_j would trigger a redirection.
        """
        best, value, mixed = (_compiled_scan or compile_scan())(
            self.end, self.count, self.work, self.smallest, self.largest, self.counter,
            now, p, srpt, strict, 0 if tau is None else tau, self._mixed, self._bound,
        )  # fmt: skip
        for k in range(mixed):
            i = int(self._mixed[k])
            if self._bound[k] <= value:
                exact = self._exact(i, p, max(self.end[i] - now, 0.0), srpt, strict, tau)
                if exact < value or (exact == value and i < best):
                    best, value = i, exact
        return best, max(float(self.end[best]) - now, 0.0)

    def _exact(self, i: int, p: float, remaining: float, srpt: bool, strict: bool, tau: int | None) -> float:
        """ΔF_i from the sorted sizes of queue i (a queue with sizes on both sides of p)."""
        sizes = self.sizes[i]
        k = bisect.bisect_right(sizes, p)
        longer = len(sizes) - k
        if srpt and (remaining > p if strict else remaining >= p):
            return p + p * (longer + (remaining > p))
        value = remaining + sum(sizes[:k]) + p + p * longer
        if tau is not None and remaining > p and self.counter[i] == tau - 1:
            value -= (len(sizes) + 1) * remaining
        return value


def _scan(
    end: np.ndarray,
    count: np.ndarray,
    work: np.ndarray,
    smallest: np.ndarray,
    largest: np.ndarray,
    counter: np.ndarray,
    now: float,
    p: float,
    srpt: bool,
    strict: bool,
    tau: int,
    mixed: np.ndarray,
    bound: np.ndarray,
) -> tuple[int, float, int]:
    """One pass over the pool: the processor of least ΔF among the queues whose ΔF is exact from
    their summary (ties to the lowest index), and the others in ``mixed`` with lower bounds in
    ``bound``; returns (best index, its ΔF, number of mixed queues).  Compiled by numba."""
    best, value, n_mixed = -1, np.inf, 0
    for i in range(len(end)):
        remaining = max(end[i] - now, 0.0)
        below = largest[i] <= p  # every queued size <= p (empty queues too): Σ min = total work
        needs_exact = not below and smallest[i] < p
        v = (work[i] if below else count[i] * p) + remaining + p
        low = remaining + p + count[i] * min(smallest[i], p)
        if tau > 0 and remaining > p and counter[i] == tau - 1:
            cut = (count[i] + 1) * remaining
            v -= cut
            low -= cut
        if srpt and (remaining > p if strict else remaining >= p):
            longer = (count[i] if smallest[i] > p else 0.0) + (1.0 if remaining > p else 0.0)
            v = p + p * longer
            needs_exact = not below and smallest[i] <= p
            low = p
        if needs_exact:
            mixed[n_mixed] = i
            bound[n_mixed] = low
            n_mixed += 1
        elif v < value:
            best, value = i, v
    return best, value, n_mixed


_compiled_scan = None


def compile_scan():
    """:func:`_scan` compiled by numba (or loaded from its cache), on first use: ``import coschedopt``
    does not load numba.  The dispatch policies' ``prepare`` hook, so compiling is not timed."""
    global _compiled_scan
    if _compiled_scan is None:
        import numba

        _compiled_scan = numba.njit(cache=True)(_scan)
    return _compiled_scan
