"""The README's measured figures are what the benchmark records give (benchmarks/readme.py)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
#: the records the README's batch blocks need come from the batch runs, added before merging
PENDING: set[str] = set()


def load_readme_module():
    spec = importlib.util.spec_from_file_location("readme_figures", BENCHMARKS / "readme.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


readme = load_readme_module()


def blocks_named(problems: list[str]) -> set[str]:
    return {p.split(":", 1)[0] for p in problems}


RESULTS_DOC = ROOT / "docs" / "results.md"


def documents_with(tmp_path, text: str) -> tuple:
    """The README, a copy of docs/results.md holding ``text``, and the notes holding blocks."""
    copy = tmp_path / "results.md"
    copy.write_text(text, encoding="utf-8")
    return (ROOT / "README.md", copy, *readme.DOCUMENTS[2:])


def test_check_passes_on_the_repository_readme_except_pending_records():
    problems = readme.check(readme.DOCUMENTS, BENCHMARKS / "results")
    assert blocks_named(problems) <= PENDING, problems
    assert all("is missing" in p for p in problems), problems


def test_a_figure_changed_by_hand_fails_naming_its_block(tmp_path):
    text = RESULTS_DOC.read_text(encoding="utf-8")
    start = text.index("<!-- figures:pack-ilp -->")
    end = text.index("<!-- /figures:pack-ilp -->")
    body = text[start:end]
    changed = body.replace("n = 5..7", "n = 5..8", 1)
    assert changed != body
    docs = documents_with(tmp_path, text[:start] + changed + text[end:])
    problems = readme.check(docs, BENCHMARKS / "results")
    assert "pack-ilp" in blocks_named(problems)
    assert any(p.startswith("pack-ilp:") and "differs" in p for p in problems)
    # the command line says so too, with a non-zero status
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / "readme.py"), "--check", *(f"--document={d}" for d in docs)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1 and "block pack-ilp" in proc.stderr


def test_a_missing_record_fails_naming_its_block(tmp_path):
    records = tmp_path / "results"
    shutil.copytree(BENCHMARKS / "results", records, ignore=shutil.ignore_patterns("*.png"))
    (records / "combos-lp-scaling.json").unlink()
    problems = readme.check(readme.DOCUMENTS, records)
    assert any(p.startswith("combos-lp:") and "missing" in p for p in problems)


def test_a_smoke_record_is_never_rendered(tmp_path):
    records = tmp_path / "results"
    shutil.copytree(BENCHMARKS / "results", records, ignore=shutil.ignore_patterns("*.png"))
    path = records / "combos-lp-scaling.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps(data | {"smoke": True}))
    problems = readme.check(readme.DOCUMENTS, records)
    assert any(p.startswith("combos-lp:") and "smoke" in p for p in problems)


def test_write_then_check_agrees(tmp_path):
    text = RESULTS_DOC.read_text(encoding="utf-8")
    start = text.index("<!-- figures:combos-lp -->") + len("<!-- figures:combos-lp -->\n")
    docs = documents_with(tmp_path, text[:start] + "stale text\n" + text[text.index("<!-- /figures:combos-lp -->") :])
    assert "combos-lp" in blocks_named(readme.check(docs, BENCHMARKS / "results"))
    readme.write(docs[1:], BENCHMARKS / "results")  # the copy only: the README is the repository's
    assert blocks_named(readme.check(docs, BENCHMARKS / "results")) <= PENDING
    assert docs[1].read_text(encoding="utf-8") == text


SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name != "readme.py")
FIELDS = (
    "command",
    "git_commit",
    "dirty",
    "date",
    "load_before",
    "load_after",
    "calibration",
    "python",
    "versions",
    "machine",
)


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_benchmark_writes_a_record_with_its_provenance(script, tmp_path):
    """Each script's --smoke run writes NAME.smoke.json (in a temporary results folder) with every field."""
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--smoke", "--results-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    records = list(tmp_path.glob("*.smoke.json"))
    assert records, f"{script} wrote no record"
    for path in records:
        data = json.loads(path.read_text())
        missing = [f for f in FIELDS if f not in data]
        assert not missing, f"{path.name} lacks {missing}"
        assert data["smoke"] is True and data["results"] is not None
        assert data["command"][0].endswith(script)
        assert len(data["load_before"]) == 3 and data["machine"]["cpu_count"] >= 1


def test_the_exact_times_count_the_proven_seeds_and_the_largest_gap_left_per_method_and_size():
    def row(method, n, status, seconds, gap):
        return {"exact": True, "method": method, "n": n, "status": status, "runtime_s": seconds, "gap": gap}

    rows = [row("colgen", 30, "OPTIMAL", 1.0, 0.0), row("colgen", 30, "OPTIMAL", 3.0, 0.0)]
    rows += [row("milp", 30, "OPTIMAL", 10.0, 0.0), row("milp", 30, "TIME_LIMIT", 60.0, 0.012)]
    rows.append({"exact": False, "method": "dual2", "n": 30, "status": "FEASIBLE", "runtime_s": 0.1, "gap": 0.1})
    rows += [row("milp", 100, "ERROR", 0.001, None), row("milp", 100, "ERROR", 0.001, None)]  # refused: no time
    headers, body = readme.exact_times(rows, ("n",))
    assert headers == ["method", "n", "proven", "median s", "max s", "largest gap left"]
    assert body == [
        ["colgen", "30", "2/2", "2", "3", "–"],
        ["milp", "30", "1/2", "35", "60", "1.2 %"],
        ["milp", "100", "refused", "–", "–", "–"],
    ]


def test_a_block_figure_missing_fails_naming_its_block_and_write_draws_it(tmp_path):
    """online-trend-1 links to PNGs drawn from its records: --check fails while one is absent, --write draws it."""
    records = tmp_path / "records"
    shutil.copytree(BENCHMARKS / "results", records, ignore=shutil.ignore_patterns("figures"))
    problems = readme.check(readme.DOCUMENTS, records)
    assert any(p.startswith("online-trend-1: figure") for p in problems), problems
    readme.draw_figures("online-trend-1", records)
    assert not [p for p in readme.check(readme.DOCUMENTS, records) if "figure" in p]
    assert all(png.read_bytes().startswith(b"\x89PNG") for png in (records / "figures").glob("trend-1-*.png"))
