"""core/deadline.py: time limits as a monotonic deadline."""

from __future__ import annotations

import math
import time

from coschedopt.core import Deadline


def test_deadline():
    d = Deadline(None)
    assert not d.expired() and d.remaining() == math.inf
    d = Deadline(0.01)
    time.sleep(0.02)
    assert d.expired() and d.remaining() == 0.0


def test_deadline_share():
    # a sub-task's box: a share of the time left, capped; 1 ms once the parent has expired
    # (Deadline(0.0) raises); without a limit, the cap alone
    d = Deadline(100.0)
    assert 19.0 < d.share(0.2).remaining() <= 20.0
    assert d.share(0.2, cap=5.0).remaining() <= 5.0
    expired = Deadline(0.01)
    time.sleep(0.02)
    assert 0 < expired.share(0.5).time_limit <= 1e-3
    assert Deadline(None).share(0.5).remaining() == math.inf
    assert Deadline(None).share(0.5, cap=3.0).time_limit == 3.0
