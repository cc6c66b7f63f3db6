"""core/deadline.py: time limits as a monotonic deadline."""

from __future__ import annotations

import math

from coschedopt.core import Deadline


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_deadline():
    d = Deadline(None)
    assert not d.expired() and d.remaining() == math.inf
    clock = Clock()
    d = Deadline(0.01, clock=clock)
    assert not d.expired() and d.remaining() == 0.01
    clock.now = 0.02
    assert d.expired() and d.remaining() == 0.0


def test_deadline_share():
    # a sub-task's box: a share of the time left, capped; 1 ms once the parent has expired
    # (Deadline(0.0) raises); without a limit, the cap alone
    clock = Clock()
    d = Deadline(100.0, clock=clock)
    clock.now = 5.0
    assert d.share(0.2).remaining() == 19.0 and d.share(0.2, cap=5.0).remaining() == 5.0
    sub = d.share(0.5)
    clock.now = 50.0  # the share reads its parent's clock: 47.5 s from t = 5
    assert sub.remaining() == 2.5 and not sub.expired()
    clock.now = 100.0
    assert d.expired() and sub.expired() and d.share(0.5).time_limit == 1e-3
    assert Deadline(None).share(0.5).remaining() == math.inf
    assert Deadline(None).share(0.5, cap=3.0).time_limit == 3.0


def test_a_cancel_event_expires_the_deadline_and_its_shares():
    import threading

    event = threading.Event()
    clock = Clock()
    d = Deadline(100.0, clock=clock, cancel=event)
    sub, unlimited = d.share(0.5), Deadline(None, cancel=event).share(0.5)
    assert not (d.expired() or sub.expired() or unlimited.expired())
    event.set()
    assert d.expired() and sub.expired() and unlimited.expired()
    assert d.remaining() == sub.remaining() == unlimited.remaining() == 0.0
