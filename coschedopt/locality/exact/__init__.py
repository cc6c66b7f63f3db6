"""The locality family's exact methods: CP-SAT and the placement MILP (HiGHS)."""

from . import cpsat, milp  # noqa: F401  (each module registers its methods)
