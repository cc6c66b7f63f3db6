"""Trace files for the tests: the excerpts that ship with the tests, and whole traces found or skipped.

The tests need nothing outside the repository.  Parsing, filters and simulators run
on the excerpts of ``tests/data/traces`` and the KTH slice of
``coschedopt/batch/data``.  A test that needs a whole Parallel Workloads Archive
log asks :func:`whole_trace` for it: the toolkit's own lookup (the cache, then the
folders of ``COSCHEDOPT_TRACES``) finds it, or the test is skipped with the
``coschedopt traces fetch`` command that gets it.  CI points ``COSCHEDOPT_TRACES``
at a folder holding every log, so there they all run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from coschedopt.core import InputError
from coschedopt.workloads import traces

ROOT = Path(__file__).resolve().parents[1]
#: the trace excerpts shipped with the tests (see the README there)
EXCERPTS = ROOT / "tests" / "data" / "traces"
#: the header and first 3,000 job lines of KTH-SP2, shipped with the toolkit
KTH_EXCERPT = ROOT / "coschedopt" / "batch" / "data" / "KTH-SP2-1996-2.1-cln-first3000.swf.gz"
#: the header and first 3,000 job lines of CEA-Curie
CURIE_EXCERPT = EXCERPTS / "CEA-Curie-2011-2.1-cln-first3000.swf.gz"


def excerpt_files() -> list[Path]:
    """One excerpt per catalogued trace, in catalogue-name order."""
    return sorted([KTH_EXCERPT, *EXCERPTS.glob("*.swf.gz")])


def whole_trace(name: str) -> Path:
    """The whole log ``name`` (catalogue name or archive file name) through the toolkit's lookup; skip without it."""
    info = traces.info(name)
    assert info is not None, f"{name!r} is not in the trace catalogue"
    try:
        return traces.locate(info.file)
    except InputError:
        folders = ", ".join(str(f) for f in traces.searched_folders())
        pytest.skip(f"needs the whole {info.name} trace (not in {folders}); fetch it: {info.fetch_command()}")
