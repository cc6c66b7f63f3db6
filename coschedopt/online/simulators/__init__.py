"""The nine online policies as event-driven simulators: the common queue, per-processor dispatch, redirection rules."""

from . import policies  # noqa: F401  (each module registers its methods)
