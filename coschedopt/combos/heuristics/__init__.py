"""The combos heuristics: FCS (knows every speed) and the online searches PI, EI, UCB (learn them)."""

from . import fcs, search  # noqa: F401  (each module registers its methods)
