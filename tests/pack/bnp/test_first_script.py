"""A user's first script: ``cs.solve(...)`` at the top level of a file, no ``if __name__ == "__main__":`` guard."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import json

    import coschedopt as cs
    from coschedopt.pack.generate import workload_iii

    print("top level of the script", flush=True)
    inst = workload_iii(seed=0, max_pack_size=32)
    res = cs.solve(inst, "branch-and-price", time_limit=8, lns_worker_after=0.0, lns_workers=1)
    cs.validate(inst, res.schedule)
    print(json.dumps({"status": res.status.value, "objective": res.objective, "lns": res.stats.get("lns")}))
    """
)


def test_branch_and_price_runs_from_a_script_without_a_main_guard(tmp_path):
    script = tmp_path / "first.py"
    script.write_text(SCRIPT, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "RuntimeError" not in proc.stderr and "Traceback" not in proc.stderr
    # the neighbourhood-search worker process did not run the script again (it would print this line twice)
    assert proc.stdout.count("top level of the script") == 1
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["status"] in ("OPTIMAL", "TIME_LIMIT") and result["objective"] > 0
    assert result["lns"]["workers"] == 1  # the search ran in its own process, started from the script
