"""The shared checks of core/errors.py."""

from __future__ import annotations

import pytest

from coschedopt.core import InputError, refuse_unknown


def test_refuse_unknown_names_the_first_unknown_field_where_it_is_and_the_allowed_ones():
    refuse_unknown({"a": 1}, {"a", "b"}, "x")  # nothing unknown
    with pytest.raises(InputError) as err:
        refuse_unknown({"a": 1, "zz": 2, "c": 3}, {"b", "a"}, "tasks[2]")
    assert err.value.where == "tasks[2].c"
    assert err.value.message == "unknown field 'c'; fields: a, b"
    with pytest.raises(InputError) as err:
        refuse_unknown({"c": "red"}, ("b", "a"), label="task fields", show_value=True)
    assert err.value.where == "c"  # at the top level, the key alone
    assert err.value.message == "unknown field 'c' = 'red'; task fields: b, a"  # a sequence keeps its order
