"""The five trends thesis chapter 3 states (§3.5.2 and §3.6), judged on measured means.

No plot of the chapter survives (the figures are lost from the text) and no number
is given, so each trend is judged by an explicit test with the thresholds below,
on the means over a trace's instances of each metric (``means[trace][policy][metric]``,
policy names as in the thesis: ``SPT``, ``GSPT-RD`` ...; metric keys as in
:func:`.metrics.online_metrics`):

1. Curie, SPT-RD: for m_d >= 4, ΣS rises with m_d while ΣF falls (for most τ);
   LLNL-Thunder: ΣS and ΣF move in opposite directions against τ (for most m_d).
2. Curie: SPT's ΣF is within :data:`STABLE` of the preemptive references' best,
   while each of its stretch metrics is at least :data:`MUCH_WORSE` times theirs.
3. Curie: GSPT-RD, SPT-RR and GSPT-RR cut every stretch metric to at most
   :data:`SIGNIFICANT` times their base policy's (GSPT, SPT, GSPT); SPT-RD does not.
4. The other traces: in most (trace, redirection policy) cases every stretch metric
   is cut to at most :data:`SIGNIFICANT` times the base policy's.
5. On all traces: the RD policies' ΣS beats their base's on most traces and is
   within :data:`NEAR` of the best preemptive reference on at least a third; the RR
   policies gain less than the RD ones on most traces but at least
   :data:`SIGNIFICANT` somewhere; RD and RR raise ΣF over their base on most traces.

The sweeps' trend (1) is judged with Spearman's rank correlation of each line.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: a "significant" cut: the metric falls to at most this fraction of the baseline's
SIGNIFICANT = 0.8
#: "near" the preemptive references: within this factor of the better of SRPT and GSRPT
NEAR = 1.25
#: "stable on flow": within this factor of the preemptive references' ΣF
STABLE = 1.1
#: "much worse on stretch": at least this factor
MUCH_WORSE = 1.5
STRETCH = ("sum_stretch", "max_stretch", "l2_stretch")
FLOW = ("sum_flow", "max_flow", "l2_flow")
BASE = {"SPT-RD": "SPT", "SPT-RR": "SPT", "GSPT-RD": "GSPT", "GSPT-RD (busy counting)": "GSPT", "GSPT-RR": "GSPT"}
REDIRECTION = ("SPT-RD", "GSPT-RD", "SPT-RR", "GSPT-RR")

Means = dict[str, dict[str, dict[str, float]]]


@dataclass(frozen=True)
class Verdict:
    trend: int
    claim: str
    verdict: str  # "reproduced", "partly reproduced", "not reproduced", "no data"
    evidence: str


def policy_of(label: str) -> str:
    """The thesis's policy name of a suite label (``SPT-RD [Curie]`` -> ``SPT-RD``)."""
    return re.sub(r"\s*\[[^]]*\]$", "", label)


def mean_table(rows: Iterable[dict[str, Any]], metrics: Iterable[str]) -> Means:
    """means[group][policy][metric] over the rows (instances and seeds) of each group and policy."""
    acc: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    metrics = tuple(metrics)
    for r in rows:
        for m in metrics:
            if r.get(m) is not None:
                acc[(r["group"], policy_of(r["method_label"]), m)].append(float(r[m]))
    out: Means = {}
    for (g, p, m), values in acc.items():
        out.setdefault(g, {}).setdefault(p, {})[m] = float(np.mean(values))
    return out


def _ratio(means: dict[str, dict[str, float]], a: str, b: str, metric: str) -> float | None:
    if a not in means or b not in means or metric not in means[a] or not means[b].get(metric):
        return None
    return means[a][metric] / means[b][metric]


def _reference(means: dict[str, dict[str, float]], metric: str) -> float | None:
    values = [means[p][metric] for p in ("SRPT", "GSRPT") if p in means and metric in means[p]]
    return min(values) if values else None


def _cuts_all(means: dict[str, dict[str, float]], policy: str) -> bool | None:
    ratios = [_ratio(means, policy, BASE[policy], m) for m in STRETCH]
    return None if None in ratios else all(r <= SIGNIFICANT for r in ratios)


def _verdict(parts: list[bool | None]) -> str:
    known = [p for p in parts if p is not None]
    if not known:
        return "no data"
    if all(known) and len(known) == len(parts):
        return "reproduced"
    return "partly reproduced" if any(known) else "not reproduced"


def trend_2(means: Means, trace: str = "Curie") -> Verdict:
    claim = "Curie: SPT is stable on flow but much worse than SRPT/GSRPT on stretch"
    m = means.get(trace, {})
    ref_flow, spt = _reference(m, "sum_flow"), m.get("SPT", {})
    if ref_flow is None or "sum_flow" not in spt:
        return Verdict(2, claim, "no data", "")
    refs = [_reference(m, k) for k in STRETCH]
    if None in refs or any(k not in spt for k in STRETCH):
        return Verdict(2, claim, "no data", "")
    flow = spt["sum_flow"] / ref_flow
    stretch = [spt[k] / ref for k, ref in zip(STRETCH, refs, strict=True)]
    evidence = (
        f"SPT / best of SRPT, GSRPT: ΣF {flow:.3f}; ΣS {stretch[0]:.2f}, Smax {stretch[1]:.2f}, L2 {stretch[2]:.2f}"
    )
    return Verdict(2, claim, _verdict([flow <= STABLE, all(s >= MUCH_WORSE for s in stretch)]), evidence)


def trend_3(means: Means, trace: str = "Curie") -> Verdict:
    claim = "Curie: GSPT-RD, SPT-RR and GSPT-RR cut all stretch metrics significantly; SPT-RD does not"
    m = means.get(trace, {})
    parts, shown = [], []
    for p in ("GSPT-RD", "SPT-RR", "GSPT-RR", "SPT-RD"):
        cut = _cuts_all(m, p)
        parts.append(cut if p != "SPT-RD" or cut is None else not cut)
        ratios = [_ratio(m, p, BASE[p], k) for k in STRETCH]
        if None not in ratios:
            shown.append(f"{p}/{BASE[p]} " + "/".join(f"{r:.2f}" for r in ratios))
    busy = _cuts_all(m, "GSPT-RD (busy counting)")
    extra = ""
    if busy is not None:
        r = [_ratio(m, "GSPT-RD (busy counting)", "GSPT", k) for k in STRETCH]
        extra = "; GSPT-RD counting only while no main processor is idle: " + "/".join(f"{x:.2f}" for x in r)
    evidence = ("ΣS/Smax/L2 ratios: " + ", ".join(shown) + extra) if shown else ""
    return Verdict(3, claim, _verdict(parts), evidence)


def trend_4(means: Means, skip: str = "Curie") -> Verdict:
    claim = "other traces: redirection usually improves all stretch metrics significantly over SPT and GSPT"
    cases = [(t, p, _cuts_all(m, p)) for t, m in means.items() if t != skip for p in REDIRECTION]
    cases = [c for c in cases if c[2] is not None]
    if not cases:
        return Verdict(4, claim, "no data", "")
    good = [f"{t} {p}" for t, p, ok in cases if ok]
    near = [
        t
        for t, m in means.items()
        if t != skip
        and any(
            p in m and _reference(m, "sum_stretch") and m[p]["sum_stretch"] <= NEAR * _reference(m, "sum_stretch")
            for p in REDIRECTION
        )
    ]
    verdict = "reproduced" if len(good) > len(cases) / 2 else ("partly reproduced" if good else "not reproduced")
    evidence = (
        f"{len(good)} of {len(cases)} (trace, policy) cases cut every stretch metric to <= {SIGNIFICANT} x the base "
        f"({', '.join(good) or 'none'}); ΣS within {NEAR} x SRPT/GSRPT on: {', '.join(near) or 'none'}"
    )
    return Verdict(4, claim, verdict, evidence)


def trend_5(means: Means) -> Verdict:
    claim = "RD beats SPT and often approaches SRPT; RR gains are smaller but sometimes significant; both trade flow for stretch"
    traces = [t for t in means if all(p in means[t] for p in (*REDIRECTION, "SPT", "GSPT"))]
    if not traces:
        return Verdict(5, claim, "no data", "")
    gain = {p: [_ratio(means[t], p, BASE[p], "sum_stretch") for t in traces] for p in REDIRECTION}
    flow = {p: [_ratio(means[t], p, BASE[p], "sum_flow") for t in traces] for p in REDIRECTION}
    rd_beats = sum(gain["SPT-RD"][i] < 1 and gain["GSPT-RD"][i] < 1 for i in range(len(traces)))
    near = sum(
        min(means[t]["SPT-RD"]["sum_stretch"], means[t]["GSPT-RD"]["sum_stretch"])
        <= NEAR * (_reference(means[t], "sum_stretch") or np.inf)
        for t in traces
    )
    rr_smaller = sum(
        min(gain["SPT-RR"][i], gain["GSPT-RR"][i]) >= min(gain["SPT-RD"][i], gain["GSPT-RD"][i])
        for i in range(len(traces))
    )
    rr_significant = sum(min(gain["SPT-RR"][i], gain["GSPT-RR"][i]) <= SIGNIFICANT for i in range(len(traces)))
    trade = sum(all(flow[p][i] >= 1 for p in REDIRECTION) for i in range(len(traces)))
    k = len(traces)
    parts = [rd_beats > k / 2, near >= k / 3, rr_smaller > k / 2 and rr_significant >= 1, trade > k / 2]
    evidence = (
        f"over {k} traces: both RD policies beat their base on ΣS on {rd_beats}; an RD policy within {NEAR} x "
        f"SRPT/GSRPT on {near}; RR's best ΣS gain no larger than RD's on {rr_smaller}, significant on {rr_significant}; "
        f"all four raise ΣF over their base on {trade}"
    )
    return Verdict(5, claim, _verdict(parts), evidence)


def spearman(x: Iterable[float], y: Iterable[float]) -> float:
    """Spearman's rank correlation (no ties expected in measured means)."""
    rx, ry = (np.argsort(np.argsort(np.asarray(list(v), dtype=float))) for v in (x, y))
    if len(rx) < 2 or rx.std() == 0 or ry.std() == 0:
        return 0.0
    return float(np.corrcoef(rx, ry)[0, 1])


Sweep = dict[tuple[int, int], dict[str, float]]  # (m_d, tau) -> mean metrics


def sweep_means(rows: Iterable[dict[str, Any]], group: str) -> Sweep:
    """Mean ΣS and ΣF of the SPT-RD rows of ``group`` per (m_d, τ) (read from the cell options)."""
    acc: dict[tuple[int, int], list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        if r["group"] != group or r["method"] != "spt-rd" or r.get("sum_stretch") is None:
            continue
        opts = json.loads(r["options"]) if isinstance(r["options"], str) else dict(r["options"] or {})
        acc[(int(opts.get("dedicated", 1)), int(opts.get("tau", 3)))].append((r["sum_stretch"], r["sum_flow"]))
    return {
        k: {"sum_stretch": float(np.mean([a for a, _ in v])), "sum_flow": float(np.mean([b for _, b in v]))}
        for k, v in acc.items()
    }


def trend_1(curie: Sweep, thunder: Sweep) -> Verdict:
    claim = "SPT-RD: on Curie ΣS rises with m_d >= 4 while ΣF falls; on LLNL-Thunder the same trade-off against τ"
    parts: list[bool | None] = []
    evidence = []
    taus = sorted({t for _, t in curie})
    lines = {t: [(d, curie[(d, t)]) for d in range(4, 11) if (d, t) in curie] for t in taus}
    lines = {t: line for t, line in lines.items() if len(line) >= 3}
    if lines:
        up = [t for t, ln in lines.items() if spearman([d for d, _ in ln], [v["sum_stretch"] for _, v in ln]) > 0]
        down = [t for t, ln in lines.items() if spearman([d for d, _ in ln], [v["sum_flow"] for _, v in ln]) < 0]
        both = sorted(set(up) & set(down))
        parts.append(len(both) > len(lines) / 2)
        evidence.append(
            f"Curie, m_d >= 4: ΣS rises with m_d for τ in {up or 'none'}, ΣF falls for τ in {down or 'none'}, "
            f"both for τ in {both or 'none'} ({len(both)} of {len(lines)} lines)"
        )
    else:
        parts.append(None)
    mds = sorted({d for d, _ in thunder})
    lines = [[(t, thunder[(d, t)]) for t in sorted({t for _, t in thunder}) if (d, t) in thunder] for d in mds]
    lines = [line for line in lines if len(line) >= 3]
    if lines:
        opposite = sum(_apart(ln) for ln in lines)
        later = sum(_apart(ln[1:]) for ln in lines if len(ln) >= 4)
        parts.append(opposite > len(lines) / 2)
        evidence.append(
            f"LLNL-Thunder: ΣS and ΣF move apart against τ in {opposite} of {len(lines)} m_d lines "
            f"({later} without the smallest τ)"
        )
    else:
        parts.append(None)
    return Verdict(1, claim, _verdict(parts), "; ".join(evidence))


def sweep_correlations(sweep: Sweep, along: str, least: int = 1) -> list[tuple[int, float, float]]:
    """Per line of ``sweep`` (a τ when ``along="m_d"``, an m_d when ``along="tau"``): Spearman's rank correlation
    of ΣS and of ΣF with the swept parameter, over its values >= ``least`` (trend 1's test reads their signs)."""
    key = 0 if along == "m_d" else 1
    out = []
    for line in sorted({k[1 - key] for k in sweep}):
        points = sorted((k[key], v) for k, v in sweep.items() if k[1 - key] == line and k[key] >= least)
        if len(points) >= 3:
            x = [p for p, _ in points]
            out.append(
                (
                    line,
                    spearman(x, [v["sum_stretch"] for _, v in points]),
                    spearman(x, [v["sum_flow"] for _, v in points]),
                )
            )
    return out


def _apart(line: list[tuple[int, dict[str, float]]]) -> bool:
    """Whether ΣS and ΣF move in opposite directions along a sweep line (rank correlations of opposite signs)."""
    x = [t for t, _ in line]
    return spearman(x, [v["sum_stretch"] for _, v in line]) * spearman(x, [v["sum_flow"] for _, v in line]) < 0
