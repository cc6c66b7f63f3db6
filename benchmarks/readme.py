"""The README's measured figures, rendered from the benchmark records.

Every measured figure of README.md and docs/results.md stands between markers::

    <!-- figures:NAME -->
    ... text rendered from records ...
    <!-- /figures:NAME -->

and ``BLOCKS[NAME]`` says which records (``benchmarks/results/<record>.json``, written
by the scripts through :func:`coschedopt.bench.provenance.write_record`) the block
reads and the function turning them into Markdown.  A figure is thus typed once, by the
run that measured it::

    python benchmarks/readme.py --write    # re-render every block from the records
    python benchmarks/readme.py --check    # exit 1 naming each block that differs or lacks a record

A record is a script's JSON (:func:`coschedopt.bench.provenance.write_record`) or a suite's exported
result table (``coschedopt bench export -o benchmarks/results/NAME.json``, with its runs' provenance).

A smoke record (``--smoke``) is never rendered.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import statistics
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the documents holding blocks: the README (the frontier, the headline), the results page, and a family's notes
#: where an issue asks for a figure there
DOCUMENTS = (README, ROOT / "docs" / "results.md", ROOT / "benchmarks" / "results" / "online-notes.md")
RESULTS = Path(__file__).resolve().parent / "results"
MARKER = re.compile(r"<!-- figures:(?P<name>[\w.-]+) -->\n(?P<body>.*?)<!-- /figures:(?P=name) -->", re.DOTALL)

Records = Mapping[str, dict[str, Any]]


@dataclass(frozen=True)
class Block:
    """A README block: the records it reads and the function rendering them; ``figures`` draws the PNGs its text
    links to (``figures/NAME.png`` beside the records, written by ``--write``; ``--check`` asks only that they
    exist, since their bytes follow matplotlib's version)."""

    records: tuple[str, ...]
    render: Callable[[Records], str]
    figures: Callable[[Records], dict[str, bytes]] | None = None
    figure_names: tuple[str, ...] = ()


class MissingRecord(Exception):
    """A block's record is absent, or a smoke run's."""


def read_record(records_dir: Path, name: str) -> dict[str, Any]:
    """The record ``records_dir/NAME.json``; :class:`MissingRecord` if absent or from a smoke run."""
    path = Path(records_dir) / f"{name}.json"
    if not path.exists():
        raise MissingRecord(f"record {path} is missing")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("smoke"):
        raise MissingRecord(f"record {path} is a --smoke run's, not a measurement")
    return data


# ---------------------------------------------------------------------------- formatting


def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f} %"


def sig(x: float) -> str:
    """Two significant figures for a ratio in percent (the README's gap tables): 9.4, 69, 126."""
    v = 100 * x
    return f"{v:.1f}" if abs(v) < 10 else f"{v:.0f}"


def table(headers: list[str], rows: list[list[str]], align: str | None = None) -> str:
    align = align or "|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|"
    return "\n".join(["| " + " | ".join(headers) + " |", align, *("| " + " | ".join(r) + " |" for r in rows)])


def span(values: list[float], fmt: str = "{:.2f}") -> str:
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def load_text(record: dict) -> str:
    """'load 4.3 -> 4.7' from a record's 1-minute load averages ('load not recorded' without them)."""
    before, after = record.get("load_before"), record.get("load_after")
    if not before or not after:
        return "load not recorded"
    return f"load average {before[0]:.1f} before, {after[0]:.1f} after"


def calibration_text(calibration: dict | None) -> str:
    """'AMD EPYC, calibration 0.16 s Python / 0.11 s numpy' (the fixed work of
    :func:`coschedopt.bench.provenance.calibration`: scale a figure by it between machines)."""
    if not calibration:
        return "no calibration (measured before records had one)"
    model = calibration.get("cpu_model") or "CPU model unknown"
    return f"{model}, calibration {calibration['python_s']:.2f} s Python / {calibration['numpy_s']:.2f} s numpy"


def provenance_text(record: dict) -> str:
    """'2026-11-27, load average 4.3 before, 4.7 after, AMD EPYC, calibration ...; record
    `benchmarks/results/NAME.json`' for a record run here (its commit, command and versions are in the
    record: the README keeps no commit hashes); the conversion's source for a converted one."""
    if "source" in record:
        return record["source"].split(" (")[0]
    dirty = ", uncommitted changes" if record.get("dirty") else ""
    return (
        f"{record['date'][:10]}{dirty}, {load_text(record)}, {calibration_text(record.get('calibration'))}; "
        f"record `benchmarks/results/{record['name']}.json`"
    )


def runs_text(table: dict, name: str) -> str:
    """The provenance of an exported result table (``coschedopt bench export -o NAME.json``): its runs'
    dates, load averages at their start, CPU model and calibration."""
    runs = table["runs"]
    dates = sorted({r["started_at"][:10] for r in runs})
    loads = [r["calibration"]["load_average"][0] for r in runs if (r.get("calibration") or {}).get("load_average")]
    load = (
        f"load average {span(loads, '{:.1f}')} at the start of {'each run' if len(runs) > 1 else 'the run'}"
        if loads
        else "load not recorded"
    )
    cals = [r.get("calibration") for r in runs]
    cal = calibration_text(cals[0]) if cals else calibration_text(None)
    when = " to ".join([dates[0], dates[-1]] if len(dates) > 1 else dates)
    count = f"{len(runs)} runs" if len(runs) > 1 else "one run"
    return f"{when}, {count}, {load}, {cal}; record `benchmarks/results/{name}.json`"


# ---------------------------------------------------------------------------- frontier


def frontier(records: Records) -> str:
    """The exact methods' frontier (every family), from the exported table of the ``frontier-*`` suites."""
    from coschedopt.bench.frontier import frontier_markdown, frontier_rows

    rec = records["frontier"]
    rows = exported_rows(rec)
    ladder = {r["suite"]: r["ladder"] for r in rec["runs"] if r.get("ladder")}
    limit = {r["time_limit"] for r in rows if r["exact"]}
    head = (
        "**The frontier of the exact methods**: per family and method, the largest size whose median seed (of 5) "
        f"is proven optimal within {'/'.join(f'{x:g}' for x in sorted(limit))} s, its median seconds, and the first "
        "size not proven with its proven count and the median gap to the certified bound there; each method climbs "
        "its sizes until one is lost (`coschedopt bench run frontier-FAMILY --db frontier.sqlite` for each family, "
        f"on {' and '.join(sorted({r['executor'] for r in rec['runs']}))}, then `coschedopt bench export` as the "
        "record says; "
        f"{runs_text(rec, 'frontier')}).\n"
    )
    return head + "\n" + frontier_markdown(frontier_rows(rows, ladder))


# ---------------------------------------------------------------------------- pack

HEURISTICS = (
    "pack-approx",
    "pack-by-pack-1",
    "pack-by-pack-9",
    "random-pack-1",
    "random-pack-9",
    "random-proc-1",
    "random-proc-9",
)


def exported_rows(rec: dict) -> list[dict]:
    """The rows of an exported result table (``coschedopt bench export -o NAME.json``) as dicts."""
    from coschedopt.bench.table import table_from_json

    return table_from_json(rec).rows


def pack_table1(records: Records) -> str:
    from coschedopt.pack.report import slower_text, table_1, table_1_rows

    rec = records["pack-table1"]
    rows = exported_rows(rec)
    headers, body, slower = table_1_rows(rows)
    calls = sorted({c["calls"] for by in table_1(rows).values() for c in by.values()})
    head = (
        f"**Heuristic running times** beside the paper's Table 1: the median ms of each heuristic's own time over "
        f"{span(calls, '{:d}')} calls (method seeds 0-100, a worker's first call left out; suite `pack-table1`, "
        "Workload-I/II/III at k = 10/16/32, instance seed 0: `coschedopt bench run pack-table1 -j 1 --db table1.sqlite`, "
        "then `coschedopt bench export` as the record says; "
        f"{runs_text(rec, 'pack-table1')}); {slower_text(slower)}.\n"
    )
    return head + "\n" + table(headers, body) + "\n"


def _suite_bnp_rows(rec: dict) -> list[dict]:
    """A suite's exported rows (``branch-and-price`` and the heuristics, once per instance) in the shape of the
    script's rows that :func:`_heuristic_gaps` reads: per (k, instance seed), ``bnp`` (status, time, time
    limit, cost, bound, certified gap) and ``heuristics`` (method -> cost)."""
    out: dict[tuple[int, int], dict] = {}
    for r in exported_rows(rec):
        row = out.setdefault((r["k"], r["instance_seed"]), {"k": r["k"], "seed": r["instance_seed"], "heuristics": {}})
        if r["method"] == "branch-and-price":
            row["bnp"] = {
                "status": r["status"],
                "time": r["runtime_s"],
                "limit": r["time_limit"],
                "cost": r["objective"],
                "bound": r["lower_bound"],
                "gap": (r["objective"] - r["lower_bound"]) / r["objective"],
            }
        elif r["method"] in HEURISTICS and r["objective"] is not None:
            row["heuristics"][r["method"]] = r["objective"]
    return [out[key] for key in sorted(out)]


def _heuristic_gaps(rows: list[dict]) -> dict[int, dict[str, tuple[float, float]]]:
    """Per k and heuristic, (mean, max) of (cost - ref) / ref, ref the optimum or the certified bound."""
    out: dict[int, dict[str, tuple[float, float]]] = {}
    for k in sorted({r["k"] for r in rows}):
        rk = [r for r in rows if r["k"] == k]
        out[k] = {}
        for h in HEURISTICS:
            gaps = []
            for r in rk:
                ref = r["bnp"]["cost"] if r["bnp"]["status"] == "OPTIMAL" else r["bnp"]["bound"]
                if h in r["heuristics"]:
                    gaps.append((r["heuristics"][h] - ref) / ref)
            if gaps:
                out[k][h] = (statistics.mean(gaps), max(gaps))
    return out


def _gap_table(gaps: dict[int, dict[str, tuple[float, float]]]) -> str:
    rows = [[str(k)] + [f"{sig(g[h][0])} / {sig(g[h][1])} %" for h in HEURISTICS] for k, g in gaps.items()]
    return table(["k", *HEURISTICS], rows)


def _limits_text(rows: list[dict]) -> str:
    """The time limits of the rows' ``branch-and-price`` runs: '120 s each'."""
    return "/".join(f"{x:g}" for x in sorted({r["bnp"]["limit"] for r in rows})) + " s each"


def pack_w2(records: Records) -> str:
    rec = records["pack-bnp-w2"]
    rows = _suite_bnp_rows(rec)
    seeds = sorted({r["seed"] for r in rows})
    proven = sum(r["bnp"]["status"] == "OPTIMAL" for r in rows)
    by_k = {k: [r["bnp"]["time"] for r in rows if r["k"] == k] for k in sorted({r["k"] for r in rows})}
    medians = [statistics.median(t) for t in by_k.values()]
    gaps = _heuristic_gaps(rows)
    best = {k: min(g, key=lambda h, g=g: g[h][0]) for k, g in gaps.items()}
    pbp9 = [g["pack-by-pack-9"][0] for g in gaps.values()]
    random_means = [g[h][0] for g in gaps.values() for h in HEURISTICS if h.startswith("random")]
    best_text = (
        "PACK-BY-PACK-9 is the best heuristic at every k"
        if set(best.values()) == {"pack-by-pack-9"}
        else "the best heuristic per k: " + ", ".join(f"{best[k]} (k = {k})" for k in best)
    )
    against = (
        "the proven optimum"
        if proven == len(rows)
        else "the proven optimum (the certified bound where it is not proven: an upper bound on the gap)"
    )
    return (
        f"`branch-and-price` proves the optimum of the paper's Workload-II at {proven} of {len(rows)} runs "
        f"(every k, seeds {', '.join(map(str, seeds))}, {_limits_text(rows)}), "
        f"median {span(medians, '{:.1f}')} s per k (max {max(t for ts in by_k.values() for t in ts):.0f} s).\n\n"
        f"**The paper's heuristics against {against} of Workload-II** (65 tasks,\n"
        f"16 processors, seeds {seeds[0]}-{seeds[-1]}, the heuristics with method seed 0; mean / max of "
        f"(cost - opt) / opt; {_suite_head(rec, 'pack-bnp-w2', 'bnp.sqlite')}):"
        "\n\n"
        + _gap_table(gaps)
        + f"\n\n{best_text} ({span(pbp9, '{:.1%}').replace('%', '')} % above the optimum on average"
        f" for PACK-BY-PACK-9); the random heuristics are "
        f"{1 + min(random_means):.1f}x-{1 + max(random_means):.1f}x the optimum on these workloads.\n"
    )


def pack_w3(records: Records) -> str:
    rec = records["pack-bnp-w3"]
    rows = _suite_bnp_rows(rec)
    seeds = sorted({r["seed"] for r in rows})
    lines = []
    for k in sorted({r["k"] for r in rows}):
        rk = sorted((r for r in rows if r["k"] == k), key=lambda r: r["seed"])
        gaps = [r["bnp"]["gap"] for r in rk]
        proven = [r for r in rk if r["bnp"]["status"] == "OPTIMAL"]
        text = f"k = {k}: gap mean / max {pct(statistics.mean(gaps), 3)} / {pct(max(gaps), 3)}"
        if proven:
            text += ", proven: " + ", ".join(f"seed {r['seed']} in {r['bnp']['time']:.0f} s" for r in proven)
        lines.append(text)
    gaps = _heuristic_gaps(rows)
    unproven = [r for r in rows if r["bnp"]["status"] != "OPTIMAL"]
    overstate = max(((r["bnp"]["cost"] - r["bnp"]["bound"]) / r["bnp"]["bound"] for r in unproven), default=0.0)
    random_means = [g[h][0] for g in gaps.values() for h in HEURISTICS if h.startswith("random")]
    return (
        f"On **Workload-III** (260 tasks, 32 processors, seeds {seeds[0]}-{seeds[-1]}, "
        f"{_limits_text(rows)}) the certified gaps are: "
        + "; ".join(lines)
        + f" ({_suite_head(rec, 'pack-bnp-w3', 'bnp.sqlite')}; what limits "
        "k = 16, and the runs behind each design choice: `benchmarks/results/bnp-notes.md`). The heuristics' gaps "
        "below (method seed 0) are measured against the certified bound where the optimum is not proven, so each is "
        f"an upper bound on the true gap (it overstates cost / optimum by at most {pct(overstate, 2)}):\n\n"
        + _gap_table(gaps)
        + f"\n\nThe random heuristics are {1 + min(random_means):.1f}x-{1 + max(random_means):.1f}x the optimum "
        "on average.\n"
    )


#: the literature's sizes of 3-PARTITION instances (Falkenauer's T class: 249 and 501 items), block pack-triplets;
#: the suite's other sizes are quoted in block pack-ilp
LITERATURE_TRIPLETS = (83, 167)


def _triplet_rows(rec: dict) -> list[dict]:
    """The exported rows of suite pack-bnp-triplets with their triplet count m = n / 3 and B, the processors
    (the export's size key ``m``)."""
    return [r | {"B": r["m"], "m": r["n"] // 3} for r in exported_rows(rec)]


def _triplet_proven(r: dict) -> bool:
    return r["status"] == "OPTIMAL" and abs(r["objective"] - r["m"]) < 1e-6


def pack_triplets(records: Records) -> str:
    """Theorem 2's reductions of 3-PARTITION yes-instances at the literature's sizes (249 and 501 tasks)."""
    rec = records["pack-bnp-triplets"]
    rows = [r for r in _triplet_rows(rec) if r["m"] in LITERATURE_TRIPLETS]
    body = []
    for m in sorted({r["m"] for r in rows}):
        rm = [r for r in rows if r["m"] == m]
        times = [r["runtime_s"] for r in rm]
        seeds = sorted(r["instance_seed"] for r in rm)
        body.append(
            [str(m), str(3 * m), f"{seeds[0]}-{seeds[-1]}", f"{sum(map(_triplet_proven, rm))}/{len(rm)}"]
            + [f"{statistics.median(times):.1f}", f"{max(times):.1f}"]
        )
    slowest = max(rows, key=lambda r: r["runtime_s"])
    warm = (
        f"\n\nThe slowest, seed {slowest['instance_seed']} at {slowest['n']} tasks, is its worker's first cell and "
        "also pays the process's warm-up (loading the compiled pricing kernels, a few seconds).\n"
        if slowest["method_call"] == 1
        else "\n"
    )
    return (
        f"**Theorem 2's 3-PARTITION reductions at the literature's sizes** (random yes-instances, k = 3, "
        f"B = p = {rows[0]['B']}, triplets filling a pack exactly, as Falkenauer's T class; proven: cost m "
        f"certified optimal; {_suite_head(rec, 'pack-bnp-triplets', 'bnp.sqlite')}). The perfect 3-partition lies on the "
        "root LP's optimal face, where an exact-cover search with randomised restarts finds it:\n\n"
        + table(["triplets m", "tasks", "seeds", "proven", "median s", "max s"], body)
        + warm
    )


def _median_cells(rows: list[dict], method: str) -> dict[tuple[int, int], dict]:
    """Per (n, instance seed), one method's cells as one: OPTIMAL when every method seed proved it, its time and
    gap (objective - bound) / objective the median over the method seeds (short runs timed several times)."""
    cells: dict[tuple[int, int], list[dict]] = {}
    for r in rows:
        if r["method"] == method:
            cells.setdefault((r["n"], r["instance_seed"]), []).append(r)
    out = {}
    for key, rs in sorted(cells.items()):
        gaps = [(r["objective"] - r["lower_bound"]) / r["objective"] for r in rs if r["lower_bound"] is not None]
        out[key] = {
            "status": next((r["status"] for r in rs if r["status"] != "OPTIMAL"), "OPTIMAL"),
            "time": statistics.median(r["runtime_s"] for r in rs),
            "gap": statistics.median(gaps) if gaps else float("nan"),
            "runs": len(rs),
            "p": rs[0]["m"],
            "k": rs[0]["k"],
        }
    return out


def pack_ilp(records: Records) -> str:
    rec = records["pack-bnp-ilp"]
    rows = exported_rows(rec)
    bnp, ilp = _median_cells(rows, "branch-and-price"), _median_cells(rows, "ilp")
    both = [key for key in ilp if ilp[key]["status"] == "OPTIMAL" and bnp[key]["status"] == "OPTIMAL"]
    rest = [key for key in ilp if ilp[key]["status"] != "OPTIMAL"]
    speedup = [ilp[key]["time"] / bnp[key]["time"] for key in both]
    ns_both = sorted({n for n, _ in both})
    ns_rest = sorted({n for n, _ in rest})
    runs = sorted({c["runs"] for c in bnp.values()}), sorted({ilp[key]["runs"] for key in both})
    tp_rec = records["pack-bnp-triplets"]
    tp = [r for r in _triplet_rows(tp_rec) if r["m"] not in LITERATURE_TRIPLETS]
    ms = sorted({r["m"] for r in tp})
    slowest = [max(r["runtime_s"] for r in tp if r["m"] == m) for m in ms]
    tp_text = ", ".join(f"{s:.1f}" if s < 10 else f"{s:.0f}" for s in slowest)
    first = bnp[both[0]]
    return (
        f"Against the Theorem 4 ILP, where both finish (n = {ns_both[0]}..{ns_both[-1]}, p = {first['p']}, k = "
        f"{first['k']}), `branch-and-price` is {min(speedup):.0f}x-{max(speedup):.0f}x faster (each time the median "
        f"of a cell's {'/'.join(map(str, runs[0]))} method seeds for `branch-and-price` and "
        f"{'/'.join(map(str, runs[1]))} for the ILP: a single run of milliseconds is mostly timer noise): it proves each in "
        f"{span([1000 * bnp[key]['time'] for key in both], '{:.0f}')} ms, "
        f"where the ILP takes {span([ilp[key]['time'] for key in both], '{:.1f}')} s. For n = "
        f"{ns_rest[0]}..{ns_rest[-1]} it proves each instance in at most "
        f"{max(bnp[key]['time'] for key in rest):.2f} s where the ILP proves none in "
        f"{max(ilp[key]['time'] for key in rest):.0f} s (gaps {span([100 * ilp[key]['gap'] for key in rest], '{:.0f}')}"
        f" % left). Theorem 2's 3-PARTITION reductions (k = 3, B = p = {tp[0]['B']}) with "
        f"{', '.join(str(3 * m) for m in ms)} tasks are "
        + ("proven at cost m" if all(map(_triplet_proven, tp)) else "solved")
        + f" in at most {tp_text} s ({len({r['instance_seed'] for r in tp})} seeds each; "
        f"{_suite_head(rec, 'pack-bnp-ilp', 'bnp.sqlite')}; {_suite_head(tp_rec, 'pack-bnp-triplets', 'bnp.sqlite')}).\n"
    )


# ---------------------------------------------------------------------------- combos


def combos_lp(records: Records) -> str:
    """LP (2) over every combination at growing n, from the exported ``combos-lp-scaling`` run (each cell in a
    worker process of its own): the highspy backend's build, solve and own seconds, simplex iterations,
    combinations used and peak memory, the Pyomo backend's optimum beside it on the small n, FCS over the
    optimum.  The n above 2^17 combinations are built in each cell's worker from their recipe (``build =
    "worker"``): the worker's rebuild seconds are the cell's ``stats.build_seconds``."""
    rec = records["combos-lp-scaling"]
    cells: dict[int, dict[str, dict]] = {}
    for r in exported_rows(rec):
        cells.setdefault(r["n"], {})[r["method_label"]] = r
    body = []
    for n, by in sorted(cells.items()):
        lp, fcs, pyomo = by["LP (highspy)"], by["FCS"], by.get("LP (Pyomo)")
        stats = json.loads(lp["stats"])
        body.append(
            [
                str(n),
                f"{lp['combinations']:,}",
                f"{stats['build_seconds']:.2f}" if "build_seconds" in stats else "-",
                f"{stats['build_time']:.2f}",
                f"{stats['solve_time']:.2f}",
                f"{lp['runtime_s']:.2f}",
                f"{stats['iterations']:,}",
                str(stats["combinations_used"]),
                f"{lp['peak_rss_mb']:.0f}",
                f"{fcs['objective'] / lp['objective']:.4f}",
                f"{pyomo['runtime_s']:.2f} ({abs(pyomo['objective'] - lp['objective']) / lp['objective']:.0e})"
                if pyomo
                else "-",
            ]
        )
    worker = [n for n, by in cells.items() if "build_seconds" in json.loads(by["LP (highspy)"]["stats"])]
    top = cells[max(cells)]["LP (highspy)"]
    return (
        "**LP (2) over all 2^n - 1 combinations** (the paper's random systems, alpha in [0.75, 0.85], seed 1; "
        f"{_suite_head(rec, 'combos-lp-scaling', 'lp.sqlite')}), the highspy backend, each cell in a worker process "
        "of its own: the seconds the worker took to build the instance from its recipe (n = "
        f"{min(worker)}..{max(worker)}, above the 2^17 combinations the generator writes as JSON: `build = "
        '"worker"`; the smaller instances reach the worker as JSON), '
        "the LP's build and HiGHS solve seconds, the "
        "method's own seconds, simplex iterations, the combinations the optimum uses, the process's peak resident "
        "memory (its imports and the instance included), FCS's makespan over the optimum, and the Pyomo backend's "
        "seconds (its optimum's relative difference) on the small n; "
        f"{sum(by['LP (highspy)']['status'] == 'OPTIMAL' for by in cells.values())} of {len(cells)} proven optimal, "
        f"n = {max(cells)} ({top['combinations']:,} combinations) in {top['runtime_s']:.1f} s and "
        f"{top['peak_rss_mb'] / 1024:.2f} GiB (the target: 60 s and 4 GiB).\n\n"
        + table(
            [
                "n",
                "combinations",
                "instance s",
                "build s",
                "solve s",
                "LP s",
                "iterations",
                "used",
                "peak MiB",
                "FCS/OPT",
                "Pyomo s",
            ],
            body,
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        )
        + f"\n\nThe worker builds the arrays of the n = {min(worker)}..{max(worker)} instances directly; the smaller "
        "ones it reads from their JSON, whose Python lists count in its peak: "
        f"{cells[min(worker) - 1]['LP (highspy)']['peak_rss_mb']:.0f} MiB at n = {min(worker) - 1}, "
        f"{cells[min(worker)]['LP (highspy)']['peak_rss_mb']:.0f} MiB at n = {min(worker)}.\n"
    )


def combos_colgen(records: Records) -> str:
    """LP (2) by column generation on the pairwise model, n x K, from the exported ``colgen-combos`` run: the
    column generation's counters (the cells' stats), its optimum and certified bound, the LP over the listed
    combinations where they fit, and FCS over the optimum."""
    rec = records["colgen-combos"]
    cells: dict[tuple[int, int], dict[str, dict]] = {}
    for r in exported_rows(rec):
        cells.setdefault((r["k"], r["n"]), {})[r["method_label"]] = r
    body = []
    for (k, n), by in sorted(cells.items()):
        lp, fcs, listed = by["LP by column generation"], by["FCS"], by.get("LP over the listed combinations")
        stats = json.loads(lp["stats"])
        body.append(
            [
                str(k),
                f"{n:,}",
                f"{lp['combinations']:,}",
                f"{stats['columns_generated']:,}",
                f"{stats['rounds']} ({stats['exact_pricing_rounds']})",
                f"{lp['runtime_s']:.2f}" + (" *" if lp["method_call"] == 1 else ""),
                f"{lp['objective']:.6f}",
                f"{lp['lower_bound']:.6f}",
                f"{lp['gap']:.1e}",
                f"{listed['objective']:.6f} ({listed['runtime_s']:.2f})" if listed else "too many",
                f"{fcs['objective'] / lp['objective']:.4f}",
            ]
        )
    proven = sum(by["LP by column generation"]["status"] == "OPTIMAL" for by in cells.values())
    head = (
        "**LP (2) by column generation on the pairwise model** (one random system per K and n: `generate combos "
        "pairwise --tasks n --max-size K`, alpha in [0.75, 0.85], seed 0; "
        f"{_suite_head(rec, 'colgen-combos', 'colgen.sqlite')}): the combinations the LP ranges over, the columns "
        "generated, the pricing rounds (those of the exact branch-and-bound), the method's own seconds (* a worker's first "
        "call, which also loads the compiled pricing kernels), the optimum "
        "and the certified Farley bound, the LP over the listed combinations where they can be listed (its optimum "
        "and seconds; every combination at K = n = 20), and FCS's makespan over the optimum; "
        f"{proven} of the {len(cells)} systems proven optimal.\n"
    )
    headers = [
        "K",
        "n",
        "combinations",
        "columns",
        "rounds (exact)",
        "seconds",
        "optimum",
        "dual bound",
        "gap",
        "listed LP optimum (s)",
        "FCS/OPT",
    ]
    return head + "\n" + table(headers, body, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|") + "\n"


def combos_competitive(records: Records) -> str:
    """The paper's section 7 (Figures 6-7) from the exported ``paper-combos`` run: each method's mean (max)
    competitive ratio per alpha range (:func:`coschedopt.combos.report.competitive_ratio_table`), then the
    largest ratios, FCS against Theorem 1's bound and the share of the searches' time spent measuring."""
    from coschedopt.combos.report import SEARCHES, competitive_ratio_summary, competitive_ratio_table

    rec = records["paper-combos"]
    rows = exported_rows(rec)
    headers, body = competitive_ratio_table(rows)
    summary = competitive_ratio_summary(rows)
    systems = {r["instance_id"] for r in rows}
    per_alpha = {a: len({r["instance_id"] for r in rows if r["alpha"] == a}) for a in {r["alpha"] for r in rows}}
    tasks = sorted({r["n"] for r in rows})
    options = [json.loads(r["options"]) if isinstance(r["options"], str) else r["options"] for r in rows]
    searches = [o for r, o in zip(rows, options, strict=True) if r["method"] in SEARCHES]
    ks = sorted({o["k"] for o in searches})
    measure = sorted({o["measure_time"] for o in searches})
    a_plus = sorted({json.loads(r["stats"]).get("a_plus") for r in rows if r["method"] in ("search-pi", "search-ei")})
    lp = [o for r, o in zip(rows, options, strict=True) if r["method"] == "lp"]
    backend = sorted({o.get("backend", "default") for o in lp})
    failed = sum(r["status"] not in ("OPTIMAL", "FEASIBLE") for r in rows)
    ranges = sorted(per_alpha)
    seeds = {a: {r["instance_seed"] for r in rows if r["alpha"] == a} for a in ranges}
    if all(s == set(range(1000 * i, 1000 * i + len(s))) for i, s in enumerate(seeds.values())):
        seeds_text = "instance seeds 1000 r + s for the r-th range's s-th system"
    else:
        seeds_text = "instance seeds " + ", ".join(span(sorted(s), "{:d}") for s in seeds.values())
    method_seeds = sorted({r["seed"] for r in rows if r["method"] in SEARCHES})
    seeds_text += f", the searches' tie-break seed {', '.join(map(str, method_seeds))}"
    head = (
        "**The paper's simulation** (section 7, Figures 6-7): FCS and the PI, EI and UCB searches (k = "
        f"{', '.join(f'{k:g}' for k in ks)}, measurement time {'/'.join(f'{m:g}' for m in measure)}, PI's and EI's "
        f"a^+ read as {'/'.join(f'`{a}`' for a in a_plus)}) against the LP optimum (`lp`, {'/'.join(backend)}) on {len(systems)} random "
        f"systems of {'/'.join(map(str, tasks))} tasks, {span(list(per_alpha.values()), '{:d}')} per alpha range "
        f"({seeds_text}; {len(rows):,} cells, {failed} not finished; "
        f"{_suite_head(rec, 'paper-combos', 'paper-combos.sqlite')}): competitive ratio = makespan / LP optimum of "
        "the same system, mean (max) over the systems of each range (alpha: the range's midpoint, ranges 0.1 wide).\n"
    )
    worst = ", ".join(f"{name} {v:.3f}" for name, v in summary["max_ratio"].items())
    tail = f"\nLargest ratio over every range and k: {worst}"
    if summary["fcs_over_theorem1_max"] is not None:
        tail += f"; FCS over Theorem 1's bound 2 - 1/a*: at most {summary['fcs_over_theorem1_max']:.3f} (<= 1)"
    if summary["measuring_share_mean"] is not None:
        tail += f"; time spent measuring / makespan, all search cells: mean {summary['measuring_share_mean']:.2f}"
    return head + "\n" + table(headers, body) + "\n" + tail + ".\n"


# ---------------------------------------------------------------------------- evolving


def _fmt_eval(x: float | None, kind: str) -> str:
    if x is None:
        return "?"
    if kind == "rel":
        return f"{x:.2f}".removeprefix("0") if x < 1 else f"{x:.0f}" if x == round(x) else f"{x:.2f}"
    return f"{x:.0f}" if abs(x) >= 10 or x == 0 else f"{x:.1f}"


def _triple(t: list, kind: str) -> str:
    parts = [_fmt_eval(x, kind) for x in t]
    return parts[0] if len(set(parts)) == 1 else "/".join(parts)


def evolving_tables(records: Records) -> str:
    from coschedopt.evolving.report import compacting_later, records_by_method
    from coschedopt.evolving.tables import PAPER, PAPER_METHODS, TABLE1, TABLE2, matches, summarise

    rec = records["paper-evolving"]
    rows = exported_rows(rec)
    by_method = records_by_method(rows)
    tests = len({r["instance_id"] for r in rows})
    columns = [c for c in (*TABLE1, *TABLE2) if c.kind != "ms"]
    headers = ["method"] + [c.title.replace(" (rel.)", "").replace(" (%)", " %") for c in columns]
    body, tolerance_ok = [], True
    for method in (m for m in PAPER_METHODS if m in by_method):
        row = [method]
        for c in columns:
            ours, paper = summarise(by_method[method], c), PAPER[method][c.key]
            tolerance_ok &= matches(ours, paper, c.kind) is not False
            o, p = _triple(list(ours), c.kind), _triple(list(paper), c.kind)
            row.append(o if o == p == "0" or o == p == "1" else f"{o} ({p})")
        body.append(row)
    nos = [r for r in rows if r["method_label"] == "nos" and r["method_call"] != 1]
    nos_ms = 1000 * statistics.fmean(r["runtime_s"] for r in nos)
    nos_cpu = 1000 * statistics.fmean(r["cpu_s"] for r in nos if r["cpu_s"] is not None)
    later = compacting_later(rows)
    run = rec["runs"][0]
    return (
        f"The paper's Tables 1 and 2 over its {tests:,} tests (suite `paper-evolving`: `coschedopt bench run "
        "paper-evolving -j 1 --db evolving.sqlite`, then `coschedopt bench export` as the record says, "
        f"{run['executor']}; {runs_text(rec, 'paper-evolving')}), "
        "min / avg / max, ours (the paper's), relative values over CBF's on the same test. "
        + (
            "Every average is within 0.02 (relative) or 2 points (%) of the paper's"
            if tolerance_ok
            else "Some averages differ from the paper's by more than 0.02 (relative) or 2 points (%)"
        )
        + " on the 100-node cluster its tables imply; minima and maxima are single tests' extremes:\n\n"
        + table(headers, body)
        + f"\n\n`nos` schedules a test in {nos_ms:.2f} ms of wall time on average ({nos_cpu:.2f} ms of CPU for the "
        "whole cell: the schedule's validation and metrics too), the paper's Python 24.7 ms. Compacting keeps each "
        "application's completion but can end the whole schedule later (mic+c after mic on "
        f"{later['mic+c > mic']} of the {later['tests']:,} tests, inf+c after inf on {later['inf+c > inf']}).\n"
    )


def evolving_target(records: Records) -> str:
    """The exact model at the paper's target size (6 applications x 4 stages), from the frontier's rung n = 6."""
    rec = records["frontier"]
    rows = [r for r in exported_rows(rec) if r["suite"] == "frontier-evolving" and r["n"] == 6]
    parts, proven, total = [], 0, 0
    for label, name in (("cpsat", "without stretching"), ("cpsat l=2", "l = 2"), ("cpsat l=inf", "l = inf")):
        rs = [r for r in rows if r["method_label"] == label]
        if not rs:
            continue
        done = [r["runtime_s"] for r in rs if r["status"] == "OPTIMAL"]
        proven, total = proven + len(done), total + len(rs)
        times = f"{statistics.mean(done):.1f} s on average (max {max(done):.1f} s)" if done else "none proven"
        parts.append(f"{name} {len(done)}/{len(rs)} proven, {times}")
    seeds = len({r["instance_id"] for r in rows})
    return (
        f"**The exact model at the paper's target** (6 applications x 4 stages in 100 s units, {seeds} seeds; the "
        f"frontier's rung n = 6, CP-SAT with every core, 60 s; {runs_text(rec, 'frontier')}): "
        + "; ".join(parts)
        + f" ({proven} of {total} solves proven). The largest sizes proven: the frontier table of the README.\n"
    )


#: the optimum each heuristic of the ``evolving-optimum`` suite is measured against: the cpsat label of its
#: stretch limit (the paper's variants by their limit, the list orders by the variant they reorder)
EVOLVING_REFERENCE = {
    "cbf": "cpsat l=1",
    "nos": "cpsat l=1",
    "mic": "cpsat l=2",
    "mic+c": "cpsat l=2",
    "inf": "cpsat l=inf",
    "inf+c": "cpsat l=inf",
}
EVOLVING_OPTIMA = ("cpsat l=1", "cpsat l=2", "cpsat l=inf", "cpsat rigid")


def evolving_optimum(records: Records) -> str:
    rec = records["evolving-optimum"]
    by_test: dict[str, dict[str, dict[str, dict]]] = {}
    for r in exported_rows(rec):
        by_test.setdefault(r["group"], {}).setdefault(r["instance_id"], {})[r["method_label"]] = r
    small = by_test["small"]
    # the tests where cpsat proved every optimum (the others are not counted, as in the script before)
    tests = [t for t in small.values() if all(t[o]["status"] == "OPTIMAL" for o in EVOLVING_OPTIMA)]

    def opt(t: dict, label: str) -> float:
        return t[label]["objective"]

    def gaps(label: str, reference: str | None = None) -> list[float]:
        ref = reference or EVOLVING_REFERENCE[label.split(",")[0]]
        return [(opt(t, label) - opt(t, ref)) / opt(t, ref) for t in tests]

    def shorter(label: str) -> list[float]:
        return [(opt(t, "cpsat l=1") - opt(t, label)) / opt(t, "cpsat l=1") for t in tests]

    g = {label: gaps(label) for label in ("nos", "mic", "inf", "cbf", "nos, order-search", "nos, length order")}
    cbf_rigid = gaps("cbf", "cpsat rigid")
    search = g["nos, order-search"]
    paper = [opt(t, "nos, order-search") / opt(t, "nos") for t in by_test["paper"].values()]
    s2, sinf = shorter("cpsat l=2"), shorter("cpsat l=inf")
    variants = ("nos", "mic", "inf")
    means = [statistics.mean(g[v]) for v in variants]
    return (
        f"**Against the optimum** ({len(small)} small tests, 4-6 applications of 1-4 stages in 100 s units, the "
        f"optimum proven by `cpsat` (one worker, 60 s) on {len(tests)}; "
        f"{_suite_head(rec, 'evolving-optimum', 'evolving-optimum.sqlite')}): the paper's variants end "
        f"{span([100 * m for m in means], '{:.0f}')} % after the optimum of their stretch limit on average ("
        + "; ".join(f"{v} {pct(statistics.mean(g[v]))}" for v in variants)
        + f", nos at most {pct(max(g['nos']), 0)}), CBF {pct(statistics.mean(g['cbf']), 0)} after the no-stretch "
        f"optimum but only {pct(statistics.mean(cbf_rigid))} after the best rigid schedule. Stretching shortens the "
        f"optimum on {sum(c > 1e-9 for c in s2)}/{len(tests)} tests with l = 2 (mean {pct(statistics.mean(s2))}, "
        f"max {pct(max(s2), 0)}) and {sum(c > 1e-9 for c in sinf)}/{len(tests)} with l = inf. The order search "
        f"(`order-search`) is {pct(statistics.mean(search))} from the optimum on average "
        f"({sum(x <= 1e-9 for x in search)}/{len(tests)} optimal; sorting by length alone: "
        f"{pct(statistics.mean(g['nos, length order']))}), and on {len(paper)} tests of the paper's workload it "
        f"shortens nos's makespan by {pct(1 - statistics.mean(paper))} on average "
        f"({sum(x < 1 for x in paper)}/{len(paper)} tests shorter).\n"
    )


# ---------------------------------------------------------------------------- batch (records from the batch runs)


def probe_rows(rec: dict) -> list[dict]:
    """The rows of an exported probe suite, each with its probe's figures (``stats``) read from JSON."""
    return [{**r, "stats": json.loads(r["stats"])} for r in exported_rows(rec)]


def times_x(ratio: float) -> str:
    """A speed-up as the README prints it: 1,166x, 22x, 4.8x."""
    return f"{round(ratio):,}x" if ratio >= 100 else f"{ratio:.3g}x"


def batch_accasim(records: Records) -> str:
    """Ours beside AccaSim 1.1.3, from the exported ``batch-accasim`` run (probe ``accasim``)."""
    rec = records["batch-accasim"]
    by_policy = {r["stats"]["policy"]: r for r in probe_rows(rec)}
    rows = {p: by_policy[p] for p in ("fcfs", "easy")}
    names = {"fcfs": "FCFS / FIFO", "easy": "EASY"}
    body = [
        [
            names[p],
            f"{r['stats']['ours_cpu_s']:.3g}",
            f"{r['stats']['accasim_cpu_s']:.2f}",
            times_x(r["stats"]["speedup"]),
            f"{r['stats']['ours_python_cpu_s']:.2f}",
        ]
        for p, r in rows.items()
    ]
    fcfs, easy = rows["fcfs"], rows["easy"]
    jobs, same = fcfs["n"], fcfs["stats"]["same_starts"]
    agree = (
        f"Our `fcfs` starts every one of the {jobs:,} jobs at the same second as AccaSim's FIFO"
        if same == jobs
        else f"Our `fcfs` starts {same:,} of the {jobs:,} jobs at the same second as AccaSim's FIFO"
    )
    load = max(r["stats"].get("prepare_seconds", 0.0) for r in rows.values())
    return (
        f"**Beside AccaSim 1.1.3** (pure Python, in its own virtual environment) on the same {jobs:,} KTH-SP2 jobs, "
        "every line of the trace read as AccaSim reads it (generator `accasim-trace`; probe `accasim`; "
        f"{_suite_head(rec, 'batch-accasim', 'accasim.sqlite')}, with `ACCASIM_PYTHON` naming AccaSim's "
        "interpreter):\n\n"
        + table(["policy", "ours CPU s", "AccaSim CPU s", "speed-up", "ours, Python loop CPU s"], body)
        + "\n\nOurs runs the compiled loop of basic allocation (its kernels loaded from numba's cache before the timing, "
        f"{load:.2f} s once per process, not counted); the last column is the Python loop that stays the reference, "
        f"on the same jobs and with the same schedule.  {agree} (AccaSim's convention for zero-length jobs, followed "
        "exactly: their processors are freed after the pass in which they start).  AccaSim's EASY is not textbook "
        f"EASY: the mean wait is {easy['stats']['ours_mean_wait_s']:,.0f} s under ours and "
        f"{easy['stats']['accasim_mean_wait_s']:,.0f} s under AccaSim's, an aggregate check only.\n"
    )


def batch_easy_reservation(records: Records) -> str:
    """EASY's two head-reservation rules, from the exported ``batch-easy-reservation`` run (probe ``easy-reservations``)."""
    rec = records["batch-easy-reservation"]
    rows = sorted(probe_rows(rec), key=lambda r: (r["n"], BATCH_ORDER.index(r["method_label"])))
    body = [
        [f"{r['n']:,}", r["method_label"]]
        + [f"{r['stats'][f'{rule}_min_ms']:.1f} / {r['stats'][f'{rule}_median_ms']:.1f}" for rule in EASY_RULES]
        + [str(r["stats"]["jobs_moved"])]
        for r in rows
    ]
    repeat = rows[0]["stats"]["repeat"]
    return (
        "**EASY's two reservations for the blocked head** (`easy`'s option `reservation`): `busy-first` reserves the "
        "processors busy now first, keeping idle ones for backfilling (textbook EASY with basic allocation); "
        "`lowest-ids` takes the variant's choice among all those free at the shadow time.  On the KTH-SP2 excerpt "
        "shipped with the toolkit (its first 1,200 jobs, and all 1,913; thesis KTH platform): CPU milliseconds of "
        f"`simulate_queue`, minimum / median of {repeat} runs after a warm-up, and the jobs whose start differs "
        f"between the two rules (probe `easy-reservations`; {_suite_head(rec, 'batch-easy-reservation', 'easy.sqlite')}):"
        "\n\n"
        + table(
            ["jobs", "variant", *(f"{rule} ms" for rule in EASY_RULES), "jobs moved"],
            body,
            "|---:|---|---:|---:|---:|",
        )
        + "\n"
    )


BATCH_ORDER = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")
EASY_RULES = ("busy-first", "lowest-ids")


BATCH_VARIANTS = ("becont", "cont", "beloc", "loc", "beplat", "plat")
BATCH_METRICS = ("sum_flow", "contiguity_factor", "locality_factor", "platform_level_factor", "success")


def batch_paper(records: Records) -> str:
    """Chapters 4-5 from the record of the whole ``paper-batch`` run (``benchmarks/batch_paper.py``): the run,
    chapter 4 against basic, chapter 5's sum flow normalised to basic (§5.7.5), the best variant of each metric
    per platform, and the thesis's statements checked."""
    rec = records["paper-batch"]
    res = rec["results"]
    runs = res["runs"]
    hours, minutes = divmod(round(res["wall_s"] / 60), 60)
    commands = "; ".join(sorted({r["executor"] for r in runs}))
    out = [
        f"**The whole experiment** (`coschedopt bench run paper-batch -j 2`, {res['cells']:,} cells, {res['failed']} "
        f"failed, {hours} h {minutes:02d} min of wall time over {len(runs)} run(s) of the resumable harness on "
        f"{commands}; summarised by `python benchmarks/batch_paper.py --db paper-batch.sqlite`, "
        f"{provenance_text(rec)}).",
        "",
    ]
    ch4 = res["chapter4"]
    if ch4:
        body = [
            [r["variant"], str(r["instances"]), f"{100 * r['makespan_vs_basic']:+.2f} %"]
            + [f"{100 * r['contiguous_share']:.1f} %", f"{100 * r['local_share']:.1f} %"]
            for r in ch4
        ]
        out += [
            "Chapter 4 (offline samples of 300 Curie jobs on 512 processors, requested time = run time):",
            "",
            table(["variant", "samples", "mean makespan vs basic", "contiguous jobs", "local jobs"], body),
            "",
        ]
    rows = res["normalised"]
    traces = sorted({r["trace"] for r in rows})
    value = {(r["trace"], r["variant"]): r for r in rows}
    counts = ", ".join(f"{t} {res['instances'][t]}" for t in traces)
    body = [
        [v] + [f"{value[(t, v)]['sum_flow']:.3f}" if (t, v) in value else "-" for t in traces] for v in BATCH_VARIANTS
    ]
    out += [
        f"Chapter 5 (exponential penalty F = 2, reassignment; windows per platform: {counts}), each metric's mean "
        "normalised to basic's as in §5.7.5; sum flow (Fig. 5.8):",
        "",
        table(["variant", *traces], body),
        "",
    ]
    senses = {"sum_flow": min, "contiguity_factor": min, "locality_factor": min, "platform_level_factor": min}
    best = []
    for metric in BATCH_METRICS:
        pick = senses.get(metric, max)
        cells = []
        for t in traces:
            vals = {v: value[(t, v)][metric] for v in BATCH_VARIANTS if (t, v) in value}
            top = pick(vals, key=vals.get)
            cells.append(f"{top} {vals[top]:.3f}")
        best.append([metric.replace("_", " "), *cells])
    out += ["The best variant per platform (its normalised mean; basic = 1):", "", table(["metric", *traces], best), ""]
    verdict = {True: "yes", False: "no", None: "not checked"}
    claims = [[c["statement"], verdict[c["holds"]]] for c in res["claims"]]
    out += ["The thesis's statements about Figs. 5.8-5.16 (§5.7.5 gives no numbers):", ""]
    out += [table(["the thesis says", "our run bears it out"], claims)]
    return "\n".join(out)


def batch_readings(records: Records) -> str:
    """§5.7.5's statements under each reading of the simulator: the whole experiment under ours and the author's
    (records ``paper-batch`` and ``paper-batch-author``), and 20 windows under each of the author's options alone
    (``batch-readings-20``); each verdict is recomputed from the record's normalised means."""
    from coschedopt.batch.report import readings_tables

    whole, author, ablation = records["paper-batch"], records["paper-batch-author"], records["batch-readings-20"]
    configs = {
        "ours, whole run": whole["results"]["normalised"],
        "author, whole run": author["results"]["normalised"],
    }
    configs |= {f"{c['name']}, 20 windows": c["normalised"] for c in ablation["results"]["configurations"]}
    statements, lowest = readings_tables(configs)
    traces = sorted({r["trace"] for means in configs.values() for r in means})
    res = author["results"]
    hours, minutes = divmod(round(res["wall_s"] / 60), 60)
    planned = max((r.get("cells_planned") or 0 for r in res["runs"]), default=0)
    windows = ", ".join(f"{t} {n}" for t, n in sorted(ablation["results"]["instances"].items()))
    return "\n".join(
        [
            f"**The author's reading, whole** (`python benchmarks/batch_paper.py --suite paper-batch-author --run -j 2`: "
            f"{res['cells']:,} of {planned:,} cells, {res['failed']} failed, {hours} h {minutes:02d} min of wall time over "
            f"{len(res['runs'])} run(s); {provenance_text(author)}).  **One option at a time** "
            f"(`--suite benchmarks/batch-readings-20.toml`, windows {windows}; {ablation['results']['cells']:,} cells; "
            f"{provenance_text(ablation)}).",
            "",
            "Each statement of §5.7.5 under each configuration: whether it holds, and on how many platforms:",
            "",
            table(
                ["the thesis says (§5.7.5)", *configs], statements, "|" + "|".join(["---"] * (len(configs) + 1)) + "|"
            ),
            "",
            "The variant of lowest sum flow per platform (its mean normalised to basic's; the thesis: beplat everywhere):",
            "",
            table(["configuration", *traces], lowest),
        ]
    )


def batch_traces(records: Records) -> str:
    """Whole-trace speed and memory of conservative backfilling, from the exported ``batch-traces`` run (each
    cell in a worker process of its own, so its peak memory is its own)."""
    rec = records["batch-traces"]
    rows = sorted(exported_rows(rec), key=lambda r: -r["n"])
    lines = [
        f"| {r['group']} | {r['method_label']} | {r['n']:,} | {r['m']:,} | {r['runtime_s']:.1f} | {r['cpu_s']:.1f} | "
        f"{r['peak_rss_mb']:.0f} | "
        + (f"{r['n'] / r['runtime_s']:,.0f}" if r["status"] == "FEASIBLE" else r["status"])
        + " |"
        for r in rows
    ]
    return (
        "**Whole traces**: conservative backfilling with reassignment and the exponential penalty F = 2 "
        f"({_suite_head(rec, 'batch-traces', 'traces.sqlite')}). Each trace runs in a worker process of its own: "
        "peak MiB is that process's peak resident memory (its imports and the instance included); seconds are the "
        "simulation's own (wall), jobs/s the jobs over them; CPU s is the whole cell's (reading the instance, "
        "loading the compiled kernels, the simulation, the schedule's validation and metrics): the harness does "
        "not time the simulation's CPU alone, as the script `batch_traces.py` that the suite replaced did.\n\n"
        "| trace | variant | jobs | processors | seconds | CPU s | peak MiB | jobs/s |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|\n" + "\n".join(lines) + "\n"
    )


def online_trends(records: Records) -> str:
    """The five trends of chapter 3, judged (:mod:`coschedopt.online.trends`) on the paper-online means and the
    SPT-RD sweeps, under GSPT-RD's literal counter and its busy-only reading."""
    from coschedopt.online.report import other_reading, policy_means
    from coschedopt.online.trends import sweep_means, trend_1, trend_2, trend_3, trend_4, trend_5

    main, sweeps = records["paper-online"], records["paper-online-sweeps"]
    policies, means = policy_means(exported_rows(main))
    swept = exported_rows(sweeps)
    first = trend_1(sweep_means(swept, "Curie"), sweep_means(swept, "LLNL-Thunder"))
    literal = [first, *(t(means) for t in (trend_2, trend_3, trend_4, trend_5))]
    busy = [first, *(t(other_reading(means)) for t in (trend_2, trend_3, trend_4, trend_5))]
    traces = sorted({r["group"] for r in policies})
    head = (
        f"**The five trends** (suite `paper-online`: {len({r['instance_id'] for r in policies})} Method C instances "
        f"of {len(traces)} traces, Table 3.2's settings; `coschedopt bench run paper-online -j 2 --db online.sqlite`, "
        f"then `coschedopt bench export` as the record says; {runs_text(main, 'paper-online')}; and the SPT-RD sweeps "
        f"of Figures 3.3-3.6 on the 20 instances of Curie and of LLNL-Thunder, suite `paper-online-sweeps`, "
        f"{runs_text(sweeps, 'paper-online-sweeps')}), each judged "
        "by an explicit test (`coschedopt/online/trends.py`); the second reading counts GSPT-RD's arrivals only while "
        "no main processor is idle (trends 1 and 2 do not involve GSPT-RD):\n"
    )
    body = [
        [
            f"{a.trend}. {a.claim}",
            f"{a.verdict} ({a.evidence})",
            b.verdict if b.evidence == a.evidence else f"{b.verdict} ({b.evidence})",
        ]
        for a, b in zip(literal, busy, strict=True)
    ]
    headers = ["trend", "GSPT-RD's literal counter (default)", "GSPT-RD counting only while no main processor is idle"]
    return head + "\n" + table(headers, body, "|---|---|---|") + "\n"


#: trend 1's two processor settings: the suite and how the block names its instances' processor counts
TREND_1_SETTINGS = (
    ("paper-online-sweeps", "Method C's m / Q"),
    ("paper-online-sweeps-table-m", "Table 3.1's counts"),
)


def online_trend_1(records: Records) -> str:
    """Trend 1 (SPT-RD's sweeps, Figures 3.3-3.6) on the instances' own processor counts and on Table 3.1's:
    the verdict of :func:`coschedopt.online.trends.trend_1`, each line's rank correlations, and the figures."""
    from coschedopt.online.trends import sweep_correlations, sweep_means, trend_1

    out = [
        "**Trend 1** (thesis §3.6: on Curie, for m_d >= 4, SPT-RD's ΣS generally rises with m_d while ΣF falls; "
        "LLNL-Thunder shows the same trade-off against τ).  The experiment: SPT-RD on every m_d in 1..10 and τ in "
        "1..10 (Curie) or 1..5 (LLNL-Thunder), the means over the 20 Method C instances of each trace, on two "
        "processor counts for the same windows and tasks: Method C's m / Q (suite `paper-online-sweeps`) and "
        "Table 3.1's 160 and 48 (suite `paper-online-sweeps-table-m`).  The test "
        "(`coschedopt/online/trends.py`): on Curie, Spearman's rank correlation with m_d over m_d >= 4 of ΣS "
        "positive and of ΣF negative on most τ lines; on LLNL-Thunder, ΣS and ΣF correlated with τ with opposite "
        "signs on most m_d lines.",
        "",
    ]
    verdicts, lines = [], []
    for suite, setting in TREND_1_SETTINGS:
        rec = records[suite]
        rows = exported_rows(rec)
        curie, thunder = sweep_means(rows, "Curie"), sweep_means(rows, "LLNL-Thunder")
        m = {g: statistics.fmean(r["m"] for r in rows if r["group"] == g) for g in ("Curie", "LLNL-Thunder")}
        verdict = trend_1(curie, thunder)
        verdicts.append(
            [
                setting,
                f"{m['Curie']:.0f} / {m['LLNL-Thunder']:.0f}",
                f"{verdict.verdict} ({verdict.evidence})",
                runs_text(rec, suite),
            ]
        )
        for trace, sweep, along, least in (("Curie", curie, "m_d", 4), ("LLNL-Thunder", thunder, "tau", 1)):
            cells = [f"{signed(s)} / {signed(f)}" for _, s, f in sweep_correlations(sweep, along, least)]
            lines.append([f"{setting}, {trace} ({'τ' if along == 'm_d' else 'm_d'} lines)", *cells])
    width = max(len(r) for r in lines) - 1
    out += [
        table(["processors", "mean m (Curie / LLNL-Thunder)", "trend 1", "run"], verdicts, "|---|---:|---|---|"),
        "",
        "Each line's rank correlation of ΣS / ΣF with the swept parameter (Curie: with m_d over m_d >= 4, one "
        "column per τ = 1..10; LLNL-Thunder: with τ, one column per m_d = 1..10); the trend wants opposite signs:",
        "",
        table(["sweep", *[str(i + 1) for i in range(width)]], [r + [""] * (width + 1 - len(r)) for r in lines]),
        "",
        *[f"![{setting}, {trace}](figures/{name}.png)" for (suite, setting), trace, name in _trend_1_figures()],
    ]
    return "\n".join(out)


def signed(x: float) -> str:
    """A rank correlation with its sign (a true minus), 0 without one: +0.61, −1.00, 0.00."""
    return "0.00" if round(x, 2) == 0 else f"{x:+.2f}".replace("-", "−")


def _trend_1_figures() -> list[tuple[tuple[str, str], str, str]]:
    return [
        (setting, trace, f"trend-1-{setting[0].removeprefix('paper-online-')}-{trace.lower()}")
        for setting in TREND_1_SETTINGS
        for trace in ("Curie", "LLNL-Thunder")
    ]


def online_trend_1_figures(records: Records) -> dict[str, bytes]:
    """Figures 3.3-3.6 as the report draws them (:func:`coschedopt.online.report.sweep_figure`), per setting."""
    from coschedopt.online.report import sweep_figure
    from coschedopt.online.trends import sweep_means

    return {
        name: sweep_figure(sweep_means(exported_rows(records[suite]), trace), f"{trace}, {label}")
        for (suite, label), trace, name in _trend_1_figures()
    }


def online_speed(records: Records) -> str:
    from coschedopt.online.report import SPEED_TARGET_S, speed_table

    rec = records["online-speed"]
    headers, body = speed_table(exported_rows(rec))
    missed = [row[0] for row in body if row[-1] != "met"]
    verdict = "every policy meets it" if not missed else "missed by " + ", ".join(missed)
    head = (
        f"**Simulation speed** on the thesis's largest instance (Curie's 60-day window, Method C seed 13, 160 "
        f"processors; suite `online-speed`: `coschedopt bench run online-speed -j 1 --db speed.sqlite`, then "
        "`coschedopt bench export` as the record says; "
        f"{runs_text(rec, 'online-speed')}): the median of each policy's own time over its calls, a worker's "
        f"first call left out; target {SPEED_TARGET_S:g} s, {verdict}.\n"
    )
    return head + "\n" + table(headers, body) + "\n"


def online_scale(records: Records) -> str:
    rec = records["online-scale"]
    rows = exported_rows(rec)
    chapter = [r for r in rows if r["group"] in ("sum-flow", "sum-stretch", "max-stretch")]
    head = (
        "**The offline optimum at n = 100 and 200** (m = 3, offered load 0.9, heavy-tailed integer sizes up to 50, "
        "seeds 0-4, 60 s): `lpfix` (the time-indexed LP, reduced-cost fixing, the MIP over the starts left) on the "
        "sums and L2 norms, `cpsat` (one worker; the maxima by bisection on deadline feasibility) and `milp` beside "
        f"it on the same instances ({_suite_head(rec, 'online-scale', 'online-scale.sqlite', jobs=2)}): seeds proven "
        "optimal and the method's own seconds; refused: the method takes no instance of that size (`milp` above 60 "
        "tasks, `cpsat`'s single model above 100).\n"
    )
    gaps = (
        "**The nine policies against the optimum** in the same run, for the objectives chapter 3 discusses: "
        "objective / optimum - 1 over the seeds whose optimum is proven (elsewhere, the certified gap to the best "
        "bound). SRPT and GSRPT preempt: they may end below the non-preemptive optimum.\n"
    )
    return exact_and_gaps(head, rows, gaps, chapter)


def locality_scale(records: Records) -> str:
    rec = records["locality-scale"]
    rows = exported_rows(rec)
    head = (
        "**The optima at n = 50, 100 and 200** (m = 32 in k = 4 clusters, seeds 0-4, 60 s): `benders` (the bar "
        "decomposition racing cpsat) and `cpsat` alone, each cell on both cores, under each constraint ("
        f"{_suite_head(rec, 'locality-scale', 'locality-scale.sqlite')}): seeds proven optimal and the "
        "method's own seconds.\n"
    )
    headers, body = every_seed_largest(rows)
    head += (
        "\nThe largest n with every seed proven (the issue's reading), the next n and its largest gap left:\n\n"
        + table(headers, body, "|---|---|---:|---:|---:|---:|")
        + "\n\nEvery cell:\n"
    )
    gaps = (
        "**The proofs' algorithms against the optimum** in the same run: makespan / optimum - 1 over the seeds "
        "whose optimum is proven (elsewhere, the certified gap to the best bound).\n"
    )
    return exact_and_gaps(head, rows, gaps)


def every_seed_largest(rows: list[dict]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows): per group and exact method, the largest n whose cells (and those of every smaller n) are
    all proven optimal, the next n with its proven count and its largest gap to the certified bound left."""
    runs: dict[tuple, dict[int, list[dict]]] = {}
    for r in rows:
        if r["exact"]:
            runs.setdefault((r["group"], r["method"]), {}).setdefault(int(r["n"]), []).append(r)
    body = []
    for (group, method), by_n in sorted(runs.items()):
        largest, nxt = "–", None
        for n in sorted(by_n):
            if all(r["status"] == "OPTIMAL" for r in by_n[n]):
                largest = str(n)
                continue
            nxt = n
            break
        if nxt is None:
            body.append([group, method, largest, "–", "–", "–"])
            continue
        body.append([group, method, largest, str(nxt), *proven_and_gap(by_n[nxt])])
    return ["constraint", "method", "largest n, every seed", "next n", "proven there", "largest gap there"], body


def exact_and_gaps(head: str, rows: list[dict], gaps: str, gap_rows: list[dict] | None = None) -> str:
    """A scale block: ``head``, the exact methods' times per group and n (:func:`exact_times`), ``gaps`` and the
    heuristics' true gaps (:func:`coschedopt.bench.report.true_gap_rows`) over ``gap_rows`` (default ``rows``)."""
    from coschedopt.bench.report import true_gap_rows

    headers, body = exact_times(rows, ("group", "n"))
    gap_headers, gap_body = true_gap_rows(rows if gap_rows is None else gap_rows)
    return (
        head
        + "\n"
        + table(headers, body, "|---|---|---:|---:|---:|---:|---:|")
        + "\n\n"
        + gaps
        + "\n"
        + table(gap_headers, gap_body, "|---|---:|---|---:|---:|---:|---:|")
        + "\n"
    )


def exact_times(rows: list[dict], sizes: tuple[str, ...]) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the exact methods' times in an exported table: per method and the values of the
    ``sizes`` columns, the seeds proven optimal, the median and largest seconds of the method's own time,
    and the largest gap to the certified bound left where a cell was not proven."""
    runs: dict[tuple, list[dict]] = {}
    for r in rows:
        if r["exact"] and r.get("runtime_s") is not None:
            runs.setdefault((r["method"], *(r[c] for c in sizes)), []).append(r)
    headers = ["method", *sizes, "proven", "median s", "max s", "largest gap left"]
    body = []
    for key, rs in sorted(runs.items()):
        secs = [float(r["runtime_s"]) for r in rs]
        if all(r["status"] == "ERROR" for r in rs):  # the method refuses the size: no time to show
            body.append([str(v) for v in key] + ["refused", "–", "–", "–"])
            continue
        proven, gap = proven_and_gap(rs)
        body.append([str(v) for v in key] + [proven, f"{statistics.median(secs):.3g}", f"{max(secs):.3g}", gap])
    return headers, body


def proven_and_gap(rows: list[dict]) -> tuple[str, str]:
    """('proven/cells', the largest certified gap left where a cell is not proven, or '–') over ``rows``."""
    gaps = [float(r["gap"]) for r in rows if r["status"] != "OPTIMAL" and r.get("gap") is not None]
    proven = sum(r["status"] == "OPTIMAL" for r in rows)
    return f"{proven}/{len(rows)}", pct(max(gaps)) if gaps else "–"


def _suite_head(rec: dict, suite: str, db: str, jobs: int = 1) -> str:
    """'suite `NAME`: `coschedopt bench run NAME -j JOBS --db DB`, then `coschedopt bench export` as the record
    says; DATE, RUNS, LOAD, CPU, CALIBRATION; record ...': the provenance a suite's block names."""
    return (
        f"suite `{suite}`: `coschedopt bench run {suite} -j {jobs} --db {db}`, then `coschedopt bench export` as the "
        f"record says; {runs_text(rec, suite)}"
    )


def hybrid_exact(records: Records) -> str:
    rec = records["hybrid-exact"]
    headers, body = exact_times(exported_rows(rec), ("n",))
    head = (
        "**The exact target**: `colgen` (600 s) on the literature's random instances, m = 8 CPUs, k = 2 GPUs, "
        "seeds 0-4, beside the generic `cpsat` and `milp` models (one worker, 60 s) at n = 30 ("
        f"{_suite_head(rec, 'hybrid-exact', 'hybrid-exact.sqlite')}): seeds proven optimal and the method's own "
        "seconds.\n"
    )
    return head + "\n" + table(headers, body, "|---|---:|---:|---:|---:|---:|") + "\n"


def hybrid_scale(records: Records) -> str:
    rec = records["hybrid-scale"]
    rows = exported_rows(rec)
    head = (
        "**At the literature's scale**: `colgen` on the random instances at n = 200-1,000 (m = 8, k = 2) and n = 200 "
        "(m = 32, k = 8), seeds 0-4, 60 s (120 s at n = 1,000), and on the thesis's SWDUAL workload (Tables "
        "2.2-2.5: 40 queries on a 0.01 s grid, the five databases at w = 2, 4, 8 workers, seeds 0-4, 25 "
        "instances per w, 60 s), beside the generic `cpsat` and `milp` models on the "
        f"target sizes with the same limits ({_suite_head(rec, 'hybrid-scale', 'hybrid-scale.sqlite', jobs=2)}): seeds "
        "proven optimal and the method's own seconds.\n"
    )
    gaps = (
        "**The approximations' and heuristics' true gaps** in the same run: makespan / optimum - 1 over the seeds "
        "whose optimum is proven (elsewhere, the certified gap to the best bound).\n"
    )
    return exact_and_gaps(head, rows, gaps)


def hybrid_speed(records: Records) -> str:
    from coschedopt.hybrid.report import speed_rows

    rec = records["hybrid-speed"]
    headers, body = speed_rows(exported_rows(rec))
    head = (
        "**`dual2` at the literature's largest size**, n = 100,000 tasks on m = 512 CPUs and k = 32 GPUs (instance "
        f"seed 0; {_suite_head(rec, 'hybrid-speed', 'hybrid-speed.sqlite')}): the median and smallest of the "
        "method's own time over its calls, a worker's first call (loading the compiled list-scheduling loop) left "
        "out; the paper's lists and LPT lists.\n"
    )
    return head + "\n" + table(headers, body, "|---|---:|---:|---:|---:|---:|---:|") + "\n"


def hybrid_paper(records: Records) -> str:
    from coschedopt.hybrid.report import ratio_rows, swdual_rows

    rec = records["paper-hybrid"]
    rows = exported_rows(rec)
    ratio_headers, ratio_body = ratio_rows([r for r in rows if not r["group"].startswith("SWDUAL")])
    swdual_headers, swdual_body = swdual_rows(rows)
    head = (
        "**The approximations and heuristics against the optimum and the bound** (random-small: n in {10, 20, 30}, "
        "m in {4, 8}, k in {1, 2}, against the optimum `colgen` proves; literature: n in {10, 100, 1000}, m in {4, "
        "16, 64, 256, 512}, k in {1, 2, 4, 8, 16, 32}, against the best certified lower bound; seeds 0-4; "
        f"{_suite_head(rec, 'paper-hybrid', 'hybrid.sqlite')}): the makespan over the reference, mean and max.\n"
    )
    swdual = (
        "**SWDUAL simulated beside the thesis** (Tables 2.2 and 2.4, the same run; 40 queries at the single-worker "
        "rates of Table 2.2, mean of seeds 0-4): seconds of each method's allocation and the mean certified lower "
        "bound (no allocation of the simulated workload is faster; why the thesis is sometimes faster still: "
        "`benchmarks/results/hybrid-notes.md`).\n"
    )
    return (
        head
        + "\n"
        + table(ratio_headers, ratio_body, "|---|---|---|---:|---:|---:|")
        + "\n\n"
        + swdual
        + "\n"
        + table(swdual_headers, swdual_body)
        + "\n"
    )


def locality_paper(records: Records) -> str:
    from coschedopt.locality.report import ALGORITHM_HEADERS, RATIO_HEADERS, algorithm_rows, ratio_rows

    rec = records["paper-locality"]
    rows = exported_rows(rec)
    headers, body = exact_times([r for r in rows if r["group"] == "random"], ("constraint", "n"))
    limits = sorted({r["time_limit"] for r in rows if r["exact"] and r["group"] == "random"})
    head = (
        "**The optima under each constraint** (random job sets of n jobs on m = 32 processors in k = 4 clusters "
        "of ell = 8, times 1..20, sizes 1..8, seeds 0-4, each set under the four constraints; "
        f"`cpsat` with one worker and a {span(limits, '{:g}')} s limit; "
        f"{_suite_head(rec, 'paper-locality', 'locality.sqlite')}): seeds proven and the method's own seconds.\n"
    )
    ratios = (
        "**The ratios between the optima of one job set** (the same run; the instance I1 of Theorems 2-3 on 2 and "
        "4 clusters beside the random sets), where both optima are proven, beside the thesis's bounds on the worst "
        "case:\n"
    )
    algorithms = (
        "**The algorithms of the proofs against the optimum of the constraint they build for** (the same run):\n"
    )
    return "\n".join(
        [
            head,
            table(headers, body, "|---|---|---:|---:|---:|---:|---:|"),
            "",
            ratios,
            table(RATIO_HEADERS, ratio_rows(rows), "|---|---:|---|---:|---:|---:|---|"),
            "",
            algorithms,
            table(ALGORITHM_HEADERS, algorithm_rows(rows), "|---|---|---|---:|---:|---:|---:|---|"),
        ]
    )


# ---------------------------------------------------------------------------- probes of pack and combos


def pack_kernels(records: Records) -> str:
    """The compiled pricing kernels against their numpy reference, from the exported ``pack-kernels`` run."""
    rec = records["pack-kernels"]
    rows = probe_rows(rec)
    body = []
    for r in rows:
        st = r["stats"]
        where = (
            f"Workload-III k = {r['k']}"
            if r["group"] == "Workload-III"
            else f"random n = {r['n']}, p = {r['m']}, k = {r['k']}"
        )
        body.append(
            [
                where,
                r["method_label"],
                f"{1e3 * st['compiled_s']:.2f}",
                f"{1e3 * st['reference_s']:.2f}",
                times_x(st["speedup"]),
            ]
        )
    same = all(r["stats"]["same_values"] for r in rows)
    return (
        "**The compiled pricing kernels** of `branch-and-price` (numba) against the numpy/Python code they replace, "
        "timed in the same worker on the same inputs: the median of 20 runs of each (5 for the enumeration) after a "
        f"warm-up run (probe `kernel-speed`; {_suite_head(rec, 'pack-kernels', 'kernels.sqlite')}); "
        + ("both codes gave the same values in every cell" if same else "**the two codes differed in some cell**")
        + ":\n\n"
        + table(["instance", "operation", "compiled ms", "reference ms", "speed-up"], body, "|---|---|---:|---:|---:|")
        + "\n"
    )


def combos_pricing(records: Records) -> str:
    """K = 2 pricing by three algorithms on the same duals, from the exported ``combos-pricing`` run."""
    rec = records["combos-pricing"]
    rows = sorted(probe_rows(rec), key=lambda r: (r["n"], r["method_label"] != "last master"))
    body = [
        [
            str(r["n"]),
            r["method_label"],
            f"{r['stats']['bnb_s']:.4f} ({r['stats']['bnb_max']:.9f})",
            f"{r['stats']['mip_s']:.2f} ({r['stats']['mip_max']:.9f})" + ("" if r["stats"]["mip_proven"] else " *"),
            f"{r['stats']['cpsat_s']:.2f} ({r['stats']['cpsat_max']:.6f})"
            + ("" if r["stats"]["cpsat_proven"] else " *"),
        ]
        for r in rows
    ]
    limit = rows[0]["time_limit"]
    return (
        "**Pricing at K = 2 by three algorithms** (column generation's pricing on random pairwise systems, seed 0): the "
        "toolkit's branch-and-bound, the linearised MIP (one variable per pair) in HiGHS and the same model in CP-SAT "
        f"(one worker, costs scaled to integers by 10^6), each once and with {limit:.0f} s at most, on the duals of the "
        "column generation's last master (the proof round) and on y = 1 (FCS's pricing).  Seconds (max f); the MIP's "
        "and CP-SAT's include building the model through the solver's Python API, as a pricing round would pay "
        f"(probe `pricing-speed`; {_suite_head(rec, 'combos-pricing', 'pricing.sqlite')}):\n\n"
        + table(
            ["n", "duals", "branch-and-bound s (max f)", "HiGHS MIP s (max f)", "CP-SAT s (max f)"],
            body,
            "|---:|---|---:|---:|---:|",
        )
        + "\n\n`*`: stopped by the time limit before proving its maximum (the value is the best found).\n"
    )


BLOCKS: dict[str, Block] = {
    "online-trends": Block(("paper-online", "paper-online-sweeps"), online_trends),
    "online-trend-1": Block(
        tuple(suite for suite, _ in TREND_1_SETTINGS),
        online_trend_1,
        online_trend_1_figures,
        tuple(name for *_, name in _trend_1_figures()),
    ),
    "online-speed": Block(("online-speed",), online_speed),
    "online-scale": Block(("online-scale",), online_scale),
    "frontier": Block(("frontier",), frontier),
    "pack-table1": Block(("pack-table1",), pack_table1),
    "pack-w2": Block(("pack-bnp-w2",), pack_w2),
    "pack-w3": Block(("pack-bnp-w3",), pack_w3),
    "pack-ilp": Block(("pack-bnp-ilp", "pack-bnp-triplets"), pack_ilp),
    "pack-triplets": Block(("pack-bnp-triplets",), pack_triplets),
    "combos-lp": Block(("combos-lp-scaling",), combos_lp),
    "combos-colgen": Block(("colgen-combos",), combos_colgen),
    "combos-competitive": Block(("paper-combos",), combos_competitive),
    "hybrid-exact": Block(("hybrid-exact",), hybrid_exact),
    "hybrid-scale": Block(("hybrid-scale",), hybrid_scale),
    "hybrid-speed": Block(("hybrid-speed",), hybrid_speed),
    "hybrid-paper": Block(("paper-hybrid",), hybrid_paper),
    "locality-paper": Block(("paper-locality",), locality_paper),
    "locality-scale": Block(("locality-scale",), locality_scale),
    "evolving-tables": Block(("paper-evolving",), evolving_tables),
    "evolving-optimum": Block(("evolving-optimum",), evolving_optimum),
    "evolving-target": Block(("frontier",), evolving_target),
    "batch-accasim": Block(("batch-accasim",), batch_accasim),
    "batch-easy-reservation": Block(("batch-easy-reservation",), batch_easy_reservation),
    "pack-kernels": Block(("pack-kernels",), pack_kernels),
    "combos-pricing": Block(("combos-pricing",), combos_pricing),
    "batch-paper": Block(("paper-batch",), batch_paper),
    "batch-readings": Block(("paper-batch", "paper-batch-author", "batch-readings-20"), batch_readings),
    "batch-traces": Block(("batch-traces",), batch_traces),
}


# ---------------------------------------------------------------------------- check / write


def render(name: str, records_dir: Path) -> str:
    """Block ``name`` rendered from its records (:class:`MissingRecord` if one is absent)."""
    block = BLOCKS[name]
    records = {r: read_record(records_dir, r) for r in block.records}
    text = block.render(records)
    return text if text.endswith("\n") else text + "\n"


def regenerate(text: str, records_dir: Path, seen: set[str] | None = None) -> tuple[str, list[str]]:
    """``text`` with every block re-rendered, and the problems: blocks that differ, whose records are
    missing (left as they stand), or unknown.  The names of the blocks found are added to ``seen``."""
    problems: list[str] = []
    seen = set() if seen is None else seen

    def replace(match: re.Match) -> str:
        name, body = match["name"], match["body"]
        seen.add(name)
        if name not in BLOCKS:
            problems.append(f"{name}: no renderer for this block in benchmarks/readme.py")
            return match[0]
        try:
            new = render(name, records_dir)
        except MissingRecord as exc:
            problems.append(f"{name}: {exc}")
            return match[0]
        if new != body:
            problems.append(f"{name}: the text differs from what its records give")
        return f"<!-- figures:{name} -->\n{new}<!-- /figures:{name} -->"

    return MARKER.sub(replace, text), problems


def _documents(documents: Path | tuple[Path, ...]) -> tuple[Path, ...]:
    return (Path(documents),) if isinstance(documents, str | Path) else tuple(Path(d) for d in documents)


def _regenerate_all(documents: tuple[Path, ...], records_dir: Path) -> tuple[dict[Path, str], list[str]]:
    """Every document re-rendered, and the problems (each named ``BLOCK: ...``; a block in no document too)."""
    seen: set[str] = set()
    texts, problems = {}, []
    for doc in documents:
        texts[doc], found = regenerate(doc.read_text(encoding="utf-8"), Path(records_dir), seen)
        problems += found
    problems += [f"{name}: no markers in {', '.join(d.name for d in documents)}" for name in BLOCKS if name not in seen]
    problems += [
        f"{name}: figure {records_dir}/figures/{figure}.png is missing (`python benchmarks/readme.py --write` draws it)"
        for name in sorted(seen & set(BLOCKS))
        for figure in BLOCKS[name].figure_names
        if not (Path(records_dir) / "figures" / f"{figure}.png").exists()
    ]
    return texts, problems


def draw_figures(name: str, records_dir: Path) -> None:
    """Draw block ``name``'s figures from its records into ``records_dir/figures`` (:class:`MissingRecord` if a
    record is absent)."""
    from PIL import Image

    block = BLOCKS[name]
    if block.figures is None:
        return
    folder = Path(records_dir) / "figures"
    folder.mkdir(exist_ok=True)
    for figure, png in block.figures({r: read_record(records_dir, r) for r in block.records}).items():
        # in 256 colours, as the notebooks' figures: the same look in a fraction of the bytes
        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(folder / f"{figure}.png", optimize=True)


def check(documents: Path | tuple[Path, ...] = DOCUMENTS, records_dir: Path = RESULTS) -> list[str]:
    """The problems of ``documents`` (README.md and docs/results.md) against the records (empty: every
    block is as its records give)."""
    return _regenerate_all(_documents(documents), Path(records_dir))[1]


def write(documents: Path | tuple[Path, ...] = DOCUMENTS, records_dir: Path = RESULTS) -> list[str]:
    """Re-render every block of ``documents`` whose records exist; the problems left (missing records...)."""
    for name in BLOCKS:
        with contextlib.suppress(MissingRecord):  # the text's render names the missing record
            draw_figures(name, records_dir)
    texts, problems = _regenerate_all(_documents(documents), Path(records_dir))
    for doc, text in texts.items():
        doc.write_text(text, encoding="utf-8")
    return [p for p in problems if "differs" not in p]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="re-render every block from the records")
    mode.add_argument("--check", action="store_true", help="exit 1 if a block differs from its records")
    parser.add_argument(
        "--document",
        type=Path,
        action="append",
        default=None,
        help="a document holding blocks (repeatable; default: README.md and docs/results.md)",
    )
    parser.add_argument("--records", type=Path, default=RESULTS, help="the records' folder")
    args = parser.parse_args(argv)
    documents = tuple(args.document) if args.document else DOCUMENTS
    problems = write(documents, args.records) if args.write else check(documents, args.records)
    for problem in problems:
        print(f"block {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
