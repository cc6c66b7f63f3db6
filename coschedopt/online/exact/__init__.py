"""The online family's exact methods: the offline non-preemptive optimum by MILP (HiGHS) and CP-SAT (the
maxima by bisection on deadline feasibility)."""

from . import cpsat, milp  # noqa: F401  (each module registers its methods)
