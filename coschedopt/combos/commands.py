"""``coschedopt combos ...``: the family's own commands (``measure``: real speeds on this node)."""

from __future__ import annotations

import argparse
import os
import sys

from ..core.commands import Command, register_command
from ..core.io import write_json
from .measure import MEASURE_MAX_ALL, measure_commands


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("commands", nargs="+", metavar="CMD", help="commands to measure, one quoted string each")
    p.add_argument(
        "--combinations",
        choices=("all", "pairs"),
        default="all",
        help=f"measure all combinations (default, at most {MEASURE_MAX_ALL} commands) or only pairs",
    )
    p.add_argument("--names", default=None, help="comma-separated task names (default T1, T2, ...)")
    p.add_argument("--warmup", type=float, default=0.2, help="seconds skipped before sampling (default 0.2)")
    p.add_argument("--sample", type=float, default=1.0, help="seconds sampled per combination (default 1)")
    p.add_argument("--interval", type=float, default=0.05, help="polling interval in seconds (default 0.05)")
    p.add_argument("--no-perf", action="store_true", help="do not use perf even when it works")
    p.add_argument("-o", "--output", required=True, help="instance file to write")


def _run(args: argparse.Namespace) -> int:
    names = [x.strip() for x in args.names.split(",")] if args.names else None
    inst = measure_commands(
        args.commands,
        combinations=args.combinations,
        names=names,
        warmup=args.warmup,
        sample=args.sample,
        interval=args.interval,
        use_perf=False if args.no_perf else None,
        name=os.path.splitext(os.path.basename(args.output))[0],
    )
    write_json(args.output, inst.to_dict())
    print(f"wrote {args.output}: {inst.n} tasks, {inst.m} combinations", file=sys.stderr)
    return 0


register_command(
    Command(
        family="combos",
        name="measure",
        help="run commands alone and in combinations, sample their speeds (perf or /proc), write a combos instance",
        add_arguments=_add_arguments,
        run=_run,
        aliases=("measure",),
    )
)
