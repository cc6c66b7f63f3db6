"""The settings of one policy run (thesis §3.4), shared by the fast simulators and the reference.

The nine policies are combinations of a model (one common queue, or immediate
dispatch to per-processor queues), an order (FCFS, SPT, SRPT) and a redirection
rule (none, the counter τ of RD, the random rule (b, c) of RR).  The points the
thesis leaves open are settings with the family note's default:

* ``strict_preemption`` (ambiguity 1): SRPT/GSRPT preempt when p_j <= p_k(r_j)
  (§3.4.1, default) or only when p_j < p_k(r_j) (the comparator of §3.4.4); one
  setting for the preemption and for the SRPT case of the marginal flow;
* ``count_when_idle`` (ambiguity 2): GSPT-RD increments the counter of the
  longest running main-pool task even when an idle main processor can take T_j at
  once (the literal rule, default); off: no count while a main processor is free;
* the random rule's p_max is the running maximum including T_j (ambiguity 6), and
  its uniform draws are one per task, drawn up front from the seed (task j's draw is
  used only if T_j is potentially heavy), so that every implementation sees the same
  draws.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core import InputError, make_rng
from ..instance import OnlineInstance

#: the nine policies: name -> (model, order, redirection)
POLICIES: dict[str, tuple[str, str, str]] = {
    "fcfs": ("common", "fcfs", "none"),
    "gspt": ("common", "spt", "none"),
    "gsrpt": ("common", "srpt", "none"),
    "gspt-rd": ("common", "spt", "rd"),
    "gspt-rr": ("common", "spt", "rr"),
    "spt": ("dispatch", "spt", "none"),
    "srpt": ("dispatch", "srpt", "none"),
    "spt-rd": ("dispatch", "spt", "rd"),
    "spt-rr": ("dispatch", "spt", "rr"),
}
#: the policies that never preempt (kill-and-restart aside): the offline non-preemptive optimum bounds them
NON_PREEMPTIVE = tuple(name for name, (_, order, _) in POLICIES.items() if order != "srpt")


@dataclass(frozen=True)
class PolicyRun:
    """One policy with its parameters; ``dedicated`` is m_d (0 for the policies without redirection)."""

    policy: str
    dedicated: int = 0
    tau: int = 1
    b: float = 0.02
    c: float = 1.0
    seed: int = 0
    strict_preemption: bool = False
    count_when_idle: bool = True

    @property
    def model(self) -> str:
        return POLICIES[self.policy][0]

    @property
    def order(self) -> str:
        return POLICIES[self.policy][1]

    @property
    def redirection(self) -> str:
        return POLICIES[self.policy][2]

    def check(self, instance: OnlineInstance) -> None:
        """Refuse settings the instance cannot take (m_d >= m), naming the option."""
        if self.policy not in POLICIES:
            raise InputError(f"unknown policy {self.policy!r}; one of {', '.join(POLICIES)}", where="policy")
        if self.redirection == "none":
            return
        m = instance.processors
        if not 1 <= self.dedicated < m:
            raise InputError(
                f"the dedicated pool m_d must satisfy 1 <= m_d < m = {m}, got {self.dedicated}", where="dedicated"
            )
        if self.tau < 1:
            raise InputError(f"must be an integer >= 1, got {self.tau!r}", where="tau")
        if not 0.0 <= self.c <= 1.0:
            raise InputError(f"must lie in [0, 1], got {self.c!r}", where="c")
        if not 0.0 <= self.b <= 1.0:
            raise InputError(f"must lie in [0, 1], got {self.b!r}", where="b")

    def main_pool(self, m: int) -> int:
        """Processors of the main pool on m processors (the dedicated pool is the last m_d)."""
        return m - (self.dedicated if self.redirection != "none" else 0)

    def draws(self, n: int) -> np.ndarray:
        """The uniform draws of the random rule, one per task in file order."""
        return make_rng(self.seed).random(n)
