"""The exact methods of the hybrid family (importing registers them)."""

from . import cpsat, enumerate, milp  # noqa: F401
