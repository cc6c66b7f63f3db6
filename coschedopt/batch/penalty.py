"""The communication penalty of thesis §5.3.4 and the kill at the requested time.

A job placed at platform level L when it could have used L_min runs for
T' = T (1 + R F) (``linear``, Eq. 5.1) or T' = T F^R (``exponential``, Eq. 5.2,
the thesis's "quadratic", which is exponential in R), with R = L − L_min; T' is
rounded up to whole seconds (SWF's unit).  A job whose T' exceeds its requested
(wall) time is killed at the wall time and counted as failed; so is a job whose
own run time already exceeds it, with any penalty.
"""

from __future__ import annotations

import math

PENALTIES = ("none", "linear", "exponential")


def penalised_duration(
    run_time: int, extra_levels: int, requested_time: int, penalty: str, factor: float
) -> tuple[int, bool]:
    """(seconds the job occupies its processors, whether it failed) for R = ``extra_levels``."""
    if penalty == "none" or extra_levels == 0:
        t = run_time
    elif penalty == "linear":
        t = math.ceil(run_time * (1.0 + extra_levels * factor) - 1e-9)
    else:
        t = math.ceil(run_time * factor**extra_levels - 1e-9)
    return (requested_time, True) if t > requested_time else (t, False)
