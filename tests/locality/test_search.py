"""The worst-case ratio search: it rediscovers the tight ratio 2 of Theorems 2 and 3, its moves stay in
the search space, and the command writes records that reproduce."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coschedopt.cli import main
from coschedopt.core import InputError, make_rng
from coschedopt.locality import LocalityInstance
from coschedopt.locality.ratio_search import (
    SearchSpace,
    _neighbour,
    _random_instance,
    enumerate_instances,
    record_slug,
    search_worst_ratios,
)
from coschedopt.locality.ratios import RATIOS, constraint_ratios

TINY = SearchSpace(max_jobs=4, max_time=2, max_clusters=2, max_cluster_size=3, enum_jobs=3, enum_time=1)


@pytest.mark.slow
def test_the_search_rediscovers_2_for_the_tight_theorems():
    result = search_worst_ratios(("C^L/C", "C^{C+L}/C^C"), seconds=6, space=TINY, enumerate_share=0.9)
    for name in ("C^L/C", "C^{C+L}/C^C"):
        rec = result.records[name]
        assert rec.value == 2
        again = constraint_ratios(rec.instance)  # the record reproduces
        assert again.ratio(name) == 2
    assert "| C^L/C | [2, 2] | 2 = 2.0000 |" in result.table()


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(list(RATIOS)))
def test_random_instances_and_moves_stay_in_the_search_space(seed, ratio):
    rng = make_rng(seed)
    space = SearchSpace(max_jobs=5, max_time=4, max_clusters=3, max_cluster_size=3, max_flat_processors=6)
    inst = _random_instance(rng, space, ratio)
    for _ in range(10):
        inst = _neighbour(rng, inst, space, ratio)
        assert 2 <= inst.n <= space.max_jobs
        assert all(1 <= t <= space.max_time for t in inst.times)
        if inst.clusters == 1:  # contiguity alone: C^C/C always, C^{C+L}/C^L half of the time
            assert ratio in ("C^C/C", "C^{C+L}/C^L") and 4 <= inst.processors <= space.max_flat_processors
        else:
            assert ratio != "C^C/C" and 2 <= inst.clusters <= space.max_clusters
            assert inst.fits_clusters and inst.cluster_size <= space.max_cluster_size


def test_enumeration_lists_each_job_multiset_once_fewest_jobs_first():
    insts = list(enumerate_instances(4, 2, max_jobs=3, max_time=1))
    keys = [tuple(sorted((j.time, j.size) for j in i.jobs)) for i in insts]
    assert len(keys) == len(set(keys)) == 3 + 4  # sizes {1, 2}: 3 pairs, 4 triples
    assert [i.n for i in insts] == sorted(i.n for i in insts)


@pytest.mark.slow
def test_the_command_prints_the_table_and_saves_records_that_reproduce(tmp_path, capsys):
    argv = ["locality", "search", "--seconds", "4", "--ratio", "C^L/C", "--max-jobs", "4", "--max-time", "2"]
    argv += ["--max-clusters", "2", "--max-cluster-size", "3", "--save", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "| C^L/C | [2, 2] |" in out.out and "instances solved exactly" in out.err
    data = json.loads((tmp_path / f"{record_slug('C^L/C')}.json").read_text())
    assert data["ratio"] == "C^L/C" and data["found_by"].startswith("coschedopt locality search --seconds 4")
    inst = LocalityInstance.from_dict(data["instance"])
    assert str(constraint_ratios(inst).ratio("C^L/C")) == data["value"]


def test_record_slugs_are_file_names():
    assert [record_slug(r) for r in RATIOS] == ["CC-over-C", "CL-over-C", "CCL-over-CC", "CCL-over-CL", "CCL-over-C"]


def test_bad_search_arguments_are_refused(capsys):
    with pytest.raises(InputError, match="unknown ratio"):
        search_worst_ratios(("C^X/C",), seconds=1)
    with pytest.raises(InputError, match="seconds must be > 0"):
        search_worst_ratios(seconds=0)
    assert main(["locality", "search", "--max-jobs", "1"]) == 2
    assert "--max-jobs: must be at least 2" in capsys.readouterr().err


def test_records_on_one_cluster_count_for_both_contiguity_ratios():
    from coschedopt.locality import make_instance
    from coschedopt.locality.ratio_search import _cross_offer, _Elites, _Evaluator

    inst = make_instance([(4, 3), (2, 2), (3, 1), (2, 1), (3, 3), (3, 2), (4, 1), (4, 3)], 6, 1)  # C = 9, C^C = 10
    elites = {"C^C/C": _Elites(), "C^{C+L}/C^L": _Elites()}
    elites["C^{C+L}/C^L"].offer(_Evaluator(2.0).ratio(inst, "C^{C+L}/C^L"))
    _cross_offer(elites, 2.0)
    assert elites["C^C/C"].best.value == elites["C^{C+L}/C^L"].best.value == Fraction(10, 9)


def test_a_ratio_at_its_proven_bound_is_closed_and_the_search_stops():
    result = search_worst_ratios(("C^{C+L}/C^C",), seconds=30, space=TINY, enumerate_share=0.1)
    assert result.records["C^{C+L}/C^C"].value == 2 and result.stopped_by == "closed"
