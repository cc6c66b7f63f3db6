"""The figure helpers every family's drawing uses: a new or given Axes, save or return."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

from ..core import InputError, family_of, resolve
from ..core.io import check_output_file, output_error

if not matplotlib.get_backend().lower().startswith(("module://", "nbagg", "ipympl")):
    matplotlib.use("Agg")  # no screen needed; Jupyter keeps its inline backend

#: the image formats ``save_figure`` writes (what matplotlib's Agg backend knows)
IMAGE_SUFFIXES = (".png", ".svg", ".pdf", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff", ".webp")


def check_image_path(path: str | Path) -> Path:
    """Refuse, before drawing, an image path with an unknown suffix or that cannot be written."""
    path = Path(path)
    if path.is_dir():
        check_output_file(path, example="figure.png")  # raises: a directory, not a file
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise InputError(
            f"unknown image format {path.suffix or '(no suffix)'!r}; use one of {', '.join(IMAGE_SUFFIXES)}",
            where=str(path),
        )
    return check_output_file(path)


def save_figure(fig: Any, path: str | Path, *, dpi: int = 120) -> Path:
    """Write ``fig`` to ``path`` (format from the suffix) and close it; returns the path written.

    A path that cannot be written raises one :class:`InputError` naming it.
    """
    import matplotlib.pyplot as plt

    path = check_image_path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
    except OSError as exc:
        raise output_error(path, exc) from None
    finally:
        plt.close(fig)
    return path


def png_bytes(fig: Any, *, dpi: int = 110) -> bytes:
    """``fig`` as PNG bytes (for reports that embed their figures)."""
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def plot_schedule(instance: Any, schedule: Any, target: Any = None, *, title: str | None = None) -> Any:
    """Draw ``schedule`` with its family's drawing; ``target`` is a file path (written),
    a matplotlib Axes, or None (a new figure).  Returns the matplotlib Figure."""
    import matplotlib.pyplot as plt

    family = family_of(instance)
    if family.plotter is None:
        raise ValueError(f"family {family.kind!r} has no drawing")
    draw = resolve(family.plotter)
    if target is None or isinstance(target, str | Path):
        fig, ax = plt.subplots(figsize=family.figsize(instance))
    else:
        ax, fig = target, target.figure
    draw(instance, schedule, ax)
    if title:
        ax.set_title(title)
    if isinstance(target, str | Path):
        save_figure(fig, target)
    return fig
