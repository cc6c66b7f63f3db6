"""The exact method of the combos family: LP (2) over the allowed combinations."""

from . import lp  # noqa: F401  (each module registers its methods)
