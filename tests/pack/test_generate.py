"""Instance families: the paper's workloads, measured profiles and the Theorem 2 reduction."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from coschedopt.core import InputError
from coschedopt.core.commands import get_generator
from coschedopt.pack.generate import (
    load_profiles,
    random_three_partition_yes,
    read_profile_csv,
    synthetic_workload,
    three_partition_instance,
    workload_i,
    workload_ii,
    workload_iii,
)

PROFILES = Path(__file__).resolve().parents[2] / "coschedopt" / "pack" / "data" / "profiles"


def test_workload_sizes_and_reproducibility():
    w2, w3 = workload_ii(seed=3, max_pack_size=4), workload_iii(seed=3)
    assert (w2.n, w2.processors, w2.k) == (65, 16, 4)
    assert (w3.n, w3.processors, w3.k) == (260, 32, 32)
    np.testing.assert_array_equal(workload_ii(seed=3).times, w2.times)
    assert not np.array_equal(workload_ii(seed=4).times, w2.times)


def test_synthetic_workload_has_sublinear_speedups_and_scales_to_large_p():
    w = synthetic_workload(50, 1500, seed=1, max_pack_size=3)
    speedup = w.times[:, 0] / w.times[:, -1]
    assert (speedup >= 1).all() and (speedup <= 1500).all()
    assert speedup.max() > 2  # some tasks do scale
    assert set(w.meta["serial_fractions"]) <= {0.0, 0.04, 0.08, 0.16, 0.32}


def test_workload_i_uses_measured_profiles():
    w = workload_i(seed=0)
    assert (w.n, w.processors) == (10, 16)
    assert w.task_names[:2] == ("npb-a", "npb-b")
    # npb (NAS CG) scales about 3x from 1 to 16 threads in the measurements
    assert 2 < w.times[0, 0] / w.times[0, -1] < 8


def test_shipped_profiles_are_the_published_files():
    """Each shipped CSV has the SHA-256 its README records for the upstream file (copied unchanged)."""
    recorded = dict(re.findall(r"\| `([\w.]+\.csv)` \| `([0-9a-f]{64})` \|", (PROFILES / "README.md").read_text()))
    shipped = sorted((PROFILES / "lilac-threads").glob("*.csv"))
    assert sorted(recorded) == [f.name for f in shipped]
    for f in shipped:
        assert hashlib.sha256(f.read_bytes()).hexdigest() == recorded[f.name], f.name


def test_profiles_loader_on_real_lilac_data():
    files = sorted(str(f) for f in (PROFILES / "lilac-threads").glob("*.csv"))
    # measured profiles break Eq. (1): a clear refusal without repair ...
    with pytest.raises(InputError, match=r"breaks Eq\. \(1\)"):
        load_profiles(files)
    # ... and a valid instance with it
    inst = load_profiles(files, repair_profiles=True, max_pack_size=3)
    assert (inst.n, inst.processors, inst.k) == (5, 32, 3)
    assert read_profile_csv(PROFILES / "lilac-threads" / "npb.csv")[1][0] == 317.59


def test_profiles_loader_errors_name_file_line_field(tmp_path):
    f = tmp_path / "app.csv"
    f.write_text("procs,time\n1,10\n2,abc\n")
    with pytest.raises(InputError, match=r"app\.csv:3: field 2: time must be a number, got 'abc'"):
        read_profile_csv(f)
    f.write_text("1,10\nx,5\n")
    with pytest.raises(InputError, match=r"app\.csv:2: field 1: processor count must be an integer"):
        read_profile_csv(f)
    f.write_text("1,10\n3,5\n")
    with pytest.raises(InputError, match=r"no time for processor counts \[2\]"):
        load_profiles([f], processors=3)


def test_three_partition_reduction_matches_theorem_2():
    a = random_three_partition_yes(5, 100, seed=2)
    assert len(a) == 15 and sum(a) == 500 and all(25 < x < 50 for x in a)
    inst = three_partition_instance(a, 100)
    assert (inst.n, inst.processors, inst.k) == (15, 100, 3)
    i = 0
    assert inst.times[i, a[i] - 2] == pytest.approx(1 + 1 / a[i]) and inst.times[i, a[i] - 1] == 1.0
    big = three_partition_instance(a, 100, max_pack_size=5)
    assert (big.n, big.processors) == (25, 100 + 2 * 101)
    with pytest.raises(InputError, match="3m integers"):
        three_partition_instance([1, 2], 10)


def test_every_generator_builds_through_make():
    for name, kwargs in {
        "random": {"tasks": 5, "processors": 4, "max_pack_size": 2},
        "workload-i": {"max_pack_size": 4},
        "workload-ii": {"max_pack_size": 8},
        "workload-iii": {"max_pack_size": 8},
        "three-partition": {"triplets": 3, "bound": 40, "values": None, "max_pack_size": 3},
    }.items():
        inst = get_generator("pack", name).make(seed=1, **kwargs)
        assert inst.kind == "pack" and inst.n >= 1
