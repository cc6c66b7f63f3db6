"""``coschedopt combos ...``: the family's own commands (``measure``: real speeds on this node, written as
the measured combinations or as the pairwise interference model fitted to the measured pairs)."""

from __future__ import annotations

import argparse
import os
import sys

from ..core import InputError
from ..core.commands import Command, register_command
from ..core.io import write_json
from .measure import MEASURE_MAX_ALL, measure_commands
from .pairwise import fit_pairwise


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("commands", nargs="+", metavar="CMD", help="commands to measure, one quoted string each")
    p.add_argument(
        "--combinations",
        choices=("all", "pairs"),
        default="all",
        help=f"measure all combinations (default, at most {MEASURE_MAX_ALL} commands) or only pairs",
    )
    p.add_argument(
        "--model",
        choices=("explicit", "pairwise"),
        default="explicit",
        help="write the measured combinations (explicit, default) or the pairwise interference model fitted to the "
        "measured pairs (pairwise: its factors are the pairs' speeds; any number of tasks per combination up to "
        "--max-size, solved by column generation)",
    )
    p.add_argument(
        "--max-size",
        type=int,
        default=None,
        metavar="K",
        help="with --model pairwise: at most K tasks per combination (default: the number of commands)",
    )
    p.add_argument("--names", default=None, help="comma-separated task names (default T1, T2, ...)")
    p.add_argument("--warmup", type=float, default=0.2, help="seconds skipped before sampling (default 0.2)")
    p.add_argument("--sample", type=float, default=1.0, help="seconds sampled per combination (default 1)")
    p.add_argument("--interval", type=float, default=0.05, help="polling interval in seconds (default 0.05)")
    p.add_argument("--no-perf", action="store_true", help="do not use perf even when it works")
    p.add_argument("-o", "--output", required=True, help="instance file to write")


def _run(args: argparse.Namespace) -> int:
    if args.max_size is not None and args.model != "pairwise":
        raise InputError("--max-size needs --model pairwise", where="--max-size")
    if args.max_size is not None and not 1 <= args.max_size <= len(args.commands):
        raise InputError(f"--max-size must lie in [1, {len(args.commands)}], got {args.max_size}", where="--max-size")
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
    if args.model == "pairwise":
        inst = fit_pairwise(inst, args.max_size or inst.n)
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
