"""Time limits: a monotonic deadline that methods poll, never a signal or a thread.

The same poll serves Ctrl-C: inside :func:`stop_on_interrupt` (``coschedopt
solve`` runs a method in it), a first SIGINT does not raise but asks every
:class:`Deadline` of the process to expire, so a method stops at its next poll
and returns its best schedule and certified bound, exactly as on a time limit;
a second SIGINT raises ``KeyboardInterrupt`` as usual.  A method that hands the
work to a solver which catches SIGINT itself (HiGHS, CBC) maps the solver's
"interrupted" outcome to that same result and calls :func:`request_stop`.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Iterator

_stop_requested = False


def request_stop() -> None:
    """Make every deadline of this process expire (Ctrl-C: stop with the best result so far)."""
    global _stop_requested
    _stop_requested = True


def stop_requested() -> bool:
    """Whether a stop was asked for (by Ctrl-C or :func:`request_stop`) since the last :func:`stop_on_interrupt`."""
    return _stop_requested


class StopRequest:
    """What :func:`stop_on_interrupt` yields: ``requested`` tells, after the block, whether Ctrl-C came."""

    requested: bool = False


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[StopRequest]:
    """Run a method so that a first Ctrl-C stops it with its best result (see the module docstring).

    The stop request lasts until the block ends.  Outside the main thread, or where
    SIGINT is not Python's default handler (a worker that ignores it), Ctrl-C is
    left alone; :func:`request_stop` still works there.
    """
    global _stop_requested
    _stop_requested = False
    state = StopRequest()
    handled = threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )

    def first(signum: int, frame: object) -> None:
        request_stop()
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C aborts

    if handled:
        signal.signal(signal.SIGINT, first)
    try:
        yield state
    finally:
        state.requested = _stop_requested
        _stop_requested = False
        if handled:
            signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def interrupt_raises() -> Iterator[None]:
    """Let Ctrl-C raise ``KeyboardInterrupt`` inside the block (and ask for a stop), even within
    :func:`stop_on_interrupt`.

    For a solver call that handles the interrupt itself: highspy cancels its solve
    on ``KeyboardInterrupt`` and returns; :func:`stop_requested` then tells the
    method that Ctrl-C stopped it.  Where SIGINT is ignored (a harness worker) or
    outside the main thread, nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN or previous is None:
        yield
        return

    def stop_and_raise(signum: int, frame: object) -> None:
        request_stop()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop_and_raise)
    try:
        yield
    finally:
        # after a stop, a further Ctrl-C aborts: do not re-arm a handler that would only ask again
        signal.signal(signal.SIGINT, signal.default_int_handler if _stop_requested else previous)


class Deadline:
    """A point in time after which a method must stop and return its best result.

    ``Deadline(None)`` never expires.  Methods call :meth:`expired` in their
    loops and pass :meth:`remaining` to the solvers they drive.
    """

    def __init__(self, time_limit: float | None) -> None:
        if time_limit is not None and (not math.isfinite(time_limit) or time_limit <= 0):
            if not (isinstance(time_limit, float) and math.isinf(time_limit) and time_limit > 0):
                raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
            time_limit = None
        self.time_limit = time_limit
        self.start = time.perf_counter()

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float:
        """Seconds left (``math.inf`` without a limit, never negative; 0 once a stop was requested)."""
        if _stop_requested:
            return 0.0
        if self.time_limit is None:
            return math.inf
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        return _stop_requested or (self.time_limit is not None and self.elapsed() >= self.time_limit)

    def share(self, fraction: float, cap: float | None = None) -> Deadline:
        """A deadline for a sub-task: ``fraction`` of the time left, at most ``cap`` seconds,
        and never zero (a sub-task started as this one expires still gets a millisecond,
        where ``Deadline(0)`` would raise); without a limit, ``cap`` seconds (None: none)."""
        rem = self.remaining()
        if not math.isfinite(rem):
            return Deadline(cap)
        return Deadline(max(1e-3, min(fraction * rem, math.inf if cap is None else cap)))
