"""The batch simulators: FCFS and EASY (one queue, :mod:`.queue`) and conservative backfilling
(:mod:`.conservative`), with processor identities and the allocation variants."""

from . import conservative, queue  # noqa: F401  (each module registers its methods)
