"""Exact methods: ``cpsat`` (any stretch limit, or CBF's rigid model) and ``milp`` (no stretch).

Both work in integer time, in units of the greatest common divisor of the durations
(:mod:`.grid`); node IDs do not change the optimum (Algorithm 1 maps any schedule
whose counts fit, when allocations need not be contiguous), so both models count nodes.
"""

from . import cpsat, milp  # noqa: F401  (register the methods)
