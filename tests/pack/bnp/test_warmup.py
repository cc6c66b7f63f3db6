"""warmup.py: the kernels' compilation runs in a child process that a stop request kills."""

from __future__ import annotations

import glob
import os
import threading
import time

import pytest

from coschedopt.core.deadline import request_stop, stop_on_interrupt
from coschedopt.pack.exact.bnp import kernels, warmup


def _warm_up_children() -> list[str]:
    found = []
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):  # Linux; elsewhere nothing to see
        with open(path) as fh:
            for pid in fh.read().split():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as cmd:
                        if b"warm_up" in cmd.read():
                            found.append(pid)
                except OSError:
                    pass
    return found


def test_a_stop_request_kills_the_compiling_child_at_once(monkeypatch):
    if not kernels.COMPILED:
        pytest.skip("numba is not installed: nothing is compiled")
    monkeypatch.setattr(warmup, "_cached", lambda: False)  # as on a fresh install
    with stop_on_interrupt():
        threading.Timer(0.3, request_stop).start()
        start = time.perf_counter()
        warmup.compile_kernels()
        elapsed = time.perf_counter() - start
    assert elapsed < 0.3 + 2.0
    assert not _warm_up_children()
