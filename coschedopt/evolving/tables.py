"""Tables 1 and 2 of Klein & Pérez beside ours: the paper's values, our summaries, the comparison.

Each cell is min / avg / max over the tests.  The per-test columns are summarised
over tests; the per-job columns (Job Stretch, Job Waste) pool the jobs of every
test: the minimum of the tests' minima, the mean weighted by each test's number of
applications, the maximum of the maxima.  Time is the method's wall-clock time per
test in ms (the paper's: a 2.53 GHz Core 2 Duo laptop).

The paper's figures look truncated to two digits; an average matches when it is
within :data:`TOLERANCE` of the paper's (0.02 on relative values, 2 points on
percentages).  Minima and maxima are printed, not compared: those of heavy-tailed
columns (Job Stretch of inf / inf+c) swing by hundreds of percent between seeds.
Three cells of the paper were lost in extraction (``?``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Triple = tuple[float | None, float | None, float | None]

#: the order of the rows in both tables: CBF and the five variants of Algorithm 2
PAPER_METHODS = ("cbf", "nos", "mic", "mic+c", "inf", "inf+c")


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    kind: str  # "rel", "pct" or "ms"
    pooled: bool = False  # a per-job column: (min, mean, max) per test, pooled over tests


TABLE1 = (
    Column("waste_pct", "Waste (%)", "pct"),
    Column("reservation_rel", "Reservation (rel.)", "rel"),
    Column("utilisation_pct", "Utilisation (%)", "pct"),
    Column("makespan_rel", "Makespan (rel.)", "rel"),
    Column("time_ms", "Time (ms)", "ms"),
)
TABLE2 = (
    Column("avg_jct_rel", "Avg. JCT (rel.)", "rel"),
    Column("avg_jwt_rel", "Avg. JWT (rel.)", "rel"),
    Column("stretches_pct", "Stretches (%)", "pct"),
    Column("job_stretch_pct", "Job Stretch (%)", "pct", pooled=True),
    Column("job_waste_pct", "Job Waste (%)", "pct", pooled=True),
)
TOLERANCE = {"rel": 0.02, "pct": 2.0}

# fmt: off
PAPER: dict[str, dict[str, Triple]] = {
    "cbf":   {"waste_pct": (43, 70, 116), "reservation_rel": (1, 1, 1), "utilisation_pct": (30, 40, 51),
              "makespan_rel": (1, 1, 1), "time_ms": (4.64, 6.2, 9.41), "avg_jct_rel": (1, 1, 1),
              "avg_jwt_rel": (1, 1, 1), "stretches_pct": (0, 0, 0), "job_stretch_pct": (0, 0, 0),
              "job_waste_pct": (0, 67, 681)},
    "nos":   {"waste_pct": (0, 0, 0), "reservation_rel": (.46, .58, .69), "utilisation_pct": (49, 61, 73),
              "makespan_rel": (.49, .65, .82), "time_ms": (11.4, 24.7, 55.8), "avg_jct_rel": (.42, .61, .84),
              "avg_jwt_rel": (.36, .55, .81), "stretches_pct": (0, 0, 0), "job_stretch_pct": (0, 0, 0),
              "job_waste_pct": (0, 0, 0)},
    "mic":   {"waste_pct": (0, 2, 11), "reservation_rel": (.47, .60, .71), "utilisation_pct": (50, 63, 75),
              "makespan_rel": (.48, .64, .82), "time_ms": (11.4, 24.4, 45.4), "avg_jct_rel": (.45, .61, .84),
              "avg_jwt_rel": (.36, .54, .80), "stretches_pct": (0, 22, 56), "job_stretch_pct": (0, 4, 76),
              "job_waste_pct": (0, 2, 75)},
    "mic+c": {"waste_pct": (0, None, 4), "reservation_rel": (.46, .59, .70), "utilisation_pct": (53, 63, 75),
              "makespan_rel": (.48, .63, .82), "time_ms": (17.1, 36.7, 88.6), "avg_jct_rel": (.44, .60, .84),
              "avg_jwt_rel": (.37, .54, .81), "stretches_pct": (0, 7, 40), "job_stretch_pct": (0, None, 60),
              "job_waste_pct": (0, None, 41)},
    "inf":   {"waste_pct": (0, 7, 22), "reservation_rel": (.49, .63, .78), "utilisation_pct": (52, 64, 73),
              "makespan_rel": (.49, .63, .78), "time_ms": (11.4, 23.4, 49.2), "avg_jct_rel": (.43, .62, .81),
              "avg_jwt_rel": (.27, .53, .76), "stretches_pct": (0, 26, 62), "job_stretch_pct": (0, 19, 884),
              "job_waste_pct": (0, 6, 360)},
    "inf+c": {"waste_pct": (0, 1, 11), "reservation_rel": (.46, .59, .71), "utilisation_pct": (55, 64, 74),
              "makespan_rel": (.47, .62, .78), "time_ms": (17.6, 36, 124), "avg_jct_rel": (.44, .60, .81),
              "avg_jwt_rel": (.35, .53, .76), "stretches_pct": (0, 13, 47), "job_stretch_pct": (0, 5, 1354),
              "job_waste_pct": (0, 1, 119)},
}
# fmt: on


def _finite(values: Iterable[float | None]) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(v)]


def summarise(records: list[Mapping[str, float]], column: Column) -> Triple:
    """(min, avg, max) of ``column`` over per-test records (metrics, ``time_ms``, ``n`` the applications)."""
    if column.pooled:
        rows = [r for r in records if r.get(f"{column.key}_mean") is not None]
        lows = _finite(r[f"{column.key}_min"] for r in rows)
        highs = _finite(r[f"{column.key}_max"] for r in rows)
        weights = [r.get("n") or 1 for r in rows]
        total = sum(weights)
        mean = sum(w * r[f"{column.key}_mean"] for w, r in zip(weights, rows, strict=True)) / total if total else None
        return (min(lows, default=None), mean, max(highs, default=None))
    values = _finite(r.get(column.key) for r in records)
    if not values:
        return (None, None, None)
    return (min(values), sum(values) / len(values), max(values))


def _fmt(x: float | None, kind: str) -> str:
    if x is None:
        return "?"
    if kind == "rel":
        return f"{x:.2f}"
    if kind == "ms":
        return f"{x:.3g}"
    return f"{x:.0f}" if abs(x) >= 10 or x == 0 else f"{x:.1f}"


def cell(triple: Triple, kind: str) -> str:
    return " / ".join(_fmt(x, kind) for x in triple)


def matches(ours: Triple, paper: Triple, kind: str) -> bool | None:
    """Whether the averages agree within the tolerance (None: not compared)."""
    if kind not in TOLERANCE or ours[1] is None or paper[1] is None:
        return None
    return abs(ours[1] - paper[1]) <= TOLERANCE[kind] + 1e-9


@dataclass
class ComparedTable:
    """A paper table beside ours, as text cells, with the averages that differ."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    differences: list[str]


def compare(records: Mapping[str, list[Mapping[str, float]]], columns: tuple[Column, ...], title: str) -> ComparedTable:
    """Rows (one per method in ``records``, the paper's order first): ours, then the paper's, per column.

    An average outside the tolerance is marked ``*`` and listed in ``differences``.
    """
    headers = ["method"] + [h for c in columns for h in (f"{c.title} ours", "paper")]
    rows, differences = [], []
    ordered = [m for m in PAPER_METHODS if m in records] + [m for m in records if m not in PAPER_METHODS]
    for name in ordered:
        row = [name]
        for c in columns:
            ours = summarise(list(records[name]), c)
            paper = PAPER.get(name, {}).get(c.key, (None, None, None))
            ok = matches(ours, paper, c.kind)
            row += [cell(ours, c.kind) + (" *" if ok is False else ""), cell(paper, c.kind) if name in PAPER else ""]
            if ok is False:
                differences.append(
                    f"{name} {c.title}: average {_fmt(ours[1], c.kind)} against the paper's {_fmt(paper[1], c.kind)}"
                )
        rows.append(row)
    return ComparedTable(title, headers, rows, differences)


def paper_tables(records: Mapping[str, list[Mapping[str, float]]]) -> list[ComparedTable]:
    """Tables 1 and 2 for per-test records keyed by method name (``cbf``, ``nos``, ...)."""
    return [
        compare(records, TABLE1, "Table 1: system-centric metrics (min / avg / max over the tests)"),
        compare(records, TABLE2, "Table 2: user-centric metrics (min / avg / max over the tests)"),
    ]


def markdown(table: ComparedTable) -> str:
    """The table as GitHub Markdown, preceded by its title."""
    lines = [f"**{table.title}**", "", "| " + " | ".join(table.headers) + " |"]
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(table.headers) - 1)) + "|")
    lines += ["| " + " | ".join(r) + " |" for r in table.rows]
    return "\n".join(lines)
