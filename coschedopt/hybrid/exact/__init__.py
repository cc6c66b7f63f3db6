"""The exact methods of the hybrid family (importing registers them)."""

from . import colgen, cpsat, enumerate, milp  # noqa: F401
