"""The nine online policies of thesis chapter 3 as registered methods.

``fcfs``, ``gspt``, ``gsrpt``, ``gspt-rd``, ``gspt-rr`` share one queue
(:mod:`.sim_common`); ``spt``, ``srpt``, ``spt-rd``, ``spt-rr`` dispatch each task
on arrival by the marginal flow (:mod:`.sim_dispatch`).  Options: ``dedicated``
(m_d, the dedicated pool), ``tau`` (RD's threshold), ``b`` and ``c`` (RR's size
ratio and probability; the method's seed drives the draws), and the settings of
the note's ambiguous points (:mod:`.rules`) with the note's defaults.  Every
result carries the six objectives, the redirections (tasks sent to the dedicated
pool), killed runs, preemptions and wasted work in ``stats``, and the certified
bound of :func:`.bounds.lower_bound`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core import MethodOptions, NoOptions, Result, Status, method, option
from ..bounds import lower_bound
from ..instance import OnlineInstance
from ..metrics import online_metrics
from ..schedule import OnlineSchedule
from .rules import POLICIES, PolicyRun
from .sim_common import simulate_common_queue
from .sim_dispatch import simulate_dispatch


@dataclass(frozen=True)
class PreemptiveOptions(MethodOptions):
    strict_preemption: bool = option(
        False, "preempt only when p_j < p_k(r_j) (default: p_j <= p_k(r_j), as in §3.4.1)", advanced=True
    )


@dataclass(frozen=True)
class ThresholdOptions(MethodOptions):
    dedicated: int = option(1, "m_d: processors of the dedicated pool (1 <= m_d < m)", min=1)
    tau: int = option(3, "τ: a running task is redirected when τ shorter tasks arrived during its run", min=1)


@dataclass(frozen=True)
class GlobalThresholdOptions(ThresholdOptions):
    count_when_idle: bool = option(
        True, "count an arrival even when an idle main processor can take it (the literal rule)", advanced=True
    )


@dataclass(frozen=True)
class RandomOptions(MethodOptions):
    dedicated: int = option(1, "m_d: processors of the dedicated pool (1 <= m_d < m)", min=1)
    b: float = option(0.02, "a task is potentially heavy if p_j >= b * p_max (the thesis fixes 0.02)", min=0.0, max=1.0)
    c: float = option(0.8, "probability of redirecting a potentially heavy task", min=0.0, max=1.0)


def simulate(instance: OnlineInstance, run: PolicyRun) -> OnlineSchedule:
    """The schedule of ``run`` on ``instance`` by the event-driven simulator of its model."""
    run.check(instance)
    return simulate_common_queue(instance, run) if run.model == "common" else simulate_dispatch(instance, run)


def policy_result(instance: OnlineInstance, run: PolicyRun) -> Result:
    """Simulate ``run`` and wrap the schedule in a Result with the six objectives in ``stats``."""
    schedule = simulate(instance, run)
    stats: dict[str, Any] = online_metrics(instance, schedule)
    stats["policy"] = run.policy
    return Result(Status.FEASIBLE, schedule, lower_bound=lower_bound(instance), stats=stats)


def _register(name: str, options: type[MethodOptions], doc: str) -> None:
    def run_policy(instance: OnlineInstance, *, time_limit, seed, verbose, options: MethodOptions) -> Result:
        return policy_result(instance, PolicyRun(name, seed=0 if seed is None else seed, **options.to_dict()))

    run_policy.__doc__ = doc
    run_policy.__name__ = run_policy.__qualname__ = name.replace("-", "_")
    dispatch = POLICIES[name][0] == "dispatch"
    prepare = "coschedopt.online.simulators.dispatch:compile_scan" if dispatch else None
    relaxation = issubclass(options, PreemptiveOptions)  # preemption is outside the exact methods' model
    method("online", name, options=options, prepare=prepare, relaxation=relaxation)(run_policy)


_DOCS = {
    "fcfs": (NoOptions, "FCFS: an idle processor takes the earliest released task of the common queue."),
    "gspt": (NoOptions, "GSPT: an idle processor takes the shortest task of the common queue."),
    "gsrpt": (PreemptiveOptions, "GSRPT: global preemptive SRPT with migration (a preemptive reference)."),
    "gspt-rd": (GlobalThresholdOptions, "GSPT-RD: GSPT, the longest running task redirected after τ shorter arrivals."),
    "gspt-rr": (RandomOptions, "GSPT-RR: GSPT, potentially heavy tasks redirected with probability c on arrival."),
    "spt": (NoOptions, "SPT: marginal-flow dispatch to per-processor queues run shortest first."),
    "srpt": (
        PreemptiveOptions,
        "SRPT: marginal-flow dispatch, per-processor preemptive SRPT (a preemptive reference).",
    ),
    "spt-rd": (ThresholdOptions, "SPT-RD: SPT, a running task redirected after τ shorter tasks joined its queue."),
    "spt-rr": (RandomOptions, "SPT-RR: SPT, potentially heavy tasks redirected with probability c on arrival."),
}
for _name in POLICIES:
    _register(_name, *_DOCS[_name])
