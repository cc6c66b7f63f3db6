"""Test-wide fixtures (the trace helpers are in :mod:`tests.tracefiles`)."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

from coschedopt.core import scoped_registry
from coschedopt.workloads import traces
from tests.tracefiles import KTH_EXCERPT


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """With workers (``-n``) and no ``--dist`` given, distribute by ``loadgroup``: the ``xdist_group``
    marks keep the wall-clock timing tests together on one worker. Chosen here rather than in pyproject's
    ``addopts`` so that ``pytest -p no:xdist``, where ``--dist`` does not exist, still runs."""
    if config.pluginmanager.hasplugin("xdist") and config.option.numprocesses and config.option.dist == "no":
        config.option.dist = "loadgroup"


@pytest.fixture
def kth_by_name(tmp_path, monkeypatch) -> Path:
    """A trace folder where the KTH-SP2 excerpt stands under the archive's file name, named by
    ``COSCHEDOPT_TRACES``: code that finds ``kth-sp2`` by name reads the excerpt's 3,000 jobs."""
    folder = tmp_path / "traces"
    folder.mkdir()
    path = folder / traces.CATALOGUE["KTH-SP2"].file
    shutil.copyfile(KTH_EXCERPT, path)
    monkeypatch.setenv(traces.TRACES_ENV, str(folder))
    return path


@pytest.fixture
def registry():
    """Whatever the test registers (families, methods, generators, commands) is removed after it."""
    with scoped_registry():
        yield


@pytest.fixture
def probes(registry):
    """``probes(MODULE)`` imports a family's probes module for this test only: its methods are registered
    inside the test's registry scope, and a module first imported here is imported afresh by the next test."""
    loaded: list[str] = []

    def load(module: str):
        if module not in sys.modules:
            loaded.append(module)
        return importlib.import_module(module)

    yield load
    for module in loaded:
        sys.modules.pop(module, None)
