"""Suite files: the bundled suites load, cells expand as declared, bad files get one located error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from coschedopt import families, methods
from coschedopt.bench import bundled_suites, load_suite
from coschedopt.bench.suite import bundled_suite_files, matches_when
from coschedopt.core import InputError, get_family
from coschedopt.pack.heuristics import HEURISTICS

from . import toy_family  # noqa: F401  (registers the test-only family "toy")
from .conftest import REPO

TOY_HEAD = """
[suite]
family = "toy"
plugins = ["tests.bench.toy_family"]
"""


def test_bundled_suites_are_found_by_name_and_in_the_repository_folder():
    assert {"quick", "paper-pack"} <= set(bundled_suites())
    # models/suites in the repository links to every family's shipped suites, not copies that could drift
    links = {p.stem: p.resolve() for p in (REPO / "models" / "suites").glob("*.toml")}
    assert all(p.is_symlink() for p in (REPO / "models" / "suites").glob("*.toml"))
    built_in = [get_family(kind) for kind in families() if get_family(kind).package == f"coschedopt.{kind}"]
    shipped = {str(d) for fam in built_in if (d := fam.directory("suites"))}
    bundled = {name: path.resolve() for name, path in bundled_suite_files().items() if str(path.parent) in shipped}
    assert links == bundled


@pytest.mark.parametrize("name", ["quick", "paper-pack"])
def test_bundled_pack_suites_expand_to_registered_methods(name):
    suite = load_suite(name)
    assert suite.family == "pack"
    labels = {c.method for c in suite.cells}
    heuristics = set(HEURISTICS)
    assert heuristics <= labels <= set(methods("pack"))
    assert any(c.exact for c in suite.cells)
    # matching (Theorem 1) is only planned where it applies
    sizes = {e.instance_id: e.size for e in suite.instances}
    assert all(sizes[c.instance_id]["k"] <= 2 for c in suite.cells if c.method == "matching")
    assert len({c.key for c in suite.cells}) == len(suite.cells)


def test_paper_pack_covers_the_papers_workloads():
    suite = load_suite("paper-pack")
    ks = {}
    for e in suite.instances:
        ks.setdefault(e.group, set()).add(e.size["k"])
        assert (e.size["n"], e.size["m"]) == {
            "Workload-I": (10, 16),
            "Workload-II": (65, 16),
            "Workload-III": (260, 32),
        }[e.group]
    assert ks["Workload-I"] == {2, 4, 6, 8, 10}
    assert min(ks["Workload-II"]) == 2 and max(ks["Workload-II"]) == 16
    assert min(ks["Workload-III"]) == 2 and max(ks["Workload-III"]) == 32


def test_cells_expand_grid_seeds_method_seeds_and_when(write_suite):
    path = write_suite(
        TOY_HEAD
        + """
time_limit = 5
[[instances]]
group = "g"
generator = "toy-gen"
params = { size = 3 }
grid = { k = [1, 2, 3] }
seeds = [0, 1]
[[methods]]
name = "toy-exact"
[[methods]]
name = "toy-random"
seeds = [4, 5, 6]
when = { k = { min = 2 } }
[[methods]]
name = "toy-slow"
options = { delay = 0.0 }
time_limit = 9
"""
    )
    suite = load_suite(path)
    assert suite.name == "s"
    assert len(suite.instances) == 6
    by_method = {}
    for c in suite.cells:
        by_method.setdefault(c.method, []).append(c)
    assert len(by_method["toy-exact"]) == 6
    assert len(by_method["toy-random"]) == 4 * 3  # k in {2, 3}, 2 instance seeds, 3 method seeds
    assert {c.seed for c in by_method["toy-random"]} == {4, 5, 6}
    assert {c.time_limit for c in by_method["toy-slow"]} == {9.0}
    assert {c.label for c in by_method["toy-slow"]} == {"toy-slow(delay=0.0)"}
    assert {c.kill_after for c in by_method["toy-exact"]} == {2 * 5 + 30}


def test_when_filters():
    assert matches_when({"k": {"max": 2}}, "g", {"k": 2})
    assert not matches_when({"k": {"max": 2}}, "g", {"k": 3})
    assert matches_when({"group": ["a", "b"], "n": 5}, "b", {"n": 5})
    assert not matches_when({"group": ["a"]}, "b", {"n": 5})
    assert not matches_when({"p": 4}, "g", {"n": 5})  # a key the family does not describe never matches


GOOD_INSTANCES = """
[[instances]]
generator = "toy-gen"
params = { size = 3 }
"""
GOOD_METHODS = """
[[methods]]
name = "toy-exact"
"""

MALFORMED = [
    # (suite text, key path in the message, value shown in the message)
    (TOY_HEAD + "colour = 'red'\n" + GOOD_INSTANCES + GOOD_METHODS, "suite.colour", "'red'"),
    (TOY_HEAD.replace('"toy"', '"toys"') + GOOD_INSTANCES + GOOD_METHODS, "suite.family", "'toys'"),
    (TOY_HEAD + "time_limit = -3\n" + GOOD_INSTANCES + GOOD_METHODS, "suite.time_limit", "-3"),
    (
        TOY_HEAD + GOOD_INSTANCES.replace("size = 3", 'size = "three"') + GOOD_METHODS,
        "instances[0].params.size",
        "'three'",
    ),
    (TOY_HEAD + GOOD_INSTANCES.replace("size = 3", "sise = 3") + GOOD_METHODS, "instances[0].params.sise", "3"),
    (
        TOY_HEAD + GOOD_INSTANCES.replace("toy-gen", "toy-generator") + GOOD_METHODS,
        "instances[0].generator",
        "'toy-generator'",
    ),
    (TOY_HEAD + GOOD_INSTANCES.replace("size = 3", "size = 0") + GOOD_METHODS, "instances[0]", "size = 0"),
    (TOY_HEAD + GOOD_INSTANCES + "grid = { k = 3 }\n" + GOOD_METHODS, "instances[0].grid.k", "3"),
    (TOY_HEAD + GOOD_INSTANCES + "seeds = [1, -1]\n" + GOOD_METHODS, "instances[0].seeds", "[1, -1]"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS.replace("toy-exact", "toy-exakt"), "methods[0].name", "'toy-exakt'"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS + "options = { depth = 2 }\n", "methods[0].options.depth", "2"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS + "when = { k = { most = 2 } }\n", "methods[0].when.k.most", "2"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS + "time_limit = 'long'\n", "methods[0].time_limit", "'long'"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS + GOOD_METHODS, "methods[1]", "toy-exact"),
    (TOY_HEAD + GOOD_INSTANCES, "methods", "None"),
    (TOY_HEAD + "[[instances]]\nfiles = ['nowhere.json']\n" + GOOD_METHODS, "instances[0].files[0]", "nowhere.json"),
    (TOY_HEAD + GOOD_INSTANCES + GOOD_METHODS + "[report]\nx = 3\n", "report.x", "3"),
    (TOY_HEAD + GOOD_INSTANCES + "build = 'sideways'\n" + GOOD_METHODS, "instances[0].build", "'sideways'"),
    (
        TOY_HEAD + "[[instances]]\nfiles = ['nowhere.json']\nbuild = 'worker'\n" + GOOD_METHODS,
        "instances[0].build",
        "'worker'",
    ),
]


@pytest.mark.parametrize(("text", "key", "value"), MALFORMED, ids=[m[1] for m in MALFORMED])
def test_malformed_suite_is_refused_naming_file_key_and_value(write_suite, text, key, value):
    path = write_suite(text, name="bad")
    with pytest.raises(InputError) as err:
        load_suite(path)
    message = str(err.value)
    assert str(path) in message
    assert f": {key}:" in message or message.endswith(f": {key}") or f": {key}: " in message
    assert value in message


def test_malformed_toml_names_file_and_line(write_suite):
    path = write_suite(TOY_HEAD + "time_limit = = 3\n", name="broken")
    with pytest.raises(InputError, match=r"broken\.toml.*malformed TOML.*line 5"):
        load_suite(path)


def test_pack_generator_refusal_is_located(write_suite):
    path = write_suite("""
[suite]
family = "pack"
[[instances]]
generator = "random"
params = { tasks = 4, processors = 3 }
grid = { max_pack_size = [2, 7] }
[[methods]]
name = "enumerate"
""")
    with pytest.raises(InputError) as err:
        load_suite(path)
    assert "instances[0]" in str(err.value) and "max_pack_size = 7" in str(err.value)


def test_unknown_suite_name_lists_the_bundled_ones():
    with pytest.raises(InputError, match="quick"):
        load_suite("no-such-suite")


def test_cli_refuses_a_malformed_suite_with_one_line_and_writes_nothing(write_suite, tmp_path):
    path = write_suite(TOY_HEAD + GOOD_INSTANCES.replace("size = 3", 'size = "three"') + GOOD_METHODS, name="bad")
    db = tmp_path / "r.sqlite"
    proc = subprocess.run(
        [sys.executable, "-m", "coschedopt.bench", "run", str(path), "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "bad.toml" in lines[0] and "instances[0].params.size" in lines[0] and "'three'" in lines[0]
    assert "Traceback" not in proc.stderr
    assert not Path(db).exists()


def test_an_unknown_option_in_a_suite_stops_bench_run_before_anything_runs(write_suite, tmp_path, capsys):
    # `pack-approx` takes no `eps`; the suite is refused as a whole, exit 2, no store
    from coschedopt.cli import main

    path = write_suite(
        """
[suite]
family = "pack"
[[instances]]
generator = "random"
params = { tasks = 4, processors = 3, max_pack_size = 2 }
[[methods]]
name = "pack-approx"
options = { eps = 0.3 }
""",
        name="eps",
    )
    db = tmp_path / "r.sqlite"
    assert main(["bench", "run", str(path), "--db", str(db), "-q"]) == 2
    err = capsys.readouterr().err
    assert "eps.toml: methods[0].options.eps: unknown option 'eps' of method 'pack-approx'" in err
    assert "valid options: none" in err and not db.exists()
