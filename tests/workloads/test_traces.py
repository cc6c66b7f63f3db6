"""workloads/traces.py: the catalogue, the verified cache (fetch from a folder or file:// mirror), the lookup,
the `coschedopt traces` command, and the rule that no test reads data from outside the repository."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import re
import shutil
from pathlib import Path

import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.core import InputError
from coschedopt.workloads import traces
from tests.tracefiles import KTH_EXCERPT, whole_trace

KTH = traces.CATALOGUE["KTH-SP2"]
TESTS = Path(__file__).resolve().parents[1]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache (``COSCHEDOPT_TRACES``) and no mirror from the environment."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(traces.TRACES_ENV, str(folder))
    monkeypatch.delenv(traces.MIRROR_ENV, raising=False)
    return folder


@pytest.fixture
def mirror(tmp_path, monkeypatch) -> Path:
    """A mirror folder holding the KTH excerpt under the archive's name; the catalogue records the excerpt's
    digest, so that the download path (pooch, digest check, move into the cache) runs without the network."""
    folder = tmp_path / "mirror"
    folder.mkdir()
    shutil.copyfile(KTH_EXCERPT, folder / KTH.file)
    entry = dataclasses.replace(KTH, sha256=sha256(KTH_EXCERPT), bytes=KTH_EXCERPT.stat().st_size)
    monkeypatch.setitem(traces.CATALOGUE, "KTH-SP2", entry)
    return folder


def test_the_catalogue_lists_the_thesis_traces_and_six_more():
    names = [t.name for t in traces.list()]
    assert names[:6] == ["KTH-SP2", "HPC2N", "LLNL-Thunder", "CEA-Curie", "SDSC-BLUE", "RICC"]
    assert set(names) >= {"METACENTRUM", "CTC-SP2", "SDSC-SP2", "SDSC-Par", "LLNL-Atlas", "LANL-CM5"}
    for t in traces.list():
        assert re.fullmatch(r"[0-9a-f]{64}", t.sha256) and t.file.endswith(".swf.gz") and t.jobs > 0
        assert t.url.startswith(traces.ARCHIVE_URL) and t.url.endswith("/" + t.file)
        assert traces.info(t.file) is traces.info(t.name.lower()) is t


@pytest.mark.parametrize("name", list(traces.CATALOGUE))
def test_a_whole_trace_has_the_digest_size_and_job_lines_the_catalogue_records(name):
    path = whole_trace(name)
    t = traces.CATALOGUE[name]
    assert path.stat().st_size == t.bytes and sha256(path) == t.sha256
    with gzip.open(path, "rt") as fh:
        assert sum(1 for line in fh if line.strip() and not line.startswith(";")) == t.jobs


@pytest.mark.parametrize("as_url", [False, True], ids=["folder", "file-url"])
def test_fetch_from_a_mirror_into_an_empty_cache(cache, mirror, as_url):
    source = mirror.as_uri() if as_url else str(mirror)
    assert KTH.name not in [t.name for t in traces.list() if t.cached]
    path = traces.fetch("KTH-SP2", mirror=source)
    assert path == cache / KTH.file and sha256(path) == sha256(KTH_EXCERPT)
    assert [t.name for t in traces.list() if t.cached] == ["KTH-SP2"]
    assert traces.locate(KTH.file) == path
    mtime = path.stat().st_mtime_ns
    assert traces.fetch("kth", mirror=source) == path and path.stat().st_mtime_ns == mtime  # not fetched again


def test_the_mirror_can_come_from_the_environment(cache, mirror, monkeypatch):
    monkeypatch.setenv(traces.MIRROR_ENV, mirror.as_uri())
    assert traces.fetch("KTH-SP2") == cache / KTH.file


@pytest.mark.parametrize("damage", ["altered", "truncated"])
def test_a_damaged_copy_is_refused_naming_both_digests_and_nothing_is_cached(cache, mirror, damage):
    data = bytearray((mirror / KTH.file).read_bytes())
    if damage == "altered":
        data[1000] ^= 0x01
    else:
        del data[len(data) // 2 :]
    (mirror / KTH.file).write_bytes(bytes(data))
    with pytest.raises(InputError) as e:
        traces.fetch("KTH-SP2", mirror=str(mirror))
    message = str(e.value)
    assert "\n" not in message and KTH.file in message
    assert hashlib.sha256(bytes(data)).hexdigest() in message and traces.CATALOGUE["KTH-SP2"].sha256 in message
    assert not cache.exists() or list(cache.iterdir()) == []


def test_an_interrupted_download_leaves_no_partial_file(cache, mirror):
    def half_then_ctrl_c(url, output_file, pooch):
        Path(output_file).write_bytes(KTH_EXCERPT.read_bytes()[:1000])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        traces.fetch("KTH-SP2", mirror=str(mirror), downloader=half_then_ctrl_c)
    assert list(cache.iterdir()) == []


def test_a_missing_mirror_file_and_an_unknown_name_are_one_line(cache, tmp_path):
    with pytest.raises(InputError, match="cannot read the mirror's copy"):
        traces.fetch("HPC2N", mirror=str(tmp_path / "nowhere"))
    with pytest.raises(InputError, match="unknown trace 'nope'; known: KTH-SP2, HPC2N"):
        traces.fetch("nope")


def test_the_cache_defaults_to_the_users_cache_folder(monkeypatch):
    import platformdirs

    monkeypatch.delenv(traces.TRACES_ENV, raising=False)
    assert traces.cache_dir() == platformdirs.user_cache_path("coschedopt") / "traces"


def test_lookup_searches_the_cache_then_every_folder_and_their_sub_folders(tmp_path, monkeypatch):
    cache, other = tmp_path / "cache", tmp_path / "other"
    (other / "pwa" / "kth").mkdir(parents=True)
    cache.mkdir()
    monkeypatch.setenv(traces.TRACES_ENV, f"{cache}{traces.os.pathsep}{other}")
    deep = other / "pwa" / "kth" / KTH.file
    shutil.copyfile(KTH_EXCERPT, deep)
    assert traces.locate("KTH-SP2") == deep and traces.locate(KTH.file) == deep
    shutil.copyfile(KTH_EXCERPT, cache / KTH.file)
    assert traces.locate(KTH.file) == cache / KTH.file  # the cache first
    with pytest.raises(InputError) as e:
        traces.locate("SDSC-SP2-1998-4.2-cln.swf.gz", where="--trace")
    message = str(e.value)
    assert e.value.where == "--trace" and str(cache) in message and str(other) in message
    assert "coschedopt traces fetch SDSC-SP2" in message
    with pytest.raises(InputError, match="known traces"):
        traces.locate("my-own-log.swf")


def test_the_command_fetches_lists_and_solve_finds_the_trace(cache, mirror, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the trace is not in the working folder: solve must find it in the cache
    assert main(["traces", "list"]) == 0
    listing = capsys.readouterr().out
    assert all(t.name in listing for t in traces.list()) and str(cache) in listing
    assert main(["traces", "fetch", "KTH-SP2", "--mirror", mirror.as_uri()]) == 0
    assert f"fetched: {cache / KTH.file}" in capsys.readouterr().out
    assert main(["traces", "list"]) == 0
    assert re.search(r"KTH-SP2 .* " + re.escape(str(cache / KTH.file)), capsys.readouterr().out)
    out = tmp_path / "sol.json"
    assert main(["solve", KTH.file, "-m", "easy", "-o", str(out)]) == 0
    inst = cs.load_instance(KTH.file)
    cs.validate(inst, cs.load_schedule(inst, out))
    assert main(["traces", "fetch"]) == 2
    assert "name the traces to fetch, or give --all" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["solve", "validate", "generate"])
def test_a_truncated_trace_given_to_a_command_is_one_line(tmp_path, capsys, command):
    data = KTH_EXCERPT.read_bytes()
    cut = tmp_path / "cut-KTH.swf.gz"
    cut.write_bytes(data[: len(data) // 3])
    argv = {
        "solve": ["solve", str(cut), "-m", "easy"],
        "validate": ["validate", str(cut), str(tmp_path / "sol.json")],
        "generate": ["generate", "batch", "weeks", "--trace", str(cut), "-o", str(tmp_path / "w.json")],
    }[command]
    (tmp_path / "sol.json").write_text("{}")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(cut) in err and "truncated gzip file" in err


def test_no_test_reads_data_from_beside_the_repository():
    """A user's clone has nothing beside it: no test names the development folder that holds the papers and traces."""
    folder = "sha" + "red"
    pattern = re.compile(rf"{folder}/|[\"']{folder}[\"']")
    offenders = [
        f"{p.relative_to(TESTS)}:{n}"
        for p in sorted(TESTS.rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert offenders == []


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_a_fetched_trace_gets_the_mode_the_umask_gives_a_new_file(cache, mirror, umask):
    before = traces.os.umask(umask)
    try:
        path = traces.fetch("KTH-SP2", mirror=str(mirror))
    finally:
        traces.os.umask(before)
    assert (path.stat().st_mode & 0o777) == 0o666 & ~umask


def test_solve_and_compare_take_a_known_traces_name(kth_by_name, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no file of that name here: the name is looked up as --trace looks it up
    assert main(["solve", "KTH-SP2", "-m", "easy", "-o", "sol.json"]) == 0
    assert main(["solve", "kth", "-m", "fcfs", "--json"]) == 0  # an alias too
    assert main(["validate", "KTH-SP2", "sol.json"]) == 0
    capsys.readouterr()
    kth_by_name.unlink()
    assert main(["solve", "KTH-SP2", "-m", "easy"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no trace 'KTH-SP2'" in err and "coschedopt traces fetch KTH-SP2" in err


def test_the_shipped_excerpt_is_found_by_its_file_name(cache, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert traces.locate(KTH_EXCERPT.name) == KTH_EXCERPT.resolve()
    assert [p.name for p in traces.shipped()] == [KTH_EXCERPT.name]
    assert main(["solve", KTH_EXCERPT.name, "-m", "easy"]) == 0
    assert main(["traces", "list"]) == 0
    assert f"shipped with the toolkit, found by its file name: {KTH_EXCERPT.name}" in capsys.readouterr().out
