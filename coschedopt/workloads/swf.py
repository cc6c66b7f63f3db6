"""Standard Workload Format (SWF) traces of the Parallel Workloads Archive.

The archive (Feitelson et al., https://www.cs.huji.ac.il/labs/parallel/workload/)
stores each job log as text: ``;`` comment lines holding the header
(``; MaxProcs: 100``), then one job per line with 18 whitespace-separated
fields, ``-1`` meaning "missing" (:data:`SWF_FIELDS`, in file order).
Every family that replays real logs (batch, online redirection) reads them here.

Design:

- **A numpy structured array, not one object per job.** Traces hold up to
  450,000 jobs; a structured array of the 18 raw fields (:data:`SWF_DTYPE`,
  int64 except the three fields the archive allows to be fractional) costs
  144 bytes a job, gives whole columns at once (``trace.jobs["submit_time"]``)
  to the vectorised filters and to the simulators, and is filled by numpy's C
  reader (:func:`numpy.loadtxt`), about three times faster than splitting and
  converting each line in Python.
- **Streaming.** The file (plain, or gzip detected by its magic bytes, not by
  its name) is read line by line in chunks of :data:`CHUNK_LINES` lines
  (:func:`iter_swf_chunks`); only the kept jobs stay in memory.
- **Errors located.** A chunk numpy cannot parse, or whose values are not
  finite or not integral where SWF wants integers, is re-read line by line so
  that the error names the file, the line and the field
  (``KTH.swf:12: field 4 (run_time)``).  With ``lenient=True`` such lines are
  skipped and counted instead.
- **Filters and substitutions are options with counted effects**
  (:class:`SWFOptions`): every job dropped or changed is counted under one
  reason in :attr:`SWFTrace.counts`, so a reproduction can state exactly what
  it did to the log (the thesis of chapter 5 keeps ``status == 1``,
  ``run_time > 0``, ``allocated_processors > 0``, the default here).

>>> trace = read_swf("KTH-SP2-1996-2.1-cln.swf.gz")          # doctest: +SKIP
>>> trace.header.max_procs, trace.counts["lines"], len(trace)   # doctest: +SKIP
(100, 28476, 20523)
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import io
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from ..core.errors import InputError

#: the 18 fields of an SWF job line, in file order (SWF v2.2)
SWF_FIELDS: tuple[str, ...] = (
    "job_id",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable",
    "queue",
    "partition",
    "preceding_job",
    "think_time",
)
#: the fields SWF allows to be fractional (CPU seconds, kilobytes); the others must be integers
FRACTIONAL_FIELDS = frozenset({"average_cpu_time", "used_memory", "requested_memory"})
#: the record type of one job: the 18 raw fields, as read
SWF_DTYPE = np.dtype([(name, np.float64 if name in FRACTIONAL_FIELDS else np.int64) for name in SWF_FIELDS])
#: lines parsed at once by the streaming reader
CHUNK_LINES = 65536

_INTEGER_COLUMNS = [i for i, name in enumerate(SWF_FIELDS) if name not in FRACTIONAL_FIELDS]
_HEADER_ENTRY = re.compile(r"^;\s*([A-Za-z][A-Za-z0-9 _/-]*?)\s*:\s*(.*?)\s*$")
_LEADING_INT = re.compile(r"^\s*(-?\d+)")

PROCESSOR_FIELDS = ("allocated", "requested", "requested_else_allocated", "allocated_else_requested")
MISSING_TIME_POLICIES = ("run_time", "drop", "keep")
OVERSIZE_POLICIES = ("drop", "clamp", "error", "keep")


@dataclass(frozen=True)
class SWFOptions:
    """How a trace becomes a workload: the archive's filters and what to do with gaps.

    Each job dropped or changed is counted in :attr:`SWFTrace.counts` under the
    key in brackets; the filters run in this order and a dropped job is counted
    once, under the first filter that drops it.

    - ``statuses``: keep jobs whose status field (0 failed, 1 completed,
      5 cancelled, -1 unknown) is one of these; ``None`` keeps every status
      [``status``].  Default ``(1,)``: the archive's recommended filter.
    - ``require_positive_run_time``: drop jobs with ``run_time <= 0`` [``run_time``].
    - ``processors``: the job's size: ``"allocated"`` (field 5, default: what
      the job really used), ``"requested"`` (field 8), or one of them falling
      back to the other where it is missing (``-1``) [``processors_fallback``].
    - ``require_positive_processors``: drop jobs whose size is ``<= 0``
      (missing) [``processors``].
    - ``missing_requested_time``: a requested time ``<= 0`` (missing) becomes
      the job's run time (``"run_time"``, default: a perfect estimate)
      [``requested_time_from_run_time``], drops the job (``"drop"``)
      [``requested_time_missing``], or stays as read (``"keep"``).
    - ``require_run_within_requested``: drop jobs that ran longer than they
      requested [``run_over_requested``]; off by default (the archive's logs
      keep them; KTH's count of the thesis needs it).
    - ``platform_processors``: the platform's size; ``None`` takes the
      header's ``MaxProcs`` (no check when the header has none).
    - ``oversize``: a job larger than the platform is dropped (``"drop"``,
      default) [``oversize``], clamped to the platform (``"clamp"``)
      [``oversize_clamped``], refused with an :class:`InputError` naming its
      line (``"error"``), or kept (``"keep"``).
    - ``lenient``: skip malformed lines and count them [``malformed``]
      instead of raising; their line numbers are in :attr:`SWFTrace.skipped_lines`.
    """

    statuses: tuple[int, ...] | None = (1,)
    require_positive_run_time: bool = True
    processors: str = "allocated"
    require_positive_processors: bool = True
    missing_requested_time: str = "run_time"
    require_run_within_requested: bool = False
    platform_processors: int | None = None
    oversize: str = "drop"
    lenient: bool = False

    def __post_init__(self) -> None:
        for name, allowed in (
            ("processors", PROCESSOR_FIELDS),
            ("missing_requested_time", MISSING_TIME_POLICIES),
            ("oversize", OVERSIZE_POLICIES),
        ):
            if getattr(self, name) not in allowed:
                raise InputError(f"{getattr(self, name)!r} is not one of {', '.join(allowed)}", where=name)
        if self.statuses is not None:
            object.__setattr__(self, "statuses", tuple(int(s) for s in self.statuses))
        p = self.platform_processors
        if p is not None and (not isinstance(p, int | np.integer) or isinstance(p, bool) or p < 1):
            raise InputError(f"must be a positive integer, got {p!r}", where="platform_processors")


@dataclass(frozen=True)
class SWFHeader:
    """The ``;`` header of a trace: every ``Key: value`` entry, and the usual ones typed.

    ``entries`` maps each key to its values in file order (``Queue`` and
    ``Partition`` repeat).  The typed fields take the first integer of their
    entry (``MaxNodes: 338 (batch partition; 512 total)`` gives 338) and are
    ``None`` where the header lacks them (RICC and METACENTRUM have none).
    """

    entries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    comments: tuple[str, ...] = ()

    def get(self, key: str) -> str | None:
        """The first value of ``key`` (case-insensitive), or ``None``."""
        for k, values in self.entries.items():
            if k.lower() == key.lower():
                return values[0]
        return None

    def integer(self, key: str) -> int | None:
        value = self.get(key)
        m = None if value is None else _LEADING_INT.match(value)
        return None if m is None else int(m.group(1))

    @property
    def max_procs(self) -> int | None:
        return self.integer("MaxProcs")

    @property
    def max_nodes(self) -> int | None:
        return self.integer("MaxNodes")

    @property
    def max_jobs(self) -> int | None:
        return self.integer("MaxJobs")

    @property
    def max_records(self) -> int | None:
        return self.integer("MaxRecords")

    @property
    def unix_start_time(self) -> int | None:
        return self.integer("UnixStartTime")

    @property
    def time_zone_string(self) -> str | None:
        return self.get("TimeZoneString")


@dataclass(frozen=True)
class SWFChunk:
    """Consecutive parsed job lines: their 1-based line numbers and raw records."""

    lines: np.ndarray
    jobs: np.ndarray


@dataclass(frozen=True)
class SWFTrace:
    """A read trace: the kept jobs (raw fields), their size and requested time after the options.

    ``jobs`` keeps the 18 fields exactly as read, in file order; ``size`` and
    ``requested_time`` are what the options made of them (fallbacks,
    substitutions, clamping); ``lines`` gives each job's line in the file.
    """

    path: str
    header: SWFHeader
    options: SWFOptions
    jobs: np.ndarray
    size: np.ndarray
    requested_time: np.ndarray
    lines: np.ndarray
    counts: dict[str, int]
    skipped_lines: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.jobs)

    @property
    def platform_processors(self) -> int | None:
        """The platform size the jobs were checked against (option, else header), or ``None``."""
        return self.options.platform_processors or self.header.max_procs

    def summary(self) -> str:
        """One line: lines read, what each filter dropped or changed, jobs kept."""
        c = self.counts
        changes = ", ".join(f"{k} {v}" for k, v in c.items() if k not in ("lines", "kept") and v)
        return f"{Path(self.path).name}: {c['lines']} job lines, {c['kept']} kept" + (
            f" ({changes})" if changes else ""
        )


def open_text(path: str | os.PathLike) -> TextIO:
    """Open a plain or gzipped text file (gzip recognised by its magic bytes)."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            magic = fh.read(2)
        if magic == b"\x1f\x8b":
            return io.TextIOWrapper(gzip.open(p, "rb"), encoding="utf-8", errors="replace")
        return p.open("r", encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError("no such file", where=str(p)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc}", where=str(p)) from None


@contextlib.contextmanager
def _readable(path: str | os.PathLike) -> Iterator[None]:
    """Turn what a truncated or corrupt gzip stream raises mid-read into one :class:`InputError` on the file.

    gzip only finds out while reading: a cut download raises ``EOFError``, a
    damaged one ``zlib.error`` (CRC or data) or ``gzip.BadGzipFile``.
    """
    try:
        yield
    except EOFError:
        raise InputError(
            "truncated gzip file: the stream ends before its end marker (fetch it again)", where=str(path)
        ) from None
    except (zlib.error, gzip.BadGzipFile) as exc:
        raise InputError(f"corrupt gzip file ({exc}); fetch it again", where=str(path)) from None


def read_swf_header(path: str | os.PathLike) -> SWFHeader:
    """The header of a trace: its leading ``;`` lines (reading stops at the first job line)."""
    comments: list[str] = []
    with open_text(path) as fh, _readable(path):
        for line in fh:
            stripped = line.strip()
            if stripped and not stripped.startswith(";"):
                break
            if stripped:
                comments.append(stripped)
    return _parse_header(comments)


def _parse_header(comments: list[str]) -> SWFHeader:
    entries: dict[str, list[str]] = {}
    for line in comments:
        m = _HEADER_ENTRY.match(line)
        if m:
            entries.setdefault(m.group(1), []).append(m.group(2))
    return SWFHeader({k: tuple(v) for k, v in entries.items()}, tuple(comments))


def iter_swf_chunks(
    path: str | os.PathLike, *, lenient: bool = False, chunk_lines: int = CHUNK_LINES, skipped: list[int] | None = None
) -> Iterator[SWFChunk]:
    """Stream the job lines of a trace as parsed chunks (comments and blank lines skipped).

    A malformed line raises one :class:`InputError` naming file, line and
    field; with ``lenient`` it is left out and its line number appended to
    ``skipped`` (when given).
    """
    where = str(path)
    with open_text(path) as fh, _readable(path):
        texts: list[str] = []
        numbers: list[int] = []
        for number, line in enumerate(fh, start=1):
            stripped = line.strip()
            if not stripped or stripped.startswith(";"):
                continue
            texts.append(stripped)
            numbers.append(number)
            if len(texts) >= chunk_lines:
                yield _parse_chunk(texts, numbers, where, lenient, skipped)
                texts, numbers = [], []
        if texts:
            yield _parse_chunk(texts, numbers, where, lenient, skipped)


def _parse_chunk(
    texts: list[str], numbers: list[int], where: str, lenient: bool, skipped: list[int] | None
) -> SWFChunk:
    """numpy's C reader for the whole chunk; line by line only when it fails (to locate the error)."""
    try:
        values = np.loadtxt(texts, dtype=np.float64, ndmin=2, comments=None)
    except ValueError:
        values = None
    if values is None or values.shape[1] != len(SWF_FIELDS) or not _clean(values):
        return _parse_lines(texts, numbers, where, lenient, skipped)
    return SWFChunk(np.asarray(numbers, dtype=np.int64), _to_records(values))


#: the largest magnitude of a value: job lines are read as floats and stored in int64 columns,
#: exact up to 2^53; beyond, the conversion would silently wrap (a run time of 1e21 became negative)
MAX_VALUE = 2.0**53


def _clean(values: np.ndarray) -> bool:
    """Every value finite, within +-MAX_VALUE, and every integer field integral."""
    if not np.isfinite(values).all() or np.abs(values).max(initial=0.0) > MAX_VALUE:
        return False
    ints = values[:, _INTEGER_COLUMNS]
    return bool((ints == np.round(ints)).all())


def _to_records(values: np.ndarray) -> np.ndarray:
    records = np.empty(len(values), dtype=SWF_DTYPE)
    for i, name in enumerate(SWF_FIELDS):
        records[name] = values[:, i]
    return records


def _parse_lines(
    texts: list[str], numbers: list[int], where: str, lenient: bool, skipped: list[int] | None
) -> SWFChunk:
    rows: list[list[float]] = []
    kept: list[int] = []
    for text, number in zip(texts, numbers, strict=True):
        try:
            rows.append(parse_swf_line(text, where=f"{where}:{number}"))
            kept.append(number)
        except InputError:
            if not lenient:
                raise
            if skipped is not None:
                skipped.append(number)
    values = np.asarray(rows, dtype=np.float64).reshape(len(rows), len(SWF_FIELDS))
    return SWFChunk(np.asarray(kept, dtype=np.int64), _to_records(values))


def parse_swf_line(text: str, *, where: str = "") -> list[float]:
    """The 18 values of one job line; a bad one raises :class:`InputError` at ``where: field k (name)``."""
    tokens = text.split()
    if len(tokens) != len(SWF_FIELDS):
        raise InputError(f"expected {len(SWF_FIELDS)} fields, got {len(tokens)}: {text[:80]!r}", where=where or None)
    values: list[float] = []
    for k, (token, name) in enumerate(zip(tokens, SWF_FIELDS, strict=True), start=1):
        at = f"{where}: field {k} ({name})" if where else f"field {k} ({name})"
        try:
            value = float(token)
        except ValueError:
            raise InputError(f"{token!r} is not a number", where=at) from None
        if not np.isfinite(value):
            raise InputError(f"{token!r} is not a finite number", where=at)
        if abs(value) > MAX_VALUE:
            raise InputError(f"{token!r} is beyond +-2^53 (the int64 columns take it exactly up to there)", where=at)
        if name not in FRACTIONAL_FIELDS and value != round(value):
            raise InputError(f"{token!r} is not an integer", where=at)
        values.append(value)
    return values


def read_swf(path: str | os.PathLike, options: SWFOptions | None = None, **overrides: Any) -> SWFTrace:
    """Read a trace and apply the filters and substitutions of ``options`` (see :class:`SWFOptions`).

    ``overrides`` replace single options: ``read_swf(p, processors="requested")``.
    Streaming: each chunk is filtered as it is read, so memory holds one chunk and the kept jobs.
    """
    options = dataclasses.replace(options or SWFOptions(), **overrides)
    header = read_swf_header(path)
    skipped: list[int] = []
    counts: dict[str, int] = {"lines": 0, "malformed": 0}
    kept: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    empty = SWFChunk(np.empty(0, dtype=np.int64), np.empty(0, dtype=SWF_DTYPE))
    for chunk in [empty, *iter_swf_chunks(path, lenient=options.lenient, skipped=skipped)]:
        counts["lines"] += len(chunk.jobs)
        keep, size, requested = _apply_options(chunk.jobs, chunk.lines, header, options, counts, str(path))
        kept.append((chunk.jobs[keep], size[keep], requested[keep], chunk.lines[keep]))
    counts["lines"] += len(skipped)
    counts["malformed"] = len(skipped)
    counts["kept"] = sum(len(k[0]) for k in kept)
    jobs, size, requested, lines = (np.concatenate(column) for column in zip(*kept, strict=True))
    return SWFTrace(
        path=str(path),
        header=header,
        options=options,
        jobs=jobs,
        size=size,
        requested_time=requested,
        lines=lines,
        counts=counts,
        skipped_lines=tuple(skipped),
    )


def _apply_options(
    jobs: np.ndarray, lines: np.ndarray, header: SWFHeader, options: SWFOptions, counts: dict[str, int], where: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kept-job mask, sizes and requested times; ``counts`` gets one entry per filter/substitution."""
    keep = np.ones(len(jobs), dtype=bool)
    nothing = np.zeros(len(jobs), dtype=bool)

    def tally(reason: str, mask: np.ndarray) -> None:
        counts[reason] = counts.get(reason, 0) + int((keep & mask).sum())

    def drop(reason: str, mask: np.ndarray) -> None:
        tally(reason, mask)
        keep[mask] = False

    drop("status", nothing if options.statuses is None else ~np.isin(jobs["status"], options.statuses))
    drop("run_time", jobs["run_time"] <= 0 if options.require_positive_run_time else nothing)
    size, fallback = _sizes(jobs, options.processors)
    tally("processors_fallback", fallback)
    drop("processors", size <= 0 if options.require_positive_processors else nothing)

    requested = jobs["requested_time"].copy()
    missing = requested <= 0
    if options.missing_requested_time == "drop":
        drop("requested_time_missing", missing)
    elif options.missing_requested_time == "run_time":
        tally("requested_time_from_run_time", missing)
        requested[missing] = jobs["run_time"][missing]
    over = (requested > 0) & (jobs["run_time"] > requested)
    drop("run_over_requested", over if options.require_run_within_requested else nothing)

    limit = options.platform_processors or header.max_procs
    oversize = keep & (size > limit) if limit is not None else nothing
    if options.oversize == "error" and oversize.any():
        i = int(np.flatnonzero(oversize)[0])
        field_name = "allocated_processors" if options.processors.startswith("allocated") else "requested_processors"
        raise InputError(
            f"job {jobs['job_id'][i]} needs {size[i]} processors, the platform has {limit}",
            where=f"{where}:{lines[i]}: {field_name}",
        )
    if options.oversize == "drop":
        drop("oversize", oversize)
    elif options.oversize == "clamp":
        tally("oversize_clamped", oversize)
        size[oversize] = limit
    return keep, size, requested


def _sizes(jobs: np.ndarray, processors: str) -> tuple[np.ndarray, np.ndarray]:
    """The size column the option names, and where it fell back to the other field."""
    allocated, requested = jobs["allocated_processors"], jobs["requested_processors"]
    if processors == "allocated":
        return allocated.copy(), np.zeros(len(jobs), bool)
    if processors == "requested":
        return requested.copy(), np.zeros(len(jobs), bool)
    first, second = (requested, allocated) if processors == "requested_else_allocated" else (allocated, requested)
    fallback = (first <= 0) & (second > 0)
    return np.where(fallback, second, first), fallback
