"""A one-line progress bar on stderr: done/total, percentage, failures, elapsed time and ETA.

On a terminal the line is redrawn in place (at most 10 times a second); when
stderr is a file or a pipe (CI logs) a plain line is printed every 10 % or every
30 seconds, whichever comes first, so logs stay short.
"""

from __future__ import annotations

import sys
import time
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

    def __init__(self, total: int, *, skipped: int = 0, label: str = "", stream: TextIO | None = None) -> None:
        self.total, self.skipped, self.label = total, skipped, label
        self.done = 0  # finished by this run
        self.failures = 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self._last_draw = 0.0
        self._last_line_pct = -1.0
        self._last_line_time = self.start

    def eta(self) -> float | None:
        todo = self.total - self.skipped
        if self.done == 0 or todo <= 0:
            return None
        rate = (time.monotonic() - self.start) / self.done
        return rate * (todo - self.done)

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
            f"ETA {format_duration(self.eta())}"
        )

    def update(self, *, done: int = 0, failed: int = 0) -> None:
        self.done += done
        self.failures += failed
        self.draw()

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
