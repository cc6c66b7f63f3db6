"""What produced a run: package and solver versions, git commit, host, platform, time.

Two users: the harness stores :func:`collect_provenance` with every ``bench run``, and
the scripts of ``benchmarks/`` write their measurements as one JSON *record* each
(:func:`start_record`, then :func:`write_record`): the command as run, the commit and
whether the tree was modified, the UTC date, the load average before and after, the
Python, solver and library versions and the machine, beside the measured results as
data.  The README's measured figures are rendered from those records
(``benchmarks/readme.py``), so a figure is typed once, by the run that measured it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
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
    "numba",
    "scipy",
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


def module_versions(modules: list[str]) -> dict[str, str | None]:
    """``{distribution: version}`` of the installed distributions that provide ``modules`` (a suite's
    plug-ins and its methods' modules), the toolkit's own excepted: what a run owes to plug-ins.  A
    module no installed distribution provides (a local file, a test package) is recorded under its
    top-level name with version ``None``."""
    provided = importlib.metadata.packages_distributions()
    out: dict[str, str | None] = {}
    for module in modules:
        top = module.split(".")[0]
        if top == "coschedopt":
            continue
        dists = provided.get(top)
        if not dists:
            out[top] = None
            continue
        for dist in dict.fromkeys(dists):
            try:
                out[dist] = importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                out[dist] = None
    return out


def git_state(path: Path | None = None) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the checkout holding ``path`` (the package by default): dirty when
    tracked files are modified; ``(None, None)`` when it is not a git checkout or git is missing."""
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
        return None, None
    return head, bool(dirty)


def git_commit(path: Path | None = None) -> str | None:
    """The commit of the checkout holding ``path`` (the package by default), ``+dirty`` when
    tracked files are modified; ``None`` when it is not a git checkout or git is missing."""
    head, dirty = git_state(path)
    if head is None:
        return None
    return f"{head}+dirty" if dirty else head


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (``None`` where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def machine() -> dict[str, Any]:
    """The host, platform, logical CPU count and physical memory (bytes, ``None`` if unknown)."""
    try:
        memory: int | None = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        memory = None
    return {
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "processor": platform.machine(),
        "cpu_model": cpu_model(),
        "cpu_count": os.cpu_count(),
        "memory_bytes": memory,
    }


def cpu_model() -> str | None:
    """The processor's model name (``/proc/cpuinfo``'s first ``model name``, else the platform's
    processor string; ``None`` if neither says)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith(("model name", "cpu model", "hardware")) and ":" in line:
                    return line.split(":", 1)[1].strip() or None
    except OSError:
        pass
    return platform.processor() or None


#: the fixed work of :func:`calibration` (a record's figures scale with these seconds)
CALIBRATION_LOOP = 3_000_000
CALIBRATION_MATRIX = 400


def calibration(repeats: int = 3) -> dict[str, Any]:
    """The machine's speed now, as the best of ``repeats`` timings of two fixed pieces of work.

    ``python_s``: a pure-Python loop of :data:`CALIBRATION_LOOP` integer additions and
    multiplications (the interpreter's speed: simulators' Python paths, model building);
    ``numpy_s``: a :data:`CALIBRATION_MATRIX`-square float64 matrix product, a sort of a
    million floats and a cumulative sum (numeric speed: compiled kernels, LP algebra).
    Both are CPU seconds of this process (all its threads), the minimum of the repeats, so
    a busy second core perturbs them little; a figure measured on another machine scales by
    the ratio of the two machines' calibrations.  The load average beside them says how busy the
    machine was (what CPU seconds do not show: a solver given the whole machine had less of it).
    About 0.5 s in all.
    """
    import time

    import numpy as np

    def python_work() -> int:
        acc = 0
        for i in range(CALIBRATION_LOOP):
            acc = (acc + i * 7) % 1_000_003
        return acc

    rng = np.random.default_rng(0)
    a = rng.random((CALIBRATION_MATRIX, CALIBRATION_MATRIX))
    v = rng.random(1_000_000)

    def numpy_work() -> float:
        b = a @ a
        return float(np.sort(v)[500_000] + np.cumsum(v)[-1] + b[0, 0])

    def best(work: Any) -> float:
        times = []
        for _ in range(repeats):
            t = time.process_time()
            work()
            times.append(time.process_time() - t)
        return round(min(times), 4)

    return {
        "python_s": best(python_work),
        "numpy_s": best(numpy_work),
        "cpu_model": cpu_model(),
        "load_average": load_average(),
    }


def collect_provenance(modules: list[str] | None = None) -> dict[str, Any]:
    """Provenance of a run starting now (the end time is added when it stops), with the machine's
    CPU model and :func:`calibration` measured now; ``versions`` also holds the plug-ins that provide
    ``modules`` (:func:`module_versions`)."""
    versions = {**distribution_versions(), **module_versions(list(modules or []))}
    return {
        "started_at": now_iso(),
        "cpu_model": cpu_model(),
        "calibration": calibration(),
        "host": socket.gethostname(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "package_version": versions.get("coschedopt"),
        "git_commit": git_commit(),
        "versions": versions,
    }


def start_record(argv: list[str] | None = None) -> dict[str, Any]:
    """What a benchmark record knows when its run starts: the command as run (``sys.argv``
    by default), the UTC date, the commit and whether tracked files differ from it (the code
    that runs), and the load average before any work."""
    commit, dirty = git_state()
    return {
        "command": list(sys.argv if argv is None else argv),
        "date": now_iso(),
        "git_commit": commit,
        "dirty": dirty,
        "load_before": load_average(),
        "calibration": calibration(),
    }


def add_record_arguments(parser: argparse.ArgumentParser, results_dir: Path) -> None:
    """The options every benchmark script shares: where its record goes, and ``--smoke``
    (tiny sizes, seconds: checks the script and its record, measures nothing worth quoting)."""
    group = parser.add_argument_group("record")
    group.add_argument(
        "--results-dir",
        type=Path,
        default=results_dir,
        help=f"folder of the record NAME.json and of the script's other outputs (default {results_dir})",
    )
    group.add_argument("--record", type=Path, default=None, help="write the JSON record here instead")
    group.add_argument(
        "--smoke", action="store_true", help="tiny sizes in seconds; the record is NAME.smoke.json, never quoted"
    )


def record_path(name: str, *, results_dir: Path, record: Path | None = None, smoke: bool = False) -> Path:
    """Where the record of benchmark ``name`` goes: ``record`` if given, else
    ``results_dir/NAME.json`` (``NAME.smoke.json`` for a smoke run, so that it never
    replaces a measurement)."""
    if record is not None:
        return Path(record)
    return Path(results_dir) / (f"{name}.smoke.json" if smoke else f"{name}.json")


def write_record(
    name: str,
    results: Any,
    *,
    started: dict[str, Any],
    results_dir: Path | None = None,
    record: Path | None = None,
    smoke: bool = False,
    **fields: Any,
) -> Path:
    """Write the JSON record of benchmark ``name`` and return its path.

    ``results`` is the run's measurements as data (numbers, rows), ``started`` what
    :func:`start_record` returned at the start (command, date, commit, load before); the
    load after, the versions and the machine are taken now.  Extra keyword ``fields`` (e.g. ``parameters``) are
    stored beside them.  The path is :func:`record_path`'s.
    """
    if results_dir is None and record is None:
        raise ValueError("write_record needs results_dir or record")
    data = {
        "name": name,
        **started,
        "load_after": load_average(),
        "ended": now_iso(),
        "python": sys.version.split()[0],
        "versions": distribution_versions(),
        "machine": machine(),
        "smoke": smoke,
        **fields,
        "results": results,
    }
    path = record_path(name, results_dir=Path(results_dir or "."), record=record, smoke=smoke)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, default=_plain) + "\n", encoding="utf-8")
    return path


def _plain(value: Any) -> Any:
    """JSON for what ``json`` cannot write itself: paths and other objects as their text."""
    return str(value)


def parameters(args: argparse.Namespace) -> dict[str, Any]:
    """A script's options as data (callables left out), for a record's ``parameters``."""
    return {k: v for k, v in vars(args).items() if not callable(v)}


def record_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The ``write_record`` keywords given by :func:`add_record_arguments`'s options."""
    return {"results_dir": args.results_dir, "record": args.record, "smoke": args.smoke}
