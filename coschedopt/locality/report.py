"""The family's sections of a benchmark report (``coschedopt bench report``): chapter 4's ratios.

The generic report compares each method with the optimum of its own instance.  Here the
rows of one job set under the four constraints (same group, size and seed) are paired:

* the ratios between the four proven optima (mean and max per group and n) beside the
  thesis's bounds on their worst case;
* each algorithm of the proofs against the optimum of the constraint it builds for:
  ``nfdh-ls`` against C^{C+L}, ``rcs-list`` against C^L, ``list`` against the optimum of
  its instance's constraint, with the largest makespan / max(A/m, p_max) beside the
  factor proven for it.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any

from .ratios import RATIOS

#: method -> (the constraint of the optimum it is measured against (None: its instance's), proven factor)
ALGORITHMS = {
    "nfdh-ls": ("contiguous+local", "C <= 2A/m + p_max <= 3 max(A/m, p_max) (Theorem 4)"),
    "rcs-list": ("local", "C <= 2A/m + p_max (corrected RCS bound)"),
    "list": (None, "C <= 2A/m + p_max under no constraint (Graham)"),
}


#: the columns of :func:`ratio_rows` and :func:`algorithm_rows` (the report's tables and the results page's)
RATIO_HEADERS = ["group", "n", "ratio", "job sets", "mean", "max", "thesis: worst case in"]
ALGORITHM_HEADERS = [
    "method",
    "group",
    "against",
    "instances",
    "mean ratio",
    "max ratio",
    "max C / max(A/m, p_max)",
    "proven",
]


def proven_optima(rows: list[dict[str, Any]]) -> dict[tuple, dict[str, float]]:
    """Job set -> constraint -> proven optimum (the table's best_known where it is proven)."""
    out: dict[tuple, dict[str, float]] = defaultdict(dict)
    for r in rows:
        if r.get("best_known_proven") and r.get("best_known") is not None:
            out[_key(r)][r["constraint"]] = float(r["best_known"])
    return out


def _key(r: dict[str, Any]) -> tuple:
    """One job set: the same group, size and seed (the constraint left out)."""
    return (r["group"], r.get("n"), r.get("m"), r.get("k"), r.get("instance_seed"))


def ratio_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    """One row per (group, n, ratio): job sets with both optima proven, mean and max ratio, thesis bounds."""
    found: dict[tuple, list[float]] = defaultdict(list)
    for key, optima in proven_optima(rows).items():
        for name, b in RATIOS.items():
            if b.numerator in optima and b.denominator in optima:
                found[(key[0], key[1], name)].append(optima[b.numerator] / optima[b.denominator])
    out = []
    for (group, n, name), vals in sorted(
        found.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0, list(RATIOS).index(kv[0][2]))
    ):
        b = RATIOS[name]
        out.append(
            [
                group,
                str(n),
                name,
                str(len(vals)),
                f"{statistics.mean(vals):.4f}",
                f"{max(vals):.4f}",
                f"[{b.lower}, {b.upper}]",
            ]
        )
    return out


def algorithm_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    """One row per (algorithm, group): its makespan over the optimum of its constraint."""
    optima = proven_optima(rows)
    found: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        if r["method"] not in ALGORITHMS or r.get("objective") is None:
            continue
        target = ALGORITHMS[r["method"]][0] or r["constraint"]
        if r["constraint"] != target:  # one row per job set: the instance under the algorithm's own constraint
            continue
        opt = optima.get(_key(r), {}).get(target)
        if opt:
            found[(r["method"], r["group"], target)].append(
                (float(r["objective"]) / opt, float(r.get("makespan_over_area_bound") or 0.0))
            )
    out = []
    for (method, group, target), vals in sorted(found.items()):
        ratios = [v[0] for v in vals]
        out.append(
            [
                method,
                group,
                f"C^opt of {target}",
                str(len(vals)),
                f"{statistics.mean(ratios):.4f}",
                f"{max(ratios):.4f}",
                f"{max(v[1] for v in vals):.4f}",
                ALGORITHMS[method][1],
            ]
        )
    return out


def locality_sections(rows: list[dict[str, Any]], config: dict[str, Any], slug: str) -> list[Any]:
    """The report sections of a locality suite (called by ``coschedopt bench report``)."""
    from ..viz.report import Section, Table

    ratios = ratio_rows(rows)
    algorithms = algorithm_rows(rows)
    if not ratios and not algorithms:
        return []
    blocks: list[Any] = [
        "Each job set is solved under the four constraints; a ratio is counted where both optima are proven. "
        "The thesis bounds the worst case over all instances (Theorems 1-5, Corollary 1); the search "
        "`coschedopt locality search` looks for it on small instances."
    ]
    if ratios:
        blocks.append(
            Table(
                RATIO_HEADERS,
                ratios,
                "Ratios between the proven optima of one job set",
            )
        )
    if algorithms:
        blocks.append(
            Table(
                ALGORITHM_HEADERS,
                algorithms,
                "The algorithms of the proofs against the optimum of the constraint they build for",
            )
        )
    return [Section("Chapter 4: the constraints' optima and the algorithms of the proofs", 3, blocks)]
