"""Trace cuts: the thesis's job counts (Table 5.2) with the note's filter, windows, samples, and the SWF reader hook."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from coschedopt import load_instance, solve
from coschedopt.batch.generate import offline_sample, random_workload, week_instance
from coschedopt.batch.traces import WEEK, read_trace, trace_instance
from coschedopt.core import InputError
from coschedopt.workloads import read_swf
from tests.tracefiles import KTH_EXCERPT, whole_trace

KTH = KTH_EXCERPT.name


@pytest.mark.slow
@pytest.mark.parametrize(
    "trace, jobs, options",
    [
        ("CEA-Curie-2011-2.1-cln.swf.gz", 279991, {}),
        ("LLNL-Thunder-2007-1.1-cln.swf.gz", 97875, {}),
        ("RICC-2010-2.swf.gz", 431547, {}),
        ("KTH-SP2-1996-2.1-cln.swf.gz", 20483, {"require_run_within_requested": True}),
    ],
)
def test_table_5_2_job_counts(trace, jobs, options):
    """status == 1, run > 0, allocated > 0 (and for KTH run <= requested), before any platform cut."""
    assert read_swf(whole_trace(trace), oversize="keep", **options).counts["kept"] == jobs


def test_a_week_of_kth_on_the_thesis_platform():
    inst = week_instance(str(KTH_EXCERPT), seed=3)
    assert inst.platform.levels == (1, 2, 10, 100)
    assert inst.submit.min() >= 0 and inst.submit.max() < WEEK
    again = week_instance(str(KTH_EXCERPT), seed=3)
    assert again.ids == inst.ids and inst.source["trace"] == KTH
    aligned = week_instance(str(KTH_EXCERPT), align=True, seed=0)
    assert aligned.submit.min() == 0  # the first aligned week starts at the first submission


def test_offline_sample_of_chapter_4():
    inst = offline_sample(str(KTH_EXCERPT), jobs=50, processors=64, cluster_size=16, seed=1)
    assert inst.n == 50 and (inst.submit == 0).all() and (inst.requested_time == inst.run_time).all()
    assert inst.platform.levels == (1, 4, 64) and inst.size.max() <= 64


def test_an_empty_window_is_refused():
    trace = read_trace(KTH_EXCERPT)
    with pytest.raises(InputError, match="no job") as e:
        trace_instance(trace, start=10**10, end=10**10 + WEEK)
    assert e.value.where == "window"


def test_jobs_larger_than_the_thesis_platform_are_dropped_and_counted():
    trace = read_trace(whole_trace("LLNL-Thunder"))
    assert trace.counts["oversize"] == 101 and int(trace.size.max()) <= 1024


def test_an_swf_file_is_an_instance(tmp_path):
    with gzip.open(KTH_EXCERPT, "rt") as fh:
        head = [next(fh) for _ in range(400)]
    p = tmp_path / "kth-head.swf"
    p.write_text("".join(head))
    inst = load_instance(p)
    assert inst.kind == "batch" and inst.platform.levels == (1, 100)  # no thesis name: one cluster of MaxProcs
    res = solve(inst, "easy")
    assert res.schedule is not None
    bad = tmp_path / "bad.swf"
    bad.write_text("".join(head[:40]) + "1 2 3\n")
    with pytest.raises(InputError) as e:
        load_instance(bad)
    assert str(e.value) == f"{bad}:41: expected 18 fields, got 3: '1 2 3'"  # the file named once


def test_random_workload_is_seeded():
    a, b = random_workload(10, 8, seed=4), random_workload(10, 8, seed=4)
    assert np.array_equal(a.submit, b.submit) and np.array_equal(a.size, b.size)


def test_the_trace_generator_gives_the_whole_trace_or_its_first_jobs():
    """``generate batch trace``: the whole filtered trace (the instance the family reads from the file), or its
    first jobs in FCFS order (suite batch-traces)."""
    from coschedopt.batch.generate import whole_trace as trace_generator
    from coschedopt.core.commands import get_generator

    whole = trace_generator(str(KTH_EXCERPT))
    assert whole.n == trace_instance(read_trace(KTH_EXCERPT)).n
    first = get_generator("batch", "trace").make(trace=str(KTH_EXCERPT), jobs=100, seed=0)
    assert first.n == 100 and first.platform == whole.platform
    with pytest.raises(InputError, match="--jobs"):
        trace_generator(str(KTH_EXCERPT), jobs=0)
