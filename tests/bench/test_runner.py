"""Running suites: failures are recorded and the run goes on; resume after SIGKILL; Dask = local pool."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time

import pytest

from coschedopt.bench import load_suite, run_suite
from coschedopt.bench.store import ResultStore
from coschedopt.core import InputError

from . import toy_family  # noqa: F401  (registers the test-only family "toy")
from .conftest import REPO, objectives, query

FAILURES_SUITE = """
[suite]
name = "failures"
family = "toy"
time_limit = 1
kill_after = 2
plugins = ["tests.bench.toy_family"]

[[instances]]
group = "g"
generator = "toy-gen"
params = { size = 5 }
grid = { k = [1, 2] }

[[methods]]
name = "toy-exact"
[[methods]]
name = "toy-identity"
[[methods]]
name = "toy-boom"
[[methods]]
name = "toy-limited"
[[methods]]
name = "toy-refuse"
[[methods]]
name = "toy-stubborn"
when = { k = 1 }
[[methods]]
name = "toy-crash"
when = { k = 2 }
"""


@pytest.mark.slow
def test_error_and_time_limit_cells_are_recorded_and_the_run_goes_on(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    summary = run_suite(write_suite(FAILURES_SUITE), db=db, workers=2, progress=False)
    assert summary.planned == summary.done == 12
    rows = {
        (r[0], r[1]): r[2:]
        for r in query(db, "SELECT method, instance_name, status, objective, lower_bound, error FROM cells")
    }
    assert len(rows) == 12
    for name in ("toy-n5-k1-s0", "toy-n5-k2-s0"):
        status, objective, bound, error = rows["toy-exact", name]
        assert status == "OPTIMAL" and objective == bound and error is None
        optimum = objective
        assert rows["toy-identity", name][0] == "FEASIBLE"
        status, _, _, error = rows["toy-boom", name]
        assert status == "ERROR" and "RuntimeError: boom on purpose" in error
        status, _, _, error = rows["toy-refuse", name]
        assert status == "ERROR" and "MethodRefused" in error
        # TIME_LIMIT from the method: its best schedule's objective and its bound are kept
        status, objective, bound, error = rows["toy-limited", name]
        assert status == "TIME_LIMIT" and objective >= optimum and bound == pytest.approx(optimum / 2)
    # a method ignoring its time limit is killed by the harness, recorded TIME_LIMIT without result
    status, objective, bound, error = rows["toy-stubborn", "toy-n5-k1-s0"]
    assert (status, objective, bound) == ("TIME_LIMIT", None, None) and "killed by the harness" in error
    # a method killing its worker process costs exactly its own cell
    status, _, _, error = rows["toy-crash", "toy-n5-k2-s0"]
    assert status == "ERROR" and "worker process died (exit code 7)" in error
    # toy-limited stopped at its limit with a schedule and a bound: finished, not failed
    assert summary.failed == 2 + 2 + 1 + 1  # boom, refuse, stubborn (killed), crash
    assert summary.time_limited == 2
    assert "6 failed" in str(summary) and "2 stopped at their time limit with a result" in str(summary)
    (run,) = ResultStore(db).runs()
    assert run["status"] == "finished" and run["cells_done"] == 12 and run["cells_failed"] == summary.failed


SLOW_SUITE = """
[suite]
name = "slow"
family = "toy"
plugins = ["tests.bench.toy_family"]

[[instances]]
group = "g"
generator = "toy-gen"
params = { size = 6 }
grid = { k = [1, 2, 3, 4] }
seeds = [0, 1, 2, 3, 4]

[[methods]]
name = "toy-slow"
options = { delay = 0.12 }
seeds = [0, 1, 2]
[[methods]]
name = "toy-exact"
[[methods]]
name = "toy-random"
seeds = [0, 1]
"""


@pytest.mark.slow
def test_resume_skips_finished_cells_and_rerun_replaces_them(write_suite, tmp_path):
    path = write_suite(SLOW_SUITE.replace("delay = 0.12", "delay = 0.0"))
    db = tmp_path / "r.sqlite"
    first = run_suite(path, db=db, workers=2, progress=False)
    total = 20 * (3 + 1 + 2)  # 20 instances x (toy-slow 3 seeds, toy-exact, toy-random 2 seeds)
    assert (first.planned, first.skipped, first.done) == (total, 0, total)
    before = objectives(db)
    again = run_suite(path, db=db, workers=2, progress=False)
    assert (again.skipped, again.done) == (total, 0)
    forced = run_suite(path, db=db, workers=2, progress=False, rerun=True)
    assert (forced.skipped, forced.done) == (0, total)
    assert objectives(db) == before
    assert query(db, "SELECT COUNT(*), COUNT(DISTINCT cell_key), MIN(run_id) FROM cells") == [(total, total, 3)]


@pytest.mark.slow
def test_run_killed_with_sigkill_resumes_with_every_cell_exactly_once(write_suite, tmp_path):
    path = write_suite(SLOW_SUITE)
    suite = load_suite(path)
    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "coschedopt.bench", "run", str(path), "--db", str(db), "--workers", "2"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, so the test can clean up its workers
    )
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while time.monotonic() < deadline and proc.poll() is None:
            if db.exists():
                try:
                    stored = query(db, "SELECT COUNT(*) FROM cells")[0][0]
                except Exception:  # the schema may not exist yet
                    stored = 0
            if stored >= 25:
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read().decode()}"
        os.kill(proc.pid, signal.SIGKILL)  # the runner only: its workers must notice and exit
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        for _ in range(100):  # orphaned workers exit by themselves within about a second
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            pytest.fail("worker processes outlived the killed runner")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.stderr.close()

    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    killed_count = query(db, "SELECT COUNT(*) FROM cells")[0][0]
    assert 25 <= killed_count < len(suite.cells)
    assert query(db, "SELECT status, ended_at FROM runs") == [("running", None)]  # visibly killed

    resumed = run_suite(path, db=db, workers=2, progress=False)
    assert resumed.skipped == killed_count
    assert resumed.done == len(suite.cells) - killed_count
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    keys = [r[0] for r in query(db, "SELECT cell_key FROM cells")]
    assert sorted(keys) == sorted(c.key for c in suite.cells)  # every cell, exactly once
    assert query(db, "SELECT run_id, COUNT(*) FROM cells GROUP BY run_id ORDER BY run_id") == [
        (1, killed_count),
        (2, len(suite.cells) - killed_count),
    ]

    clean = tmp_path / "clean.sqlite"
    run_suite(path, db=clean, workers=2, progress=False)
    assert objectives(db) == objectives(clean)


PACK_SUITE = """
[suite]
name = "pack-small"
family = "pack"
time_limit = 30

[[instances]]
group = "random"
generator = "random"
params = { tasks = 6, processors = 6 }
grid = { max_pack_size = [2, 3] }
seeds = [0, 1]

[[methods]]
name = "enumerate"
[[methods]]
name = "branch-and-price"
[[methods]]
name = "matching"
when = { k = 2 }
[[methods]]
name = "pack-approx"
[[methods]]
name = "pack-by-pack-9"
[[methods]]
name = "random-proc-9"
seeds = [0, 1]
"""


@pytest.mark.slow
def test_dask_cluster_gives_the_same_objectives_as_the_local_pool(write_suite, tmp_path):
    distributed = pytest.importorskip("distributed")
    path = write_suite(PACK_SUITE)
    local_db, dask_db = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    local = run_suite(path, db=local_db, workers=2, progress=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        remote = run_suite(path, db=dask_db, scheduler=cluster.scheduler_address, progress=False)
    assert local.done == remote.done == 4 * 6 + 2 * 1  # 6 cells per instance, 2 more seeds, matching k=2
    assert remote.executor.startswith("dask:tcp://127.0.0.1")
    assert query(dask_db, "SELECT executor FROM runs") == [(remote.executor,)]
    a, b = objectives(local_db), objectives(dask_db)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == pytest.approx(b[key], rel=1e-9), key
    # exact methods agree with each other on every instance
    rows = query(local_db, "SELECT instance_id, objective FROM cells WHERE exact = 1")
    by_instance = {}
    for inst, obj in rows:
        by_instance.setdefault(inst, []).append(obj)
    for objs in by_instance.values():
        assert max(objs) == pytest.approx(min(objs), rel=1e-6)


def test_dask_local_cluster_runs_a_suite(write_suite, tmp_path):
    pytest.importorskip("distributed")
    path = write_suite(
        FAILURES_SUITE.replace('[[methods]]\nname = "toy-stubborn"\nwhen = { k = 1 }\n', "").replace(
            '[[methods]]\nname = "toy-crash"\nwhen = { k = 2 }\n', ""
        )
    )
    db = tmp_path / "r.sqlite"
    summary = run_suite(path, db=db, dask_local=1, progress=False)
    assert summary.executor == "dask-local:1" and summary.done == 10
    statuses = dict(query(db, "SELECT method || '/' || instance_name, status FROM cells"))
    assert statuses["toy-boom/toy-n5-k1-s0"] == "ERROR"
    assert statuses["toy-limited/toy-n5-k2-s0"] == "TIME_LIMIT"
    assert statuses["toy-exact/toy-n5-k2-s0"] == "OPTIMAL"


def test_the_eta_counts_each_methods_cells_at_its_own_time_and_waits_for_every_method():
    # the ETA once read 25:01 at 35/944 for a run of 2:47 (slow exact cells first)
    from coschedopt.bench.progress import ProgressBar

    bar = ProgressBar(105, stream=io.StringIO(), todo={"exact": 5, "heuristic": 100}, parallel=2)
    assert bar.eta() is None
    bar.update(done=1, method="exact", seconds=10.0)
    bar.update(done=1, method="exact", seconds=12.0)
    assert bar.eta() is None and "ETA --:--" in bar.line()  # no heuristic has finished: no estimate
    bar.update(done=1, method="heuristic", seconds=0.02)
    assert bar.eta() == pytest.approx((3 * 11.0 + 99 * 0.02) / 2)
    for _ in range(3):
        bar.update(done=1, method="exact", seconds=11.0)
    assert bar.eta() == pytest.approx(99 * 0.02 / 2)  # only heuristics left


def test_the_progress_line_says_kernels_are_compiling_while_the_parent_prepares_them(write_suite, tmp_path):
    """A method with a ``prepare`` hook (compiled kernels): the harness runs the hook once in the parent before
    the cells, and the progress line says so meanwhile instead of a bare 'ETA --:--'."""
    suite = write_suite(
        """
[suite]
family = "toy"
plugins = ["tests.bench.toy_family"]
[[instances]]
generator = "toy-gen"
params = { size = 3, k = 1 }
seeds = [0, 1]
[[methods]]
name = "toy-compiled"
[[methods]]
name = "toy-identity"
"""
    )
    toy_family.PREPARED_IN.clear()
    out = io.StringIO()
    summary = run_suite(suite, db=tmp_path / "r.sqlite", workers=1, stream=out)
    assert summary.failed == 0 and summary.done == 4
    lines = out.getvalue().splitlines()
    compiling = [line for line in lines if "compiling kernels: toy toy-compiled" in line]
    assert compiling and "0/4" in compiling[0] and "ETA" not in compiling[0]
    assert [os.getpid()] == toy_family.PREPARED_IN  # once, in the parent
    assert "compiling kernels" not in lines[-1]  # the final line is back to the counts and the ETA


def test_progress_bar_shows_done_total_failures_and_eta():
    from coschedopt.bench.progress import ProgressBar

    out = io.StringIO()
    bar = ProgressBar(10, skipped=2, label="s ", stream=out)
    bar.update(done=3, failed=1)
    bar.close()
    line = out.getvalue().strip().splitlines()[-1]
    assert "5/10" in line and "50%" in line and "failures 1" in line and "ETA" in line
    assert "(2 from earlier runs)" in line


def test_provenance_is_recorded(write_suite, tmp_path):
    db = tmp_path / "r.sqlite"
    run_suite(write_suite(SLOW_SUITE.replace("delay = 0.12", "delay = 0.0")), db=db, workers=1, progress=False)
    (run,) = ResultStore(db).runs()
    import json

    versions = json.loads(run["versions"])
    assert versions["coschedopt"] and versions["highspy"] and versions["pyomo"] and versions["pulp"]
    assert run["host"] and run["python"] and run["started_at"] <= run["ended_at"]
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0:  # a checkout: the commit is recorded (marked +dirty when modified)
        assert run["git_commit"].split("+")[0] == head.stdout.strip()
    assert query(db, "PRAGMA journal_mode") == [("wal",)]


def test_a_suite_can_keep_its_cells_numbers_without_their_schedules(write_suite, tmp_path):
    text = SLOW_SUITE.replace("delay = 0.12", "delay = 0.0")
    kept, dropped = tmp_path / "kept.sqlite", tmp_path / "dropped.sqlite"
    run_suite(write_suite(text, name="kept"), db=kept, workers=1, progress=False)
    lean = text.replace("[suite]\n", "[suite]\nstore_schedules = false\n", 1)
    assert "store_schedules = false" in lean
    run_suite(write_suite(lean, name="dropped"), db=dropped, workers=1, progress=False)
    assert all(s is not None for (s,) in query(kept, "SELECT schedule FROM cells"))
    assert all(s is None for (s,) in query(dropped, "SELECT schedule FROM cells"))
    numbers = "SELECT instance_id, method_label, objective, metrics FROM cells ORDER BY 1, 2"
    assert query(kept, numbers) == query(dropped, numbers)  # the objectives and metrics are all kept
    with pytest.raises(InputError, match="suite.store_schedules: expected true or false, got 'no'"):
        load_suite(write_suite(text.replace("[suite]\n", '[suite]\nstore_schedules = "no"\n', 1), name="bad"))


FRESH_SUITE = """
[suite]
name = "fresh"
family = "toy"
plugins = ["tests.bench.toy_family"]
{head}

[[instances]]
generator = "toy-gen"
params = {{ size = 4 }}

[[methods]]
name = "toy-hog"
options = {{ mib = 300 }}
time_limit = 60
[[methods]]
name = "toy-hog"
options = {{ mib = 0 }}
seeds = [0, 1]
"""


@pytest.mark.parametrize("fresh", [False, True])
def test_fresh_process_gives_each_cell_a_worker_and_a_peak_of_its_own(write_suite, tmp_path, fresh):
    """With ``fresh_process``, three cells on one worker slot run in three processes, and the small cells after
    the 300 MiB one do not report its peak; without it, one process runs all three and its peak carries over.
    """
    path = write_suite(FRESH_SUITE.format(head=f"fresh_process = {str(fresh).lower()}"))
    assert load_suite(path).fresh_process is fresh
    db = tmp_path / "r.sqlite"
    summary = run_suite(path, db=db, workers=1, progress=False)
    assert summary.done == 3 and summary.failed == 0
    rows = query(db, "SELECT options, worker, peak_rss_mb FROM cells")
    workers = {w for _, w, _ in rows}
    big = next(peak for options, _, peak in rows if "300" in options)
    small = [peak for options, _, peak in rows if "300" not in options]
    assert big >= 300
    if fresh:
        assert len(workers) == 3
        assert all(peak < big - 200 for peak in small)
    else:
        assert len(workers) == 1
        assert all(peak >= big for peak in small)


def test_fresh_process_must_be_a_boolean(write_suite):
    with pytest.raises(InputError, match="suite.fresh_process"):
        load_suite(write_suite(FRESH_SUITE.format(head='fresh_process = "yes"')))
