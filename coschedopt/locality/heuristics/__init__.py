"""The locality heuristics: list scheduling (plain and RCS) and NFDH + list scheduling."""

from . import listsched, nfdh  # noqa: F401  (each module registers its methods)
