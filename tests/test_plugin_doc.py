"""docs/writing-a-plugin.md works as written: its package (pyproject, module, suite) is built from the page's
code blocks and used, and its table's smallest valid schedule of each family passes the family's validator."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest

import coschedopt as cs
from coschedopt.bench.suite import load_suite
from coschedopt.cli import main
from coschedopt.core import get_method
from tests.tracefiles import KTH_EXCERPT

DOC = (Path(__file__).resolve().parents[1] / "docs" / "writing-a-plugin.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", DOC, re.S)


def block(lang: str, starts: str) -> str:
    found = [body for kind, body in BLOCKS if kind == lang and body.lstrip().startswith(starts)]
    assert len(found) == 1, (lang, starts)
    return found[0]


def test_the_page_needs_no_clone_of_the_repository_until_its_tests():
    commands = "".join(body for kind, body in BLOCKS if kind == "bash")
    assert "examples/plugin" not in commands
    assert "pytest tests/test_family_contract.py -n 0 -k my-greedy" in commands


def test_the_pyproject_declares_the_build_the_dependency_the_entry_point_and_the_suites():
    project = tomllib.loads(block("toml", "[build-system]"))
    assert project["build-system"]["build-backend"] == "setuptools.build_meta"
    assert any(d.startswith("coschedopt") for d in project["project"]["dependencies"])
    assert project["project"]["entry-points"]["coschedopt.plugins"] == {"my-coschedopt": "my_coschedopt"}
    assert project["tool"]["setuptools"]["package-data"] == {"my_coschedopt": ["suites/*.toml"]}


@pytest.fixture
def package(tmp_path, monkeypatch, registry):
    """The page's package, importable (as its entry point would import it once installed)."""
    src = tmp_path / "src" / "my_coschedopt"
    (src / "suites").mkdir(parents=True)
    (src / "__init__.py").write_text(block("python", '"""My coschedopt methods'))
    (src / "greedy.py").write_text(block("python", '"""my-greedy'))
    (src / "suites" / "my-greedy.toml").write_text(block("toml", "[suite]"))
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    yield src
    for name in [m for m in sys.modules if m == "my_coschedopt" or m.startswith("my_coschedopt.")]:
        del sys.modules[name]


def test_the_method_solves_and_its_suite_loads_with_its_plugins_key(package, tmp_path, capsys):
    import my_coschedopt  # noqa: F401  (what the entry point does)

    m = get_method("pack", "my-greedy")
    assert not m.exact and m.description.startswith("Longest tasks first")
    inst = tmp_path / "p.json"
    assert main(["generate", "pack", "random", "--tasks", "8", "--processors", "8", "-k", "2", "-o", str(inst)]) == 0
    sol = tmp_path / "s.json"
    assert main(["solve", str(inst), "-m", "my-greedy", "-O", "tries=20", "--seed", "1", "-o", str(sol)]) == 0
    assert main(["validate", str(inst), str(sol)]) == 0
    one = cs.solve(cs.load_instance(inst), "my-greedy", seed=3, tries=4)
    assert one.objective == cs.solve(cs.load_instance(inst), "my-greedy", seed=3, tries=4).objective  # make_rng
    suite = load_suite(package / "suites" / "my-greedy.toml")
    assert suite.plugins == ["my_coschedopt"] and {c.method for c in suite.cells} >= {"enumerate", "my-greedy"}


def test_the_smallest_schedule_of_each_family_is_valid():
    import argparse

    from coschedopt.core.commands import get_generator

    code = block("python", "import numpy as np")
    space: dict = {}
    exec(compile(code, "writing-a-plugin.md", "exec"), space)

    def make(kind, gen, **given):
        g = get_generator(kind, gen)
        parser = argparse.ArgumentParser()
        g.add_arguments(parser)
        args = {a.dest: a.default for a in parser._actions if a.dest != "help"}
        return g.make(seed=0, **{**args, **given})

    instances = {
        "pack": make("pack", "random", tasks=6, processors=4, max_pack_size=2),
        "combos": make("combos", "random", tasks=5),
        "hybrid": make("hybrid", "random"),
        "locality": make("locality", "random"),
        "batch": cs.load_instance(KTH_EXCERPT),
        "online": make("online", "random"),
        "evolving": make("evolving", "small"),
    }
    assert set(instances) == set(cs.families()) - {"record", "toy"}
    table = DOC.split("## 3.", 1)[1].split("\n## ", 1)[0]
    for kind, inst in instances.items():
        assert f"| `{kind}` |" in table
        cs.validate(inst, space[kind](inst))
