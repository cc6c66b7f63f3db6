"""The ``coschedopt`` command, end to end through ``main(argv)`` (no subprocess needed)."""

from __future__ import annotations

import functools
import json
import re

import pytest

from coschedopt.cli import LiveStatus, main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def inst_file(tmp_path, capsys):
    f = tmp_path / "inst.json"
    code, _, err = run(
        capsys, "generate", "random", "--tasks", "6", "--processors", "5", "-k", "3", "--seed", "4", "-o", str(f)
    )
    assert code == 0 and "wrote" in err
    return f


def test_generate_to_stdout_is_an_instance(capsys):
    code, out, _ = run(capsys, "generate", "workload-ii", "--max-pack-size", "4", "--seed", "1")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "pack" and len(data["tasks"]) == 65 and data["max_pack_size"] == 4


def test_solve_json_prints_exactly_one_result(inst_file, capsys):
    code, out, _ = run(capsys, "solve", str(inst_file), "--method", "enumerate", "--json")
    data = json.loads(out)  # exactly one JSON document on stdout
    assert code == 0 and data["status"] == "OPTIMAL" and data["gap"] == 0.0
    assert len({e["task"] for p in data["schedule"]["packs"] for e in p["tasks"]}) == 6


def test_solve_writes_solution_that_validates_and_plots(inst_file, tmp_path, capsys):
    sol, png = tmp_path / "sol.json", tmp_path / "packs.png"
    code, out, _ = run(capsys, "solve", str(inst_file), "-m", "pack-by-pack-9", "-o", str(sol))
    assert code == 0 and "FEASIBLE" in out and "relative_cost" in out
    code, out, _ = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 0 and out.startswith("valid: cost = ")
    code, _, _ = run(capsys, "plot", str(sol), "-o", str(png))
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"


def test_validate_rejects_a_solution_of_another_instance(inst_file, tmp_path, capsys):
    other, sol = tmp_path / "other.json", tmp_path / "sol.json"
    run(capsys, "generate", "random", "--tasks", "4", "--processors", "5", "-k", "3", "-o", str(other))
    run(capsys, "solve", str(other), "-m", "pack-approx", "-o", str(sol))
    code, _, err = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 1 and "not scheduled" in err and "sol.json" in err


def test_validate_rejects_a_malformed_solution(inst_file, tmp_path, capsys):
    sol = tmp_path / "sol.json"
    sol.write_text(json.dumps({"packs": [{"tasks": [{"task": "T1", "processors": "two"}]}]}))
    code, _, err = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 2 and "sol.json: schedule.packs[0].tasks[0].processors: processors must be an integer" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--method", "nope"], "unknown method 'nope' for kind 'pack'"),
        (["--method", "matching"], "matching solves k = 1 or 2"),
        (["--method", "enumerate", "--option", "bogus=1"], "unknown option 'bogus' of method 'enumerate'"),
    ],
)
def test_solve_errors_are_one_clear_line(inst_file, capsys, argv, message):
    code, out, err = run(capsys, "solve", str(inst_file), *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_malformed_json_instance(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    code, _, err = run(capsys, "solve", str(f), "-m", "enumerate")
    assert code == 2 and "bad.json:1:2: malformed JSON" in err


def test_profile_breaking_eq1_needs_repair(tmp_path, capsys):
    f = tmp_path / "inst.json"
    f.write_text(
        json.dumps({"kind": "pack", "processors": 2, "max_pack_size": 2, "tasks": [{"name": "A", "times": [1.0, 2.0]}]})
    )
    code, _, err = run(capsys, "solve", str(f), "-m", "enumerate")
    assert code == 2 and "task 'A' breaks Eq. (1)" in err
    code, out, _ = run(capsys, "solve", str(f), "-m", "enumerate", "--repair", "--json")
    assert code == 0 and json.loads(out)["objective"] == 1.0


def test_methods_lists_exact_and_heuristics(capsys):
    code, out, _ = run(capsys, "methods", "pack")
    assert code == 0
    for name in ("ilp", "ilp-cbc", "enumerate", "matching", "pack-approx", "random-proc-9"):
        assert name in out


@pytest.mark.parametrize(
    ("generate", "method", "options"),
    [
        (["random", "--tasks", "4", "--processors", "3", "-k", "2"], "branch-and-price", []),
        (["random", "--tasks", "3", "--processors", "2", "-k", "2"], "ilp", []),
        (["combos", "--tasks", "3"], "lp", ["-O", 'backend="pyomo"']),
        (["combos", "--tasks", "3"], "lp", ["-O", 'backend="highspy"']),
    ],
)
def test_solve_json_stdout_holds_only_the_result_in_a_fresh_process(tmp_path, generate, method, options):
    # HiGHS >= 1.16 writes a banner on file descriptor 1 when a process builds its first
    # solver object: capsys does not see it, a fresh process's stdout does
    import subprocess
    import sys

    f = tmp_path / "inst.json"
    cli = [sys.executable, "-c", "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"]
    subprocess.run([*cli, "generate", *generate, "-o", str(f)], check=True, capture_output=True)
    out = subprocess.run(
        [*cli, "solve", str(f), "-m", method, *options, "--json"], check=True, capture_output=True, text=True
    )
    data = json.loads(out.stdout)  # fails on anything printed around the JSON document
    assert data["method"] == method and data["status"] == "OPTIMAL"


# --------------------------------------------------------------------------- what a new user trips over


@pytest.fixture
def sol_file(inst_file, tmp_path, capsys):
    sol = tmp_path / "sol.json"
    assert run(capsys, "solve", str(inst_file), "-m", "pack-approx", "-o", str(sol))[0] == 0
    return sol


@pytest.mark.parametrize("command", ["solve", "generate", "plot", "bench export", "bench report"])
@pytest.mark.parametrize("target", ["outdir", "inst.json/out.json", "/proc/coschedopt-out.json"])
def test_output_paths_that_cannot_be_written_are_one_line_naming_the_path(
    inst_file, sol_file, tmp_path, capsys, monkeypatch, command, target
):
    # item 10: IsADirectoryError, FileExistsError, FileNotFoundError, NotADirectoryError were tracebacks
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outdir").mkdir()
    if command in ("plot", "bench export") and target.endswith(".json"):
        target = target.removesuffix(".json") + (".png" if command == "plot" else ".csv")
    if command == "bench report" and target == "outdir":
        target = "inst.json"  # a file where a folder is wanted
    db = tmp_path / "r.sqlite"
    if command.startswith("bench"):
        suite = tmp_path / "s.toml"
        suite.write_text(
            '[suite]\nfamily = "pack"\n[[instances]]\ngenerator = "random"\n'
            "params = { tasks = 3, processors = 2, max_pack_size = 2 }\n"
            '[[methods]]\nname = "pack-approx"\n'
        )
        assert run(capsys, "bench", "run", str(suite), "--db", str(db), "-q", "-j", "1")[0] == 0
    argv = {
        "solve": ["solve", str(inst_file), "-m", "pack-approx", "-o", target],
        "generate": ["generate", "random", "-o", target],
        "plot": ["plot", str(sol_file), "-o", target],
        "bench export": ["bench", "export", "--db", str(db), "-o", target],
        "bench report": ["bench", "report", "--db", str(db), "-o", target],
    }[command]
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, *argv)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert target in err and ("directory" in err or "folder" in err or "cannot write" in err)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written, no temporary file


def test_plot_refuses_an_unknown_image_suffix_before_drawing(sol_file, tmp_path, capsys):
    code, _, err = run(capsys, "plot", str(sol_file), "-o", str(tmp_path / "x.jpgg"))
    assert code == 2 and "x.jpgg: unknown image format '.jpgg'" in err
    assert not (tmp_path / "x.jpgg").exists()


def test_a_closed_pipe_ends_generate_quietly():
    # item 11: `coschedopt generate workload-ii -k 4 | head -c 10` ended with a BrokenPipeError traceback
    import subprocess
    import sys

    cli = [sys.executable, "-c", "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"]
    proc = subprocess.Popen(
        [*cli, "generate", "workload-ii", "-k", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()  # the reader is gone before the first write, as `head -c 10` is after its 10 bytes
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode == 141


def test_plot_says_which_file_it_wrote_and_that_an_instance_is_not_a_solution(inst_file, sol_file, tmp_path, capsys):
    # item 12
    png = tmp_path / "packs.png"
    code, _, err = run(capsys, "plot", str(sol_file), "-o", str(png))
    assert code == 0 and err.strip() == f"wrote {png}" and png.read_bytes()[:4] == b"\x89PNG"
    code, _, err = run(capsys, "plot", str(inst_file), "-o", str(tmp_path / "a.png"))
    assert code == 2 and "inst.json: this file is a 'pack' instance, not a solution" in err
    assert "coschedopt solve" in err and "--instance" not in err
    code, _, err = run(capsys, "validate", str(inst_file), str(inst_file))
    assert code == 2 and "instance, not a solution" in err


def test_methods_of_an_unknown_family_prints_nothing_on_stdout(capsys):
    # item 14
    code, out, err = run(capsys, "methods", "nosuch")
    assert code == 2 and out == "" and "unknown family 'nosuch'; known: " in err and "combos" in err and "pack" in err


def test_generate_names_the_option_out_of_range_and_shows_defaults(capsys):
    # item 14: `-n 0` reported the table shape; `workload-ii` used k = 16 silently
    code, _, err = run(capsys, "generate", "random", "-n", "0")
    assert code == 2 and "--tasks: must be a positive integer <= 100,000, got 0" in err
    code, _, err = run(capsys, "generate", "workload-ii")
    assert code == 0 and "k=16" in err
    with pytest.raises(SystemExit):
        main(["generate", "pack", "workload-ii", "--help"])
    assert "k, the most tasks per pack (default 16)" in " ".join(capsys.readouterr().out.split())


def test_options_are_listed_by_methods_and_by_solve_help_options(capsys):
    # item 15: search-ucb's k and measure_time were only in a docstring
    code, out, _ = run(capsys, "methods", "combos", "--options", "--method", "search-ucb")
    assert code == 0 and "-O k=  (float, default 0.99" in out and "-O measure_time=  (float, default 10.0" in out
    code, out2, _ = run(capsys, "solve", "--method", "search-ucb", "--help-options")
    assert code == 0 and "combos search-ucb:" in out2
    assert "-O k=  (float, default 0.99" in out2 and "the quantile of the interpolation bounds" in out2
    code, out3, _ = run(capsys, "solve", "-m", "pack-by-pack-1", "--help-options")
    assert code == 0 and "-O eps=" in out3
    code, _, err = run(capsys, "solve", "-m", "nosuch", "--help-options")
    assert code == 2 and "no family has a method 'nosuch'" in err


def test_solve_gives_exact_methods_a_default_time_limit_that_none_lifts(inst_file, capsys, registry):
    # the time limit each method is called with, seen by two methods registered for the test
    from coschedopt.cli import DEFAULT_EXACT_TIME_LIMIT
    from coschedopt.core import Result, Status, method
    from coschedopt.pack import PackSchedule

    seen = []

    def alone(instance, *, time_limit, **_):
        seen.append(time_limit)
        return Result(
            Status.FEASIBLE, schedule=PackSchedule.from_indices(instance, [[(i, 2)] for i in range(instance.n)])
        )

    method("pack", "test-exact", exact=True)(alone)
    method("pack", "test-heuristic")(alone)
    code, out, _ = run(capsys, "solve", str(inst_file), "-m", "test-exact")
    assert code == 0 and seen[-1] == DEFAULT_EXACT_TIME_LIMIT == 600
    assert "600 s (default of exact methods; --time-limit none lifts it)" in out
    run(capsys, "solve", str(inst_file), "-m", "test-exact", "--time-limit", "none")
    assert seen[-1] is None
    run(capsys, "solve", str(inst_file), "-m", "test-heuristic")
    assert seen[-1] is None  # heuristics: no default limit
    run(capsys, "solve", str(inst_file), "-m", "test-exact", "-t", "30")
    assert seen[-1] == 30
    with pytest.raises(SystemExit):
        main(["solve", str(inst_file), "-m", "test-exact", "-t", "0"])
    assert "expected a positive number of seconds or 'none'" in capsys.readouterr().err


def test_validate_says_when_the_solution_was_made_for_another_instance(inst_file, tmp_path, capsys):
    # item 22: same task names, other times: valid, but the user must hear of it
    other, sol = tmp_path / "other.json", tmp_path / "sol.json"
    run(capsys, "generate", "random", "--tasks", "6", "--processors", "5", "-k", "3", "--seed", "9", "-o", str(other))
    run(capsys, "solve", str(other), "-m", "pack-approx", "-o", str(sol))
    code, out, err = run(capsys, "validate", str(inst_file), str(sol))
    assert code == 0 and out.startswith("valid:")
    assert "note: " in err and "was made for instance 'random-n6-p5-k3-s9', which differs from" in err
    code, _, err = run(capsys, "validate", str(other), str(sol))
    assert code == 0 and err == ""


def test_compare_prints_one_table_and_writes_it_as_csv(inst_file, tmp_path, capsys):
    # item 18: comparing methods on one instance took a suite file
    import csv

    out_csv = tmp_path / "cmp.csv"
    code, out, _ = run(
        capsys,
        "compare",
        str(inst_file),
        "--methods",
        "enumerate,pack-approx,matching,random-pack-1",
        "-o",
        str(out_csv),
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split()[:5] == ["method", "kind", "status", "cost", "bound"]
    assert [line.split()[0] for line in lines[2:]] == ["enumerate", "pack-approx", "matching", "random-pack-1"]
    rows = {r["method"]: r for r in csv.DictReader(out_csv.open())}
    assert rows["matching"]["status"] == "REFUSED" and "k = 1 or 2" in rows["matching"]["message"]
    optimum = float(rows["enumerate"]["objective"])
    assert rows["enumerate"]["status"] == "OPTIMAL" and float(rows["enumerate"]["gap_to_best_bound"]) == 0
    for name in ("pack-approx", "random-pack-1"):
        gap = float(rows[name]["gap_to_best_bound"])
        assert gap == pytest.approx((float(rows[name]["objective"]) - optimum) / optimum)
    code, _, err = run(capsys, "compare", str(inst_file), "--methods", "enumerate,nope")
    assert code == 2 and "unknown method 'nope'" in err
    with pytest.raises(SystemExit):  # --methods or --all is needed
        main(["compare", str(inst_file)])


def test_compare_all_runs_every_method_of_the_family(tmp_path, capsys):
    f = tmp_path / "tiny.json"
    run(capsys, "generate", "random", "--tasks", "4", "--processors", "3", "-k", "2", "-o", str(f))
    code, out, _ = run(capsys, "compare", str(f), "--all", "--time-limit", "60")
    assert code == 0
    from coschedopt import methods

    listed = [line.split()[0] for line in out.splitlines()[2:]]
    assert listed == methods("pack")
    assert all(" OPTIMAL " in line for line in out.splitlines()[2:] if " exact " in line)


def test_ctrl_c_keeps_the_incumbent_and_its_bound_and_exits_130(tmp_path):
    # item 17: Ctrl-C threw the incumbent away; a method polling its Deadline now stops at its next poll
    import signal
    import subprocess
    import sys

    from coschedopt.examples.toy import ToyInstance

    inst, sol = tmp_path / "toy.json", tmp_path / "sol.json"
    inst.write_text(json.dumps(ToyInstance(values=(3.0, 1.0, 2.0, 5.0), name="t").to_dict()))
    code = "import sys, tests.bench.toy_family; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "solve", str(inst), "-m", "toy-anytime", "-t", "none", "-o", str(sol)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as in a terminal
    )
    assert proc.stderr.readline().strip() == "toy-anytime: started"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err
    assert "status" in out and "TIME_LIMIT" in out and "interrupted" in out
    data = json.loads(sol.read_text())  # written with -o: schedule and certified bound
    assert data["status"] == "TIME_LIMIT" and data["stats"]["stopped_by"] == "interrupt"
    assert data["schedule"] == {"order": [0, 1, 2, 3]} and data["lower_bound"] > 0


def test_a_stop_request_expires_every_deadline_only_inside_stop_on_interrupt():
    from coschedopt.core import Deadline
    from coschedopt.core.deadline import request_stop, stop_on_interrupt, stop_requested

    with stop_on_interrupt() as stop:
        d = Deadline(None)
        assert not d.expired()
        request_stop()
        assert d.expired() and d.remaining() == 0 and Deadline(100).expired()
    assert stop.requested and not stop_requested() and not Deadline(None).expired()


def test_bench_run_help_names_every_bundled_suite(capsys):
    from coschedopt.bench.suite import bundled_suites

    with pytest.raises(SystemExit):
        main(["bench", "run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    names = bundled_suites()
    assert {"quick", "paper-batch", "paper-online", "paper-evolving"} <= set(names)
    for name in names:
        assert name in text.replace("- ", "-")


def test_option_none_of_a_string_option_is_the_choice_none(tmp_path, capsys):
    """Issue 44: ``-O penalty=none`` (batch) failed with "must be a str, got None"."""
    inst = tmp_path / "b.json"
    assert main(["generate", "batch", "random", "-o", str(inst)]) == 0
    capsys.readouterr()
    assert main(["solve", str(inst), "-m", "easy", "-O", "penalty=none", "--json"]) == 0
    given = json.loads(capsys.readouterr().out)
    assert main(["solve", str(inst), "-m", "easy", "--json"]) == 0  # 'none' is the default
    assert given["objective"] == json.loads(capsys.readouterr().out)["objective"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-t", "-5"], "argument --time-limit/-t: expected a positive number of seconds or 'none', got '-5'"),
        (["--time-limit", "soon"], "argument --time-limit/-t: expected seconds or 'none', got 'soon'"),
        (["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ],
)
def test_a_bad_option_value_is_one_line_without_the_usage(inst_file, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", str(inst_file), "-m", "enumerate", *argv])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err == f"coschedopt solve: error: {message}\n"


def test_a_missing_argument_still_shows_the_usage(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "x.json"])
    err = capsys.readouterr().err
    assert err.startswith("usage: coschedopt solve") and "required: --method/-m" in err


def test_validate_says_when_the_two_files_are_swapped(inst_file, sol_file, capsys):
    code, out, err = run(capsys, "validate", str(sol_file), str(inst_file))
    assert code == 2 and out == ""
    assert err == (
        f"coschedopt: error: {sol_file}: this is a 'pack' solution (method pack-approx), not an instance; "
        f"the instance comes first: coschedopt validate {inst_file} {sol_file}\n"
    )


def test_validate_names_the_family_of_a_solution_of_another_family(sol_file, tmp_path, capsys):
    hybrid = tmp_path / "h.json"
    assert run(capsys, "generate", "hybrid", "random", "-o", str(hybrid))[0] == 0
    code, _, err = run(capsys, "validate", str(hybrid), str(sol_file))
    assert (
        code == 2 and "this is a 'pack' solution (method pack-approx), not a solution of the 'hybrid' instance" in err
    )


def test_the_solve_summary_names_each_quantity_once_counts_in_full_and_no_missing_bound(capsys):
    from tests.tracefiles import KTH_EXCERPT

    code, out, _ = run(capsys, "solve", str(KTH_EXCERPT), "-m", "easy")
    keys = [line.partition("  ")[0].strip() for line in out.splitlines()]
    rows = dict(zip(keys, (line.partition("  ")[2].strip() for line in out.splitlines()), strict=True))
    assert code == 0 and "sum flow" in keys and "sum_flow" not in keys
    assert len({k.replace(" ", "_") for k in keys}) == len(keys)
    assert not any("bound certified" in k for k in keys) and "gap" not in keys  # a heuristic certifies none
    assert rows["success"].isdigit() and rows["sum flow"].isdigit() and rows["makespan"].isdigit()
    assert "e+" not in out


def test_an_exact_method_still_prints_its_bound_and_gap(inst_file, capsys):
    code, out, _ = run(capsys, "solve", str(inst_file), "-m", "enumerate")
    assert code == 0 and "lower bound certified by enumerate" in out and "gap " in out


class _Terminal:
    """A stand-in for a terminal's stderr (``isatty``), recording what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


@pytest.fixture
def pack40(tmp_path, capsys):
    f = tmp_path / "b.json"
    assert run(capsys, "generate", "random", "--tasks", "30", "--processors", "16", "-k", "4", "-o", str(f))[0] == 0
    return f


#: the live status without its timings: every report redraws, no timing involved
UNTIMED = functools.partial(LiveStatus, delay=0.0, period=0.0)


def test_on_a_terminal_solve_shows_a_live_status_line_and_erases_it(pack40, capsys):
    term = _Terminal()
    assert (
        main(["solve", str(pack40), "-m", "branch-and-price", "-t", "60"], status_stream=term, live_status=UNTIMED) == 0
    )
    lines = term.text.split("\r")
    assert lines[0] == "" and lines[-1] == "\x1b[K"  # drawn in place, erased at the end
    assert any(
        re.match(r"branch-and-price: \d+ s of 60  incumbent [\d.]+  bound [\d.]+  gap [\d.]+ %", x) for x in lines
    )
    assert "-v: the solver's log" in term.text and "\n" not in term.text
    assert "lower bound certified by branch-and-price" in capsys.readouterr().out


@pytest.mark.parametrize("flags", [["-q"], ["-v"], ["--quiet", "--json"]])
def test_no_live_status_with_quiet_or_verbose(inst_file, capsys, flags):
    term = _Terminal()
    assert (
        main(["solve", str(inst_file), "-m", "branch-and-price", *flags], status_stream=term, live_status=UNTIMED) == 0
    )
    assert "\r" not in term.text and "branch-and-price: " not in term.text


def test_no_live_status_when_stderr_is_not_a_terminal(inst_file, capsys):
    assert main(["solve", str(inst_file), "-m", "branch-and-price"], live_status=UNTIMED) == 0
    assert "\r" not in capsys.readouterr().err


def test_the_status_line_says_whose_gap_it_shows():
    from coschedopt.core.progress import Progress

    status = LiveStatus(_Terminal(), "ilp", 600.0)
    assert status.line(12.3, Progress(None, None, 0.5)).startswith("ilp: 12 s of 600  solver gap 50.00 %  (")
    own = status.line(3, Progress(110.0, 100.0, 0.5))
    assert own.startswith("ilp: 3 s of 600  incumbent 110  bound 100  gap 9.09 %  (")
    assert LiveStatus(_Terminal(), "easy", None).line(2, Progress()).startswith("easy: 2 s  (Ctrl-C")
