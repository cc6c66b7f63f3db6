"""workloads/idsets.py: the one implementation of id sets (runs, interval strings, procset)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from procset import ProcSet

from coschedopt.core import InputError
from coschedopt.workloads.idsets import format_ids, from_procset, parse_ids, runs, to_procset

ID_SETS = st.sets(st.integers(0, 300), max_size=80)


@given(ID_SETS)
def test_the_string_is_procsets_and_reads_back(ids):
    text = format_ids(sorted(ids))
    assert text == str(ProcSet(*sorted(ids))) if ids else text == ""
    assert parse_ids(text).tolist() == sorted(ids)
    assert format_ids(np.array(sorted(ids), dtype=np.int64)) == text  # the array path agrees with the list path
    assert from_procset(to_procset(ids)).tolist() == sorted(ids)


@given(ID_SETS, st.integers(1, 301))
def test_runs_cover_the_ids_once_and_wrap_on_a_ring(ids, extra):
    m = (max(ids) + extra) if ids else extra
    line = runs(sorted(ids))
    assert [i for a, b in line for i in range(a, b + 1)] == sorted(ids)
    ring = runs(sorted(ids), ring_size=m)
    wraps = bool(ids) and 0 in ids and m - 1 in ids and len(line) > 1
    assert len(ring) == len(line) - wraps


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0-3 2", "processor 2 is listed twice"),
        ("3-1", "'3-1' is not an id or a range"),
        ("a-b", "'a-b' is not an id"),
        (7, "must be an interval-set string"),
    ],
)
def test_a_bad_interval_string_is_one_error_naming_where(text, message):
    with pytest.raises(InputError, match=message) as e:
        parse_ids(text, where="jobs[3].processors")
    assert e.value.where == "jobs[3].processors"
