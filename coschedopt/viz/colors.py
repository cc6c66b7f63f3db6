"""One colour per method across every figure of a report.

A reader matches a line of one figure with a bar of another by its colour, so a
method must keep its colour in every figure of a report: the harness's metric
panels and each family's own figures alike.  :class:`MethodColors` gives the
colours in order of first sight from the report's ordered list of method labels
(the suites' declaration order); a label not in that list gets the next free
colour the first time a figure asks for it, and keeps it.

The report (``bench report``) makes the map active with :func:`report_colors`
while it builds its sections; a family's figure asks :func:`current_colors`
for it, so no family imports the harness and no report function changes its
signature.  Outside a report, :func:`current_colors` gives a new map: one
figure's colours are then consistent with themselves only.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterable, Iterator

#: matplotlib's "tab10", in its order: ten colours that stay apart in print and for most colour-blind readers
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


class MethodColors:
    """Label -> colour, fixed once given: the ``i``-th label seen gets ``PALETTE[i % 10]``."""

    def __init__(self, labels: Iterable[str] = ()) -> None:
        self._colors: dict[str, str] = {}
        self.extend(labels)

    def extend(self, labels: Iterable[str]) -> None:
        """Give each of ``labels`` not seen yet the next colour, in order."""
        for label in labels:
            if label not in self._colors:
                self._colors[label] = PALETTE[len(self._colors) % len(PALETTE)]

    def __getitem__(self, label: str) -> str:
        self.extend([label])
        return self._colors[label]

    def __contains__(self, label: object) -> bool:
        return label in self._colors

    def as_dict(self) -> dict[str, str]:
        return dict(self._colors)


_ACTIVE: contextvars.ContextVar[MethodColors | None] = contextvars.ContextVar("coschedopt_report_colors", default=None)


@contextlib.contextmanager
def report_colors(labels: Iterable[str]) -> Iterator[MethodColors]:
    """Make the colour map of ``labels`` (in order) the one every figure drawn inside the block uses."""
    colors = MethodColors(labels)
    token = _ACTIVE.set(colors)
    try:
        yield colors
    finally:
        _ACTIVE.reset(token)


def current_colors() -> MethodColors:
    """The active report's colour map, or a new one outside a report."""
    return _ACTIVE.get() or MethodColors()
