"""Figures (matplotlib): what every family's drawing shares, and nothing family-specific.

Each family draws its own schedules (``coschedopt/<family>/plot.py``) and names
the drawing in :attr:`coschedopt.core.Family.plotter`; :func:`plot_schedule`
finds it by the instance's ``kind``, creates or reuses the Axes and saves or
returns the figure.  matplotlib is imported here, never at ``import coschedopt``.
"""

from __future__ import annotations

from .figure import plot_schedule, png_bytes, save_figure

__all__ = ["plot_schedule", "png_bytes", "save_figure"]
