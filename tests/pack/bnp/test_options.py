"""The options of branch-and-price (:mod:`coschedopt.pack.exact.bnp.options`): declared once, checked
at construction, the same object for every phase and the search's worker process."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import coschedopt as cs
from coschedopt.core import get_method
from coschedopt.pack.exact.bnp import BnpOptions

PUBLIC = {
    "gap": 0.0,
    "heuristics": True,
    "max_columns": 400_000,
    "rmp_time": 10.0,
    "cut_rounds": None,
    "pack_count_cuts": True,
    "tree": True,
    "probe_columns": 3000,
    "lns": True,
    "lns_workers": None,
    "start": None,
    "complete_master": None,
    "dominance": True,
}


def test_public_options_keep_their_names_and_defaults_and_the_knobs_are_advanced() -> None:
    specs = {s.name: s for s in BnpOptions.specs()}
    assert BnpOptions.public() == list(PUBLIC)
    for name, default in PUBLIC.items():
        assert specs[name].default == default and not specs[name].advanced
    knobs = [s for s in specs.values() if s.name not in PUBLIC]
    assert len(knobs) >= 46 and all(s.advanced and s.help for s in knobs)
    listed = {s.name for s in get_method("pack", "branch-and-price").options.specs()}
    assert listed == set(specs)


def test_values_are_checked_at_construction() -> None:
    for bad in ({"count_fraction": 0.7}, {"lns_workers": 2}, {"strong_iterations": 0}, {"lns_stages": [[1, "a"]]}):
        with pytest.raises(cs.InputError, match=next(iter(bad))):
            BnpOptions(**bad)
    with pytest.raises(cs.InputError, match="unknown option 'purge'"):
        BnpOptions.from_mapping({"purge": 1}, method="branch-and-price")
    assert BnpOptions(lns_stages=[[1, 1], [2, 3]]).lns_stages == ((1, 1), (2, 3))


def test_a_window_takes_the_public_defaults_and_keeps_the_knobs() -> None:
    opts = BnpOptions(gap=0.1, probe_columns=0, max_columns=7, lns_tasks=9, purge_to=11, complete_master_max=0)
    sub = opts.for_window()
    for name, default in PUBLIC.items():
        want = {"heuristics": False, "rmp_time": 1.0, "lns": False}.get(name, default)
        assert getattr(sub, name) == want
    for f in dataclasses.fields(opts):
        if f.name not in PUBLIC:
            assert getattr(sub, f.name) == getattr(opts, f.name)


def test_the_worker_process_receives_the_same_object() -> None:
    opts = BnpOptions(lns_tasks=7, lns_stages=((1, 1),), strong_iterations=50)
    assert pickle.loads(pickle.dumps(opts)) == opts
