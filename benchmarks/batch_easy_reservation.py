"""EASY's two head reservations on the shipped KTH-SP2 excerpt: CPU time per variant, and how many jobs start elsewhere.

    python benchmarks/batch_easy_reservation.py [--lines 2000 3000] [--repeat 9]

For each cut (the first ``lines`` job lines of ``coschedopt/batch/data/``'s excerpt, on the thesis's
KTH platform) and each allocation variant: the minimum and median CPU milliseconds of
``simulate_queue`` over ``repeat`` runs after one warm-up, for ``reservation=busy-first`` and
``lowest-ids``, and the number of jobs whose start time differs between the two.  On code older
than the ``reservation`` option only one column is timed: run it there with
``PYTHONPATH`` pointing at an extracted ``git archive <commit> coschedopt``.  The rows go to the
record ``benchmarks/results/batch_easy_reservation.json``.
"""

from __future__ import annotations

import argparse
import gzip
import tempfile
import time
from pathlib import Path

import coschedopt.batch
from coschedopt.batch.allocation import VARIANTS
from coschedopt.batch.simulation import SimOptions
from coschedopt.batch.simulators import queue
from coschedopt.batch.traces import read_trace, trace_instance
from coschedopt.bench.provenance import (
    add_record_arguments,
    load_average,
    parameters,
    record_from_args,
    start_record,
    write_record,
)

RESULTS = Path(__file__).resolve().parent / "results"
DATA = Path(coschedopt.batch.__file__).parent / "data" / "KTH-SP2-1996-2.1-cln-first3000.swf.gz"


def excerpt(lines: int, folder: Path):
    with gzip.open(DATA, "rt") as fh:
        text = fh.readlines()
    header = [x for x in text if x.startswith(";")]
    jobs = [x for x in text if x.strip() and not x.startswith(";")]
    path = folder / f"KTH-SP2-first{lines}.swf"  # the name selects the thesis platform
    path.write_text("".join(header + jobs[:lines]))
    return trace_instance(read_trace(path))


def cpu_ms(inst, opts, repeat: int) -> tuple[float, float, list[int]]:
    rec = queue.simulate_queue(inst, opts, backfill=True)
    times = []
    for _ in range(repeat):
        cpu = time.process_time()
        queue.simulate_queue(inst, opts, backfill=True)
        times.append(1000 * (time.process_time() - cpu))
    times.sort()
    return times[0], times[len(times) // 2], rec.start.tolist()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs="+", default=[2000, 3000])
    parser.add_argument("--repeat", type=int, default=9)
    add_record_arguments(parser, RESULTS)
    args = parser.parse_args()
    if args.smoke:
        args.lines, args.repeat = [300], 1
    started = start_record()
    records = []
    easy_options = getattr(queue, "EasyOptions", None)
    rules = getattr(queue, "RESERVATIONS", (None,))
    print(f"# {coschedopt.__file__}; load average {started['load_before']}")
    print(
        "| lines | jobs | variant | "
        + " | ".join(f"{r or 'before'} min / median ms" for r in rules)
        + " | jobs moved |"
    )
    print("|---:|---:|---|" + "---:|" * (len(rules) + 1))
    with tempfile.TemporaryDirectory() as tmp:
        for lines in args.lines:
            inst = excerpt(lines, Path(tmp))
            for variant in VARIANTS:
                cells, starts, cpu = [], [], {}
                for rule in rules:
                    opts = (
                        easy_options(allocation=variant, reservation=rule) if rule else SimOptions(allocation=variant)
                    )
                    low, mid, start = cpu_ms(inst, opts, args.repeat)
                    cells.append(f"{low:.1f} / {mid:.1f}")
                    cpu[rule or "before"] = {"min_ms": low, "median_ms": mid}
                    starts.append(start)
                moved = sum(a != b for a, b in zip(starts[0], starts[-1], strict=True)) if len(starts) > 1 else "-"
                print(f"| {lines} | {inst.n} | {variant} | " + " | ".join(cells) + f" | {moved} |")
                records.append({"lines": lines, "jobs": inst.n, "variant": variant, "cpu": cpu, "jobs_moved": moved})
    print(f"# load average {load_average()}")
    path = write_record(
        "batch_easy_reservation", records, started=started, parameters=parameters(args), **record_from_args(args)
    )
    print(f"# record {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
