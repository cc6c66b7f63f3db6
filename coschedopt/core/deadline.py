"""Time limits and stop requests: a monotonic deadline that methods poll, never a signal.

**The stopping contract** (every exact method keeps it; ``tests/core/test_stop_contract.py``
checks every method the registry marks ``exact``).  A method stops when its
:class:`Deadline` expires, which happens on its time limit or on a stop request:
Ctrl-C inside :func:`stop_on_interrupt` (``coschedopt solve`` runs a method in it) or
:func:`request_stop` from any thread.  A first Ctrl-C does not raise: it asks every
deadline of the process to expire, and a second one raises ``KeyboardInterrupt`` as
usual.  The request is seen even while the main thread is inside a solver's native
code (a watcher thread reads the signal from Python's wakeup file descriptor), and
the solver back-end layer (:mod:`coschedopt.core.backends`) stops the running solver
at once.  Within 2 s of the request or of the time limit, in any phase (start-up
compilation, warm-up solves, the search), the method returns status ``TIME_LIMIT``
with the best schedule it found and its certified bound; :func:`coschedopt.solve`
records ``stats["stopped_by"]`` (``"interrupt"`` or ``"time_limit"``) and says so in
the message.  ``coschedopt solve`` then prints "interrupted", writes ``-o`` and exits
130 after Ctrl-C, or exits 0 after the time limit.

Limits: native code that holds the interpreter (a long numba kernel, a numpy call)
delays the stop until it returns, and so does a numba compilation in this process (an
exception raised into numba breaks it: branch-and-price therefore compiles its kernels
on a fresh install in a child process, which a stop kills); CBC checks its signal
rarely, so it is killed when it has not stopped 1 s after the request, and its
incumbent is then lost (the method returns its own fallback schedule).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator

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
        with _stop_from_native_code() if handled else contextlib.nullcontext():
            yield state
    finally:
        state.requested = _stop_requested
        _stop_requested = False
        if handled:
            signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def _stop_from_native_code() -> Iterator[None]:
    """Request the stop as soon as SIGINT arrives, even while the main thread runs native code.

    Python runs a signal handler only when the main thread next executes bytecode,
    which a solver call (CP-SAT, HiGHS) may not do for minutes.  The C-level handler
    also writes the signal number to the wakeup file descriptor at once: a thread
    reading it calls :func:`request_stop`, and the solver layer's watchers see it.
    """
    r, w = os.pipe()
    os.set_blocking(w, False)
    try:
        previous = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    except ValueError:  # not the main thread of the main interpreter
        os.close(r)
        os.close(w)
        yield
        return

    def read() -> None:
        while data := os.read(r, 64):
            if signal.SIGINT in data:
                request_stop()

    reader = threading.Thread(target=read, name="coschedopt-sigint", daemon=True)
    reader.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        os.close(w)  # the reader sees the end of the pipe and returns
        reader.join()
        os.close(r)


class Deadline:
    """A point in time after which a method must stop and return its best result.

    ``Deadline(None)`` never expires.  Methods call :meth:`expired` in their
    loops and pass :meth:`remaining` to the solvers they drive.  ``clock`` gives the
    time in seconds (``time.perf_counter``); a test passes its own to move time on
    without waiting, and the deadlines :meth:`share` makes read the same clock.
    ``cancel``: an event that expires the deadline (and its shares) once set, so that
    of two searches racing on one instance, the first to finish stops the other.
    """

    def __init__(
        self,
        time_limit: float | None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        cancel: threading.Event | None = None,
    ) -> None:
        if time_limit is not None and (not math.isfinite(time_limit) or time_limit <= 0):
            if not (isinstance(time_limit, float) and math.isinf(time_limit) and time_limit > 0):
                raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
            time_limit = None
        self.time_limit = time_limit
        self.clock = clock
        self.cancel = cancel
        self.start = clock()

    def elapsed(self) -> float:
        return self.clock() - self.start

    def remaining(self) -> float:
        """Seconds left (``math.inf`` without a limit, never negative; 0 once a stop was requested)."""
        if self._stopped():
            return 0.0
        if self.time_limit is None:
            return math.inf
        return max(0.0, self.time_limit - self.elapsed())

    def expired(self) -> bool:
        return self._stopped() or (self.time_limit is not None and self.elapsed() >= self.time_limit)

    def _stopped(self) -> bool:
        """A stop request of the process, or this deadline's ``cancel`` event set."""
        return _stop_requested or (self.cancel is not None and self.cancel.is_set())

    def share(self, fraction: float, cap: float | None = None) -> Deadline:
        """A deadline for a sub-task: ``fraction`` of the time left, at most ``cap`` seconds,
        and never zero (a sub-task started as this one expires still gets a millisecond,
        where ``Deadline(0)`` would raise); without a limit, ``cap`` seconds (None: none).  It shares
        this deadline's ``cancel`` event."""
        rem = self.remaining()
        if not math.isfinite(rem):
            return Deadline(cap, clock=self.clock, cancel=self.cancel)
        limit = max(1e-3, min(fraction * rem, math.inf if cap is None else cap))
        return Deadline(limit, clock=self.clock, cancel=self.cancel)
