"""The locality family's exact methods: CP-SAT, the bar decomposition (CP-SAT master and slave) and the
placement MILP (HiGHS)."""

from . import benders, cpsat, milp  # noqa: F401  (each module registers its methods)
