"""``coschedopt bench run | export | report | compare | suites | show``: the command line of the harness.

Registered with :func:`coschedopt.core.commands.register_command`; also runnable
as ``python -m coschedopt.bench ...``.
"""

from __future__ import annotations

import argparse
import sys

from ..core import InputError
from ..core.commands import Command, register_command

DEFAULT_DB = "results.sqlite"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="bench_command", metavar="{run,export,report,compare,suites,show}", required=True)

    run = sub.add_parser(
        "run",
        help="run a suite (skips the cells already in the store)",
        description="Run every cell of SUITE not yet in the result store, on local processes (default) or Dask. "
        "Each cell is stored the moment it finishes; a killed run resumes where it stopped.",
    )
    from .suite import bundled_suites

    names = ", ".join(bundled_suites())
    run.add_argument("suite", metavar="SUITE", help=f"a bundled suite name ({names}) or a suite .toml file")
    run.add_argument("--workers", "-j", type=int, default=None, help="local worker processes (default: all cores)")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask cluster at ADDRESS (tcp://host:8786)")
    where.add_argument("--dask-local", metavar="N", type=int, help="run on a Dask LocalCluster of N workers")
    run.add_argument("--db", default=DEFAULT_DB, help=f"result store (SQLite; default {DEFAULT_DB})")
    run.add_argument("--rerun", action="store_true", help="run every cell again, replacing stored results")
    run.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    export = sub.add_parser(
        "export",
        help="write the tidy result table (one row per cell)",
        description="Write the tidy result table of the store: one row per finished cell, the instance's size, "
        "the method's status, objective and bound, the best known value and gaps, the family's metrics, the "
        "method's counters (stats).",
    )
    export.add_argument("--db", default=DEFAULT_DB, help=f"result store (default {DEFAULT_DB})")
    export.add_argument("--suite", default=None, help="only this suite (default: every suite in the store)")
    export.add_argument("--all", action="store_true", help="also cells no longer in their suite's current plan")
    export.add_argument(
        "-o",
        "--output",
        required=True,
        help="results.csv, results.json (with the runs' provenance and calibration) or results.parquet",
    )
    export.add_argument(
        "--columns",
        default=None,
        metavar="A,B,...",
        help="only these columns, in this order (a committed record keeps what its figures read)",
    )

    report = sub.add_parser(
        "report",
        help="write report.md and report.html (figures embedded) from the table",
        description="Write report.md and report.html (figures embedded) into the output folder, from the tidy "
        "result table of the store: per suite, the headline, figures, tables and the metrics' definitions.",
    )
    report.add_argument("--db", default=DEFAULT_DB, help=f"result store (default {DEFAULT_DB})")
    report.add_argument("--suite", default=None, help="only this suite (default: every suite in the store)")
    report.add_argument("-o", "--output", default="reports", help="output folder (default reports/)")

    compare = sub.add_parser(
        "compare",
        help="check that two stores give the same answers cell by cell (a change that must not change results)",
        description="Match the finished cells of two result stores by their key (the same suite run at two "
        "commits, say) and compare each pair's status, objective, bound, metrics and, where both kept it, "
        "schedule.  Exit 0 when at least one cell is shared and every shared cell agrees, else 1.",
    )
    compare.add_argument("first", metavar="A.sqlite", help="a result store (the reference, e.g. before the change)")
    compare.add_argument("second", metavar="B.sqlite", help="another result store (e.g. after the change)")
    compare.add_argument("--suite", default=None, help="only this suite (default: every suite in both stores)")
    compare.add_argument(
        "--rel-tol", type=float, default=1e-12, help="relative tolerance on numbers (default 1e-12: the last bits)"
    )

    sub.add_parser(
        "suites",
        help="list the bundled suites: name, family, what each runs",
        description="List the suites that ship with the toolkit (and with installed plug-in families): "
        "`bench show NAME` prints one as a template, `bench run NAME` runs it.",
    )
    show = sub.add_parser(
        "show",
        help="print a bundled suite as a template to start from, or the suite file format (--format)",
        description="Print the bundled suite NAME's TOML file on stdout, as a template to save, edit and run by "
        "its path (coschedopt bench show quick > my-suite.toml); with --format, the reference of the suite file "
        "format: every table and key, its type, default and meaning.",
    )
    show.add_argument("name", nargs="?", metavar="NAME", help="a bundled suite (coschedopt bench suites)")
    show.add_argument("--format", action="store_true", help="print the suite file format's reference instead")


def run(args: argparse.Namespace) -> int:
    """Dispatch ``bench`` sub-commands; bad input is one line on stderr and exit code 2."""
    try:
        if args.bench_command == "run":
            from .runner import run_suite

            summary = run_suite(
                args.suite,
                db=args.db,
                workers=args.workers,
                scheduler=args.scheduler,
                dask_local=args.dask_local,
                rerun=args.rerun,
                progress=not args.quiet,
            )
            print(summary, file=sys.stderr)
            return 0
        if args.bench_command == "export":
            from .table import result_table, write_table

            table = result_table(args.db, suite=args.suite, planned_only=not args.all)
            if args.columns:
                table = table.select([c.strip() for c in args.columns.split(",") if c.strip()])
            path = write_table(table, args.output, command="coschedopt " + " ".join(sys.argv[1:]))
            print(f"wrote {path}: {len(table.rows)} rows", file=sys.stderr)
            return 0
        if args.bench_command == "compare":
            from .compare import compare_stores

            result = compare_stores(args.first, args.second, suite=args.suite, rel_tol=args.rel_tol)
            print(result.text())
            return 0 if result.shared and not result.differ else 1
        if args.bench_command == "report":
            from .report import write_report

            paths = write_report(args.db, args.output, suite=args.suite)
            print(f"wrote {paths['markdown']} and {paths['html']}", file=sys.stderr)
            return 0
        if args.bench_command in ("suites", "show"):
            from . import templates

            if args.bench_command == "suites":
                print(templates.suites_listing())
            elif args.format == bool(args.name):
                raise InputError("name a bundled suite (coschedopt bench suites), or give --format (not both)")
            else:
                sys.stdout.write(templates.format_reference() if args.format else templates.suite_template(args.name))
            return 0
    except InputError as exc:
        print(f"coschedopt bench {args.bench_command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"coschedopt bench {args.bench_command}: interrupted; finished cells are stored", file=sys.stderr)
        return 130
    raise AssertionError(f"unknown bench command {args.bench_command!r}")


COMMAND = register_command(
    Command(
        family=None,
        name="bench",
        help="benchmark harness: run suites (locally or on Dask), export the result table, write reports",
        add_arguments=add_arguments,
        run=run,
    )
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coschedopt bench", description=COMMAND.help)
    add_arguments(parser)
    return run(parser.parse_args(argv))
