"""``coschedopt online ...``: the family's own commands (``table-3-1``: thesis Table 3.1 beside ours)."""

from __future__ import annotations

import argparse

from ..core.commands import Command, register_command
from .table31 import table_3_1_markdown, table_3_1_rows


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seeds", type=int, default=20, help="instances per trace (default 20, as the thesis)")
    parser.add_argument("--inside", action="store_true", help="draw the windows inside the traces' horizons")


def _run(args: argparse.Namespace) -> int:
    print(table_3_1_markdown(table_3_1_rows(args.seeds, inside=args.inside, progress=True)))
    return 0


register_command(
    Command(
        family="online",
        name="table-3-1",
        help="thesis Table 3.1 (traces and Method C instances) beside ours",
        add_arguments=_arguments,
        run=_run,
    )
)
