"""Method C instances from the real traces, Table 3.1's task counts, trace cuts, and bad traces."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.core import InputError, Status
from coschedopt.online.method_c import DAY, method_c_instance, small_cut
from coschedopt.online.traces import PRESETS, find_trace, read_trace_jobs
from tests.tracefiles import whole_trace


@pytest.fixture(autouse=True)
def kth(kth_by_name):
    """``kth-sp2`` names the shipped KTH excerpt (3,000 jobs, five weeks) in every test here but the counts'."""
    return kth_by_name


@pytest.mark.slow
def test_table_3_1_task_counts(monkeypatch):
    """Exact for Curie, LLNL-Thunder, Metacentrum, RICC with the note's filter, and for KTH-SP2 with
    its extra filter (run time within the request); HPC2N and SDSC-Blue are other archive versions."""
    monkeypatch.undo()  # the whole traces, found by the toolkit's lookup, not the excerpt
    files = {name: whole_trace(preset.file) for name, preset in PRESETS.items()}
    monkeypatch.setenv("COSCHEDOPT_TRACES", os.pathsep.join(sorted({str(f.parent) for f in files.values()})))
    counts = {name: len(read_trace_jobs(name).job_id) for name in PRESETS}
    for name in ("curie", "llnl-thunder", "metacentrum", "ricc", "kth-sp2"):
        assert counts[name] == PRESETS[name].tasks, name
    assert len(read_trace_jobs("kth-sp2", strict=False).job_id) == 20523
    assert counts["hpc2n"] == PRESETS["hpc2n"].tasks - 5 == 201993
    assert counts["sdsc-blue"] == PRESETS["sdsc-blue"].tasks - 5 == 195582


def test_method_c_transformation_on_kth():
    inst = method_c_instance("kth-sp2", seed=3)
    jobs = read_trace_jobs("kth-sp2")
    start, days = inst.source["window_start"], inst.source["window_days"]
    assert days == 15
    chosen = (jobs.submit >= start) & (jobs.submit <= start + days * DAY)
    q, e = jobs.processors[chosen], jobs.run_time[chosen]
    assert inst.n == chosen.sum()
    assert np.allclose(inst.time, q / q.mean() * e)
    assert inst.processors == round(100 / q.mean())
    assert inst.time.sum() == pytest.approx((q * e).sum() / q.mean())  # the work per processor is the trace's
    assert inst.release.min() >= 0 and inst.release.max() <= days * DAY
    assert inst.task_names[0] == f"J{int(jobs.job_id[chosen][0])}"
    assert inst.stretch_bound == 10.0


def test_method_c_options():
    a = method_c_instance("kth-sp2", seed=1, inside=True, rounding="ceil")
    assert a.processors == int(np.ceil(a.source["m_over_q"]))
    assert a.release.max() <= 15 * DAY
    b = method_c_instance("kth-sp2", seed=1, processors=7, window_days=2.5)
    assert b.processors == 7 and b.release.max() <= 2.5 * DAY
    assert method_c_instance("kth-sp2", seed=1).to_dict() == method_c_instance("kth-sp2", seed=1).to_dict()


def test_generator_on_the_command_line(tmp_path):
    from coschedopt.cli import main

    out = tmp_path / "kth.json"
    assert main(["generate", "online", "method-c", "--trace", "kth-sp2", "--seed", "2", "-o", str(out)]) == 0
    inst = cs.load_instance(out)
    assert inst.source["trace"] == "kth-sp2" and inst.n > 100
    res = cs.solve(inst, "spt-rd", dedicated=max(1, inst.processors // 4), tau=1)
    cs.validate(inst, res.schedule)


def test_trace_cut_is_small_integer_and_keeps_the_load():
    inst = method_c_instance("kth-sp2", seed=0)
    cut = small_cut(inst, 12, 3, seed=5)
    assert cut.n == 12 and cut.processors == 3
    assert np.all(cut.time == np.round(cut.time)) and np.all(cut.release == np.round(cut.release))
    assert cut.time.max() == 50
    assert cut.offered_load() == pytest.approx(inst.offered_load(), rel=0.25)  # rounding to integer units
    a, b = cs.solve(cut, "milp"), cs.solve(cut, "cpsat", workers=1)
    assert a.status is b.status is Status.OPTIMAL
    assert a.objective == pytest.approx(b.objective, rel=1e-6)
    assert a.objective <= cs.solve(cut, "spt").objective + 1e-9


def write_swf(path: Path, lines: list[str]) -> Path:
    with gzip.open(path, "wt") as fh:
        fh.write("; MaxProcs: 64\n")
        fh.write("\n".join(lines) + "\n")
    return path


def job(i: int, submit: int, run: int, procs: int, status: int = 1) -> str:
    return f"{i} {submit} 0 {run} {procs} -1 -1 {procs} -1 -1 {status} 1 1 -1 1 -1 -1 -1"


def test_a_trace_without_the_fields_method_c_needs_is_refused(tmp_path):
    path = write_swf(tmp_path / "bad.swf.gz", [job(1, 0, 10, -1), job(2, 5, -1, 4), job(3, 9, 20, 8, status=0)])
    with pytest.raises(InputError, match="no job has the fields Method C needs") as err:
        method_c_instance(path, window_days=1, trace_processors=64)
    assert "bad.swf.gz" in str(err.value) and "kept" in str(err.value)


def test_a_small_hand_made_trace(tmp_path):
    path = write_swf(tmp_path / "ok.swf.gz", [job(1, 0, 100, 2), job(2, 10, 50, 6), job(3, 90000, 7, 4)])
    inst = method_c_instance(path, window_days=1, start=0.0)
    assert inst.n == 2 and inst.processors == round(64 / 4)  # MaxProcs from the header, Q = (2 + 6) / 2
    assert inst.time.tolist() == [50.0, 75.0]
    with pytest.raises(InputError, match="no job of .* is submitted in the window") as err:
        method_c_instance(path, window_days=0.1, start=200000.0)
    assert err.value.where == "--start"


@pytest.mark.parametrize(
    ("call", "where", "message"),
    [
        (lambda: method_c_instance("no-such-trace"), "--trace", "no trace 'no-such-trace'"),
        (lambda: method_c_instance("kth-sp2", window_days=-1), "--window-days", "positive number of days"),
        (lambda: method_c_instance("kth-sp2", rounding="up"), "--rounding", "one of round, floor, ceil"),
        (lambda: method_c_instance("kth-sp2", processors=0), "--processors", "must be >= 1"),
    ],
)
def test_bad_generator_arguments(call, where, message):
    with pytest.raises(InputError, match=message) as err:
        call()
    assert err.value.where == where


def test_find_trace_accepts_a_preset_a_file_name_and_a_path(kth):
    assert find_trace("kth-sp2") == kth
    assert find_trace(PRESETS["kth-sp2"].file) == kth
    assert find_trace(kth) == kth
