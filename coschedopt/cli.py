"""The ``coschedopt`` command (``coschedopt --help`` lists everything).

Results go to stdout (``solve --json`` prints exactly one JSON object); logs,
progress and errors go to stderr.  Bad input exits with status 2 and one line
naming the file, field and value; nothing already written is touched.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .core import (
    InputError,
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
from .core.commands import COMMANDS, expand_aliases, generators
from .core.io import instance_from_dict, save_instance, write_json
from .core.options import parse_option_text


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(expand_aliases(argv, list_families()))
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="coschedopt",
        description="Exact solvers and published heuristics for co-scheduling parallel applications.",
    )
    parser.add_argument("--version", action="version", version=f"coschedopt {__version__}")
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    gen = sub.add_parser(
        "generate",
        help="generate an instance: coschedopt generate FAMILY GENERATOR [options]",
        description="Generate an instance with one of a family's generators.",
    )
    fsub = gen.add_subparsers(title="families", metavar="FAMILY")
    for kind in list_families():
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

    sp = sub.add_parser("solve", help="solve an instance with a registered method")
    sp.add_argument("instance", help="instance JSON file")
    sp.add_argument("--method", "-m", required=True, help="method name (see 'coschedopt methods')")
    sp.add_argument("--time-limit", "-t", type=float, default=None, help="seconds; returns the best found so far")
    sp.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sp.add_argument(
        "--option", "-O", action="append", default=[], metavar="NAME=VALUE", help="method option (JSON value)"
    )
    sp.add_argument("--repair", action="store_true", help="repair profiles breaking the model's assumptions")
    sp.add_argument("--json", action="store_true", help="print exactly one JSON object (the Result) on stdout")
    sp.add_argument("--verbose", "-v", action="store_true", help="progress of the method on stderr")
    sp.add_argument("-o", "--output", default=None, help="write the solution (result + instance) to this JSON file")
    sp.set_defaults(handler=_solve)

    vp = sub.add_parser("validate", help="check a solution file against an instance")
    vp.add_argument("instance")
    vp.add_argument("solution", help="solution JSON (a 'solve -o' file, a Result or a bare schedule)")
    vp.add_argument("--repair", action="store_true")
    vp.set_defaults(handler=_validate)

    pp = sub.add_parser("plot", help="draw a solution (pack diagram, Gantt chart)")
    pp.add_argument("solution", help="solution JSON written by 'solve -o'")
    pp.add_argument("--instance", default=None, help="instance JSON (default: the one embedded in the solution)")
    pp.add_argument("-o", "--output", required=True, help="image file (.png, .svg, .pdf)")
    pp.add_argument("--title", default=None)
    pp.set_defaults(handler=_plot)

    ep = sub.add_parser("export", help="write a solution in another format of its family (e.g. the evalys jobs CSV)")
    ep.add_argument("solution", help="solution JSON written by 'solve -o'")
    ep.add_argument("--instance", default=None, help="instance file (default: the one embedded in the solution)")
    ep.add_argument("--format", "-f", default=None, help="export format (default: the family's first)")
    ep.add_argument("-o", "--output", required=True, help="output file")
    ep.set_defaults(handler=_export)

    mp = sub.add_parser("methods", help="list the registered methods (and their options)")
    mp.add_argument("family", nargs="?", default=None)
    mp.add_argument("--options", action="store_true", help="list each method's options: type, default, meaning")
    mp.add_argument("--method", "-m", default=None, help="only this method")
    mp.set_defaults(handler=_methods)

    family_parsers: dict[str, Any] = {}
    for (fam, name), c in sorted(COMMANDS.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        if fam is None:
            cp = sub.add_parser(name, help=c.help, description=c.help)
        else:
            if fam not in family_parsers:
                fp = sub.add_parser(fam, help=f"commands of family {fam!r}", description=get_family(fam).description)
                family_parsers[fam] = fp.add_subparsers(title="commands", metavar="COMMAND")
            cp = family_parsers[fam].add_parser(name, help=c.help, description=c.help)
        c.add_arguments(cp)
        if cp.get_default("handler") is None:
            cp.set_defaults(handler=c.run)
    return parser


def _emit_json(data: Any, output: str) -> None:
    if output in ("-", ""):
        json.dump(data, sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
    else:
        write_json(output, data)


def _generate(args: argparse.Namespace) -> int:
    kwargs = {d: getattr(args, d) for d in args.generator_dests}
    inst = args.generator.make(seed=args.seed, **kwargs)
    if args.output in ("-", ""):
        _emit_json(inst.to_dict(), "-")
    else:
        save_instance(inst, args.output)
        print(f"wrote {args.output}: {_describe(inst)}", file=sys.stderr)
    return 0


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise InputError(f"expected NAME=VALUE, got {pair!r}", where="--option")
        out[name.replace("-", "_")] = parse_option_text(raw)
    return out


def _solve(args: argparse.Namespace) -> int:
    inst = load_instance(args.instance, repair=args.repair)
    get_method(inst.kind, args.method)  # unknown method: clear error before any work
    options = _parse_options(args.option)
    try:
        opts = check_options(get_method(inst.kind, args.method), options)
    except InputError as exc:
        raise InputError(exc.message, where=f"--option {exc.where}") from None
    res = core_solve(inst, args.method, time_limit=args.time_limit, seed=args.seed, verbose=args.verbose, options=opts)
    data = res.to_dict()
    if args.output:
        write_json(args.output, {**data, "instance": inst.to_dict()})
    if args.json:
        _emit_json(data, "-")
    else:
        fam = get_family(inst.kind)
        rows = [
            ("instance", f"{inst.name} ({_describe(inst)})"),
            ("method", res.method),
            ("status", str(res.status)),
            (fam.objective_name, _fmt(res.objective)),
            ("lower bound", _fmt(res.lower_bound)),
            ("gap", "-" if res.gap is None else f"{100 * res.gap:.4f} %"),
            ("runtime", f"{res.runtime:.3f} s"),
        ]
        if res.message:
            rows.append(("message", res.message))
        if res.schedule is not None and fam.metrics is not None:
            rows += [(key, f"{val:.4g}") for key, val in fam.metrics(inst, res.schedule).items()]
        if args.output:
            rows.append(("written", args.output))
        width = max(len(key) for key, _ in rows)
        print("\n".join(f"{key:<{width}}  {val}" for key, val in rows))
    return 0 if res.status is not Status.ERROR else 1


def _validate(args: argparse.Namespace) -> int:
    inst = load_instance(args.instance, repair=args.repair)
    schedule = load_schedule(inst, args.solution)
    try:
        core_validate(inst, schedule)
    except ValueError as exc:
        print(f"coschedopt: invalid: {args.solution}: {exc}", file=sys.stderr)
        return 1
    fam = get_family(inst.kind)
    print(f"valid: {fam.objective_name} = {fam.objective(inst, schedule):.6g}")
    return 0


def _solution_and_instance(args: argparse.Namespace) -> tuple[Any, Any, Any]:
    """The solution file's JSON, its instance (``--instance`` or embedded) and its checked schedule."""
    data = read_json(args.solution)
    if args.instance:
        inst = load_instance(args.instance)
    elif isinstance(data, dict) and isinstance(data.get("instance"), dict):
        try:
            inst = instance_from_dict(data["instance"])
        except InputError as exc:
            raise exc.located(f"{args.solution}: instance") from None
    else:
        raise InputError("no embedded instance: pass --instance FILE", where=args.solution)
    schedule = load_schedule(inst, args.solution)
    core_validate(inst, schedule)
    return data, inst, schedule


def _export(args: argparse.Namespace) -> int:
    _, inst, schedule = _solution_and_instance(args)
    fam = get_family(inst.kind)
    if not fam.exporters:
        raise InputError(f"family {fam.kind!r} has no export format", where="--format")
    fmt = args.format or next(iter(fam.exporters))
    if fmt not in fam.exporters:
        raise InputError(
            f"unknown format {fmt!r} for {fam.kind!r}; known: {', '.join(fam.exporters)}", where="--format"
        )
    fam.exporters[fmt](inst, schedule, Path(args.output))
    print(f"wrote {args.output} ({fmt})", file=sys.stderr)
    return 0


def _plot(args: argparse.Namespace) -> int:
    from .viz import plot_schedule

    data, inst, schedule = _solution_and_instance(args)
    title = args.title or f"{inst.name} — {data.get('method', '') if isinstance(data, dict) else ''}".strip(" —")
    plot_schedule(inst, schedule, args.output, title=title)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _methods(args: argparse.Namespace) -> int:
    fams = [args.family] if args.family else list_families()
    for fam in fams:
        names = methods(fam)  # an unknown family raises before anything is printed
        if args.method is not None:
            names = [get_method(fam, args.method).name]
        lines = [f"{fam}:"]
        for name in names:
            m = get_method(fam, name)
            lines.append(f"  {name:<18} {'exact    ' if m.exact else 'heuristic'}  {m.description}")
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


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.6g}"


if __name__ == "__main__":
    sys.exit(main())
