"""The Parallel Workloads Archive as a data source: a catalogue, a verified download cache and the lookup.

The batch and online families replay the archive's job logs (Feitelson, Tsafrir,
Krakov, *Experience with using the Parallel Workloads Archive*, JPDC 74(10), 2014).
The logs are third-party data and are not shipped; this module fetches them the
way scikit-learn's ``fetch_*`` functions and pooch-based dataset registries do:

- :data:`CATALOGUE` records, for each known log, its archive file name, its
  folder on the archive, its job lines, its processors, its size and the
  **SHA-256 of the archive's file**.  :func:`fetch` downloads a log into the
  cache with :func:`pooch.retrieve`, which streams to a temporary file beside
  the target and moves it into place only once the digest matches: a truncated
  or altered download is refused and removed, an interrupted one leaves nothing.
- The **cache** is the first folder of ``COSCHEDOPT_TRACES`` when that variable
  is set, else the user's cache folder (:func:`platformdirs.user_cache_path`).
- A **mirror** (``--mirror``, or ``COSCHEDOPT_TRACES_MIRROR``) replaces the
  archive's base URL for sites that keep a copy: an ``http(s)``/``ftp`` URL, a
  ``file://`` URL or a plain folder, holding the files flat, by archive name.
- :func:`locate` is the one lookup used by ``--trace``, ``solve FILE.swf.gz``
  and the suites: a path to a file, else the cache, else the folders of
  ``COSCHEDOPT_TRACES`` and their sub-folders, else the excerpts shipped with
  the toolkit; its error names every folder it searched and the
  ``coschedopt traces fetch`` command that gets the file.

>>> from coschedopt import traces
>>> path = traces.fetch("KTH-SP2")                    # doctest: +SKIP
>>> [t.name for t in traces.list() if t.cached]       # doctest: +SKIP
['KTH-SP2']
"""

from __future__ import annotations

import os
import re
import shutil
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from ..core.io import umask_file_mode

#: folders (``os.pathsep``-separated) where traces are looked up; the first one is also the cache
TRACES_ENV = "COSCHEDOPT_TRACES"
#: a mirror of the archive replacing :data:`ARCHIVE_URL` (a URL or a folder holding the files flat)
MIRROR_ENV = "COSCHEDOPT_TRACES_MIRROR"
#: the Parallel Workloads Archive's base URL; each log sits in its own folder under it
ARCHIVE_URL = "https://www.cs.huji.ac.il/labs/parallel/workload/"


@dataclass(frozen=True)
class TraceInfo:
    """One log of the archive: what the catalogue records about its file.

    ``jobs`` counts the file's job lines (before any filter); ``processors`` is
    the header's ``MaxProcs``, or for the two logs without a header (RICC,
    METACENTRUM) the platform size of the thesis's Table 3.1.
    """

    name: str
    file: str
    folder: str
    jobs: int
    processors: int
    bytes: int
    sha256: str
    description: str
    aliases: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        return f"{ARCHIVE_URL}{self.folder}/{self.file}"

    @property
    def cached(self) -> Path | None:
        """The file in the cache, or ``None`` when it is not there."""
        path = cache_dir() / self.file
        return path if path.is_file() else None

    def fetch_command(self) -> str:
        return f"coschedopt traces fetch {self.name}"


CATALOGUE: dict[str, TraceInfo] = {
    t.name: t
    for t in (
        # the six traces of the thesis's chapter 5 (Table 5.2) ...
        TraceInfo(
            "KTH-SP2", "KTH-SP2-1996-2.1-cln.swf.gz", "l_kth_sp2", 28476, 100, 411455,
            "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
            "KTH IBM SP2, Sep 1996 - Aug 1997, EASY", ("kth",),
        ),
        TraceInfo(
            "HPC2N", "HPC2N-2002-2.2-cln.swf.gz", "l_hpc2n", 202871, 240, 2997773,
            "3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64",
            "HPC2N Seth Linux cluster, Jul 2002 - Jan 2006, MAUI",
        ),
        TraceInfo(
            "LLNL-Thunder", "LLNL-Thunder-2007-1.1-cln.swf.gz", "l_llnl_thunder", 121039, 4008, 1312559,
            "00d9bce501efd3a23cd0713bbae591516b7a69217d5f4b851725f601f3b75247",
            "LLNL Thunder Linux cluster, Jan - Jun 2007, Slurm", ("thunder",),
        ),
        TraceInfo(
            "CEA-Curie", "CEA-Curie-2011-2.1-cln.swf.gz", "l_cea_curie", 312826, 93312, 3629411,
            "2a0fdbd40837590b491bbbac7d4cfe521de1f0b14c0dc39bbf82c4e49ea75bce",
            "CEA Curie (thin and fat nodes), Feb - Oct 2012, Slurm", ("curie",),
        ),
        TraceInfo(
            "SDSC-BLUE", "SDSC-BLUE-2000-4.2-cln.swf.gz", "l_sdsc_blue", 243306, 1152, 4070091,
            "9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658",
            "SDSC Blue Horizon IBM SP, Apr 2000 - Jan 2003",
        ),
        TraceInfo(
            "RICC", "RICC-2010-2.swf.gz", "l_ricc", 447794, 8192, 3673009,
            "165a3915b1c268f5ffad8571521802dc9aa9a2908e32af0db1a54c78f7d67324",
            "RIKEN Integrated Cluster of Clusters, May - Sep 2010 (no header)",
        ),
        # ... chapter 3's METACENTRUM, and six more of the archive's well-known logs
        TraceInfo(
            "METACENTRUM", "METACENTRUM-2009-2.swf.gz", "l_metacentrum", 103656, 806, 1514544,
            "7c0b347e77fc7a9aafe91f96a20186a8dd16c11a51e5f19c692a93d11a64893c",
            "Czech MetaCentrum grid, Jan - Jun 2009 (no header)",
        ),
        TraceInfo(
            "CTC-SP2", "CTC-SP2-1996-3.1-cln.swf.gz", "l_ctc_sp2", 77222, 338, 1487336,
            "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
            "Cornell Theory Center IBM SP2, Jun 1996 - May 1997, EASY", ("ctc",),
        ),
        TraceInfo(
            "SDSC-SP2", "SDSC-SP2-1998-4.2-cln.swf.gz", "l_sdsc_sp2", 59715, 128, 1205570,
            "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
            "SDSC IBM SP2, Apr 1998 - Apr 2000",
        ),
        TraceInfo(
            "SDSC-Par", "SDSC-Par-1996-3.1-cln.swf.gz", "l_sdsc_par", 32135, 400, 497990,
            "cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
            "SDSC Intel Paragon, Dec 1995 - Dec 1996",
        ),
        TraceInfo(
            "LLNL-Atlas", "LLNL-Atlas-2006-2.1-cln.swf.gz", "l_llnl_atlas", 43778, 9216, 503642,
            "48cc83b7a0490252aa1ae41a4b03dd598bc0683e146be94047febee36e7e0b36",
            "LLNL Atlas Linux cluster, Nov 2006 - Jun 2007", ("atlas",),
        ),
        TraceInfo(
            "LANL-CM5", "LANL-CM5-1994-4.1-cln.swf.gz", "l_lanl_cm5", 122060, 1024, 2138864,
            "71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c",
            "LANL Thinking Machines CM-5, Oct 1994 - Sep 1996",
        ),
    )
}  # fmt: skip


def info(name: str | os.PathLike) -> TraceInfo | None:
    """The catalogue entry of ``name`` (case-insensitive: ``KTH-SP2``, ``kth``, or its archive file name)."""
    key = Path(str(name)).name.lower()
    for t in CATALOGUE.values():
        if key in (t.name.lower(), t.file.lower(), *t.aliases):
            return t
    return None


def _entry(name: str) -> TraceInfo:
    t = info(name)
    if t is None:
        raise InputError(f"unknown trace {name!r}; known: {', '.join(CATALOGUE)}", where="trace")
    return t


def lookup_folders() -> list[Path]:
    """The folders named by ``COSCHEDOPT_TRACES``, in order."""
    return [Path(d) for d in os.environ.get(TRACES_ENV, "").split(os.pathsep) if d]


def cache_dir() -> Path:
    """Where :func:`fetch` writes: the first folder of ``COSCHEDOPT_TRACES``, else the user's cache folder."""
    folders = lookup_folders()
    if folders:
        return folders[0]
    import platformdirs

    return platformdirs.user_cache_path("coschedopt") / "traces"


def catalogue() -> list[TraceInfo]:
    """Every known trace, in catalogue order (the thesis's six first); ``.cached`` tells which are here."""
    return [*CATALOGUE.values()]


#: folders of the installed package holding the trace excerpts that ship with it (the KTH-SP2 slice of the
#: batch family's data), looked up last, so that an excerpt is found by its file name like a fetched trace
SHIPPED_FOLDERS = (Path(__file__).resolve().parents[1] / "batch" / "data",)


def shipped() -> list[Path]:
    """The trace excerpts that ship with the toolkit (found by :func:`locate` under their file names)."""
    return sorted(p for folder in SHIPPED_FOLDERS for p in folder.glob("*.swf*") if p.is_file())


def searched_folders() -> list[Path]:
    """The folders :func:`locate` looks in, in order, without repeats: the cache, then ``COSCHEDOPT_TRACES``,
    then the folders of the excerpts shipped with the toolkit."""
    out: list[Path] = []
    for folder in (cache_dir(), *lookup_folders(), *SHIPPED_FOLDERS):
        if folder not in out:
            out.append(folder)
    return out


def locate(trace: str | os.PathLike, *, hint: str = "", where: str | None = None) -> Path:
    """The file of ``trace``: a path to a file, else a catalogue name (``KTH-SP2``) or an archive
    file name found in the cache or in the folders of ``COSCHEDOPT_TRACES`` (sub-folders too).

    ``hint`` ends the error message (what else ``trace`` may be), ``where`` locates it
    (the option that named the trace).  The error names every folder searched and
    the command that fetches the file.
    """
    path = Path(trace)
    if path.is_file():
        return path
    known = info(trace)
    file = known.file if known else path.name
    folders = searched_folders()
    for folder in folders:
        if (folder / file).is_file():
            return folder / file
    for folder in folders:
        if folder.is_dir():
            found = sorted(folder.rglob(file))
            if found:
                return found[0]
    searched = ", ".join(str(f) for f in folders)
    how = (
        f"fetch it with `{known.fetch_command()}`"
        if known
        else f"give a path, or one of the known traces ({', '.join(CATALOGUE)}), fetched with `coschedopt traces fetch`"
    )
    raise InputError(
        f"no trace {str(trace)!r}: looked for {file!r} in {searched} (and sub-folders; "
        f"{TRACES_ENV} names more folders); {how}{hint}",
        where=where,
    )


def trace_help() -> str:
    """The help text of every ``--trace`` option: what it accepts, and the folders a name is looked up
    in (:func:`searched_folders`, as they are when the parser is built)."""
    folders = ", ".join(str(f) for f in searched_folders())
    return (
        "an SWF file: a path, a known trace's name (KTH-SP2, CEA-Curie, ...: `coschedopt traces list`) or an archive "
        f"file name, looked up (sub-folders too) in the folders of ${TRACES_ENV} in order when it is set, else in "
        f"the user's trace cache; here: {folders}. `coschedopt traces fetch NAME` downloads a known trace into the "
        "first of them"
    )


def _source(t: TraceInfo, mirror: str | None) -> str:
    """The URL to download ``t`` from: the archive's, or ``mirror/FILE`` (a folder becomes a ``file://`` URL)."""
    mirror = mirror or os.environ.get(MIRROR_ENV) or None
    if mirror is None:
        return t.url
    if "://" not in mirror:
        return Path(mirror, t.file).resolve().as_uri()
    return mirror.rstrip("/") + "/" + urllib.parse.quote(t.file)


def _copy_local(url: str, output_file: str, pooch: object) -> None:
    """A pooch downloader for ``file://`` URLs (pooch's own speak http, ftp and sftp only)."""
    path = urllib.request.url2pathname(urllib.parse.urlparse(url).path)
    try:
        with open(path, "rb") as src, open(output_file, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    except OSError as exc:
        raise InputError(f"cannot read the mirror's copy: {exc.strerror}", where=path) from None


_DIGESTS = re.compile(r"expected (?:sha256:)?(\w+) but got (\w+)")


def fetch(name: str, *, mirror: str | None = None, downloader: Callable[..., None] | None = None) -> Path:
    """Download ``name`` (a catalogue name or archive file name) into the cache; its path.

    A file already cached with the right digest is not downloaded again.  The
    download is verified against the catalogue's SHA-256: a mismatch raises one
    :class:`InputError` naming the file and both digests, and nothing is cached.
    ``downloader`` is a pooch downloader, ``(url, output_file, pooch)``, to use instead of
    the usual ones (a copy for ``file://`` URLs, pooch's own for the others).
    """
    import pooch

    t = _entry(name)
    url = _source(t, mirror)
    if downloader is None:
        downloader = _copy_local if url.startswith("file:") else None
    pooch.get_logger().setLevel("WARNING")
    before = _identity(cache_dir() / t.file)
    try:
        path = Path(
            pooch.retrieve(url, known_hash=f"sha256:{t.sha256}", fname=t.file, path=cache_dir(), downloader=downloader)
        )
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        m = _DIGESTS.search(str(exc))
        if m is None:
            raise InputError(f"cannot download: {exc}", where=url) from None
        raise InputError(
            f"SHA-256 {m.group(2)} does not match the catalogue's {m.group(1)}: refused, nothing cached",
            where=f"{t.file} from {url}",
        ) from None
    except Exception as exc:  # requests' and ftplib's errors: no network, 404, refused
        raise InputError(f"cannot download: {exc}", where=url) from None
    if _identity(path) != before:
        # pooch moves its temporary file (mode 0600) into place: a new download gets the mode open() would
        # give it under the user's umask, so that a cache shared by a group stays readable by the group
        os.chmod(path, umask_file_mode())
    return path


def _identity(path: Path) -> tuple[int, int, int] | None:
    """The file's device, inode and modification time (``None`` when absent): whether a download replaced it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns


#: ``coschedopt.traces.list()``: the catalogue with where each file is cached (defined last: shadows the builtin)
list = catalogue  # noqa: A001
