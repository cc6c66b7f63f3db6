"""What the machine offers a run."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The processors this process may run on (its CPU affinity where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
