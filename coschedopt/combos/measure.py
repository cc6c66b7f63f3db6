"""Measuring real speeds on this node: the ``coschedopt measure`` command (section 5).

The given commands are run alone, then together in combinations (all of them, or only
pairs), and each process's speed is sampled over a window as in eq. (7):

    v = (instructions / cycles) x (CPU time / wall time)        over the window

with instructions and cycles from Linux ``perf stat`` (user space) when the counters are
usable, otherwise CPU time only (IPC taken as constant) from ``/proc/PID/stat`` -- with a
clear notice on stderr, since that misses slow-downs from shared caches and memory
bandwidth and sees only CPU-share effects.

The instance written is a ``combos`` instance: speeds normalised to the solo run (the
singleton speed is 1), work b_i = wall time of the solo run (run to completion), so the
units are seconds of solo execution.  Measured speeds are noisy: constraint (1) is then
enforced by :func:`~coschedopt.combos.instance.repair_monotone` (each speed clipped to the
minimum over its measured sub-combinations, at most 1), and the number of clipped values
is reported.

Only the process started for each command is measured (not its children); commands are
split like a shell would (``shlex``) but not run through a shell.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from ..core import InputError
from .instance import CombosInstance, as_masks, check_all_combinations, repair_monotone

#: ``--combinations all`` runs 2^n - 1 - n combinations: refused above this many commands
MEASURE_MAX_ALL = 10

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of process ``pid`` in seconds, from /proc; None once it has exited.

    Nanosecond ``/proc/PID/task/*/schedstat`` (summed over the live threads) when the kernel
    has it, otherwise utime + stime of ``/proc/PID/stat`` (clock ticks, 10 ms).
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state); utime, stime are fields 14 and 15
    if fields[0] in ("Z", "X"):
        return None
    try:
        total = 0
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/schedstat", encoding="ascii") as fh:
                total += int(fh.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        return (int(fields[11]) + int(fields[12])) / _CLK_TCK


def parse_perf_csv(text: str) -> dict[str, float]:
    """Counter values from ``perf stat -x,`` output: ``{"instructions": ..., "cycles": ...}``.

    Events reported as ``<not supported>`` or ``<not counted>`` are left out.
    """
    out: dict[str, float] = {}
    for line in text.splitlines():
        parts = line.split(",")
        if len(parts) < 3:
            continue
        value, event = parts[0].strip(), parts[2].strip()
        name = re.sub(r":[a-zA-Z]+$", "", event)
        try:
            out[name] = float(value)
        except ValueError:
            continue
    return out


def perf_available() -> tuple[bool, str]:
    """Whether ``perf stat`` can count user-space instructions and cycles here, and why not."""
    exe = shutil.which("perf")
    if exe is None:
        return False, "the perf tool is not installed"
    try:
        proc = subprocess.run(
            [exe, "stat", "-x,", "-e", "instructions:u,cycles:u", "--", "true"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"perf failed to run ({exc})"
    counts = parse_perf_csv(proc.stderr)
    if counts.get("instructions", 0) > 0 and counts.get("cycles", 0) > 0:
        return True, ""
    try:
        with open("/proc/sys/kernel/perf_event_paranoid") as fh:
            paranoid = fh.read().strip()
    except OSError:
        paranoid = "?"
    return False, f"perf cannot count instructions/cycles here (perf_event_paranoid = {paranoid}, or no hardware PMU)"


@dataclass
class _Proc:
    name: str
    command: str
    popen: subprocess.Popen
    started: float
    stderr_path: str
    samples: list[tuple[float, float]]
    perf: subprocess.Popen | None = None
    perf_out: str = ""


def _start(name: str, command: str, tmpdir: str) -> _Proc:
    argv = shlex.split(command)
    if not argv:
        raise InputError(f"command for task {name!r} is empty", where="commands")
    err_path = os.path.join(tmpdir, f"{len(os.listdir(tmpdir))}.err")
    err = open(err_path, "wb")  # noqa: SIM115 (closed right after Popen: the child keeps its own copy)
    try:
        popen = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
        )
    except OSError as exc:
        raise InputError(f"command {command!r} (task {name!r}) failed to start: {exc}", where="commands") from None
    finally:
        err.close()
    return _Proc(name, command, popen, time.monotonic(), err_path, [])


def _stop(procs: Sequence[_Proc]) -> None:
    """Terminate (then kill) the still-running processes we started, and reap them."""
    for p in procs:
        if p.popen.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(p.popen.pid, signal.SIGTERM)
    deadline = time.monotonic() + 2.0
    for p in procs:
        try:
            p.popen.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(p.popen.pid, signal.SIGKILL)
            p.popen.wait()
    _stop_perf([p for p in procs if p.perf is not None and p.perf.returncode is None])


def _stop_perf(procs: Sequence[_Proc]) -> None:
    for p in procs:
        if p.perf is not None and p.perf.poll() is None:
            p.perf.send_signal(signal.SIGINT)
        if p.perf is not None:
            try:
                _, p.perf_out = p.perf.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.perf.kill()
                p.perf.communicate()


def _check_exit(p: _Proc) -> None:
    rc = p.popen.poll()
    if rc is not None and rc != 0 and not (rc < 0 and -rc in (signal.SIGTERM, signal.SIGKILL)):
        try:
            with open(p.stderr_path, "rb") as fh:
                tail = fh.read()[-400:].decode(errors="replace").strip()
        except OSError:
            tail = ""
        raise InputError(
            f"command {p.command!r} (task {p.name!r}) exited with status {rc}"
            + (f"; its stderr ends with: {tail}" if tail else ""),
            where="commands",
        )


def _window_speed(p: _Proc, t0: float, t1: float) -> tuple[float, float]:
    """(CPU-time fraction over the samples within [t0, t1], window length); needs two samples."""
    inside = [(t, c) for t, c in p.samples if t0 - 1e-9 <= t <= t1 + 1e-9]
    if len(inside) < 2:
        inside = p.samples
    if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
        raise InputError(
            f"command {p.command!r} (task {p.name!r}) ran too briefly to be measured "
            f"({len(p.samples)} samples); use longer-running commands or a shorter --warmup",
            where="commands",
        )
    (ta, ca), (tb, cb) = inside[0], inside[-1]
    return (cb - ca) / (tb - ta), tb - ta


def _run_group(
    names: Sequence[str],
    commands: Sequence[str],
    *,
    solo: bool,
    warmup: float,
    sample: float,
    interval: float,
    use_perf: bool,
    tmpdir: str,
) -> tuple[list[float], float]:
    """Start the commands together, sample them, return (speed of each, solo wall time or 0)."""
    procs: list[_Proc] = []
    try:
        for nm, cmd in zip(names, commands, strict=True):
            procs.append(_start(nm, cmd, tmpdir))
        t_start = time.monotonic()
        w0, w1 = warmup, warmup + sample
        perf_state = "off" if not use_perf else "waiting"
        end_time = 0.0
        while True:
            now = time.monotonic() - t_start
            alive = True
            for p in procs:
                c = cpu_seconds(p.popen.pid)
                if c is None or p.popen.poll() is not None:
                    alive = False
                else:
                    p.samples.append((now, c))
            if perf_state == "waiting" and now >= w0 and alive:
                for p in procs:
                    p.perf = subprocess.Popen(
                        ["perf", "stat", "-x,", "-e", "instructions:u,cycles:u", "-p", str(p.popen.pid)],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                    )
                perf_state = "counting"
            if perf_state == "counting" and (now >= w1 or not alive):
                _stop_perf(procs)
                perf_state = "done"
            if not alive:
                for p in procs:
                    p.popen.poll()
                    _check_exit(p)
                if solo:
                    procs[0].popen.wait()
                    end_time = time.monotonic() - t_start
                break
            if not solo and now >= w1:
                break
            # after the window a solo run is only timed: poll finely for an accurate end
            time.sleep(interval if now < w1 else min(interval, 0.005))
    finally:
        _stop(procs)
    for p in procs:
        _check_exit(p)
    speeds = []
    for p in procs:
        frac, _ = _window_speed(p, warmup, warmup + sample)
        speed = frac
        if use_perf:
            counts = parse_perf_csv(p.perf_out)
            if counts.get("cycles", 0) > 0:
                speed = frac * counts["instructions"] / counts["cycles"]
        speeds.append(speed)
    return speeds, end_time


def measure_commands(
    commands: Sequence[str],
    *,
    combinations: str = "all",
    names: Sequence[str] | None = None,
    warmup: float = 0.2,
    sample: float = 1.0,
    interval: float = 0.05,
    use_perf: bool | None = None,
    log: TextIO | None = None,
    name: str = "measured",
) -> CombosInstance:
    """Run ``commands`` alone and in combinations, and build a ``combos`` instance (section 5, eq. 7).

    ``combinations``: ``"all"`` (2^n - 1, at most :data:`MEASURE_MAX_ALL` commands) or
    ``"pairs"`` (singletons and pairs).  Each solo run goes to completion (its wall time
    is the work); each combination is sampled for ``sample`` seconds after ``warmup``
    seconds, then stopped.  ``use_perf=None`` uses perf when it works.
    """
    log = sys.stderr if log is None else log
    names, groups = _check_measure_request(commands, names, combinations, warmup, sample, interval)
    if use_perf is None:
        use_perf, why = perf_available()
        if not use_perf:
            print(
                f"notice: {why}; measuring speed as the CPU-time fraction from /proc only "
                "(eq. 7 without its IPC factor: contention for caches and memory bandwidth is not seen)",
                file=log,
            )
    run = functools.partial(_run_group, warmup=warmup, sample=sample, interval=interval, use_perf=use_perf)
    n = len(commands)
    masks = [1 << i for i in range(n)]
    cols: list[dict[int, float]] = [{i: 1.0} for i in range(n)]
    with tempfile.TemporaryDirectory(prefix="coschedopt-measure-") as tmp:
        solo_speed, work = _measure_alone(commands, names, functools.partial(run, tmpdir=tmp), log)
        for g in groups:
            cols.append(
                _measure_together(commands, names, g, solo_speed, functools.partial(run, tmpdir=tmp), sample, log)
            )
            masks.append(sum(1 << i for i in g))
    speeds = np.zeros((n, len(masks)))
    for j, col in enumerate(cols):
        for i, v in col.items():
            speeds[i, j] = v
    fixed = repair_monotone(speeds, as_masks(masks, n))
    clipped = int(np.count_nonzero(fixed < speeds * (1 - 1e-12)))
    if clipped:
        print(
            f"notice: {clipped} measured speed(s) broke constraint (1) (noise) and were clipped to the minimum over "
            "their measured sub-combinations (at most the solo speed)",
            file=log,
        )
    meta = {
        "measured_with": "perf-ipc-x-cpu" if use_perf else "procfs-cpu-fraction",
        "commands": list(commands),
        "warmup": warmup,
        "sample": sample,
        "solo_speed": solo_speed.tolist(),
        "clipped_speeds": clipped,
        "units": "seconds of solo execution",
    }
    return CombosInstance(work, as_masks(masks, n), fixed, tuple(names), name, meta)


def _check_measure_request(
    commands: Sequence[str],
    names: Sequence[str] | None,
    combinations: str,
    warmup: float,
    sample: float,
    interval: float,
) -> tuple[list[str], list[tuple[int, ...]]]:
    """The task names and the groups of commands to run together, or one InputError."""
    n = len(commands)
    if n < 1:
        raise InputError("give at least one command to measure", where="commands")
    names = [f"T{i + 1}" for i in range(n)] if not names else [str(x) for x in names]
    if len(names) != n:
        raise InputError(f"{len(names)} names for {n} commands", where="--names")
    if len(set(names)) != n:
        raise InputError("task names must be distinct", where="--names")
    if combinations == "all":
        check_all_combinations(n, limit=MEASURE_MAX_ALL, what="measuring all combinations")
        groups = [c for s in range(2, n + 1) for c in itertools.combinations(range(n), s)]
    elif combinations == "pairs":
        groups = list(itertools.combinations(range(n), 2))
    else:
        raise InputError(f"--combinations must be 'all' or 'pairs', got {combinations!r}", where="--combinations")
    for x, what in ((warmup, "warmup"), (sample, "sample"), (interval, "interval")):
        if not (x >= 0 if what == "warmup" else x > 0):
            raise InputError(
                f"--{what} must be {'>= 0' if what == 'warmup' else '> 0'} seconds, got {x!r}", where=f"--{what}"
            )
    return names, groups


def _measure_alone(
    commands: Sequence[str], names: list[str], run: Callable[..., Any], log: TextIO
) -> tuple[np.ndarray, np.ndarray]:
    """Each command run alone to completion: its raw speed and its wall time (the work)."""
    n = len(commands)
    solo_speed, work = np.zeros(n), np.zeros(n)
    for i in range(n):
        (v,), wall = run([names[i]], [commands[i]], solo=True)
        if v <= 0:
            raise InputError(
                f"command {commands[i]!r} (task {names[i]!r}) used no CPU time when run alone; it cannot be measured",
                where="commands",
            )
        solo_speed[i], work[i] = v, wall
        print(f"measured {names[i]} alone: {wall:.3f} s, speed {v:.4g}", file=log)
    return solo_speed, work


def _measure_together(
    commands: Sequence[str],
    names: list[str],
    group: tuple[int, ...],
    solo_speed: np.ndarray,
    run: Callable[..., Any],
    sample: float,
    log: TextIO,
) -> dict[int, float]:
    """The speeds of ``group`` run together, relative to each command's solo speed (eq. 7)."""
    speeds, _ = run([names[i] for i in group], [commands[i] for i in group], solo=False)
    rel = {}
    for i, v in zip(group, speeds, strict=True):
        if v <= 0:
            raise InputError(
                f"task {names[i]!r} made no progress in combination "
                f"{[names[x] for x in group]!r} during the {sample} s window; use a longer --sample",
                where="commands",
            )
        rel[i] = v / solo_speed[i]
    print(f"measured {[names[i] for i in group]}: " + ", ".join(f"{names[i]} {rel[i]:.3f}" for i in group), file=log)
    return rel
