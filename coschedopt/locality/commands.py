"""``coschedopt locality ...``: the family's own commands (``search``: the worst-ratio search)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..core import InputError
from ..core.commands import Command, register_command
from ..core.io import write_json
from .ratio_search import SearchSpace, record_slug, search_worst_ratios
from .ratios import RATIOS


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=60.0, help="wall-clock budget (default 60)")
    parser.add_argument("--processes", type=int, default=1, help="processes searching at once (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--ratio", action="append", choices=list(RATIOS), help="a ratio to search (default: all)")
    parser.add_argument("--max-jobs", type=int, default=10, help="jobs per instance (default 10)")
    parser.add_argument("--max-time", type=int, default=8, help="largest job time (default 8)")
    parser.add_argument("--max-clusters", type=int, default=3, help="clusters (default at most 3)")
    parser.add_argument("--max-cluster-size", type=int, default=6, help="ids per cluster (default at most 6)")
    parser.add_argument("--max-flat-processors", type=int, default=8, help="ids of one-cluster platforms (default 8)")
    parser.add_argument(
        "--topology",
        choices=["line", "ring"],
        default="line",
        help="ids in a line, or a ring (a range may wrap) (default line)",
    )
    parser.add_argument("--solve-limit", type=float, default=2.0, help="seconds per exact solve (default 2)")
    parser.add_argument("--save", default=None, help="write each record as <ratio>.json into this folder")


def _command_line(args: argparse.Namespace) -> str:
    """The command that reproduces a search (its options as given or defaulted)."""
    parts = [f"coschedopt locality search --seconds {args.seconds:g} --processes {args.processes} --seed {args.seed}"]
    parts += [f"--ratio '{r}'" for r in args.ratio or []]
    parts.append(
        f"--max-jobs {args.max_jobs} --max-time {args.max_time} --max-clusters {args.max_clusters} "
        f"--max-cluster-size {args.max_cluster_size} --max-flat-processors {args.max_flat_processors} "
        f"--topology {args.topology} --solve-limit {args.solve_limit:g}"
    )
    return " ".join(parts)


def _run(args: argparse.Namespace) -> int:
    for name in ("max_jobs", "max_time", "max_clusters", "max_cluster_size", "max_flat_processors"):
        if getattr(args, name) < (2 if name != "max_time" else 1):
            raise InputError(
                f"must be at least 2 (1 for --max-time), got {getattr(args, name)}", where=f"--{name.replace('_', '-')}"
            )
    if args.max_flat_processors < 4:
        raise InputError(f"must be at least 4, got {args.max_flat_processors}", where="--max-flat-processors")
    space = SearchSpace(
        args.max_jobs, args.max_time, args.max_clusters, args.max_cluster_size, args.max_flat_processors, args.topology
    )
    ratios = tuple(args.ratio) if args.ratio else tuple(RATIOS)
    print(f"searching {len(ratios)} ratio(s) for {args.seconds:g} s on {args.processes} process(es)", file=sys.stderr)
    result = search_worst_ratios(
        ratios,
        seconds=args.seconds,
        seed=args.seed,
        processes=args.processes,
        space=space,
        solve_limit=args.solve_limit,
    )
    print(result.table())
    print(f"\n{result.evaluations} instances solved exactly in {result.seconds:.0f} s", file=sys.stderr)
    if args.save:
        for name, rec in result.records.items():
            write_json(Path(args.save) / f"{record_slug(name)}.json", rec.to_dict(_command_line(args)))
        print(f"wrote {len(result.records)} record(s) to {args.save}", file=sys.stderr)
    return 0


register_command(
    Command(
        "locality",
        "search",
        "search small instances for the worst ratios between the optima (C^C/C, C^L/C, ...), exact optima inside",
        _arguments,
        _run,
    )
)
