"""``coschedopt batch ...``: the family's own commands."""

from __future__ import annotations

import argparse
import sys
import time

from ..core import InputError, get_family, instance_from_dict, read_json
from ..core.commands import Command, register_command


def _gantt_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("solution", help="solution JSON written by 'coschedopt solve -o'")
    parser.add_argument("--start", type=int, default=None, help="window start (s, default: first submission)")
    parser.add_argument("--end", type=int, default=None, help="window end (s, default: a day later or the end)")
    parser.add_argument("-o", "--output", required=True, help="image file (.png, .svg, .pdf)")


def _gantt(args: argparse.Namespace) -> int:
    import matplotlib.pyplot as plt

    from ..core import load_schedule
    from ..viz import save_figure
    from .plot import default_window, draw_batch_schedule

    data = read_json(args.solution)
    if not isinstance(data, dict) or not isinstance(data.get("instance"), dict):
        raise InputError("no embedded instance: write the solution with 'coschedopt solve -o'", where=args.solution)
    inst = instance_from_dict(data["instance"])
    schedule = load_schedule(inst, args.solution)
    lo, hi = default_window(inst, schedule)
    window = (args.start if args.start is not None else lo, args.end if args.end is not None else hi)
    if window[1] <= window[0]:
        raise InputError(f"the window [{window[0]}, {window[1]}) is empty", where="--end")
    fig, ax = plt.subplots(figsize=get_family("batch").figsize(inst))
    draw_batch_schedule(inst, schedule, ax, window)
    path = save_figure(fig, args.output)
    print(f"wrote {path}: jobs from {window[0]} s to {window[1]} s", file=sys.stderr)
    return 0


register_command(
    Command("batch", "gantt", "draw a batch solution's Gantt chart over a time window", _gantt_arguments, _gantt)
)


def _warmup(args: argparse.Namespace) -> int:
    from .wordprofile import compile_kernels, kernels_cached

    cached = kernels_cached()
    start = time.perf_counter()
    compile_kernels()
    how = "loaded from numba's cache" if cached else "compiled and cached"
    print(f"batch kernels ready in {time.perf_counter() - start:.1f} s ({how})", file=sys.stderr)
    return 0


register_command(
    Command(
        "batch",
        "warmup",
        "compile the batch simulators' kernels (conservative's, and the loop of fcfs and easy with basic allocation) "
        "now (once per install) instead of at the first run",
        lambda parser: None,
        _warmup,
    )
)
