"""What a running method has reached so far, for a live view (``coschedopt solve``'s status line).

A method, or the solver back-end layer on its behalf, calls :func:`report` when it finds a better
schedule or a better bound; whoever shows progress installs a listener with :func:`listen`.  Without
a listener a report costs one global read, so methods report unconditionally.

Two kinds of report:

- ``incumbent`` and ``bound`` in the units of the family's objective (what ``Result.objective`` and
  ``Result.lower_bound`` will hold), from a method that tracks them itself (branch-and-price);
- ``gap`` alone, the relative gap of the solver run in progress (CP-SAT, HiGHS's MIP), from
  :mod:`coschedopt.core.backends`: a model's objective may be scaled or shifted (integer grids,
  lexicographic phases), so its values are not the family's objective, but their gap is the solver's.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass
class Progress:
    """The latest values reported in a run (None: not reported)."""

    incumbent: float | None = None
    bound: float | None = None
    #: the solver's relative gap (when the method reports no incumbent and bound of its own)
    solver_gap: float | None = None

    @property
    def gap(self) -> float | None:
        """The relative gap between the incumbent and the bound, else the solver's own."""
        if self.incumbent is not None and self.bound is not None and math.isfinite(self.incumbent):
            return abs(self.incumbent - self.bound) / max(abs(self.incumbent), 1e-12)
        return self.solver_gap


_lock = threading.Lock()
_listener: Callable[[Progress], None] | None = None
_state = Progress()
_muted = [0]


def report(*, incumbent: float | None = None, bound: float | None = None, gap: float | None = None) -> None:
    """Tell the listener, if any, that the running method reached ``incumbent`` and/or ``bound``
    (objective units), or that its solver's relative ``gap`` is now this (see the module docstring)."""
    if _listener is None or _muted[0]:
        return
    with _lock:
        if incumbent is not None and math.isfinite(incumbent):
            _state.incumbent = float(incumbent)
        if bound is not None and math.isfinite(bound):
            _state.bound = float(bound)
        if gap is not None and math.isfinite(gap) and gap >= 0:
            _state.solver_gap = float(gap)
        snapshot = Progress(_state.incumbent, _state.bound, _state.solver_gap)
        listener = _listener
    if listener is not None:
        listener(snapshot)


def listening() -> bool:
    """Whether a listener is installed (a method may skip work that only a live view needs)."""
    return _listener is not None


def solver_gap(primal: float, dual: float) -> float | None:
    """The relative gap between a solver's primal and dual bounds (None until both are finite)."""
    if not (math.isfinite(primal) and math.isfinite(dual)):
        return None
    return abs(primal - dual) / max(abs(primal), 1e-12)


@contextlib.contextmanager
def muted() -> Iterator[None]:
    """Drop the reports made inside the block: a method's one-time preparation solves a warm-up
    instance whose values are not the run's."""
    with _lock:
        _muted[0] += 1
    try:
        yield
    finally:
        with _lock:
            _muted[0] -= 1


@contextlib.contextmanager
def listen(callback: Callable[[Progress], None]) -> Iterator[Callable[[], Progress]]:
    """Call ``callback`` with the values so far on every :func:`report` inside the block (from the
    reporting thread: keep it short); yields a function returning the latest values."""
    global _listener
    with _lock:
        _state.incumbent = _state.bound = _state.solver_gap = None
        _listener = callback

    def latest() -> Progress:
        with _lock:
            return Progress(_state.incumbent, _state.bound, _state.solver_gap)

    try:
        yield latest
    finally:
        with _lock:
            _listener = None
