"""The allowed ranges and first-fit allocations against brute force over every id set of small platforms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.locality import CONSTRAINTS, LocalitySchedule, make_instance, validate_schedule
from coschedopt.locality.placement import first_fit, range_ids, range_starts, sweep_ids

PLATFORMS = [(m, k) for m in range(1, 9) for k in range(1, m + 1) if m % k == 0]


def _allowed(ids, size, m, k, constraint, ring) -> bool:
    """The validator's verdict on one job placed on ``ids``."""
    inst = make_instance([(1.0, size)], m, k, constraint=constraint, topology="ring" if ring else "line")
    try:
        validate_schedule(inst, LocalitySchedule.from_lists(inst, [0.0], [ids]))
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("m", "k"), PLATFORMS)
@pytest.mark.parametrize("ring", [False, True])
def test_range_starts_are_exactly_the_ranges_the_validator_accepts(m, k, ring):
    for size in range(1, m + 1):
        for local, constraint in ((False, "contiguous"), (True, "contiguous+local")):
            starts = range_starts(size, m, m // k, ring, local)
            got = {tuple(sorted(range_ids(a, size, m))) for a in starts}
            assert len(got) == len(starts)  # no range twice
            want = {
                ids for ids in itertools.combinations(range(m), size) if _allowed(ids, size, m, k, constraint, ring)
            }
            assert got == want, (m, k, size, constraint, ring)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PLATFORMS), st.data())
def test_first_fit_places_a_job_iff_some_allowed_set_is_free(platform, data):
    m, k = platform
    free = np.array(data.draw(st.lists(st.booleans(), min_size=m, max_size=m)))
    size = data.draw(st.integers(1, m))
    constraint = data.draw(st.sampled_from(CONSTRAINTS))
    ring = data.draw(st.booleans())
    ids = first_fit(free, size, constraint, m // k, ring)
    exists = any(
        _allowed(c, size, m, k, constraint, ring) for c in itertools.combinations(np.flatnonzero(free).tolist(), size)
    )
    assert (ids is not None) == exists
    if ids is not None:
        assert free[ids].all() and _allowed(sorted(ids), size, m, k, constraint, ring)


def test_sweep_hands_out_the_lowest_free_ids_and_reuses_them_at_completion():
    # job 0 [0, 2) and job 1 [0, 1) fill the machine; job 2 [1, 3) takes what job 1 frees
    out = sweep_ids([0, 0, 1], [2, 1, 3], [{0: 2}, {0: 1}, {0: 1}], [[0, 1, 2]])
    assert out == [[0, 1], [2], [2]]
    with pytest.raises(ValueError, match="capacity broken"):
        sweep_ids([0, 0], [1, 1], [{0: 2}, {0: 2}], [[0, 1, 2]])


@pytest.mark.parametrize(("m", "k"), [*PLATFORMS, (12, 3), (12, 4), (20, 5)])
@pytest.mark.parametrize("constraint", CONSTRAINTS)
@pytest.mark.parametrize("ring", [False, True])
def test_placement_count_is_the_number_of_placements_the_milp_lists(m, k, constraint, ring):
    from coschedopt.locality.exact.milp import placements
    from coschedopt.locality.placement import placement_count

    jobs = [(1.0, size) for size in range(1, m + 1)]
    inst = make_instance(jobs, m, k, constraint=constraint, topology="ring" if ring else "line")
    for j in range(inst.n):
        assert placement_count(inst, j) == len(placements(inst, j)), (m, k, j + 1, constraint, ring)
