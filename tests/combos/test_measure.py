"""``coschedopt measure`` on tiny CPU- and memory-bound Python child processes (~2 s in all).

Measured quantities are checked only against bounds that machine load cannot break: load
lengthens a command's wall time and lowers its CPU fraction, never the reverse.
"""

from __future__ import annotations

import shlex
import sys

import numpy as np
import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.combos.measure import measure_commands, parse_perf_csv
from coschedopt.core import InputError

PY = shlex.quote(sys.executable)
CPU = f"{PY} -c " + shlex.quote("import time\nt = time.time()\nwhile time.time() - t < 0.3: pass")
MEM = f"{PY} -c " + shlex.quote(
    "import time\nb = bytearray(32 * 2**20)\nt = time.time()\nwhile time.time() - t < 0.3: c = bytes(b)"
)
SLEEPY = f"{PY} -c " + shlex.quote("import time\nt = time.time()\nwhile time.time() - t < 0.3: time.sleep(0.001)")


def test_measure_writes_a_valid_instance(tmp_path, capsys):
    inst = measure_commands(
        [CPU, MEM], combinations="all", names=["cpu", "mem"], warmup=0.05, sample=0.15, use_perf=False
    )
    assert inst.kind == "combos" and inst.task_names == ("cpu", "mem") and inst.is_full
    assert np.all(inst.singleton_speed == 1.0)  # normalised to the solo run
    assert np.all(inst.work >= 0.29)  # solo wall time of a command looping for 0.3 s: load only lengthens it
    member = inst.speeds > 0
    assert member.sum() == 4 and np.all(inst.a[member] <= 1.0)  # constraint (1) holds (repaired if noisy)
    assert inst.meta["measured_with"] == "procfs-cpu-fraction"
    # the instance is usable: solve it and check the optimum is no worse than sequential execution
    assert cs.solve(inst, "lp").objective <= inst.work.sum() * (1 + 1e-9)
    path = tmp_path / "m.json"
    cs.save_instance(inst, path)
    assert cs.load_instance(path).m == 3


def test_sleeping_process_measures_a_low_cpu_fraction():
    inst = measure_commands([CPU, SLEEPY], combinations="pairs", warmup=0.05, sample=0.15, use_perf=False)
    # /proc CPU fraction: the sleeper is busy a few % of its wall time (load can only lower that)
    solo = inst.meta["solo_speed"]
    assert 0 <= solo[1] < 0.5


def test_command_that_fails_to_start():
    with pytest.raises(InputError) as err:
        measure_commands(["/nonexistent/definitely-not-a-command --flag"], use_perf=False)
    assert "'/nonexistent/definitely-not-a-command --flag'" in str(err.value) and "failed to start" in str(err.value)


def test_command_that_exits_with_an_error():
    bad = f"{PY} -c " + shlex.quote("import sys; sys.stderr.write('boom'); sys.exit(3)")
    with pytest.raises(InputError, match="exited with status 3.*boom"):
        measure_commands([bad], use_perf=False)


def test_measure_refuses_too_many_commands_for_all_combinations():
    with pytest.raises(InputError) as err:
        measure_commands(["true"] * 11, combinations="all", use_perf=False)
    assert "2,047" in str(err.value) and "pairs" in str(err.value)


def test_cli_measure_reports_start_failure(tmp_path, capsys):
    out = tmp_path / "x.json"
    assert main(["measure", "no-such-program-xyz", "-o", str(out), "--no-perf"]) == 2
    assert "failed to start" in capsys.readouterr().err
    assert not out.exists()


def test_parse_perf_csv():
    text = (
        "# started on ...\n\n1234567,,instructions:u,1000000,100.00,,\n"
        "2000000,,cycles:u,1000000,100.00,,\n<not supported>,,branches:u,0,100.00,,\n"
    )
    assert parse_perf_csv(text) == {"instructions": 1234567.0, "cycles": 2000000.0}
