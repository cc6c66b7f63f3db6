"""The hybrid heuristics: the 2-dual and 3/2-dual approximations and the greedy list heuristics HEFT and HeteroPrio."""

from . import dual, dual32, greedy  # noqa: F401  (each module registers its methods)
