"""The availability profile (Alg. 1) on hand-built reservations and against a brute-force window search."""

from __future__ import annotations

import numpy as np

from coschedopt.batch.allocation import Allocator
from coschedopt.batch.platform import Platform
from coschedopt.batch.procsets import bits_from_ids, ids_from_bits
from coschedopt.batch.profile import Profile

PLAT = Platform(8, (1, 2, 8))


def _profile(reservations, m=8):
    p = Profile(m)
    for start, end, ids in reservations:
        p.occupy(start, end, bits_from_ids(ids, m), len(ids))
    return p


def test_a_forced_variant_rejects_slices_until_one_fits():
    p = _profile([(0, 10, [0, 1, 2, 5]), (5, 20, [6, 7])])
    cont = Allocator(PLAT, "cont").from_bits
    basic = Allocator(PLAT, "basic").from_bits
    assert p.find(3, 4, basic)[0] == 0 and list(p.find(3, 4, basic)[1]) == [3, 4, 6]
    start, ids = p.find(3, 4, cont)  # slice 0 has runs 3-4 and 6-7 only; [5, 10) has 2 free
    assert start == 10 and list(ids) == [0, 1, 2]
    assert p.find(3, 6, basic)[0] == 10  # 6 s from 0 would cross [5, 10) where only 3, 4 are free


def test_release_advance_and_start_now_with_the_jobs_own_reservation():
    p = _profile([(0, 10, [0, 1, 2, 3]), (10, 30, [4, 5, 6, 7])])
    p.advance(4)
    assert p.times[0] == 4
    assert p.count[0] == 4
    p.release(4, 10, bits_from_ids([0, 1, 2, 3], 8), 4)  # the running job ended early at 4
    assert p.count[0] == 8
    basic = Allocator(PLAT, "basic").from_bits
    own = (bits_from_ids([4, 5, 6, 7], 8), 10, 30)
    assert p.start_now(6, 20, basic) is None  # 4-7 are reserved from 10
    assert list(p.start_now(6, 20, basic, own)) == [0, 1, 2, 3, 4, 5]  # counting its own reservation as free


def _brute_find(reservations, m, size, duration, choose, horizon):
    busy = np.zeros((horizon, m), bool)
    for start, end, ids in reservations:
        busy[start:end, ids] = True
    for s in range(horizon - duration):
        free = np.flatnonzero(~busy[s : s + max(duration, 1)].any(axis=0))
        if len(free) >= size:
            ids = choose(bits_from_ids(free, m), size)
            if ids is not None:
                return s, list(ids)
    raise AssertionError


def test_find_equals_a_brute_force_search_on_random_profiles():
    rng = np.random.default_rng(5)
    m = 12
    plat = Platform(m, (1, 3, 12))
    for trial in range(150):
        reservations, busy = [], np.zeros((80, m), bool)
        for _ in range(int(rng.integers(1, 12))):
            s, length, k = int(rng.integers(0, 30)), int(rng.integers(1, 15)), int(rng.integers(1, m + 1))
            free = np.flatnonzero(~busy[s : s + length].any(axis=0))
            if len(free) >= k:
                ids = rng.choice(free, k, replace=False)
                busy[s : s + length, ids] = True
                reservations.append((s, s + length, sorted(ids.tolist())))
        p = _profile(reservations, m)
        variant = ("basic", "cont", "loc", "plat")[trial % 4]
        choose = Allocator(plat, variant).from_bits
        size, duration = int(rng.integers(1, m + 1)), int(rng.integers(1, 20))
        start, ids = p.find(size, duration, choose)
        assert (start, list(ids)) == _brute_find(reservations, m, size, duration, choose, 80), (trial, variant)
        assert ids_from_bits(p.free[-1], m).tolist() == list(range(m))  # the open-ended last slice is all free
