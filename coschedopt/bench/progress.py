"""A one-line progress bar on stderr: done/total, percentage, failures, elapsed time and ETA.

On a terminal the line is redrawn in place (at most 10 times a second); when
stderr is a file or a pipe (CI logs) a plain line is printed every 10 % or every
30 seconds, whichever comes first, so logs stay short.

The ETA is estimated per method, not from the overall rate: a run does its slow
exact cells first, so the cells finished early say nothing of the rest.  Each
method's remaining cells are counted at the mean running time of its cells
finished in this run, and the sum is shared among the ``parallel`` workers.
Until every method with cells left has finished one, there is no estimate and
the bar says so (``ETA --:--``).  While the harness does something before the
cells run (compiling a method's kernels), :meth:`ProgressBar.show` puts what it
does in place of the ETA.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import TextIO


def format_duration(seconds: float | None) -> str:
    """``h:mm:ss`` (or ``m:ss`` under an hour); ``--:--`` when unknown."""
    if seconds is None:
        return "--:--"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ProgressBar:
    """Progress of ``total`` cells of which ``skipped`` were already done before this run."""

    def __init__(
        self,
        total: int,
        *,
        skipped: int = 0,
        label: str = "",
        stream: TextIO | None = None,
        todo: Mapping[str, int] | None = None,
        parallel: int = 1,
    ) -> None:
        """``todo``: cells to run per method (label), for the ETA; ``parallel``: cells run at once."""
        self.total, self.skipped, self.label = total, skipped, label
        self.done = 0  # finished by this run
        self.failures = 0
        self.left = dict(todo or {})
        self.parallel = max(1, parallel)
        self.seconds: dict[str, list[float]] = {}
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self._last_draw = 0.0
        self._last_line_pct = -1.0
        self._last_line_time = self.start
        #: what the run is doing instead of running cells (shown in place of the ETA), or None
        self.note: str | None = None

    def eta(self) -> float | None:
        """Seconds left (see the module docstring); ``None`` until every method with cells left has a time."""
        if not self.left or any(n > 0 and not self.seconds.get(m) for m, n in self.left.items()):
            return None
        work = sum(n * sum(self.seconds[m]) / len(self.seconds[m]) for m, n in self.left.items() if n > 0)
        return work / self.parallel

    def line(self) -> str:
        finished = self.skipped + self.done
        frac = finished / self.total if self.total else 1.0
        width = 24
        filled = int(width * frac)
        bar = "#" * filled + "-" * (width - filled)
        skipped = f" ({self.skipped} from earlier runs)" if self.skipped else ""
        return (
            f"{self.label}[{bar}] {finished}/{self.total} {100 * frac:3.0f}%{skipped}  "
            f"failures {self.failures}  elapsed {format_duration(time.monotonic() - self.start)}  "
            + (self.note if self.note else f"ETA {format_duration(self.eta())}")
        )

    def update(
        self, *, done: int = 0, failed: int = 0, method: str | None = None, seconds: float | None = None
    ) -> None:
        """``done`` cells more (``failed`` of them failures); ``method`` and ``seconds`` feed the ETA."""
        self.done += done
        self.failures += failed
        if method is not None:
            self.left[method] = max(0, self.left.get(method, 0) - done)
            if seconds is not None:
                self.seconds.setdefault(method, []).append(seconds)
        self.draw()

    def show(self, note: str | None) -> None:
        """Say ``note`` (e.g. "compiling kernels: pack branch-and-price") in place of the ETA until
        ``show(None)``; drawn at once, also in a log."""
        self.note = note
        self.draw(force=note is not None)

    def draw(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if self.tty:
            if force or now - self._last_draw >= 0.1:
                self.stream.write("\r\033[K" + self.line())
                self.stream.flush()
                self._last_draw = now
            return
        pct = 100 * (self.skipped + self.done) / self.total if self.total else 100.0
        if force or pct - self._last_line_pct >= 10 or now - self._last_line_time >= 30:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self._last_line_pct, self._last_line_time = pct, now

    def close(self) -> None:
        self.draw(force=True)
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
