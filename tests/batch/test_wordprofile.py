"""The word profile against the big-integer profile (the reference of test_profile.py): same slices, same answers."""

from __future__ import annotations

import numpy as np
import pytest

from coschedopt.batch.allocation import Allocator
from coschedopt.batch.generate import random_workload
from coschedopt.batch.platform import Platform
from coschedopt.batch.procsets import ids_from_bits, ids_from_bytes
from coschedopt.batch.profile import Profile
from coschedopt.batch.simulators.conservative import ConservativeOptions, simulate_conservative
from coschedopt.batch.traces import first_jobs, read_trace, trace_instance
from coschedopt.batch.wordprofile import WordProfile
from tests.tracefiles import CURIE_EXCERPT, EXCERPTS, KTH_EXCERPT


def _same(words: WordProfile, ints: Profile) -> None:
    """The same free sets at every time: the word profile's slices are the reference's with each slice that holds
    the same processors as the slice before it merged into that one (a boundary left by a freed reservation)."""
    kept = [k for k in range(len(ints.times)) if k == 0 or ints.free[k] != ints.free[k - 1]]
    assert words.times.tolist() == [ints.times[k] for k in kept]
    assert words.count.tolist() == [ints.count[k] for k in kept]
    for i, k in enumerate(kept):
        assert (
            ids_from_bytes(words.words(i).view(np.uint8), words.m).tolist()
            == ids_from_bits(ints.free[k], ints.m).tolist()
        )


def _random_ops(m: int, levels: tuple[int, ...], seed: int) -> int:
    """Random reservations, early ends, advances, searches and start-now tests on both profiles; returns at how
    many steps the word profile had merged slices away."""
    rng = np.random.default_rng(seed)
    plat = Platform(m, levels)
    words, ints = WordProfile(m, capacity=2), Profile(m)
    reserved: list[tuple[int, int, np.ndarray]] = []
    merged = 0
    for step in range(60):
        variant = ("basic", "becont", "cont", "beloc", "loc", "beplat", "plat")[(seed + step) % 7]
        allocator = Allocator(plat, variant)
        choose = allocator.from_bits
        size, duration = int(rng.integers(1, m + 1)), int(rng.integers(0, 40))
        op = rng.random()
        if op < 0.55:  # the word profile with its own chooser (compiled rules inside the search)
            got, want = words.find(size, duration, words.chooser(allocator)), ints.find(size, duration, choose)
            assert got[0] == want[0] and list(got[1]) == list(want[1]), (seed, step)
            start, ids = want
            words.occupy(start, start + duration, words.procs(ids), size)
            ints.occupy(start, start + duration, ints.procs(ids), size)
            if duration:
                reserved.append((start, start + duration, np.asarray(ids)))
        elif op < 0.75 and reserved:
            start, end, ids = reserved.pop(int(rng.integers(len(reserved))))
            cut = int(rng.integers(start, end))  # the job ends early at cut (or was moved away)
            words.release(cut, end, words.procs(ids), len(ids))
            ints.release(cut, end, ints.procs(ids), len(ids))
        elif op < 0.85:
            now = ints.now + int(rng.integers(0, 15))
            words.advance(now)
            ints.advance(now)
            reserved = [r for r in reserved if r[1] > now]
        elif reserved:
            start, end, ids = reserved[int(rng.integers(len(reserved)))]
            if start > ints.now:
                got = words.start_now_ids(start, end - start, words.procs(ids), len(ids), choose)
                want = ints.start_now_ids(start, end - start, ints.procs(ids), len(ids), choose)
                assert (got is None) == (want is None) and (want is None or list(got) == list(want)), (seed, step)
        _same(words, ints)
        merged += len(words.times) < len(ints.times)
    return merged


@pytest.mark.parametrize("m, levels", [(12, (1, 3, 12)), (130, (1, 2, 10, 130)), (256, (1, 4, 16, 256))])
def test_the_word_profile_gives_the_big_integer_profiles_answers(m, levels):
    """Every variant in turn, so the forced ones (cont, loc, plat) reject windows at merged boundaries too; the
    comparison must also have met profiles with merged slices."""
    assert sum(_random_ops(m, levels, seed) for seed in range(25)) > 0


def test_a_boundary_between_equal_slices_is_merged_away():
    """Two jobs back to back on the same processors leave no boundary between them; an early end brings back the
    one where the free set changes.  A search then gets the reference's answer on both forms."""
    plat = Platform(130, (1, 2, 10, 130))
    choose = Allocator(plat, "plat").from_bits
    words, ints = WordProfile(130), Profile(130)
    ids = list(range(10))
    for start in (0, 10):
        words.occupy(start, start + 10, words.procs(ids), 10)
        ints.occupy(start, start + 10, ints.procs(ids), 10)
    assert ints.times == [0, 10, 20] and words.times.tolist() == [0, 20]
    _same(words, ints)
    words.release(15, 20, words.procs(ids), 10)
    ints.release(15, 20, ints.procs(ids), 10)
    assert words.times.tolist() == [0, 15]
    _same(words, ints)
    got, want = words.find(125, 3, choose), ints.find(125, 3, choose)
    assert got[0] == want[0] == 15 and list(got[1]) == list(want[1])


@pytest.mark.parametrize("variant", ["basic", "becont", "cont", "beloc", "loc", "beplat", "plat"])
@pytest.mark.parametrize("m, levels", [(200, (1, 2, 10, 200)), (256, (1, 4, 16, 256))])
def test_conservative_on_both_profiles_on_random_workloads(variant, m, levels):
    """Clusters of 20 (the general rules) and of 16 (clusters inside words: loc's search keeps its cluster counts
    word by word)."""
    for seed in range(8):
        inst = random_workload(40, m, levels, horizon=60, max_run=15, seed=500 + seed)
        options = ConservativeOptions(allocation=variant, penalty="exponential", reassign=seed % 4 != 3)
        a = simulate_conservative(inst, options, compiled=True).schedule(with_reservations=True).to_dict()
        b = simulate_conservative(inst, options, compiled=False).schedule(with_reservations=True).to_dict()
        assert a == b


@pytest.mark.parametrize(
    "path, jobs",
    [(KTH_EXCERPT, None), (CURIE_EXCERPT, 2000), (EXCERPTS / "RICC-2010-2-first300.swf.gz", None)],
)
def test_conservative_on_both_profiles_on_the_first_jobs_of_a_trace(path, jobs):
    """The settings of the suite batch-traces (beplat, reassignment, exponential penalty F = 2); the repository's
    KTH cut (1,913 jobs kept), the first 2,000 Curie jobs (of the excerpt's 3,000 lines) and the RICC excerpt."""
    inst = first_jobs(trace_instance(read_trace(path)), jobs)
    options = ConservativeOptions(allocation="beplat", penalty="exponential", factor=2.0, reassign=True)
    a = simulate_conservative(inst, options, compiled=True).schedule(with_reservations=True).to_dict()
    b = simulate_conservative(inst, options, compiled=False).schedule(with_reservations=True).to_dict()
    assert len(a["jobs"]) == inst.n and a == b


@pytest.mark.parametrize(
    "m, levels",
    [
        (130, (1, 2, 10, 130)),
        (240, (1, 2, 6, 24, 240)),
        (512, (1, 8, 512)),
        (1024, (1, 2, 64, 1024)),
        (8192, (1, 2, 32, 512, 8192)),
    ],
)
@pytest.mark.parametrize("variant", ["beplat", "plat", "cont", "loc"])
def test_the_compiled_rules_choose_as_the_allocator(m, levels, variant):
    """The word profile's compiled choosers (beplat / plat taking the lowest ids, cont's first fit on a line, loc's
    fewest-clusters test) against
    Allocator.from_bits on random free sets from nearly empty to nearly full, half of them made of runs (whole
    words of ones, runs across word boundaries), and jobs from one processor to the platform."""
    rng = np.random.default_rng(m)
    allocator = Allocator(Platform(m, levels), variant)
    chooser = WordProfile(m).chooser(allocator)
    assert chooser != allocator.from_bits
    for trial in range(300):
        if trial % 2:
            lengths = rng.integers(1, rng.choice([3, 40, 200]), size=m)
            free = np.repeat(np.arange(len(lengths)) % 2 == rng.integers(2), lengths)[:m]
        else:
            free = rng.random(m) < rng.choice([0.02, 0.3, 0.9, 1.0])
        words = np.packbits(np.concatenate((free, np.zeros(-m % 64, dtype=bool))), bitorder="little").view(np.uint64)
        size = int(rng.choice([1, 2, 7, 24, 64, 65, 100, m // 3, m]))
        got, want = chooser(words, size), allocator.from_bits(words, size)
        assert (got is None) == (want is None) and (want is None or got.tolist() == list(want)), size


@pytest.mark.parametrize("m, levels", [(12, (1, 3, 12)), (256, (1, 4, 16, 256)), (1024, (1, 2, 64, 1024))])
def test_the_compiled_queue_scan_finds_the_reference_queues_movable_jobs(m, levels):
    """Random reservations, early ends and advances on both profiles, each with its queue of reserved jobs
    (hundreds of jobs: the word queue compacts its columns and its word store); at random points both queues
    must offer the same first movable job with the same processors."""
    for seed in range(6):
        _queue_scan(m, levels, seed)


def _queue_scan(m: int, levels: tuple[int, ...], seed: int) -> None:
    rng = np.random.default_rng(seed)
    allocator = Allocator(Platform(m, levels), "beplat")
    n = 400
    req = rng.integers(1, 40, n).tolist()
    size = np.minimum(rng.geometric(4 / m, n), m).tolist()
    words, ints = WordProfile(m, capacity=2), Profile(m)
    wq, iq = words.reserved_jobs(req, size), ints.reserved_jobs(req, size)
    queued: dict[int, tuple[int, np.ndarray]] = {}
    for j in range(n):
        start, ids = ints.find(size[j], req[j], allocator.from_bits)
        words.occupy(start, start + req[j], words.procs(ids), size[j])
        ints.occupy(start, start + req[j], ints.procs(ids), size[j])
        wq.add(j, start, words.procs(ids))
        iq.add(j, start, ints.procs(ids))
        queued[j] = (start, np.asarray(ids))
        if rng.random() < 0.5:  # a queued job ends early or leaves: its reservation is freed from a random time on
            k = int(rng.choice(list(queued)))
            s, kids = queued.pop(k)
            cut = max(int(rng.integers(s, s + req[k])), ints.now)
            words.release(cut, s + req[k], words.procs(kids), size[k])
            ints.release(cut, s + req[k], ints.procs(kids), size[k])
            wq.remove(k)
            iq.remove(k)
        if rng.random() < 0.2:
            now = ints.now + int(rng.integers(0, 5))
            words.advance(now)
            ints.advance(now)
            for k in [k for k, (s, _) in queued.items() if s < now]:  # reservations that began are not tested
                queued.pop(k)
                wq.remove(k)
                iq.remove(k)
        if rng.random() < 0.5:
            got = next(wq.movable(ints.now, words.chooser(allocator)), None)
            want = next(iq.movable(ints.now, allocator.from_bits), None)
            assert (got is None) == (want is None), (seed, j)
            if want is not None:
                assert got[0] == want[0] and got[1].tolist() == list(want[1]), (seed, j)
