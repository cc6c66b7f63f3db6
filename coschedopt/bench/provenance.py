"""What produced a run: package and solver versions, git commit, host, platform, time."""

from __future__ import annotations

import importlib.metadata
import platform
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from .cell import now_iso

#: distributions whose versions are recorded with every run (solvers first)
RECORDED_DISTRIBUTIONS = (
    "coschedopt",
    "highspy",
    "pyomo",
    "pulp",
    "ortools",
    "networkx",
    "numpy",
    "matplotlib",
    "dask",
    "distributed",
)


def distribution_versions(names: tuple[str, ...] = RECORDED_DISTRIBUTIONS) -> dict[str, str | None]:
    """``{name: version}`` for the installed distributions (``None`` when not installed)."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_commit(path: Path | None = None) -> str | None:
    """The commit of the checkout holding ``path`` (the package by default), ``+dirty`` when
    tracked files are modified; ``None`` when it is not a git checkout or git is missing."""
    where = path if path is not None else Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "-C", str(where), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(where), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}+dirty" if dirty else head


def collect_provenance() -> dict[str, Any]:
    """Provenance of a run starting now (the end time is added when it stops)."""
    versions = distribution_versions()
    return {
        "started_at": now_iso(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "package_version": versions.get("coschedopt"),
        "git_commit": git_commit(),
        "versions": versions,
    }
