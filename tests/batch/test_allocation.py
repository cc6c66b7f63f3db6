"""The seven allocation variants on hand-built free sets, and the byte-level fast path against the plain one."""

from __future__ import annotations

import numpy as np
import pytest

from coschedopt.batch.allocation import VARIANTS, Allocator
from coschedopt.batch.platform import Platform
from coschedopt.batch.procsets import bits_from_ids
from coschedopt.workloads.idsets import format_ids, parse_ids

PLAT = Platform(16, (1, 2, 4, 16))  # clusters [0-3] [4-7] [8-11] [12-15], halves [0-7] [8-15]
FREE = np.array([0, 1, 3, 4, 5, 8, 9, 10, 11, 13, 14])  # runs 0-1, 3-5, 8-11, 13-14


def pick(variant, free, size, **rules):
    out = Allocator(PLAT, variant, **rules)(np.asarray(free), size)
    return None if out is None else out.tolist()


@pytest.mark.parametrize(
    "variant, rules, size, expected",
    [
        ("basic", {}, 3, [0, 1, 3]),
        ("becont", {}, 3, [8, 9, 10]),  # the longest run first
        ("becont", {"becont_rule": "first-fit"}, 3, [3, 4, 5]),  # Alg. 3: the first run that fits
        ("cont", {}, 3, [3, 4, 5]),
        ("cont", {"cont_rule": "largest"}, 3, [8, 9, 10]),
        ("beloc", {}, 3, [8, 9, 10]),  # the fullest cluster (4 free)
        ("loc", {}, 3, [8, 9, 10]),
        ("beplat", {}, 3, [0, 1, 3]),  # the first cluster holding 3
        ("plat", {}, 3, [0, 1, 3]),
        ("basic", {}, 5, [0, 1, 3, 4, 5]),
        ("becont", {}, 5, [3, 8, 9, 10, 11]),  # all of 8-11, then the start of 3-5
        ("becont", {"becont_rule": "first-fit"}, 5, [0, 1, 3, 4, 5]),  # no run of 5: basic
        ("cont", {}, 5, None),
        ("cont", {"cont_rule": "largest"}, 5, None),
        ("beloc", {}, 5, [0, 8, 9, 10, 11]),  # cluster 2 whole, then the lowest of cluster 0
        ("loc", {}, 5, [0, 8, 9, 10, 11]),
        ("beplat", {}, 5, [0, 1, 3, 4, 5]),  # the half [0-7] holds 5
        ("plat", {"beplat_rule": "clusters"}, 5, [0, 1, 3, 4, 5]),
        ("beplat", {}, 9, [0, 1, 3, 4, 5, 8, 9, 10, 11]),  # only the root holds 9
    ],
)
def test_variants_on_a_hand_built_free_set(variant, rules, size, expected):
    assert pick(variant, FREE, size, **rules) == expected


def test_forced_variants_reject_what_best_effort_ones_take():
    scattered = [0, 1, 4, 5, 8, 12]  # clusters hold 2, 2, 1, 1
    assert pick("loc", scattered, 3) is None
    assert pick("beloc", scattered, 3) == [0, 1, 4]
    pairs = [0, 1, 4, 5, 8, 9, 12, 13]  # no cluster holds 3, the half [0-7] holds 4
    assert pick("plat", pairs, 3) is None
    assert pick("beplat", pairs, 3) == [0, 1, 4]
    assert pick("cont", pairs, 3) is None


def test_a_ring_joins_the_last_and_the_first_id():
    free = [0, 1, 5, 6, 14, 15]
    assert pick("cont", free, 3) is None
    assert pick("cont", free, 3, topology="ring") == [0, 14, 15]  # the run 14 15 0 1, from its start
    assert pick("becont", free, 4, topology="ring") == [0, 1, 14, 15]


def test_beplat_readings_differ_inside_the_block():
    free = [0, 4, 5, 6]  # the half [0-7]: cluster 0 has 1 free, cluster 1 has 3
    assert pick("beplat", free, 4) == [0, 4, 5, 6]
    assert pick("beplat", free, 2) == [4, 5]  # cluster 1 holds 2
    assert pick("beplat", [0, 1, 4, 5, 6], 4, beplat_rule="clusters") == [0, 4, 5, 6]
    assert pick("beplat", [0, 1, 4, 5, 6], 4) == [0, 1, 4, 5]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_byte_level_path_chooses_as_the_plain_one(variant):
    """On large platforms with byte-aligned clusters the rules read bytes, not ids: same choices."""
    rng = np.random.default_rng(7)
    for plat in (Platform(8192, (1, 2, 32, 512, 8192)), Platform(4800, (1, 2, 200, 4800))):
        for rule in ("lowest-ids", "clusters"):
            alloc = Allocator(plat, variant, beplat_rule=rule)
            for _ in range(25):
                density = rng.choice([0.02, 0.3, 0.9])
                free = np.flatnonzero(rng.random(plat.processors) < density)
                size = int(rng.integers(1, max(2, min(len(free) + 2, 3000))))
                plain = alloc(free, size)
                fast = alloc.from_bits(bits_from_ids(free, plat.processors), size)
                assert (plain is None) == (fast is None)
                if plain is not None:
                    assert plain.tolist() == fast.tolist()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_mask_form_chooses_as_the_id_form(variant):
    rng = np.random.default_rng(11)
    for plat in (PLAT, Platform(100, (1, 2, 10, 100)), Platform(8192, (1, 2, 32, 512, 8192))):
        alloc = Allocator(plat, variant)
        for _ in range(40):
            free = np.flatnonzero(rng.random(plat.processors) < rng.choice([0.1, 0.5, 0.95]))
            size = int(rng.integers(1, plat.processors + 1))
            bits = bits_from_ids(free, plat.processors)
            ids = alloc.from_bits(bits, size)
            mask = alloc.mask_from_bits(bits, size)
            assert (ids is None) == (mask is None)
            if ids is not None:
                assert mask == bits_from_ids(np.asarray(ids), plat.processors)


def test_interval_strings_of_one_run_several_runs_and_lists():
    for ids, text in [([5], "5"), ([5, 6, 7], "5-7"), ([0, 1, 2, 3, 8], "0-3 8"), ([1, 3], "1 3"), ([], "")]:
        assert format_ids(np.array(ids, dtype=np.int64)) == text == format_ids(ids)
        assert parse_ids(text).tolist() == ids
