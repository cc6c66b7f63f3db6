"""Figures (matplotlib): one drawing per family, chosen by the instance's ``kind``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg") if not matplotlib.get_backend().lower().startswith(("module://", "nbagg", "ipympl")) else None

PLOTTERS: dict[str, Callable[..., Any]] = {}
#: figure size (inches) of a new figure for an instance of each kind
FIGSIZES: dict[str, Callable[[Any], tuple[float, float]]] = {}


def register_plotter(
    kind: str,
    func: Callable[..., Any],
    figsize: Callable[[Any], tuple[float, float]] = lambda instance: (10, 4.5),
) -> None:
    """``func(instance, schedule, ax)`` draws a schedule of ``kind``; ``figsize(instance)`` sizes a new figure."""
    PLOTTERS[kind] = func
    FIGSIZES[kind] = figsize


def plot_schedule(instance: Any, schedule: Any, target: Any = None, *, title: str | None = None) -> Any:
    """Draw ``schedule``; ``target`` is a file path (written), a matplotlib Axes, or None (new figure).

    Returns the matplotlib Figure.
    """
    import matplotlib.pyplot as plt

    kind = getattr(instance, "kind", None)
    if kind not in PLOTTERS:
        raise ValueError(f"no plot for kind {kind!r}; known: {', '.join(sorted(PLOTTERS))}")
    if target is None or isinstance(target, str | Path):
        fig, ax = plt.subplots(figsize=FIGSIZES[kind](instance))
    else:
        ax, fig = target, target.figure
    PLOTTERS[kind](instance, schedule, ax)
    if title:
        ax.set_title(title)
    if isinstance(target, str | Path):
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(target, dpi=120, bbox_inches="tight")
        plt.close(fig)
    return fig


from . import pack as _pack  # noqa: E402,F401  (registers the pack diagram)

if (Path(__file__).parent / "combos.py").exists():  # the combos drawing lands with its family
    from . import combos as _combos  # noqa: F401
