"""Locality instances: random ones, the thesis's tight instance I1, and the search's records.

* ``coschedopt generate locality random``: n jobs with integer times uniform in 1..max_time
  and sizes uniform in 1..max_size (default ell, the hypothesis of Theorems 2-5); the jobs
  depend only on (n, m, k, max_time, max_size, seed), so one seed gives the same job set
  under every constraint (the ratio tables pair them);
* ``coschedopt generate locality tight``: I1 of Theorem 2 (k = 2 clusters of 3 ids, three
  unit jobs of size 2: C = C^C = 1, C^L = C^{C+L} = 2), I1 on k clusters (floor(3k/2) such
  jobs, the same optima for every k >= 2), and ``rcs-note``, the instance refuting the
  reading note's corrected RCS bound C <= 2 max(A/m, p_max); each under the constraint it
  is tight under unless ``--constraint`` says otherwise;
* ``coschedopt generate locality record --name NAME``: an instance of the worst-case ratio
  search (``coschedopt/locality/data/records/NAME.json``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core import InputError, make_rng, read_json
from ..core.commands import Generator, register_generator
from ..core.limits import MAX_GENERATED, MAX_TIME, check_count
from .instance import CONSTRAINTS, MAX_PROCESSORS, TOPOLOGIES, LocalityInstance, make_instance

RECORDS_DIR = Path(__file__).resolve().parent / "data" / "records"

#: the tight instances of ``generate locality tight --which``
TIGHT = ("I1", "rcs-note")
#: the constraint each tight instance is tight under, its default: I1's optimum doubles under locality
#: (C = C^C = 1, C^L = C^{C+L} = 2: Theorems 2 and 3, and the lower bound 2 of Theorem 5 on C^{C+L} / C),
#: rcs-note's locality optimum C^L = 3 breaks the note's bound 2 max(A/m, p_max)
TIGHT_CONSTRAINT = {"I1": "contiguous+local", "rcs-note": "local"}


def random_locality_instance(
    n: int,
    processors: int = 32,
    clusters: int = 4,
    *,
    max_time: int = 20,
    max_size: int | None = None,
    constraint: str = "none",
    topology: str = "line",
    seed: int | None = 0,
) -> LocalityInstance:
    """n jobs, times uniform in 1..max_time, sizes uniform in 1..max_size (default ell = m/k)."""
    check_count(n, "--jobs", high=MAX_GENERATED)
    check_count(processors, "--processors", high=MAX_PROCESSORS)
    check_count(clusters, "--clusters", high=MAX_PROCESSORS)
    check_count(max_time, "--max-time", high=int(MAX_TIME))
    if processors % clusters:
        raise InputError(
            f"processors = {processors} must be a positive multiple of clusters = {clusters}", where="--clusters"
        )
    top = processors // clusters if max_size is None else max_size
    if not 1 <= top <= processors:
        raise InputError(f"must be in 1..processors = {processors}, got {top}", where="--max-size")
    if max_time < 1:
        raise InputError(f"must be >= 1, got {max_time}", where="--max-time")
    rng = make_rng(seed)
    times = rng.integers(1, max_time + 1, n)
    sizes = rng.integers(1, top + 1, n)
    jobs = [(float(t), int(s)) for t, s in zip(times, sizes, strict=True)]
    name = f"random-n{n}-m{processors}-k{clusters}-s{seed}"
    return make_instance(jobs, processors, clusters, constraint=constraint, topology=topology, name=name)


def tight_instance(
    which: str = "I1", clusters: int = 2, *, constraint: str | None = None, topology: str = "line"
) -> LocalityInstance:
    """I1 (Theorem 2's tightness example) on ``clusters`` clusters of 3 ids, or ``rcs-note``, under
    ``constraint`` (default: the one it is tight under, :data:`TIGHT_CONSTRAINT`).

    I1 on k >= 2 clusters: floor(3k/2) unit jobs of size 2 fill the 3k ids at once without
    locality (C = C^C = 1), but a cluster of 3 ids holds one of them at a time, so k clusters
    need two rounds (C^L = C^{C+L} = 2).  ``rcs-note``: five unit jobs of size 6 on two clusters
    of 11 ids: a cluster runs one at a time, so C^L = 3 > 2 max(A/m, p_max) = 2 * 30/22.
    """
    if which not in TIGHT:
        raise InputError(f"unknown tight instance {which!r}; one of {', '.join(TIGHT)}", where="--which")
    constraint = TIGHT_CONSTRAINT[which] if constraint is None else constraint
    if which == "I1":
        if clusters < 2:
            raise InputError(f"I1 needs at least 2 clusters, got {clusters}", where="--clusters")
        check_count(clusters, "--clusters", low=2, high=MAX_PROCESSORS // 3, what="I1 has 3 ids a cluster")
        jobs = [(1.0, 2)] * (3 * clusters // 2)
        name = "I1" if clusters == 2 else f"I1-k{clusters}"
        return make_instance(jobs, 3 * clusters, clusters, constraint=constraint, topology=topology, name=name)
    return make_instance([(1.0, 6)] * 5, 22, 2, constraint=constraint, topology=topology, name="rcs-note")


def record_names() -> list[str]:
    """The names of the shipped search records."""
    return sorted(p.stem for p in RECORDS_DIR.glob("*.json"))


def load_record(name: str) -> dict[str, Any]:
    """A shipped search record (the ratio, its value, the optima and the instance)."""
    path = RECORDS_DIR / f"{name}.json"
    if not path.is_file():
        raise InputError(f"no record {name!r}; records: {', '.join(record_names()) or 'none'}", where="--name")
    return read_json(path)


def record_instance(name: str, *, constraint: str = "none") -> LocalityInstance:
    """The instance of a shipped search record, under ``constraint``."""
    inst = LocalityInstance.from_dict(load_record(name)["instance"])
    return inst.with_constraint(constraint)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--constraint", choices=CONSTRAINTS, default="none", help="default none")
    parser.add_argument("--topology", choices=TOPOLOGIES, default="line", help="default line")


def _random_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", "-n", type=int, default=12, help="number of jobs (default 12)")
    parser.add_argument("--processors", "-m", type=int, default=32, help="processors (default 32)")
    parser.add_argument("--clusters", "-k", type=int, default=4, help="clusters (default 4)")
    parser.add_argument("--max-time", type=int, default=20, help="times uniform in 1..max (default 20)")
    parser.add_argument("--max-size", type=int, default=None, help="sizes uniform in 1..max (default ell = m/k)")
    _common(parser)


def _tight_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--which", choices=TIGHT, default="I1", help="I1 (Theorem 2) or rcs-note (default I1)")
    parser.add_argument("--clusters", "-k", type=int, default=2, help="clusters of I1 (default 2)")
    tight = ", ".join(f"{k}: {v}" for k, v in TIGHT_CONSTRAINT.items())
    parser.add_argument(
        "--constraint", choices=CONSTRAINTS, default=None, help=f"default: the one it is tight under ({tight})"
    )
    parser.add_argument("--topology", choices=TOPOLOGIES, default="line", help="default line")


def _record_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", required=True, help=f"a record of the search ({', '.join(record_names())})")
    parser.add_argument("--constraint", choices=CONSTRAINTS, default="none", help="default none")


register_generator(
    Generator(
        "locality",
        "random",
        "random rigid jobs on clustered processors",
        _random_arguments,
        lambda *, jobs, processors=32, clusters=4, max_time=20, max_size=None, constraint="none", topology="line", seed=0: (
            random_locality_instance(
                jobs,
                processors,
                clusters,
                max_time=max_time,
                max_size=max_size,
                constraint=constraint,
                topology=topology,
                seed=seed,
            )
        ),
    )
)
register_generator(
    Generator(
        "locality",
        "tight",
        "the thesis's tight instance I1 (on k clusters) and the instance refuting the note's RCS bound",
        _tight_arguments,
        lambda *, which="I1", clusters=2, constraint=None, topology="line", seed=0: tight_instance(
            which, clusters, constraint=constraint, topology=topology
        ),
    )
)
register_generator(
    Generator(
        "locality",
        "record",
        "an instance found by the worst-case ratio search (coschedopt locality search)",
        _record_arguments,
        lambda *, name, constraint="none", seed=0: record_instance(name, constraint=constraint),
    )
)
