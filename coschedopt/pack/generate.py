"""Pack instance families from the paper (section 6 and Theorem 2), seeded and reproducible.

* :func:`random_pack_instance` -- random profiles satisfying Eq. (1)-(2), for tests;
* :func:`synthetic_workload`, :func:`workload_ii`, :func:`workload_iii` -- the paper's
  synthetic Workloads II (65 tasks, 16 nodes of 8 cores) and III (260 tasks, 32 nodes);
* :func:`load_profiles` and :func:`workload_i` -- measured profiles from CSV files
  (the shipped ``lilac-threads`` measurements give a Workload-I-sized set: 10 tasks, p = 16);
* :func:`three_partition_instance`, :func:`random_three_partition_yes` -- the reduction of
  Theorem 2 (for yes-instances of 3-PARTITION the optimum is exactly the number of triplets).
"""

from __future__ import annotations

import argparse
import csv
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..core import InputError, make_rng
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, check_count
from .instance import MAX_PROCESSORS, PackInstance, repair

DATA_DIR = Path(__file__).resolve().parent / "data" / "profiles"


# --------------------------------------------------------------------------- random


def random_profiles(rng: np.random.Generator, n: int, p: int) -> np.ndarray:
    """n random profiles on 1..p processors satisfying Eq. (1) and (2).

    Each task draws t(1) in [1, 100), then at every extra processor a factor
    between the two limits of Eq. (1)-(2): t(j+1) = t(j) x u, u in [j/(j+1), 1].
    """
    t = np.empty((n, p))
    t[:, 0] = rng.uniform(1.0, 100.0, n)
    for j in range(1, p):
        low = j / (j + 1)
        t[:, j] = t[:, j - 1] * rng.uniform(low, 1.0, n)
    return repair(t)


#: cells of the tasks x processors table a generator writes at most: the JSON of 10^6 times
#: is built in memory first (a few hundred MB)
MAX_GENERATED_CELLS = 10**6


def check_table(n: int, p: int, p_flag: str = "--processors") -> None:
    """Refuse, before drawing anything, a generated table beyond the limits (one InputError)."""
    check_count(n, "--tasks", high=MAX_GENERATED)
    check_count(p, p_flag, high=MAX_PROCESSORS)
    check_count(n * p, f"--tasks x {p_flag}", high=MAX_GENERATED_CELLS, what="cells of the written table")


def random_pack_instance(n: int, p: int, k: int, *, seed: int | None = 0, integer: bool = False) -> PackInstance:
    """A random instance with n tasks, p processors, packs of at most k tasks.

    ``integer=True`` rounds times to integers (then repairs): many ties, the hard
    case for tie-breaking bugs.
    """
    check_table(n, p)
    check_count(k, "-k", high=p)
    rng = make_rng(seed)
    t = random_profiles(rng, n, p)
    if integer:
        t = repair(np.maximum(1.0, np.round(t)))
    return PackInstance(t, k, name=f"random-n{n}-p{p}-k{k}-s{seed}", meta={"generator": "random", "seed": seed})


# --------------------------------------------------------------------------- synthetic workloads

#: sequential-time forms t(m, 1) / c of section 6 ("cm, cm log2 m, cm^2 and cm^3")
SEQUENTIAL_FORMS = {
    "m": lambda m: m,
    "m log2 m": lambda m: m * np.log2(m),
    "m^2": lambda m: m**2,
    "m^3": lambda m: m**3,
}
#: inherently serial fractions f of section 6
SERIAL_FRACTIONS = (0.0, 0.04, 0.08, 0.16, 0.32)
#: overhead shapes kappa(m, q) / c_kappa of section 6
OVERHEAD_FORMS = {
    "log2 q": lambda m, q: np.log2(q),
    "(log2 q)^2": lambda m, q: np.log2(q) ** 2,
    "q log2 q": lambda m, q: q * np.log2(q),
    "m q log2 q": lambda m, q: m * q * np.log2(q),
    "sqrt(m/q)": lambda m, q: np.sqrt(m / q),
    "m log2 q": lambda m, q: m * np.log2(q),
}
#: problem sizes m are drawn log-uniformly in this range
PROBLEM_SIZE_RANGE = (1e3, 1e5)
#: sequential times t(m, 1) are scaled (through c) into this range, in seconds: 20 min to ~1.4 days
SEQUENTIAL_TIME_RANGE = (1.2e3, 1.2e5)
#: overhead weight: kappa(m, Q) = rho x t(m,1)/Q at the full machine Q = nodes x cores, rho log-uniform here
OVERHEAD_RATIO_RANGE = (0.02, 4.0)


def synthetic_workload(
    n: int,
    nodes: int,
    *,
    cores_per_node: int = 8,
    max_pack_size: int | None = None,
    seed: int | None = 0,
    name: str = "synthetic",
) -> PackInstance:
    """The paper's synthetic workload model, repaired to satisfy Eq. (1) and (2).

    Each task has a problem size m and runs on q cores in
    t(m, q) = f t(m, 1) + (1 - f) t(m, 1) / q + kappa(m, q)   (section 6, Workload-II)
    with t(m, 1) = c g(m) for a form g in :data:`SEQUENTIAL_FORMS`, f in
    :data:`SERIAL_FRACTIONS` and kappa(m, q) = c_kappa h(m, q) for h in
    :data:`OVERHEAD_FORMS`; form, f and h are drawn uniformly per task.  The paper
    leaves the constants open; ours, written down here:

    * m log-uniform in :data:`PROBLEM_SIZE_RANGE`;
    * c chosen so that t(m, 1) is log-uniform in :data:`SEQUENTIAL_TIME_RANGE` (seconds);
    * c_kappa chosen so that kappa(m, Q) = rho t(m, 1) / Q on the whole machine
      (Q = nodes x cores_per_node cores), rho log-uniform in :data:`OVERHEAD_RATIO_RANGE`:
      from near-linear speedup (rho = 0.02) to overhead-dominated codes (rho = 4).

    A processor of the pack model is a node (one application per node, section 6):
    t(i, j) = t(m_i, cores_per_node x j) for j = 1..nodes.  Vectorised: p of a few
    thousand is fine.
    """
    check_table(n, nodes, "--nodes")
    check_count(cores_per_node, "--cores-per-node", high=MAX_PROCESSORS)
    rng = make_rng(seed)
    forms = list(SEQUENTIAL_FORMS)
    overheads = list(OVERHEAD_FORMS)
    form_idx = rng.integers(len(forms), size=n)
    f = np.asarray(SERIAL_FRACTIONS)[rng.integers(len(SERIAL_FRACTIONS), size=n)]
    over_idx = rng.integers(len(overheads), size=n)
    m = np.exp(rng.uniform(*np.log(PROBLEM_SIZE_RANGE), size=n))
    t_seq = np.exp(rng.uniform(*np.log(SEQUENTIAL_TIME_RANGE), size=n))
    rho = np.exp(rng.uniform(*np.log(OVERHEAD_RATIO_RANGE), size=n))
    total_cores = nodes * cores_per_node
    q = cores_per_node * np.arange(1, nodes + 1, dtype=float)
    times = np.empty((n, nodes))
    for i in range(n):
        h = OVERHEAD_FORMS[overheads[over_idx[i]]]
        h_full = float(h(m[i], total_cores))
        c_kappa = rho[i] * t_seq[i] / total_cores / h_full if h_full > 0 else 0.0
        times[i] = f[i] * t_seq[i] + (1 - f[i]) * t_seq[i] / q + c_kappa * h(m[i], q)
    k = nodes if max_pack_size is None else max_pack_size
    meta = {
        "generator": name,
        "seed": seed,
        "cores_per_node": cores_per_node,
        "sequential_forms": [forms[x] for x in form_idx],
        "serial_fractions": f.tolist(),
        "overheads": [overheads[x] for x in over_idx],
    }
    names = tuple(f"T{i + 1}" for i in range(n))
    return PackInstance(repair(times), k, names, f"{name}-s{seed}-k{k}", meta)


def workload_ii(*, seed: int | None = 0, max_pack_size: int = 16) -> PackInstance:
    """Workload-II: 65 synthetic tasks on 16 nodes of 8 cores (128 cores), k <= 16."""
    return synthetic_workload(65, 16, max_pack_size=max_pack_size, seed=seed, name="workload-ii")


def workload_iii(*, seed: int | None = 0, max_pack_size: int = 32) -> PackInstance:
    """Workload-III: 260 synthetic tasks on 32 nodes of 8 cores (256 cores), k <= 32."""
    return synthetic_workload(260, 32, max_pack_size=max_pack_size, seed=seed, name="workload-iii")


# --------------------------------------------------------------------------- measured profiles


def read_profile_csv(path: str | Path) -> dict[int, list[float]]:
    """Read one measured profile: rows ``count,time[,time...]`` -> {count: [times]}.

    A non-numeric first line is a header; a row labelled ``raw`` (the unaccelerated
    baseline of the lilac-threads files) is skipped.  Anything else malformed
    raises :class:`InputError` naming the file, line and field.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read profile: {exc.strerror or exc}", where=str(p)) from None
    out: dict[int, list[float]] = {}
    for lineno, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or all(not c.strip() for c in row):
            continue
        head = row[0].strip()
        if head.lower() == "raw":
            continue
        try:
            count = int(head)
        except ValueError:
            if lineno == 1:
                continue  # header
            raise InputError(
                f"processor count must be an integer, got {head!r}", where=f"{p}:{lineno}: field 1"
            ) from None
        if count < 1:
            raise InputError(f"processor count must be >= 1, got {count}", where=f"{p}:{lineno}: field 1")
        if len(row) < 2:
            raise InputError("expected at least one time after the processor count", where=f"{p}:{lineno}")
        vals = []
        for col, cell in enumerate(row[1:], start=2):
            try:
                x = float(cell)
            except ValueError:
                raise InputError(f"time must be a number, got {cell!r}", where=f"{p}:{lineno}: field {col}") from None
            if not math.isfinite(x) or x <= 0:
                raise InputError(f"time must be positive and finite, got {cell!r}", where=f"{p}:{lineno}: field {col}")
            vals.append(x)
        if count in out:
            raise InputError(f"processor count {count} appears twice", where=f"{p}:{lineno}: field 1")
        out[count] = vals
    if not out:
        raise InputError("no profile rows found", where=str(p))
    return out


def load_profiles(
    paths: Sequence[str | Path],
    *,
    processors: int | None = None,
    max_pack_size: int | None = None,
    repair_profiles: bool = False,
    name: str = "profiles",
) -> PackInstance:
    """One task per CSV file (see :func:`read_profile_csv`), time = median of the repeated runs.

    ``processors`` defaults to the largest count every file covers; each file
    must give every count 1..processors.  Measured profiles rarely satisfy Eq.
    (1) and (2) (noise, slowdowns): without ``repair_profiles`` a violation is an
    error naming the task and the values, with it :func:`repair` is applied.
    """
    if not paths:
        raise InputError("no profile files given")
    profiles = [read_profile_csv(path) for path in paths]
    p = processors if processors is not None else min(max(prof) for prof in profiles)
    check_table(len(paths), p)
    rows = []
    for path, prof in zip(paths, profiles, strict=True):
        missing = [j for j in range(1, p + 1) if j not in prof]
        if missing:
            raise InputError(f"no time for processor counts {missing[:5]} (needed 1..{p})", where=str(path))
        rows.append([float(np.median(prof[j])) for j in range(1, p + 1)])
    times = np.array(rows)
    if repair_profiles:
        times = repair(times)
    task_names = _unique_names([Path(x).stem for x in paths])
    k = p if max_pack_size is None else max_pack_size
    try:
        return PackInstance(times, k, task_names, name, {"generator": "profiles", "files": [str(x) for x in paths]})
    except InputError as exc:
        raise exc.located("profiles") from None


def workload_i(*, seed: int | None = 0, max_pack_size: int = 10, processors: int = 16) -> PackInstance:
    """A Workload-I-sized set from real measurements: 10 tasks on 16 processors.

    The paper's Workload-I (VASP, ABAQUS, LAMMPS, PETSc on 16 nodes) is not
    published; we use the shipped lilac-threads measurements (5 applications,
    10 runs per thread count 1..32, see ``coschedopt/pack/data/profiles/README.md``).
    Each application gives two tasks whose profiles are the medians of two
    disjoint halves of its 10 runs, the split drawn from ``seed``; processors
    are thread counts 1..16.  The profiles are repaired to satisfy Eq. (1)-(2),
    as the paper does for its workloads.
    """
    rng = make_rng(seed)
    apps = ["npb", "cnetlib", "netlib", "ngt", "pfold"]
    names, rows = [], []
    for app in apps:
        prof = read_profile_csv(DATA_DIR / "lilac-threads" / f"{app}.csv")
        runs = np.array([prof[j] for j in range(1, processors + 1)])  # (p, 10)
        perm = rng.permutation(runs.shape[1])
        half = runs.shape[1] // 2
        for part, cols in (("a", perm[:half]), ("b", perm[half:])):
            names.append(f"{app}-{part}")
            rows.append(np.median(runs[:, cols], axis=1))
    meta = {"generator": "workload-i", "seed": seed, "source": "lilac-threads (CC 2020), thread counts 1..16"}
    return PackInstance(
        repair(np.array(rows)), max_pack_size, tuple(names), f"workload-i-s{seed}-k{max_pack_size}", meta
    )


def _unique_names(names: list[str]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for nm in names:
        seen[nm] = seen.get(nm, 0) + 1
        out.append(nm if seen[nm] == 1 else f"{nm}-{seen[nm]}")
    return tuple(out)


# --------------------------------------------------------------------------- Theorem 2


def three_partition_instance(values: Sequence[int], bound: int, *, max_pack_size: int = 3) -> PackInstance:
    """Theorem 2's reduction of 3-PARTITION (a_1..a_3m, B) to k-in-p co-scheduling.

    k = 3: p = B and task i has t(i, j) = 1 + 1/a_i for j < a_i, 1 otherwise.
    k >= 4: p = B + (k - 3)(B + 1) and m(k - 3) extra tasks with t(j) = max((B + 1)/j, 1).
    The 3-PARTITION instance is a yes-instance iff the optimum cost is m (the
    number of triplets), with deadline D = m.
    """
    a = np.asarray(values, dtype=np.int64)
    if a.ndim != 1 or a.size == 0 or a.size % 3:
        raise InputError(f"3-PARTITION needs 3m integers, got {a.size}", where="values")
    if (a < 1).any() or (a > bound).any():
        bad = int(a[(a < 1) | (a > bound)][0])
        raise InputError(f"every a_i must be in 1..B = {bound}, got {bad}", where="values")
    k = max_pack_size
    if k < 3:
        raise InputError(f"the reduction needs k >= 3, got {k}", where="max_pack_size")
    m = a.size // 3
    check_count(k, "max_pack_size", high=MAX_PROCESSORS)
    p = bound + (k - 3) * (bound + 1)
    check_table(a.size + m * (k - 3), p, "--bound")
    j = np.arange(1, p + 1)
    times = np.where(j[None, :] < a[:, None], 1.0 + 1.0 / a[:, None], 1.0)
    names = [f"a{i + 1}" for i in range(a.size)]
    if k > 3:
        extra = np.maximum((bound + 1) / j, 1.0)
        times = np.vstack([times, np.tile(extra, (m * (k - 3), 1))])
        names += [f"filler{i + 1}" for i in range(m * (k - 3))]
    meta = {"generator": "three-partition", "values": a.tolist(), "bound": int(bound), "deadline": m}
    return PackInstance(times, k, tuple(names), f"three-partition-m{m}-B{bound}-k{k}", meta)


def random_three_partition_yes(triplets: int, bound: int, *, seed: int | None = 0) -> list[int]:
    """A random yes-instance of 3-PARTITION: ``triplets`` triples summing to B, B/4 < a_i < B/2, shuffled."""
    check_count(bound, "--bound", low=12, high=MAX_PROCESSORS, what="B/4 < a < B/2, and B processors")
    check_count(triplets, "--triplets", high=MAX_GENERATED // 3)
    rng = make_rng(seed)
    lo, hi = bound // 4 + 1, (bound - 1) // 2  # strict B/4 < a < B/2
    out: list[int] = []
    for _ in range(triplets):
        while True:
            a1 = int(rng.integers(lo, hi + 1))
            a2 = int(rng.integers(lo, hi + 1))
            a3 = bound - a1 - a2
            if lo <= a3 <= hi:
                break
        out += [a1, a2, a3]
    return [int(x) for x in rng.permutation(out)]


# --------------------------------------------------------------------------- CLI generators


def _k_arg(parser: argparse.ArgumentParser, default: int | None) -> None:
    shown = f"default {default}" if default is not None else "default: the number of processors"
    parser.add_argument(
        "--max-pack-size", "-k", type=int, default=default, help=f"k, the most tasks per pack ({shown})"
    )


def _random_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tasks", "-n", type=int, default=10, help="number of tasks (default 10)")
    parser.add_argument("--processors", "-p", type=int, default=16, help="number of processors (default 16)")
    parser.add_argument("--integer", action="store_true", help="integer times (many ties)")
    _k_arg(parser, 4)


def _workload_args(default_k: int):
    def add(parser: argparse.ArgumentParser) -> None:
        _k_arg(parser, default_k)

    return add


def _profiles_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="CSV files, one task each: rows 'count,time[,time...]'")
    parser.add_argument("--processors", "-p", type=int, default=None, help="p (default: largest count in every file)")
    parser.add_argument("--repair", dest="repair_profiles", action="store_true", help="repair Eq. (1)-(2) violations")
    _k_arg(parser, None)


def _three_partition_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--triplets", "-m", type=int, default=10, help="m, number of triplets of a random yes-instance")
    parser.add_argument("--bound", "-B", type=int, default=1000, help="B, the triplet sum (and p when k = 3)")
    parser.add_argument("--values", default=None, help="comma-separated a_1..a_3m instead of a random yes-instance")
    _k_arg(parser, 3)


def _make_three_partition(*, triplets: int, bound: int, values: str | None, max_pack_size: int, seed: int | None):
    if values:
        try:
            a = [int(x) for x in values.split(",")]
        except ValueError:
            raise InputError(f"--values must be comma-separated integers, got {values!r}", where="--values") from None
    else:
        a = random_three_partition_yes(triplets, bound, seed=seed)
    return three_partition_instance(a, bound, max_pack_size=max_pack_size)


register_generator(
    Generator(
        "pack",
        "random",
        "random pack profiles satisfying Eq. (1)-(2) (tests, small cross-checks)",
        _random_args,
        lambda *, tasks, processors, max_pack_size, integer=False, seed=0: random_pack_instance(
            tasks, processors, max_pack_size, seed=seed, integer=integer
        ),
        aliases=("random",),
    )
)
register_generator(
    Generator(
        "pack",
        "workload-i",
        "10 tasks on 16 processors from real measured profiles (lilac-threads)",
        _workload_args(10),
        lambda *, max_pack_size=10, seed=0: workload_i(seed=seed, max_pack_size=max_pack_size),
        aliases=("workload-i",),
    )
)
register_generator(
    Generator(
        "pack",
        "workload-ii",
        "the paper's Workload-II: 65 synthetic tasks, 16 nodes of 8 cores",
        _workload_args(16),
        lambda *, max_pack_size=16, seed=0: workload_ii(seed=seed, max_pack_size=max_pack_size),
        aliases=("workload-ii",),
    )
)
register_generator(
    Generator(
        "pack",
        "workload-iii",
        "the paper's Workload-III: 260 synthetic tasks, 32 nodes of 8 cores",
        _workload_args(32),
        lambda *, max_pack_size=32, seed=0: workload_iii(seed=seed, max_pack_size=max_pack_size),
        aliases=("workload-iii",),
    )
)
register_generator(
    Generator(
        "pack",
        "profiles",
        "tasks from measured CSV profiles (one file per task)",
        _profiles_args,
        lambda *, files, processors=None, max_pack_size=None, repair_profiles=False, seed=0: load_profiles(
            files, processors=processors, max_pack_size=max_pack_size, repair_profiles=repair_profiles
        ),
        aliases=("profiles",),
    )
)
register_generator(
    Generator(
        "pack",
        "three-partition",
        "Theorem 2 reduction of a 3-PARTITION instance (random yes-instance by default)",
        _three_partition_args,
        _make_three_partition,
        aliases=("three-partition",),
    )
)
