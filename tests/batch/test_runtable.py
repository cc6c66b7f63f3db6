"""The schedule's processors read at once (:func:`coschedopt.batch.procsets.parse_interval_strings`), the
validator's two sweeps, and the streamed JSON writer, each against the job-by-job or library reference."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from coschedopt.batch import schedule_kernels
from coschedopt.batch.procsets import RunTable, parse_interval_strings
from coschedopt.batch.schedule import sweep_bitsets
from coschedopt.core.io import json_pieces
from coschedopt.workloads.idsets import parse_ids, runs


def _random_string(rng: random.Random, m: int) -> str:
    ids = sorted(rng.sample(range(m), rng.randint(0, min(m, 12))))
    tokens = [f"{a}-{b}" if a != b else str(a) for a, b in runs(ids)]
    if len(tokens) > 1 and rng.random() < 0.3:  # a range cut in two touching pieces, or tokens out of order
        rng.shuffle(tokens)
    sep = rng.choice([" ", ",", "  ", " ,"])
    return sep.join(tokens)


def test_the_vectorised_reader_gives_the_sets_parse_ids_gives():
    rng = random.Random(3)
    for _ in range(200):
        texts = [_random_string(rng, rng.choice([5, 64, 130, 1000])) for _ in range(rng.randint(1, 20))]
        table = parse_interval_strings(texts)
        assert table is not None
        expected = RunTable.from_ids([parse_ids(t) for t in texts])
        ours = table.maximal()
        for column in ("job", "first", "last"):
            assert np.array_equal(getattr(ours, column), getattr(expected, column)), texts
        assert np.array_equal(table.sizes, [len(parse_ids(t)) for t in texts])


@pytest.mark.parametrize("bad", ["1-0", "a", "1 1", "0-3 2", "-1", "1-", "1-2-3", "1--2", "0-1\t3", "1\n2", "é"])
def test_what_the_vectorised_reader_leaves_to_parse_ids(bad):
    assert parse_interval_strings(["0-3", bad]) is None


def test_the_compiled_and_the_python_sweep_agree():
    rng = np.random.default_rng(5)
    for _ in range(100):
        n, m = int(rng.integers(2, 30)), int(rng.integers(2, 200))
        start = rng.integers(0, 20, n)
        end = start + rng.integers(0, 6, n)
        texts = []
        for _ in range(n):
            a = int(rng.integers(0, m))
            texts.append(f"{a}-{min(m - 1, a + int(rng.integers(0, 70)))}")
        table = parse_interval_strings(texts)
        events = np.lexsort((np.repeat([0, 1], n), np.concatenate((end, start))))
        args = (events, n, start, end, table.offsets, table.first, table.last)
        words = np.zeros((m + 63) // 64, dtype=np.uint64)
        assert schedule_kernels.sweep(*args, words) == sweep_bitsets(*args, words)


def test_the_streamed_json_is_json_dumps_text():
    rng = random.Random(0)

    def value(depth=0):
        r = rng.random()
        if depth > 3 or r < 0.4:
            return rng.choice([None, True, False, 0, -5, 10**30, 1.5, -0.0, 1e300, "", 'a"b\\c\n\u00e9', 7])
        if r < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        return {rng.choice(["a", "é", 1, 2.5, True, None]): value(depth + 1) for _ in range(rng.randint(0, 4))}

    for _ in range(2000):
        data = value()
        assert "".join(json_pieces(data)) == json.dumps(data, indent=1, allow_nan=False)
    with pytest.raises(ValueError):
        "".join(json_pieces({"a": [1.0, float("nan")]}))


def test_a_long_list_of_objects_is_json_dumps_text():
    jobs = [{"id": f"{i}}},\x00{{", "start": i, "x": 1.5 * i, "ok": i % 2 == 0, "none": None} for i in range(9000)]
    data = {"jobs": jobs, "mixed": [*jobs[:3], {"nested": [1, {"a": {}}]}, {}], "model": {"a": "b"}}
    assert "".join(json_pieces(data)) == json.dumps(data, indent=1, allow_nan=False)
