"""What every simulator shares: its options and the record of each job (start, end, processors, failure)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import MethodOptions, option
from ..workloads.idsets import format_ids
from .allocation import BECONT_RULES, BEPLAT_RULES, CONT_RULES, TOPOLOGIES, VARIANTS, Allocator
from .instance import BatchInstance
from .penalty import PENALTIES, penalised_duration
from .readings import READING_NAMES, resolve
from .schedule import BatchSchedule


@dataclass(frozen=True)
class SimOptions(MethodOptions):
    """Options of every batch simulator (``coschedopt methods batch --options``)."""

    allocation: str = option("basic", "allocation variant (thesis ch. 4-5)", choices=VARIANTS)
    penalty: str = option(
        "none", "communication penalty of §5.3.4 ('exponential' is the thesis's 'quadratic')", choices=PENALTIES
    )
    factor: float = option(2.0, "penalty factor F", min=0.0)
    topology: str = option(
        "line",
        "processor ids on a line (theory) or a ring for becont and cont's allocation (and, by default, the metric)",
        choices=TOPOLOGIES,
    )
    reading: str = option(
        "ours",
        "the options left unset take our reading of the thesis or the author's code's (coschedopt.batch.readings)",
        choices=READING_NAMES,
    )
    metric_topology: str | None = option(
        None,
        "processor ids on a line or a ring for the contiguity metric only (default: as topology; ring in the "
        "author's reading); "
        "topology=line with metric_topology=ring allocates without wrapping and counts a run through "
        "the last and the first id as one range",
        choices=TOPOLOGIES,
    )
    becont_rule: str = option(
        "largest-first",
        "becont reading: longest free ranges first (ch. 5, code) or the "
        "first range that fits, else basic (ch. 4 Alg. 3)",
        choices=BECONT_RULES,
    )
    cont_rule: str = option(
        "first-fit", "cont reading: first range that fits (code) or the largest range (ch. 5 text)", choices=CONT_RULES
    )
    beplat_rule: str = option(
        "lowest-ids",
        "beplat/plat inside the chosen block: lowest ids (code) or clusters by free count (Alg. 5)",
        choices=BEPLAT_RULES,
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        resolve(self)

    def allocator(self, instance: BatchInstance) -> Allocator:
        return Allocator(
            instance.platform, self.allocation, self.topology, self.becont_rule, self.cont_rule, self.beplat_rule
        )

    def model(self) -> dict[str, object]:
        """The settings a schedule records (the validator and the metrics read them)."""
        return {
            "allocation": self.allocation,
            "penalty": self.penalty,
            "factor": self.factor,
            "topology": self.topology,
            "metric_topology": self.metric_topology or self.topology,
            "reading": self.reading,
        }


class JobRecord:
    """Start, end, processors and failure of every job, filled in as the simulation runs."""

    def __init__(self, instance: BatchInstance, options: SimOptions) -> None:
        n = instance.n
        self.instance = instance
        self.options = options
        self.start = np.full(n, -1, dtype=np.int64)
        self.end = np.full(n, -1, dtype=np.int64)
        self.failed = np.zeros(n, dtype=bool)
        self.reserved = np.full(n, -1, dtype=np.int64)
        self.processors: list[str] = [""] * n
        self._run = instance.run_time.tolist()
        self._req = instance.requested_time.tolist()
        self._size = instance.size.tolist()

    def duration(self, j: int, ids: np.ndarray) -> tuple[int, bool]:
        """The penalised duration of job ``j`` on the processors ``ids``."""
        plat, opts = self.instance.platform, self.options
        if opts.penalty == "none":
            extra = 0
        else:
            extra = plat.level_of(int(ids[0]), int(ids[-1])) - plat.min_level(self._size[j])
        return penalised_duration(self._run[j], extra, self._req[j], opts.penalty, opts.factor)

    def started(self, j: int, t: int, ids: np.ndarray, duration: int, failed: bool) -> None:
        self.start[j] = t
        self.end[j] = t + duration
        self.failed[j] = failed
        self.processors[j] = format_ids(ids)

    def schedule(self, *, with_reservations: bool = False) -> BatchSchedule:
        return BatchSchedule(
            ids=self.instance.ids,
            start=self.start,
            end=self.end,
            processors=tuple(self.processors),
            failed=self.failed,
            reserved=self.reserved if with_reservations else None,
            model=self.options.model(),
        )
