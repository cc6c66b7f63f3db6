"""core/plugins.py: families and methods come from the entry-point group coschedopt.plugins.

Each test installs a package the way pip does for the import system (a ``*.dist-info`` folder
with ``entry_points.txt`` on ``sys.path``) in a fresh interpreter, so that discovery runs
exactly as it does for a user's ``pip install``: nothing in the test registers anything itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import coschedopt as cs
from tests.tracefiles import KTH_EXCERPT

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "plugin"


def install(site: Path, dist: str, entry_points: dict[str, str], modules: dict[str, str] | None = None) -> Path:
    """A package ``dist`` visible to importlib.metadata in folder ``site``: its dist-info and its modules."""
    info = site / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {module}\n" for name, module in entry_points.items())
    (info / "entry_points.txt").write_text(f"[coschedopt.plugins]\n{lines}")
    for name, code in (modules or {}).items():
        (site / f"{name}.py").write_text(code)
    return site


def coschedopt(*argv: str, path: list[Path], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in path)}
    code = "import sys; from coschedopt.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, cwd=cwd)


def example_site(tmp_path: Path) -> list[Path]:
    """The worked example of examples/plugin as `pip install -e` leaves it: its declared entry points, its source."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    site = install(tmp_path / "site", project["name"], project["entry-points"]["coschedopt.plugins"])
    return [site, EXAMPLE / "src"]


def test_the_public_api_of_plugins_is_at_the_top_level():
    for name in ("method", "register_family", "register_generator", "Result", "Status"):
        assert hasattr(cs, name), name


def test_the_worked_example_adds_a_pack_heuristic_and_a_batch_policy(tmp_path):
    path = example_site(tmp_path)
    listed = coschedopt("methods", "pack", path=path, cwd=tmp_path)
    assert listed.returncode == 0 and "pairs-first" in listed.stdout, listed.stderr
    assert (
        coschedopt(
            "generate", "pack", "random", "-n", "8", "-p", "8", "-k", "2", "-o", "p.json", path=path, cwd=tmp_path
        ).returncode
        == 0
    )
    solved = coschedopt("solve", "p.json", "-m", "pairs-first", "-o", "s.json", path=path, cwd=tmp_path)
    assert solved.returncode == 0 and "FEASIBLE" in solved.stdout, solved.stderr
    assert "valid" in coschedopt("validate", "p.json", "s.json", path=path, cwd=tmp_path).stdout
    batch = coschedopt("solve", str(KTH_EXCERPT), "-m", "sjf", "-o", "b.json", path=path, cwd=tmp_path)
    assert batch.returncode == 0, batch.stderr
    assert "valid" in coschedopt("validate", str(KTH_EXCERPT), "b.json", path=path, cwd=tmp_path).stdout


def test_a_plugin_that_fails_to_import_is_named_and_the_families_still_work(tmp_path):
    site = install(
        tmp_path / "site", "broken-plugin", {"broken": "broken_mod"}, {"broken_mod": "import no_such_module\n"}
    )
    run = coschedopt("methods", "pack", path=[site], cwd=tmp_path)
    assert run.returncode == 0 and "enumerate" in run.stdout
    assert "plug-in 'broken' (package 'broken-plugin', module 'broken_mod') failed to import" in run.stderr
    assert "ModuleNotFoundError" in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_a_plugin_whose_name_collides_is_one_error_naming_both_packages(tmp_path):
    code = (
        "from coschedopt import method\n@method('pack', 'enumerate')\ndef mine(instance, **_):\n    'My enumerate.'\n"
    )
    site = install(tmp_path / "site", "greedy-plugin", {"greedy": "greedy_mod"}, {"greedy_mod": code})
    run = coschedopt("methods", "pack", path=[site], cwd=tmp_path)
    assert run.returncode == 2
    err = run.stderr.strip()
    assert len(err.splitlines()) == 1
    assert "method 'enumerate' of family 'pack' is already registered (by 'coschedopt.pack" in err
    assert "plug-in 'greedy' (package 'greedy-plugin', module 'greedy_mod')" in err


def test_a_plugin_family_is_listed_and_solved_like_a_built_in_one(tmp_path):
    """The toy family, declared by a package's entry point instead of imported by the toolkit."""
    site = install(tmp_path / "site", "toy-family", {"toy": "coschedopt.examples.toy"})
    families = coschedopt("methods", path=[site], cwd=tmp_path)
    assert families.returncode == 0 and "toy:" in families.stdout, families.stderr


def test_no_plugins_in_the_environment_leaves_only_the_toolkits_own(monkeypatch):
    from coschedopt.core import plugins

    monkeypatch.setenv(plugins.NO_PLUGINS_ENV, "1")
    own = plugins.entry_points()
    assert {plugins._distribution(ep) for ep in own} == {plugins.TOOLKIT}
    assert {ep.name for ep in own} == {"pack", "combos", "hybrid", "locality", "batch", "online", "evolving"}
    monkeypatch.setenv(plugins.NO_PLUGINS_ENV, "0")
    assert {ep.name for ep in plugins.entry_points()} >= {ep.name for ep in own}
