"""The ``coschedopt`` command (``coschedopt --help`` lists everything).

Results go to stdout (``solve --json`` prints exactly one JSON object); logs,
progress and errors go to stderr.  Bad input exits with status 2 and one line
naming the file, field and value; nothing already written is touched.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .core import (
    InputError,
    MethodRefused,
    Status,
    check_options,
    get_family,
    get_method,
    load_instance,
    load_schedule,
    methods,
    read_json,
)
from .core import families as list_families
from .core import solve as core_solve
from .core import validate as core_validate
from .core.commands import COMMANDS, commands, expand_aliases, generators
from .core.deadline import stop_on_interrupt
from .core.io import check_output_file, instance_from_dict, output_error, save_instance, write_json, write_text
from .core.options import MethodOptions, parse_option_text
from .core.plugins import plugin_names

#: seconds an exact method runs from the command line unless ``--time-limit`` says otherwise
DEFAULT_EXACT_TIME_LIMIT = 600.0


def _time_limit(text: str) -> float:
    """``--time-limit``: a positive number of seconds, or ``none`` (no limit, as ``math.inf``)."""
    if text.strip().lower() in ("none", "inf", "infinity"):
        return math.inf
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds or 'none', got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds or 'none', got {text!r}")
    return value


def _add_time_limit(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--time-limit",
        "-t",
        type=_time_limit,
        default=None,
        metavar="S",
        help=f"{what} (default: {DEFAULT_EXACT_TIME_LIMIT:g} for exact methods, none for heuristics; 'none' lifts it)",
    )


def effective_time_limit(given: float | None, exact: bool) -> float | None:
    """The time limit a command-line solve runs with: ``given``, else the default of exact methods."""
    if given is None:
        return DEFAULT_EXACT_TIME_LIMIT if exact else None
    return None if math.isinf(given) else given


def main(
    argv: Sequence[str] | None = None,
    *,
    status_stream: Any = None,
    live_status: Callable[..., LiveStatus] | None = None,
) -> int:
    """Run the command line ``argv`` (default: the process's arguments) and return its exit status.

    ``status_stream`` and ``live_status`` are where and how ``solve`` draws its live status line: by
    default on ``sys.stderr`` (when it is a terminal) with :class:`LiveStatus`; a caller (a test) passes
    a stream of its own, or a :class:`LiveStatus` factory with other timings
    (``functools.partial(LiveStatus, delay=0.0, period=0.0)``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["--version"]:
            parser = build_parser(with_families=False)  # the version needs no family imported
        else:
            parser = build_parser()
            argv = expand_aliases(argv, list_families())
    except InputError as exc:  # a plug-in whose names collide with another package's
        print(f"coschedopt: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    args.status_stream, args.live_status = status_stream, live_status or LiveStatus
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except InputError as exc:
        print(f"coschedopt: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("coschedopt: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`coschedopt generate ... | head`): stop quietly, as a
        # program killed by SIGPIPE would; stdout goes to the null device so that the
        # interpreter's last flush does not fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 141


class _Parser(argparse.ArgumentParser):
    """argparse's parser, with a bad value of one option (``--time-limit -5``, ``--seed x``) reported on one
    line, as the commands report every other bad value; a wrong command line (a missing or unknown argument)
    still shows the usage. Sub-commands' parsers are of this class too (``add_subparsers`` uses the parent's)."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("argument ") and "required" not in message:  # one argument's value
            self.exit(2, f"{self.prog}: error: {message}\n")
        super().error(message)


def build_parser(*, with_families: bool = True) -> argparse.ArgumentParser:
    """The whole parser; ``with_families=False`` leaves out what only the families declare (their
    generators and commands, and the list of families in the help), so that ``--version`` imports no family."""
    parser = _Parser(
        prog="coschedopt",
        description="Exact solvers and published heuristics for co-scheduling parallel applications.",
        epilog=_top_epilog(with_families),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"coschedopt {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_generate(sub, with_families)
    _add_solve(sub)
    _add_file_commands(sub)
    _add_compare(sub)
    _add_methods(sub)
    _add_family_commands(sub, with_families)
    return parser


#: the examples of ``coschedopt --help``: the first steps, from an instance to a report
TOP_EXAMPLES = (
    "coschedopt generate pack random --tasks 10 --processors 16 -k 4 -o small.json",
    "coschedopt solve small.json --method enumerate -o sol.json     # proven optimum",
    "coschedopt bench run quick --db results.sqlite && coschedopt bench report --db results.sqlite -o reports/",
)


def _top_epilog(with_families: bool) -> str:
    """The end of ``coschedopt --help``: one line per registered family, the plug-ins of other packages
    (and those that failed to import), then :data:`TOP_EXAMPLES`."""
    lines = []
    if with_families:
        from .core.plugins import TOOLKIT, failed_plugins, loaded_plugins

        kinds = list_families()
        width = max(map(len, kinds), default=0)
        lines += ["families (`coschedopt methods FAMILY` for more):"]
        lines += [f"  {k:<{width}}  {_headline(get_family(k).description)}" for k in kinds]
        others = [f"{name} (package {dist})" for name, (dist, _) in loaded_plugins().items() if dist != TOOLKIT]
        others += [f"{name} (failed to import: {why})" for name, why in failed_plugins().items()]
        if others:
            lines.append(f"plug-ins of other packages: {', '.join(others)}")
    else:
        lines.append(f"plug-ins: {', '.join(plugin_names())}")
    lines += ["", "examples:", *(f"  {e}" for e in TOP_EXAMPLES), ""]
    lines += [
        "`coschedopt methods FAMILY --options`: a family's methods and their options;",
        "`coschedopt generate FAMILY --help`: its generators; `coschedopt COMMAND --help`: a command's options.",
    ]
    return "\n".join(lines)


def _headline(description: str) -> str:
    """A family's description up to its first colon (the problem's name), on one line of the help."""
    import textwrap

    return textwrap.shorten(description.split(": ")[0], width=80, placeholder=" ...")


def _add_generate(sub: Any, with_families: bool = True) -> None:
    """Add the generate command: one sub-command per family and generator."""
    gen = sub.add_parser(
        "generate",
        help="generate an instance: coschedopt generate FAMILY GENERATOR [options]",
        description="Generate an instance with one of a family's generators.",
    )
    fsub = gen.add_subparsers(title="families", metavar="FAMILY")
    for kind in list_families() if with_families else []:
        gens = generators(kind)
        if not gens:
            continue
        fp = fsub.add_parser(kind, help=get_family(kind).description, description=f"Generators of family {kind!r}.")
        gsub = fp.add_subparsers(title="generators", metavar="GENERATOR")
        for g in gens:
            gp = gsub.add_parser(g.name, help=g.help, description=g.help)
            before = {a.dest for a in gp._actions}
            g.add_arguments(gp)
            dests = [a.dest for a in gp._actions if a.dest not in before]
            gp.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
            gp.add_argument("-o", "--output", default="-", help="output JSON file (default: stdout)")
            gp.set_defaults(handler=_generate, generator=g, generator_dests=dests)


def _add_solve(sub: Any) -> None:
    """Add the solve command."""
    sp = sub.add_parser(
        "solve",
        help="solve an instance with a registered method",
        description="Solve an instance with a registered method. Exact methods stop after "
        f"{DEFAULT_EXACT_TIME_LIMIT:g} s unless --time-limit says otherwise; Ctrl-C stops a method that "
        "supports it with its best schedule and bound (written with -o), exit status 130.",
    )
    sp.add_argument(
        "instance",
        nargs="?",
        help="instance JSON file, or an SWF trace: a path, or a known trace's name (KTH-SP2: `coschedopt traces list`)",
    )
    sp.add_argument("--method", "-m", required=True, help="method name (see 'coschedopt methods')")
    _add_time_limit(sp, "seconds; returns the best found so far")
    sp.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sp.add_argument(
        "--option", "-O", action="append", default=[], metavar="NAME=VALUE", help="method option (JSON value)"
    )
    sp.add_argument(
        "--help-options", action="store_true", help="list the options of --method (type, default, meaning) and exit"
    )
    sp.add_argument("--repair", action="store_true", help="repair profiles breaking the model's assumptions")
    sp.add_argument("--json", action="store_true", help="print exactly one JSON object (the Result) on stdout")
    sp.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="the method's and its solver's progress log on stderr (without it, a terminal shows one live status "
        "line: elapsed time, and the incumbent, bound and gap where the method reports them)",
    )
    sp.add_argument("--quiet", "-q", action="store_true", help="no live status line on stderr")
    sp.add_argument("-o", "--output", default=None, help="write the solution (result + instance) to this JSON file")
    sp.set_defaults(handler=_solve, parser=sp)


def _add_file_commands(sub: Any) -> None:
    """Add the commands that read a solution file: validate, plot, export."""
    vp = sub.add_parser(
        "validate",
        help="check a solution file against an instance",
        description="Check a solution against an instance with the family's independent validator: prints "
        "'valid' and the objective recomputed from the schedule (exit 0), or the first broken constraint (exit 1).",
    )
    vp.add_argument("instance", help="instance JSON file")
    vp.add_argument("solution", help="solution JSON (a 'solve -o' file, a Result or a bare schedule)")
    vp.add_argument(
        "--repair", action="store_true", help="repair the instance's profiles breaking the model's assumptions first"
    )
    vp.set_defaults(handler=_validate)

    pp = sub.add_parser(
        "plot",
        help="draw a solution (pack diagram, Gantt chart)",
        description="Draw a solution with its family's figure (pack diagram, Gantt chart, ...) into an image file; "
        "the solution is validated first.",
    )
    pp.add_argument("solution", help="solution JSON written by 'solve -o'")
    pp.add_argument("--instance", default=None, help="instance JSON (default: the one embedded in the solution)")
    pp.add_argument("-o", "--output", required=True, help="image file (.png, .svg, .pdf)")
    pp.add_argument("--title", default=None, help="figure title (default: the instance's name and the method)")
    pp.set_defaults(handler=_plot)

    ep = sub.add_parser(
        "export",
        help="write a solution in another format of its family (e.g. the evalys jobs CSV)",
        description="Write a solution in another file format of its family (batch: the evalys jobs CSV); the "
        "solution is validated first.",
    )
    ep.add_argument("solution", help="solution JSON written by 'solve -o'")
    ep.add_argument("--instance", default=None, help="instance file (default: the one embedded in the solution)")
    ep.add_argument("--format", "-f", default=None, help="export format (default: the family's first)")
    ep.add_argument("-o", "--output", required=True, help="output file")
    ep.set_defaults(handler=_export)


def _add_compare(sub: Any) -> None:
    """Add the compare command."""
    cp = sub.add_parser(
        "compare",
        help="run several methods on one instance and print one table",
        description="Run methods on one instance, one after the other, and print one table: status, objective, "
        "bound, gap to the best bound any of them certified, and time. A method that refuses the instance "
        "(its size, its k) gets a row saying so.",
    )
    cp.add_argument("instance", help="instance JSON file")
    which = cp.add_mutually_exclusive_group(required=True)
    which.add_argument("--methods", "-m", type=_names, metavar="A,B,...", help="comma-separated method names")
    which.add_argument("--all", action="store_true", help="every method of the instance's family")
    _add_time_limit(cp, "seconds per method")
    cp.add_argument("--seed", type=int, default=0, help="random seed of every method (default 0)")
    cp.add_argument("--repair", action="store_true", help="repair profiles breaking the model's assumptions")
    cp.add_argument("-o", "--output", default=None, help="also write the table to this CSV file")
    cp.set_defaults(handler=_compare)


def _add_methods(sub: Any) -> None:
    """Add the methods command."""
    mp = sub.add_parser(
        "methods",
        help="list the registered methods (and their options)",
        description="List the registered methods of every family (or of FAMILY): name, exact or heuristic, what "
        "it does; with --options, each option's name, type, default, range and meaning (set with -O NAME=VALUE).",
    )
    mp.add_argument("family", nargs="?", default=None, help="only this family (default: every family)")
    mp.add_argument("--options", action="store_true", help="list each method's options: type, default, meaning")
    mp.add_argument("--method", "-m", default=None, help="only this method")
    mp.set_defaults(handler=_methods)


def _add_family_commands(sub: Any, with_families: bool = True) -> None:
    """Add the commands registered by the families (coschedopt FAMILY COMMAND) and the toolkit's own
    (``bench``, ``traces``: registered at ``import coschedopt``, the only ones without the families)."""
    family_parsers: dict[str, Any] = {}
    for c in commands() if with_families else [c for (fam, _), c in sorted(COMMANDS.items()) if fam is None]:
        fam, name = c.family, c.name
        if fam is None:
            cp = sub.add_parser(name, help=c.help, description=c.help)
        else:
            if fam not in family_parsers:
                fp = sub.add_parser(fam, help=f"commands of family {fam!r}", description=get_family(fam).description)
                family_parsers[fam] = fp.add_subparsers(title="commands", metavar="COMMAND")
            cp = family_parsers[fam].add_parser(name, help=c.help, description=c.help)
        if not with_families:
            continue  # the top-level help shows the command's line only; its options may need the families
        c.add_arguments(cp)
        if cp.get_default("handler") is None:
            cp.set_defaults(handler=c.run)


def _emit_json(data: Any, output: str) -> None:
    if output in ("-", ""):
        json.dump(data, sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
    else:
        write_json(output, data)


def _generate(args: argparse.Namespace) -> int:
    to_stdout = args.output in ("-", "")
    if not to_stdout:
        check_output_file(args.output)
    kwargs = {d: getattr(args, d) for d in args.generator_dests}
    if args.generator.check_written is not None:  # refused before it is built: its JSON would not fit
        args.generator.check_written(seed=args.seed, **kwargs)
    inst = args.generator.make(seed=args.seed, **kwargs)
    if to_stdout:
        _emit_json(inst.to_dict(), "-")
        print(f"generated {inst.name}: {_describe(inst)}", file=sys.stderr)
    else:
        save_instance(inst, args.output)
        print(f"wrote {args.output}: {_describe(inst)}", file=sys.stderr)
    return 0


def _parse_options(pairs: list[str], options: type[MethodOptions] | None = None) -> dict[str, Any]:
    """``-O NAME=VALUE`` pairs as values; ``options`` (the method's) decides how each VALUE reads."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise InputError(f"expected NAME=VALUE, got {pair!r}", where="--option")
        name = name.replace("-", "_")
        out[name] = parse_option_text(raw) if options is None else options.parse_text(name, raw)
    return out


def _help_options(args: argparse.Namespace) -> int:
    """``solve --method M --help-options``: the options of M (of the instance's family if one is given)."""
    fams = [_load_instance(args.instance).kind] if args.instance else list_families()
    found = []
    for fam in fams:
        try:
            found.append(get_method(fam, args.method))
        except InputError:
            if len(fams) == 1:
                raise
    if not found:
        known = ", ".join(methods())
        raise InputError(f"no family has a method {args.method!r}; known: {known}", where="--method")
    for m in found:
        print(f"{m.family} {m.name}: {m.description}")
        print("\n".join(f"  {line}" for line in options_table(m.options.specs())))
    return 0


def _load_instance(path: str, *, repair: bool = False) -> Any:
    """An instance file, or a known trace's name (``KTH-SP2``, ``curie``) when no file has that name: the
    trace is looked up as ``--trace`` looks it up (the cache, ``COSCHEDOPT_TRACES``), and read by the family
    that reads its files."""
    if not Path(path).exists():
        from .workloads import traces

        if traces.info(path) is not None:
            return load_instance(traces.locate(path), repair=repair)
    return load_instance(path, repair=repair)


def _solve(args: argparse.Namespace) -> int:
    if args.help_options:
        return _help_options(args)
    if not args.instance:
        args.parser.error("the following arguments are required: instance")
    steps = SolveSteps() if args.verbose else None
    inst = _load_instance(args.instance, repair=args.repair)
    if steps:
        steps.mark("reading")
    m = get_method(inst.kind, args.method)  # unknown method: clear error before any work
    options = _parse_options(args.option, m.options)
    try:
        opts = check_options(m, options)
    except InputError as exc:
        raise InputError(exc.message, where=f"--option {exc.where}") from None
    if args.output:
        check_output_file(args.output)  # before the work, not after it
    time_limit = effective_time_limit(args.time_limit, m.exact)
    stream = args.status_stream or sys.stderr
    live = args.live_status(stream, m.name, time_limit) if _live_status_wanted(args, stream) else None
    with stop_on_interrupt() as stop, live or contextlib.nullcontext():  # a first Ctrl-C: the best result so far
        try:
            res = core_solve(
                inst,
                args.method,
                time_limit=time_limit,
                seed=args.seed,
                verbose=args.verbose,
                options=opts,
                timings=steps.inner if steps else None,
            )
        except MethodRefused as exc:  # the instance is beyond what the method takes: name the file
            raise exc.located(str(args.instance)) from None
    if steps:
        steps.mark("solve")
    interrupted = _mark_interrupted(res, stop.requested)
    data = res.to_dict()
    if args.output:
        write_json(args.output, {**data, "instance": inst.to_dict()})
    if steps:
        steps.mark("writing")
    if args.json:
        _emit_json(data, "-")
    else:
        _print_result(args, inst, res, time_limit)
    if args.output:
        print(f"wrote {args.output}: the result of {res.method} and its instance", file=sys.stderr)
    if steps:
        steps.mark("summary")
        print(steps.report(), file=sys.stderr)
    if interrupted:
        print("coschedopt: interrupted: the best schedule and bound found so far are above", file=sys.stderr)
        return 130
    return 0 if res.status is not Status.ERROR else 1


class SolveSteps:
    """CPU seconds of a command-line solve's steps, for ``solve -v``: :meth:`mark` closes the step run since
    the last mark; the first step, ``imports``, is the process's CPU before the command started (the
    interpreter, the imports, the plug-ins, the command line).  ``inner`` receives the steps of
    :func:`coschedopt.core.solve` (``prepare``, ``method``, ``validation``), which replace the ``solve`` step."""

    def __init__(self) -> None:
        self.last = time.process_time()
        self.steps: list[tuple[str, float]] = [("imports", self.last)]
        self.inner: dict[str, float] = {}

    def mark(self, name: str) -> None:
        now = time.process_time()
        self.steps.append((name, now - self.last))
        self.last = now

    def report(self) -> str:
        """One line: each step's CPU seconds and the total (the simulation is the method's step)."""
        names = {"method": "simulation"}
        parts: list[tuple[str, float]] = []
        for name, seconds in self.steps:
            if name == "solve" and self.inner:
                inner = [(names.get(k, k), v) for k, v in self.inner.items()]
                parts += inner + [("other", seconds - sum(v for _, v in inner))]
            else:
                parts.append((name, seconds))
        total = sum(v for _, v in parts)
        shown = ", ".join(f"{name} {v:.3f}" for name, v in parts if name != "other" or v >= 0.0005)
        return f"CPU seconds: {shown}; total {total:.3f}"


def _live_status_wanted(args: argparse.Namespace, stream: Any) -> bool:
    """A live status line on ``stream``: on a terminal only, not with ``-q``, nor with ``-v`` (whose log
    lines it would cut)."""
    return not (args.quiet or args.verbose) and bool(getattr(stream, "isatty", lambda: False)())


class LiveStatus:
    """One line on a terminal, rewritten in place while a method runs: the elapsed time, and the incumbent,
    bound and gap the method or its solver reports (:mod:`coschedopt.core.progress`); erased at the end, so
    that the summary follows as if it had never been there.  Nothing is shown in the first ``delay``
    seconds (a quick solve does not flicker); the line is redrawn every ``period`` seconds, and on a report
    at most that often (a test passes 0 for both: every report redraws, no timing involved)."""

    def __init__(
        self, stream: Any, method: str, time_limit: float | None, *, delay: float = 1.0, period: float = 0.5
    ) -> None:
        self.stream, self.method, self.time_limit = stream, method, time_limit
        self.delay, self.period = delay, period
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._shown = False
        self._last = -math.inf
        self._latest: Any = None

    def line(self, elapsed: float, p: Any) -> str:
        """The status text: ``easy: 12 s of 600  incumbent 87.96  bound 80.1  gap 8.9 %  ...``."""
        limit = f" of {self.time_limit:g}" if self.time_limit is not None else ""
        parts = [f"{self.method}: {elapsed:.0f} s{limit}"]
        if p is not None and p.incumbent is not None:
            parts.append(f"incumbent {_fmt(p.incumbent)}")
        if p is not None and p.bound is not None:
            parts.append(f"bound {_fmt(p.bound)}")
        gap = None if p is None else p.gap
        if gap is not None:
            own = p.incumbent is not None and p.bound is not None
            parts.append(f"{'gap' if own else 'solver gap'} {100 * gap:.2f} %")
        parts.append("(Ctrl-C: stop, keep the best; -v: the solver's log)")
        return "  ".join(parts)

    def _draw(self, force: bool = False) -> None:
        with self._lock:
            now = time.perf_counter()
            elapsed = now - self._start
            if self._done.is_set() or elapsed < self.delay or (not force and now - self._last < self.period):
                return
            width = shutil.get_terminal_size((100, 24)).columns
            text = self.line(elapsed, self._latest())[: max(20, width - 1)]
            self.stream.write(f"\r{text}\x1b[K")
            self.stream.flush()
            self._shown, self._last = True, now

    def _tick(self) -> None:
        while not self._done.wait(self.period):
            self._draw(force=True)

    def __enter__(self) -> LiveStatus:
        from .core import progress

        # a copy of the terminal's descriptor: a library that captures file descriptor 2 while its solver
        # runs (Pyomo's HiGHS interface) would swallow the line written to sys.stderr
        self._own = None
        with contextlib.suppress(AttributeError, OSError, ValueError):
            self._own = os.fdopen(os.dup(self.stream.fileno()), "w", encoding="utf-8", errors="replace")
        if self._own is not None:
            self.stream = self._own
        self._start = time.perf_counter()
        self._listening = progress.listen(lambda _: self._draw())
        self._latest = self._listening.__enter__()
        self._thread = threading.Thread(target=self._tick, name="coschedopt-status", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        self._listening.__exit__(None, None, None)
        with self._lock:
            if self._shown:
                self.stream.write("\r\x1b[K")  # erase the line: the summary takes its place
                self.stream.flush()
            if self._own is not None:
                self._own.close()


def _mark_interrupted(res: Any, requested: bool) -> bool:
    """Whether Ctrl-C stopped the method (``stats["stopped_by"]``, or seen by the CLI); says so in ``res``."""
    if not (requested or res.stats.get("stopped_by") == "interrupt"):
        return False
    res.stats["interrupted"] = True
    if not res.message.startswith("interrupted"):
        res.message = f"interrupted: {res.message}" if res.message else "interrupted"
    return True


def _print_result(args: argparse.Namespace, inst: Any, res: Any, time_limit: float | None) -> None:
    fam = get_family(inst.kind)
    if time_limit is None:
        limit = "none"
    elif args.time_limit is None:
        limit = f"{time_limit:g} s (default of exact methods; --time-limit none lifts it)"
    else:
        limit = f"{time_limit:g} s"
    rows = [
        ("instance", f"{inst.name} ({_describe(inst)})"),
        ("method", res.method),
        ("status", str(res.status)),
        (fam.objective_name, _fmt(res.objective)),
    ]
    if res.lower_bound is not None:  # a heuristic certifies none: no line for it
        rows.append(
            (f"{'lower' if fam.sense == 'min' else 'upper'} bound certified by {res.method}", _fmt(res.lower_bound))
        )
    if res.gap is not None:
        rows.append(("gap", f"{100 * res.gap:.4f} %"))
    rows += [("runtime", f"{res.runtime:.3f} s"), ("time limit", limit)]
    if res.message:
        rows.append(("message", res.message))
    if res.schedule is not None and fam.metrics is not None:
        # the bounds of the instance that ratio metrics divide by, named as in the metrics' names
        # (makespan_over_area_bound: area_bound), apart from the method's own bound above
        if fam.instance_bounds is not None:
            rows += [(key, _fmt(val)) for key, val in fam.instance_bounds(inst).items()]
        # one line per quantity: a metric that is the objective (sum_flow beside "sum flow") is already there
        shown = {key.replace(" ", "_") for key, _ in rows}
        metrics = fam.metrics(inst, res.schedule).items()
        rows += [(key, _fmt(val, digits=4)) for key, val in metrics if key.replace(" ", "_") not in shown]
    width = max(len(key) for key, _ in rows)
    print("\n".join(f"{key:<{width}}  {val}" for key, val in rows))


def _validate(args: argparse.Namespace) -> int:
    try:
        inst = _load_instance(args.instance, repair=args.repair)
    except InputError as exc:
        if "not an instance" in exc.message:  # a solution first: the two files were given the other way round
            first = args.solution if _is_instance(args.solution) else "INSTANCE"
            raise InputError(
                f"{exc.message}; the instance comes first: coschedopt validate {first} {args.instance}", where=exc.where
            ) from None
        raise
    schedule = load_schedule(inst, args.solution)
    note = _other_instance_note(args.solution, inst, args.instance)
    if note:
        print(f"coschedopt: note: {note}", file=sys.stderr)
    try:
        core_validate(inst, schedule)
    except ValueError as exc:
        print(f"coschedopt: invalid: {args.solution}: {exc}", file=sys.stderr)
        return 1
    fam = get_family(inst.kind)
    print(f"valid: {fam.objective_name} = {fam.objective(inst, schedule):.6g}")
    return 0


def _is_instance(path: str) -> bool:
    """Whether ``path`` reads as an instance (of any family)."""
    try:
        _load_instance(path)
    except InputError:
        return False
    return True


def _other_instance_note(solution: str, inst: Any, instance_path: str) -> str | None:
    """A warning when ``solution`` embeds an instance other than ``inst`` (same task names, say)."""
    data = read_json(solution)
    embedded = data.get("instance") if isinstance(data, dict) else None
    if not isinstance(embedded, dict):
        return None
    try:
        same = instance_from_dict(embedded).to_dict() == inst.to_dict()
    except InputError:
        same = False
    if same:
        return None
    return (
        f"{solution} was made for instance {embedded.get('name', '?')!r}, which differs from "
        f"{instance_path} ({inst.name!r}); checking it against {instance_path}"
    )


def _solution_and_instance(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """The solution file's JSON, its instance (``--instance`` or embedded) and its checked schedule."""
    data = read_json(args.solution)
    if args.instance:
        inst = _load_instance(args.instance)
    elif isinstance(data, dict) and isinstance(data.get("instance"), dict):
        try:
            inst = instance_from_dict(data["instance"])
        except InputError as exc:
            raise exc.located(f"{args.solution}: instance") from None
    elif isinstance(data, dict) and "kind" in data and "schedule" not in data:
        raise InputError(
            f"this file is a {data['kind']!r} instance, not a solution: solve it first "
            f"(coschedopt solve {args.solution} -m METHOD -o sol.json), then draw sol.json",
            where=args.solution,
        )
    else:
        raise InputError("no embedded instance: pass --instance FILE", where=args.solution)
    schedule = load_schedule(inst, args.solution)
    core_validate(inst, schedule)
    return data, inst, schedule


def _export(args: argparse.Namespace) -> int:
    check_output_file(args.output)
    _, inst, schedule = _solution_and_instance(args)
    fam = get_family(inst.kind)
    if not fam.exporters:
        raise InputError(f"family {fam.kind!r} has no export format", where="--format")
    fmt = args.format or next(iter(fam.exporters))
    if fmt not in fam.exporters:
        raise InputError(
            f"unknown format {fmt!r} for {fam.kind!r}; known: {', '.join(fam.exporters)}", where="--format"
        )
    try:
        fam.exporters[fmt](inst, schedule, Path(args.output))
    except OSError as exc:
        raise output_error(args.output, exc) from None
    print(f"wrote {args.output} ({fmt})", file=sys.stderr)
    return 0


def _plot(args: argparse.Namespace) -> int:
    from .viz import plot_schedule, save_figure
    from .viz.figure import check_image_path

    check_image_path(args.output)
    data, inst, schedule = _solution_and_instance(args)
    title = args.title or f"{inst.name} — {data.get('method', '') if isinstance(data, dict) else ''}".strip(" —")
    path = save_figure(plot_schedule(inst, schedule, title=title), args.output)
    print(f"wrote {path}", file=sys.stderr)
    return 0


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"expected comma-separated method names, got {text!r}")
    return names


COMPARE_COLUMNS = ("method", "kind", "status", "objective", "bound", "gap_to_best_bound", "runtime_s", "message")


def compare_rows(inst: Any, names: list[str], given_limit: float | None, seed: int) -> tuple[list[dict], bool]:
    """One row per method (see :data:`COMPARE_COLUMNS`) and whether Ctrl-C cut the comparison short.

    ``gap_to_best_bound`` compares each objective with the best bound any method
    certified (the largest lower bound when minimising, the smallest upper bound
    when maximising): an upper limit on its gap to the optimum.
    """
    fam = get_family(inst.kind)
    rows: list[dict[str, Any]] = []
    interrupted = False
    for name in names:
        m = get_method(inst.kind, name)
        row: dict[str, Any] = dict.fromkeys(COMPARE_COLUMNS)
        row.update(method=m.name, kind="exact" if m.exact else "heuristic", message="")
        print(f"compare: {m.name} ...", file=sys.stderr)
        try:
            with stop_on_interrupt() as stop:
                res = core_solve(inst, m.name, time_limit=effective_time_limit(given_limit, m.exact), seed=seed)
        except MethodRefused as exc:
            row.update(status="REFUSED", message=str(exc))
        except KeyboardInterrupt:
            interrupted = True
            break
        except Exception as exc:  # one failing method must not lose the others' rows
            row.update(status="ERROR", message=f"{type(exc).__name__}: {exc}")
        else:
            row.update(
                status=str(res.status),
                objective=res.objective,
                bound=res.lower_bound,
                runtime_s=res.runtime,
                message=res.message,
            )
            interrupted = _mark_interrupted(res, stop.requested)
            row["message"] = res.message
        rows.append(row)
        if interrupted:
            break
    bounds = [r["bound"] for r in rows if r["bound"] is not None]
    best = (max if fam.sense == "min" else min)(bounds) if bounds else None
    sign = 1 if fam.sense == "min" else -1
    for r in rows:
        if r["objective"] is not None and best is not None and best != 0:
            r["gap_to_best_bound"] = max(0.0, sign * (r["objective"] - best) / abs(best))
    return rows, interrupted


def _compare(args: argparse.Namespace) -> int:
    inst = _load_instance(args.instance, repair=args.repair)
    names = methods(inst.kind) if args.all else [get_method(inst.kind, n).name for n in args.methods]
    if args.output:
        check_output_file(args.output, example="compare.csv")
    rows, interrupted = compare_rows(inst, names, args.time_limit, args.seed)
    fam = get_family(inst.kind)
    shown = [
        [
            r["method"],
            r["kind"],
            r["status"],
            _fmt(r["objective"]),
            _fmt(r["bound"]),
            "-" if r["gap_to_best_bound"] is None else f"{100 * r['gap_to_best_bound']:.3f} %",
            "-" if r["runtime_s"] is None else f"{r['runtime_s']:.3f}",
            (r["message"] or "")[:60],
        ]
        for r in rows
    ]
    head = ["method", "kind", "status", fam.objective_name, "bound", "gap to best bound", "time (s)", "message"]
    widths = [max(len(h), *(len(row[i]) for row in shown)) for i, h in enumerate(head)]
    print(f"{inst.name} ({_describe(inst)})")
    for row in [head, *shown]:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    if args.output:
        import csv
        import io

        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=COMPARE_COLUMNS)
        writer.writeheader()
        writer.writerows({k: ("" if v is None else v) for k, v in r.items()} for r in rows)
        write_text(args.output, buf.getvalue())
        print(f"wrote {args.output}", file=sys.stderr)
    if interrupted:
        print("coschedopt: interrupted: the methods run so far are above", file=sys.stderr)
        return 130
    return 0


def _methods(args: argparse.Namespace) -> int:
    fams = [args.family] if args.family else list_families()
    if args.family and args.family not in list_families():
        raise InputError(f"unknown family {args.family!r}; known: {', '.join(list_families())}", where="FAMILY")
    for fam in fams:
        names = methods(fam)
        if args.method is not None:
            names = [get_method(fam, args.method).name]
        lines = [f"{fam}:"]
        for name in names:
            m = get_method(fam, name)
            kind = "probe" if m.probe else "exact" if m.exact else "heuristic"
            lines.append(f"  {name:<18} {kind:<9}  {m.description}")
            if args.options:
                lines += [f"      {line}" for line in options_table(m.options.specs())]
        print("\n".join(lines))
    return 0


def options_table(specs: list[Any]) -> list[str]:
    """Lines listing options: name, type, default, constraint and meaning (advanced ones last)."""
    if not specs:
        return ["(no options)"]
    out = []
    for advanced in (False, True):
        rows = [s for s in specs if s.advanced is advanced]
        if advanced and rows:
            out.append("advanced (tuning knobs):")
        for s in rows:
            extra = f"; {s.constraint}" if s.constraint else ""
            out.append(f"-O {s.name}=  ({s.type}, default {s.default!r}{extra})  {s.help}")
    return out


def _describe(inst: Any) -> str:
    fam = get_family(inst.kind)
    if fam.describe is None:
        return inst.kind
    return ", ".join(f"{k}={v}" for k, v in fam.describe(inst).items())


def _fmt(x: float | None, *, digits: int = 6) -> str:
    """A number for a person: a whole number in full (a count, a time in whole seconds: 20480, not
    2.048e+04), a large one to the unit, any other with ``digits`` significant digits; ``-`` for none."""
    if x is None:
        return "-"
    if isinstance(x, bool):
        return str(x)
    if math.isfinite(x) and abs(x) < 1e15 and (float(x).is_integer() or abs(x) >= 10**digits):
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


if __name__ == "__main__":
    sys.exit(main())
