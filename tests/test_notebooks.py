"""The notebooks of notebooks/ are committed executed, and re-executing each one reproduces it.

A reader of the repository sees each notebook's tables and figures, so each is committed with its
outputs, written by ``python -m tests.notebookrun`` (:mod:`tests.notebookrun`: executed in a scratch
folder on the shipped trace excerpts, volatile metadata dropped, ``nbformat``'s JSON layout, figures
in 256 colours).  Without executing anything, the committed file must be exactly what that command
writes, with every code cell executed in order and at least one figure.

The slow test re-executes each notebook the same way and compares it with the committed one, cell
by cell, loosely: a cell's outputs must be the same sequence of

- standard output, as text with every number replaced by ``#`` and runs of white space by one
  space: the labels, statuses, method names and table layout must agree, while run times and
  whatever a solver's or library's version moves by a last digit may change;
- rich outputs by kind and MIME types (a cell that drew a PNG draws one again), not by bytes;
- errors by name (there must be none).

Standard error is left out: it tells how the run went (numba kernels compiled once per install, a
search's progress), not what the notebook shows.  A notebook whose code, or whose library, changes
what it prints or draws fails here until it is re-executed and committed again.
"""

from __future__ import annotations

import base64
import io
import re

import nbformat
import pytest
from PIL import Image

from tests.notebookrun import execute, notebooks, text

NOTEBOOKS = notebooks()
REFRESH = "re-execute it with `python -m tests.notebookrun NAME` and commit it"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def signature(cell: nbformat.NotebookNode) -> list[tuple]:
    """What a re-execution of the code ``cell`` must repeat of its outputs (see the module docstring)."""
    out: list[tuple] = []
    for output in cell.outputs:
        if output.output_type == "stream":
            if output.name == "stdout":
                out.append(("stdout", " ".join(NUMBER.sub("#", output.text).split())))
        elif output.output_type == "error":
            out.append(("error", output.ename))
        else:
            out.append((output.output_type, tuple(sorted(output.data))))
    return out


def pngs(nb: nbformat.NotebookNode) -> list[bytes]:
    return [
        base64.b64decode(output.data["image/png"])
        for cell in nb.cells
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]


def code_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def test_the_pack_notebook_is_there():
    assert "pack-scheduling.ipynb" in {nb.name for nb in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_executed_with_figures(path):
    committed = path.read_text(encoding="utf-8")
    nb = nbformat.reads(committed, as_version=4)
    nbformat.validate(nb)
    assert committed == text(nb), f"{path.name} is not in nbformat's layout: {REFRESH}"
    assert "version" not in nb.metadata.get("language_info", {}), f"{path.name} names its kernel's version"
    assert not [c for c in nb.cells if "execution" in c.metadata], f"{path.name} records execution timings"
    counts = [cell.execution_count for cell in code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), f"{path.name} was not executed top to bottom: {REFRESH}"
    outputs = [o for cell in code_cells(nb) for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"], f"{path.name} is committed with an error"
    figures = pngs(nb)
    assert figures, f"{path.name} is committed without a figure"
    assert all(Image.open(io.BytesIO(png)).mode == "P" for png in figures), f"full-colour PNGs: {REFRESH}"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_reexecutes_like_the_committed_one(path, tmp_path):
    committed = nbformat.read(path, as_version=4)
    rerun = execute(nbformat.read(path, as_version=4), tmp_path)
    outputs = [o for cell in code_cells(rerun) for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"], f"{path.name} raises"
    assert pngs(rerun), f"{path.name} draws nothing"
    pairs = list(zip(code_cells(committed), code_cells(rerun), strict=True))
    unexecuted = [i for i, (old, new) in enumerate(pairs) if signature(new) and not old.outputs]
    assert not unexecuted, f"{path.name}: code cells {unexecuted} print or draw but are committed without output"
    for i, (old, new) in enumerate(pairs):
        assert signature(new) == signature(old), f"{path.name}, code cell {i}: outputs changed; {REFRESH}"
