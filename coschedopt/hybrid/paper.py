"""The thesis's published SWDUAL figures (chapter 2, Tables 2.2, 2.4 and 2.5) and what is derived from them.

Derived [reading of the note, section 3]: GCUPS x seconds is constant per (query set,
database), so each pair has a total number of cells; the single-worker times of
Table 2.2 give the per-worker rates of SWIPE (a CPU worker) and CUDASW++ (a GPU).
The per-query lengths are not published; the query sets are drawn as described in
:mod:`.generate` (main U[100, 5000], homogeneous U[4500, 5000], heterogeneous
U[4, 35213]).
"""

from __future__ import annotations

#: Table 2.2 (UniProt, 40 queries), seconds by number of workers 1..8
TABLE_2_2: dict[str, tuple[float | None, ...]] = {
    "SWPS3": (69208.2, 36174.09, 25206.563, 18904.31),
    "STRIPED": (7190.0, 3615.38, 1369.33, 1027.28),
    "SWIPE": (2367.24, 1199.47, 816.61, 610.23),
    "CUDASW++": (785.26, 445.611, 350.09, 292.157),
    "SWDUAL": (None, 543.28, 472.84, 271.98, 266.69, 239.04, 183.12, 142.98),
}

#: Table 2.4, SWDUAL seconds and GCUPS at 2, 4 and 8 workers, by database (40 queries)
TABLE_2_4: dict[str, dict[int, tuple[float, float]]] = {
    "dog": {2: (78.36, 18.91), 4: (39.63, 37.39), 8: (20.45, 72.45)},
    "rat": {2: (75.85, 22.97), 4: (37.97, 45.89), 8: (20.17, 86.38)},
    "mouse": {2: (84.40, 18.99), 4: (46.25, 34.66), 8: (23.59, 67.95)},
    "human": {2: (95.09, 20.70), 4: (48.01, 41.00), 8: (24.82, 79.31)},
    "uniprot": {2: (543.28, 35.81), 4: (271.98, 71.53), 8: (142.98, 136.06)},
}

#: Table 2.5, UniProt, SWDUAL seconds and GCUPS at 2, 4, 8 workers by query set
TABLE_2_5: dict[str, dict[int, tuple[float, float]]] = {
    "heterogeneous": {2: (3554.36, 37.55), 4: (1785.73, 74.74), 8: (908.45, 146.92)},
    "homogeneous": {2: (998.27, 36.3), 4: (484.74, 74.76), 8: (249.69, 145.14)},
}


def total_cells(query_set: str, database: str) -> float:
    """Cells of the whole comparison (GCUPS x seconds x 1e9, averaged over the table's worker counts)."""
    if query_set == "main":
        row = TABLE_2_4[database]
    elif database == "uniprot" and query_set in TABLE_2_5:
        row = TABLE_2_5[query_set]
    else:
        raise KeyError(f"the thesis gives no figures for query set {query_set!r} against {database!r}")
    values = [seconds * rate * 1e9 for seconds, rate in row.values()]
    return sum(values) / len(values)


#: single-worker rates on UniProt (Table 2.2, 1 worker): cells per second of one SWIPE CPU worker
CPU_RATE = total_cells("main", "uniprot") / TABLE_2_2["SWIPE"][0]
#: ... and of one CUDASW++ GPU
GPU_RATE = total_cells("main", "uniprot") / TABLE_2_2["CUDASW++"][0]


def worker_mix(workers: int) -> tuple[int, int]:
    """(CPUs, GPUs) of SWDUAL with ``workers`` workers [reading of l. 1099-1112, which conflict]:
    w <= 4: one CPU and w - 1 GPUs; w = 5..8: four GPUs and w - 4 CPUs."""
    if not 2 <= workers <= 8:
        raise ValueError(f"SWDUAL ran with 2 to 8 workers, got {workers}")
    return (1, workers - 1) if workers <= 4 else (workers - 4, 4)
