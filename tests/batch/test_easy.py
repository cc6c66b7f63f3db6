"""EASY's head reservation: with basic allocation ``easy`` makes the decisions of count-based textbook
EASY (Mu'alem and Feitelson 2001), and ``reservation="lowest-ids"`` keeps the variant's own choice."""

from __future__ import annotations

import gzip
import hashlib
import heapq
from pathlib import Path

import pytest

import coschedopt.batch
from coschedopt import solve, validate
from coschedopt.batch import BatchInstance
from coschedopt.batch.generate import random_workload
from coschedopt.batch.traces import read_trace, trace_instance
from coschedopt.core import InputError

DATA = Path(coschedopt.batch.__file__).parent / "data" / "KTH-SP2-1996-2.1-cln-first3000.swf.gz"
VARIANTS = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")


def textbook_easy(inst: BatchInstance) -> list[int]:
    """Start times of count-based EASY: no processor identities, only the number of free processors.

    At each instant (completions, then submissions, then one pass) the queue's head starts while it
    fits; a blocked head gets the shadow time (the earliest requested end at which the free count
    reaches its size) and the extra count (processors free then minus its size); every later job
    starts if it fits in the free count and either ends by the shadow time or fits in the extra count,
    which it then uses up.  Jobs run min(run time, requested time) (no penalty).
    """
    submit, run = inst.submit.tolist(), inst.run_time.tolist()
    req, size = inst.requested_time.tolist(), inst.size.tolist()
    order = sorted(range(inst.n), key=lambda j: (submit[j], j))
    start = [-1] * inst.n
    requested_end: dict[int, int] = {}  # running job -> its requested end
    ends: list[tuple[int, int]] = []
    free, queue, k = inst.processors, [], 0

    def begin(j: int, t: int) -> None:
        nonlocal free
        start[j] = t
        free -= size[j]
        requested_end[j] = t + req[j]
        heapq.heappush(ends, (t + min(run[j], req[j]), j))

    while k < len(order) or ends:
        t = min(([ends[0][0]] if ends else []) + ([submit[order[k]]] if k < len(order) else []))
        while ends and ends[0][0] == t:
            j = heapq.heappop(ends)[1]
            free += size[j]
            del requested_end[j]
        while k < len(order) and submit[order[k]] == t:
            queue.append(order[k])
            k += 1
        while queue and size[queue[0]] <= free:
            begin(queue.pop(0), t)
        if len(queue) < 2:
            continue
        head = size[queue[0]]
        at_shadow, shadow = free, None
        for j, end in sorted(requested_end.items(), key=lambda item: item[1]):
            if shadow is not None and end > shadow:
                break
            at_shadow += size[j]
            if shadow is None and at_shadow >= head:
                shadow = end
        extra = at_shadow - head
        for j in queue[1:]:
            ends_by_shadow = t + req[j] <= shadow
            if size[j] <= free and (ends_by_shadow or size[j] <= extra):
                queue.remove(j)
                begin(j, t)
                if not ends_by_shadow:
                    extra -= size[j]
    return start


def kth_excerpt(folder: Path, lines: int) -> BatchInstance:
    """The first ``lines`` job lines of the shipped KTH-SP2 excerpt, on the thesis's KTH platform."""
    with gzip.open(DATA, "rt") as fh:
        text = fh.readlines()
    header = [x for x in text if x.startswith(";")]
    jobs = [x for x in text if x.strip() and not x.startswith(";")]
    path = folder / f"KTH-SP2-first{lines}.swf"  # the name selects the thesis platform (100 processors)
    path.write_text("".join(header + jobs[:lines]))
    return trace_instance(read_trace(path))


@pytest.fixture(scope="module")
def kth2000(tmp_path_factory) -> BatchInstance:
    inst = kth_excerpt(tmp_path_factory.mktemp("kth"), 2000)
    assert inst.n == 1200 and inst.processors == 100
    return inst


def _starts(inst: BatchInstance, **opts) -> list[int]:
    res = solve(inst, "easy", **opts)
    validate(inst, res.schedule)
    return res.schedule.start.tolist()


def test_easy_is_count_based_textbook_easy_on_random_workloads():
    differing = 0
    for seed in range(150):
        m = (4, 8, 16, 32, 100)[seed % 5]
        inst = random_workload(40, m, horizon=60, max_run=25, seed=seed)
        assert _starts(inst) == textbook_easy(inst), f"seed {seed}"
        differing += _starts(inst, reservation="lowest-ids") != textbook_easy(inst)
    assert differing > 0  # the workloads do tell the two reservations apart


def test_easy_is_count_based_textbook_easy_on_the_kth_excerpt(kth2000, tmp_path):
    assert _starts(kth2000) == textbook_easy(kth2000)
    whole = kth_excerpt(tmp_path, 3000)
    assert _starts(whole) == textbook_easy(whole)


def test_the_lowest_ids_reservation_backfills_less_on_the_kth_excerpt(kth2000):
    """Issue 46's figures: 45 jobs start elsewhere, the first divergence at t = 108,230."""
    old, textbook = _starts(kth2000, reservation="lowest-ids"), textbook_easy(kth2000)
    differ = [j for j in range(kth2000.n) if old[j] != textbook[j]]
    assert len(differ) == 45
    assert min(min(old[j], textbook[j]) for j in differ) == 108230


#: start times and processors of ``easy`` on the first 2,000 lines of the excerpt, recorded with the lowest-ids
#: rule when it was the only one (commit d40f9f1): sha256 of "start start ...|procs;procs;..." (16 hex digits)
LOWEST_IDS_SCHEDULES = {
    "basic": "394b143a008f7ff0",
    "becont": "702da31e78a5628c",
    "cont": "1592c2c5a8b3b169",
    "beloc": "2427a1be6ae5ea77",
    "loc": "aced73af0e11983f",
    "beplat": "5fe03509331e4576",
    "plat": "b3ab4c808896470a",
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_lowest_ids_reservation_reproduces_its_recorded_schedules(kth2000, variant):
    s = solve(kth2000, "easy", allocation=variant, reservation="lowest-ids").schedule
    text = " ".join(map(str, s.start.tolist())) + "|" + ";".join(s.processors)
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == LOWEST_IDS_SCHEDULES[variant]


def _inst(jobs, processors):
    keys = ("id", "submit", "run_time", "requested_time", "size")
    return BatchInstance.from_dict(
        {
            "kind": "batch",
            "platform": {"processors": processors, "levels": []},
            "jobs": [dict(zip(keys, j, strict=True)) for j in jobs],
        }
    )


def test_the_head_reserves_the_processors_busy_now_first():
    """x frees 0-1 at 2, y holds 2-3 until 10; h (3 processors) waits for 10.  At the shadow time
    0-3 are free: lowest-ids reserves 0-2 and leaves no idle processor to j, which runs past 10;
    busy-first reserves 2-3 and 0, so j (the textbook's one extra processor) starts now on 1."""
    inst = _inst([("x", 0, 2, 2, 2), ("y", 0, 10, 10, 2), ("h", 3, 5, 5, 3), ("j", 3, 20, 20, 1)], 4)
    busy_first = solve(inst, "easy").schedule
    assert busy_first.start.tolist() == [0, 0, 10, 3] == textbook_easy(inst)
    assert busy_first.processors[3] == "1"
    assert busy_first.model["reservation"] == "busy-first"
    assert solve(inst, "easy", reservation="lowest-ids").schedule.start.tolist() == [0, 0, 10, 10]


def test_the_reservation_is_an_easy_option():
    inst = random_workload(5, 8, seed=0)
    with pytest.raises(InputError, match="reservation"):
        solve(inst, "easy", reservation="highest-ids")
    with pytest.raises(InputError, match="reservation"):
        solve(inst, "fcfs", reservation="lowest-ids")
