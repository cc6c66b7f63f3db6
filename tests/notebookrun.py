"""Executing the notebooks of ``notebooks/`` the one way that the committed outputs and the tests share.

The notebooks are committed executed, so that a reader of the repository sees their tables and
figures; ``tests/test_notebooks.py`` re-executes each one and compares it with the committed file.
Both go through :func:`execute`, so that what is committed is what the tests reproduce:

- the kernel runs in a scratch folder, so nothing a notebook writes lands in the repository;
- ``COSCHEDOPT_TRACES`` names an empty folder, so that a notebook that reads a whole trace when one
  is cached (online-redirection) reads the excerpt that ships with the toolkit on every machine,
  CI's too (CI's ``COSCHEDOPT_TRACES`` holds the whole logs);
- ``COSCHEDOPT_NO_PLUGINS`` is set: a notebook shows what a user of the toolkit alone sees, not the
  methods of a plug-in installed beside it (the example plug-in, in a development venv);
- ``MATPLOTLIBRC`` names ``notebooks/matplotlibrc`` (a modest figure dpi keeps the committed PNGs
  small); Jupyter started in ``notebooks/`` reads the same file from its working folder;
- consecutive stream outputs are merged (how a cell's prints are split depends on when the kernel
  flushed), and no execution timings are recorded.

:func:`normalise` drops what still changes from one run to the next without changing a result (the
kernel's Python version) and :func:`write` writes ``nbformat``'s JSON layout, so that
re-executing an unchanged notebook changes little more than its printed run times (matplotlib draws the same PNG
bytes again, unless its version changed);
:func:`shrink_figures` re-encodes the committed PNGs in 256 colours, which look the same in a fraction of the bytes.

Re-execute notebooks and write them back (all of them, or those named)::

    .venv/bin/python -m tests.notebookrun [pack-scheduling ...]
"""

from __future__ import annotations

import base64
import io
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
#: the figure settings of the notebooks (read by Jupyter from its working folder, by :func:`execute` by name)
MATPLOTLIBRC = NOTEBOOK_DIR / "matplotlibrc"


def notebooks() -> list[Path]:
    """The notebooks of ``notebooks/``, by name."""
    return sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def execute(nb: nbformat.NotebookNode, workdir: Path, *, timeout: int = 600) -> nbformat.NotebookNode:
    """Execute ``nb`` in place, top to bottom, in the folder ``workdir`` (see the module docstring)."""
    no_traces = workdir / "no-traces"
    no_traces.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "COSCHEDOPT_TRACES": str(no_traces),
        "COSCHEDOPT_NO_PLUGINS": "1",
        "MATPLOTLIBRC": str(MATPLOTLIBRC),
    }
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
        coalesce_streams=True,
        record_timing=False,
    )
    client.execute(env=env)
    return normalise(nb)


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` without the metadata that changes between runs of the same notebook (in place)."""
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    return nb


def shrink_figures(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with every PNG output re-encoded in 256 colours (in place).

    A figure drawn by matplotlib on its opaque white background uses few colours besides the
    anti-aliasing shades, so its 256-colour palette image looks the same and takes a fraction of the bytes
    of matplotlib's RGBA PNG: the committed notebooks, and every re-commit of them, stay small.
    """
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            png = output.get("data", {}).get("image/png")
            if png is None:
                continue
            image = Image.open(io.BytesIO(base64.b64decode(png)))
            if image.mode == "P":
                continue
            buffer = io.BytesIO()
            image.convert("RGB").quantize(256).save(buffer, format="png", optimize=True)
            output.data["image/png"] = base64.b64encode(buffer.getvalue()).decode("ascii")
    return nb


def text(nb: nbformat.NotebookNode) -> str:
    """The file contents :func:`write` gives ``nb``."""
    s = nbformat.writes(nb)
    return s if s.endswith("\n") else s + "\n"


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    """Write ``nb`` to ``path`` in ``nbformat``'s layout, after validating it."""
    nbformat.validate(nb)
    path.write_text(text(nb), encoding="utf-8")


def refresh(path: Path) -> None:
    """Re-execute the notebook at ``path`` in a scratch folder and write it back with its outputs,
    its figures in 256 colours."""
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="coschedopt-notebook-") as scratch:
        execute(nb, Path(scratch))
    write(shrink_figures(nb), path)


def main(names: list[str]) -> None:
    paths = [NOTEBOOK_DIR / f"{Path(n).stem}.ipynb" for n in names] or notebooks()
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        sys.exit(f"no notebook {', '.join(missing)} in {NOTEBOOK_DIR}")
    for path in paths:
        print(f"executing {path.name}", flush=True)
        refresh(path)


if __name__ == "__main__":
    main(sys.argv[1:])
