"""``coschedopt traces list | fetch``: the archive's traces from the command line."""

from __future__ import annotations

import argparse

from ..core.commands import Command, register_command
from ..core.errors import InputError
from . import traces


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="traces_command", metavar="{list,fetch}", required=True)
    sub.add_parser(
        "list",
        help="every known trace: archive file, jobs, processors, size, and whether it is cached",
        description="The Parallel Workloads Archive traces the toolkit knows, where each is cached and whether it "
        f"is there. The cache is the first folder of {traces.TRACES_ENV} if set, else the user's cache folder.",
    )
    fetch = sub.add_parser(
        "fetch",
        help="download traces into the cache, verifying each file's SHA-256",
        description="Download traces from the Parallel Workloads Archive (or a mirror) into the cache. Each file "
        "is checked against the SHA-256 recorded in the toolkit: an altered or truncated download is refused and "
        "nothing is cached; an interrupted one leaves no partial file. A trace already cached is not downloaded.",
    )
    fetch.add_argument("names", nargs="*", metavar="NAME", help="trace names or archive file names (see `traces list`)")
    fetch.add_argument("--all", action="store_true", help="every known trace (about 23 MB)")
    fetch.add_argument(
        "--mirror",
        metavar="URL",
        default=None,
        help=f"base URL or folder holding the files by archive name, replacing the archive "
        f"(file:// URLs and plain folders work; default: ${traces.MIRROR_ENV}, else {traces.ARCHIVE_URL})",
    )


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _list() -> int:
    rows = [("name", "file", "jobs", "procs", "size", "cached at")]
    for t in traces.list():
        rows.append((t.name, t.file, f"{t.jobs:,}", f"{t.processors:,}", _size(t.bytes), str(t.cached or "-")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {2, 3, 4}
    for r in rows:
        print(
            "  ".join(
                c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
            ).rstrip()
        )
    print(f"cache: {traces.cache_dir()} (fetch with: coschedopt traces fetch NAME... | --all)")
    for path in traces.shipped():
        print(f"shipped with the toolkit, found by its file name: {path.name}")
    return 0


def _fetch(args: argparse.Namespace) -> int:
    if bool(args.names) == bool(args.all):
        raise InputError("name the traces to fetch, or give --all (not both)", where="traces fetch")
    names = [t.name for t in traces.list()] if args.all else args.names
    for name in names:
        t = traces.info(name)
        already = t is not None and t.cached is not None
        path = traces.fetch(name, mirror=args.mirror)
        print(f"{'already cached' if already else 'fetched'}: {path}")
    return 0


def run(args: argparse.Namespace) -> int:
    return _list() if args.traces_command == "list" else _fetch(args)


COMMAND = register_command(
    Command(
        family=None,
        name="traces",
        help="the Parallel Workloads Archive traces: list them, fetch them into the cache (verified)",
        add_arguments=add_arguments,
        run=run,
    )
)
