"""The online family's exact methods: the offline non-preemptive optimum by MILP (HiGHS) and CP-SAT (the
maxima by bisection on deadline feasibility), and the sums and L2 norms by the time-indexed LP with
reduced-cost fixing (``lpfix``)."""

from . import cpsat, lpfix, milp  # noqa: F401  (each module registers its methods)
