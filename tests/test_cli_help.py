"""Help that shows the way: every command and option explained, the families and examples on the top-level
help, each method's options from the command line and from Python, and every command that writes a file
saying which file it wrote."""

from __future__ import annotations

import argparse
import json

import pytest

import coschedopt as cs
from coschedopt.cli import TOP_EXAMPLES, build_parser, main
from coschedopt.core import families, get_family
from coschedopt.core.plugins import TOOLKIT, loaded_plugins


def _undocumented(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> list[str]:
    """Every command under ``parser`` without a description or help, every option (but -h) without help."""
    bad = [] if (parser.description or "").strip() else [f"{' '.join(path)}: no description"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                if not (helps.get(name) or "").strip():
                    bad.append(f"{' '.join((*path, name))}: no help line in {' '.join(path)}'s list")
                bad += _undocumented(sub, (*path, name))
        elif not (action.help or "").strip() or action.help == argparse.SUPPRESS:
            bad.append(f"{' '.join(path)}: option {'/'.join(action.option_strings) or action.dest} has no help")
    return bad


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _commands(sub, (*path, name))
    return out


def test_every_command_and_option_of_the_whole_tree_has_help():
    parser = build_parser()
    walked = _commands(parser)
    # the walk reaches the generators, the families' own commands and the toolkit's nested ones
    for expected in [("generate", "locality", "tight"), ("batch", "gantt"), ("bench", "report"), ("traces",)]:
        assert expected in walked
    assert _undocumented(parser, ("coschedopt",)) == []


def test_the_walk_catches_a_command_or_an_option_without_help():
    parser = argparse.ArgumentParser(prog="x", description="d")
    sub = parser.add_subparsers()
    child = sub.add_parser("child", help="h")  # no description
    child.add_argument("--bare")
    assert _undocumented(parser, ("x",)) == ["x child: no description", "x child: option --bare has no help"]


def test_top_level_help_lists_every_family_plug_ins_and_three_examples(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ") and line.split()}
    for kind in families():  # from the registry: a plug-in's family would be here too
        assert kind in rows and get_family(kind).description.split(": ")[0] in rows[kind]
    for name, (dist, _) in loaded_plugins().items():
        if dist != TOOLKIT:
            assert f"{name} (package {dist})" in out
    assert len(TOP_EXAMPLES) == 3 and all(example in out for example in TOP_EXAMPLES)


def test_validate_help_has_a_description_and_repair_says_what_it_does(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    out = capsys.readouterr().out
    assert "independent validator" in out and "repair the instance's profiles" in out


@pytest.mark.parametrize("argv", [["generate", "batch", "weeks"], ["generate", "batch", "offline"]])
def test_the_trace_help_names_the_folders_traces_are_looked_up_in(argv, tmp_path, monkeypatch, capsys):
    first, second = tmp_path / "a", tmp_path / "b"
    monkeypatch.setenv("COSCHEDOPT_TRACES", f"{first}:{second}")
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    out = capsys.readouterr().out
    help_text = " ".join(out.split())  # argparse wraps lines (at spaces and after hyphens)
    assert "$COSCHEDOPT_TRACES" in help_text and "trace cache" in help_text
    assert f"{first},{second}" in "".join(out.split())  # the folders searched, in order


def test_options_of_a_method_from_the_command_line_and_from_python(capsys):
    specs = cs.options("hybrid", "dual2")
    names = [s.name for s in specs]
    assert names[:4] == ["stop", "eps", "start", "list_order"]
    by_name = {s.name: s for s in specs}
    assert by_name["list_order"].default == "paper" and "list order" in by_name["list_order"].help
    assert cs.options("pack", "enumerate") == []  # a method without options
    with pytest.raises(cs.InputError, match="unknown method"):
        cs.options("hybrid", "nosuch")
    assert main(["methods", "hybrid", "--options"]) == 0
    out = capsys.readouterr().out
    for s in specs:  # each option's name, default and meaning, as the Python API gives them
        assert f"-O {s.name}=  ({s.type}, default {s.default!r}" in out and s.help in out


def _wrote(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("wrote ")]


def test_commands_that_write_a_file_say_which(tmp_path, capsys):
    inst, sol, gantt, image = tmp_path / "b.json", tmp_path / "s.json", tmp_path / "g.png", tmp_path / "p.png"
    assert main(["generate", "batch", "random", "--jobs", "8", "--processors", "4", "-o", str(inst)]) == 0
    assert _wrote(capsys.readouterr().err)[0].startswith(f"wrote {inst}")
    assert main(["solve", str(inst), "-m", "fcfs", "--json", "-o", str(sol)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "FEASIBLE"  # stdout keeps its one JSON object
    assert _wrote(err) == [f"wrote {sol}: the result of fcfs and its instance"] and sol.is_file()
    assert main(["batch", "gantt", str(sol), "-o", str(gantt)]) == 0
    (line,) = _wrote(capsys.readouterr().err)
    assert line.startswith(f"wrote {gantt}") and gantt.read_bytes()[:4] == b"\x89PNG"
    assert main(["plot", str(sol), "-o", str(image)]) == 0
    assert _wrote(capsys.readouterr().err) == [f"wrote {image}"]


def test_bench_export_says_which_file_it_wrote(tmp_path, capsys):
    suite = tmp_path / "s.toml"
    suite.write_text(
        '[suite]\nfamily = "locality"\n[[instances]]\ngenerator = "tight"\n[[methods]]\nname = "nfdh-ls"\n'
    )
    db, csv = tmp_path / "r.sqlite", tmp_path / "r.csv"
    assert main(["bench", "run", str(suite), "--db", str(db), "--workers", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", "export", "--db", str(db), "-o", str(csv)]) == 0
    assert _wrote(capsys.readouterr().err) == [f"wrote {csv}: 1 rows"] and csv.is_file()


@pytest.mark.parametrize(("which", "constraint", "optimum"), [("I1", "contiguous+local", 2), ("rcs-note", "local", 3)])
def test_a_tight_instance_carries_the_constraint_it_is_tight_under(which, constraint, optimum, tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["generate", "locality", "tight", "--which", which, "-o", str(path)]) == 0
    assert json.loads(path.read_text())["constraint"] == constraint
    inst = cs.load_instance(path)
    assert cs.solve(inst, "cpsat", workers=1).objective == optimum  # the constrained optimum the theorems name
    free = cs.solve(inst.with_constraint("none"), "cpsat", workers=1).objective
    assert free < optimum  # and without the constraint it is lower: what makes the instance tight
    assert main(["generate", "locality", "tight", "--which", which, "--constraint", "none"]) == 0
    assert json.loads(capsys.readouterr().out)["constraint"] == "none"  # an explicit choice still wins
