"""workloads/swf.py: the SWF reader on the first lines of every catalogued trace (the shipped excerpts), on
hand-built traces, on malformed lines and on truncated or corrupt gzip files."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from coschedopt.core import InputError
from coschedopt.workloads import traces
from coschedopt.workloads.swf import (
    SWF_DTYPE,
    SWF_FIELDS,
    SWFOptions,
    iter_swf_chunks,
    parse_swf_line,
    read_swf,
    read_swf_header,
)
from tests.tracefiles import excerpt_files

TRACE_FILES = excerpt_files()
FIRST_LINES = 300


def _excerpt(name: str) -> Path:
    return next(p for p in TRACE_FILES if p.name.startswith(name))


def test_an_excerpt_ships_for_every_catalogued_trace():
    assert len(TRACE_FILES) == len(traces.CATALOGUE) == 12
    for info in traces.CATALOGUE.values():
        assert sum(p.name.startswith(info.file.removesuffix(".swf.gz")) for p in TRACE_FILES) == 1, info.name


def _head(path: Path, n: int) -> list[str]:
    """The first ``n`` job lines of a trace plus its whole header, read without the reader."""
    out: list[str] = []
    with gzip.open(path, "rt") as fh:
        for line in fh:
            out.append(line)
            if sum(1 for x in out if not x.startswith(";")) == n:
                break
    return out


@pytest.mark.parametrize("path", TRACE_FILES, ids=lambda p: p.name.split("-")[0] + "-" + p.name.split("-")[1])
def test_every_trace_first_lines_read_as_a_plain_split(tmp_path, path):
    lines = _head(path, FIRST_LINES)
    plain = tmp_path / "head.swf"
    plain.write_text("".join(lines))
    trace = read_swf(
        plain,
        statuses=None,
        require_positive_run_time=False,
        require_positive_processors=False,
        missing_requested_time="keep",
        oversize="keep",
    )
    rows = [[float(t) for t in x.split()] for x in lines if not x.startswith(";") and x.strip()]
    assert len(trace) == len(rows) == FIRST_LINES
    for k, name in enumerate(SWF_FIELDS):
        assert np.array_equal(trace.jobs[name], np.array([r[k] for r in rows]).astype(SWF_DTYPE[name])), name
    assert trace.counts == {
        "lines": FIRST_LINES,
        "malformed": 0,
        "status": 0,
        "run_time": 0,
        "processors_fallback": 0,
        "processors": 0,
        "run_over_requested": 0,
        "kept": FIRST_LINES,
    }
    gz = tmp_path / "head.swf.gz"
    gz.write_bytes(gzip.compress(plain.read_bytes()))
    same = read_swf(gz, trace.options)
    assert np.array_equal(same.jobs, trace.jobs) and np.array_equal(same.lines, trace.lines)


def test_headers_typed_fields():
    kth = read_swf_header(_excerpt("KTH-SP2"))
    assert (kth.max_procs, kth.max_nodes, kth.max_records) == (100, 100, 28476)
    ctc = read_swf_header(_excerpt("CTC-SP2"))
    assert ctc.max_nodes == 338 and ctc.time_zone_string == "US/Eastern"
    curie = read_swf_header(_excerpt("CEA-Curie"))
    assert curie.max_procs == 93312 and curie.unix_start_time == 1296571124
    assert len(curie.entries["Partition"]) == 33 and curie.get("maxprocs") == "93312"
    ricc = read_swf_header(_excerpt("RICC"))
    assert ricc.max_procs is None and ricc.entries == {}


def _job(job_id, submit=0, run=10, alloc=4, req_procs=4, req_time=20, status=1) -> str:
    fields = [job_id, submit, 0, run, alloc, -1, -1, req_procs, req_time, -1, status, 1, 1, -1, 1, 1, -1, -1]
    return " ".join(str(f) for f in fields)


HEADER = "; Version: 2.2\n; MaxProcs: 8\n; MaxNodes: 8\n;\n"


def _write(tmp_path, *job_lines, header=HEADER, name="t.swf") -> Path:
    p = tmp_path / name
    p.write_text(header + "\n".join(job_lines) + "\n")
    return p


def test_filters_count_each_dropped_job_under_its_first_reason(tmp_path):
    p = _write(
        tmp_path,
        _job(1),
        _job(2, status=0),  # status
        _job(3, run=0, status=5),  # status first, not run_time
        _job(4, run=0),  # run_time
        _job(5, alloc=-1, req_procs=2),  # processors (allocated missing)
        _job(6, req_time=-1),  # requested time := run time
        _job(7, run=30, req_time=20),  # overran its request: kept by default
        _job(8, alloc=9, req_procs=9),  # larger than MaxProcs 8: dropped
    )
    t = read_swf(p)
    assert list(t.jobs["job_id"]) == [1, 6, 7]
    assert list(t.requested_time) == [20, 10, 20] and list(t.jobs["requested_time"]) == [20, -1, 20]
    assert list(t.lines) == [5, 10, 11]
    assert t.counts == {
        "lines": 8,
        "malformed": 0,
        "status": 2,
        "run_time": 1,
        "processors_fallback": 0,
        "processors": 1,
        "requested_time_from_run_time": 1,
        "run_over_requested": 0,
        "oversize": 1,
        "kept": 3,
    }
    assert "8 job lines, 3 kept" in t.summary()
    strict = read_swf(p, require_run_within_requested=True, missing_requested_time="drop")
    assert list(strict.jobs["job_id"]) == [1]
    assert strict.counts["requested_time_missing"] == 1 and strict.counts["run_over_requested"] == 1


def test_processor_field_choice_and_fallback(tmp_path):
    p = _write(tmp_path, _job(1, alloc=4, req_procs=2), _job(2, alloc=-1, req_procs=3), _job(3, alloc=5, req_procs=-1))
    assert list(read_swf(p).size) == [4, 5]
    assert list(read_swf(p, processors="requested").size) == [2, 3]
    t = read_swf(p, processors="requested_else_allocated")
    assert list(t.size) == [2, 3, 5] and t.counts["processors_fallback"] == 1
    t = read_swf(p, processors="allocated_else_requested")
    assert list(t.size) == [4, 3, 5] and t.counts["processors_fallback"] == 1


def test_oversize_policies(tmp_path):
    p = _write(tmp_path, _job(1, alloc=3), _job(2, alloc=6), _job(3, alloc=12))
    assert list(read_swf(p).size) == [3, 6]
    assert list(read_swf(p, platform_processors=4).size) == [3]
    clamped = read_swf(p, platform_processors=4, oversize="clamp")
    assert list(clamped.size) == [3, 4, 4] and clamped.counts["oversize_clamped"] == 2
    assert list(read_swf(p, oversize="keep").size) == [3, 6, 12]
    with pytest.raises(InputError) as e:
        read_swf(p, oversize="error")
    assert e.value.where == f"{p}:7: allocated_processors" and "needs 12 processors" in e.value.message
    no_header = _write(tmp_path, _job(1, alloc=300), header="", name="n.swf")
    assert list(read_swf(no_header).size) == [300]  # no MaxProcs, no platform given: nothing to check against


@pytest.mark.parametrize(
    "bad, where, says",
    [
        ("1 0 0 10 4", ":6", "expected 18 fields, got 5"),
        (_job(2).replace(" 10 ", " ten ", 1), ":6: field 4 (run_time)", "'ten' is not a number"),
        (_job(2, submit="12.5"), ":6: field 2 (submit_time)", "'12.5' is not an integer"),
        (_job(2, req_time="nan"), ":6: field 9 (requested_time)", "not a finite number"),
        (_job(2) + " 7", ":6", "expected 18 fields, got 19"),
    ],
)
def test_a_malformed_line_names_file_line_and_field(tmp_path, bad, where, says):
    p = _write(tmp_path, _job(1), bad, _job(3))
    with pytest.raises(InputError) as e:
        read_swf(p)
    assert e.value.where == f"{p}{where}" and says in e.value.message
    lenient = read_swf(p, lenient=True)
    assert list(lenient.jobs["job_id"]) == [1, 3] and lenient.skipped_lines == (6,)
    assert lenient.counts["malformed"] == 1 and lenient.counts["lines"] == 3


def test_fractional_fields_are_kept(tmp_path):
    line = _job(1).split()
    line[5], line[6] = "142.25", "0.5"
    t = read_swf(_write(tmp_path, " ".join(line)))
    assert t.jobs["average_cpu_time"][0] == 142.25 and t.jobs["used_memory"][0] == 0.5


def test_chunks_locate_errors_past_the_first_chunk(tmp_path):
    lines = [_job(i) for i in range(1, 26)]
    lines[17] = lines[17].replace(" 20 ", " x ", 1)
    p = _write(tmp_path, *lines, header="")
    with pytest.raises(InputError) as e:
        list(iter_swf_chunks(p, chunk_lines=4))
    assert e.value.where == f"{p}:18: field 9 (requested_time)"
    skipped: list[int] = []
    chunks = list(iter_swf_chunks(p, chunk_lines=4, lenient=True, skipped=skipped))
    assert [len(c.jobs) for c in chunks] == [4, 4, 4, 4, 3, 4, 1] and skipped == [18]
    assert np.concatenate([c.lines for c in chunks]).tolist() == [i for i in range(1, 26) if i != 18]


def test_parse_swf_line_alone():
    assert parse_swf_line(_job(7))[:4] == [7.0, 0.0, 0.0, 10.0]
    with pytest.raises(InputError, match=r"field 5 \(allocated_processors\)"):
        parse_swf_line(_job(7, alloc="4.5"))


def test_bad_options_and_files(tmp_path):
    with pytest.raises(InputError, match="processors"):
        SWFOptions(processors="used")
    with pytest.raises(InputError, match="oversize"):
        read_swf(_write(tmp_path, _job(1)), oversize="shrink")
    with pytest.raises(InputError, match="platform_processors"):
        SWFOptions(platform_processors=0)
    with pytest.raises(InputError, match="no such file"):
        read_swf(tmp_path / "missing.swf")
    empty = read_swf(_write(tmp_path, header=HEADER, name="e.swf"))
    assert len(empty) == 0 and empty.counts["kept"] == 0 and empty.jobs.dtype == SWF_DTYPE


def test_a_truncated_gzip_trace_is_one_error_naming_the_file(tmp_path):
    whole = _excerpt("KTH-SP2").read_bytes()
    cut = tmp_path / "cut.swf.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match="truncated gzip file") as e:
        read_swf(cut)
    assert e.value.where == str(cut)


def test_a_corrupt_gzip_trace_is_one_error_naming_the_file(tmp_path):
    whole = bytearray(_excerpt("KTH-SP2").read_bytes())
    whole[len(whole) // 2] ^= 0xFF  # one flipped byte inside the deflate stream
    bad = tmp_path / "bad.swf.gz"
    bad.write_bytes(bytes(whole))
    with pytest.raises(InputError, match="corrupt gzip file|truncated gzip file|not a number|fields") as e:
        read_swf(bad)
    assert str(bad) in str(e.value)
