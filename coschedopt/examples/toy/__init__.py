"""``toy``: the smallest complete family, the template of ``docs/adding-a-family.md``.

Problem: n jobs of lengths v_1..v_n on one machine, in some order; minimise the
sum of completion times weighted by position from the end, which is
sum_i (i + 1) * v[order[i]] and is minimised by the non-increasing order (an
exchange argument: swapping an adjacent pair out of that order never helps).

Data flows one way: :class:`ToyInstance` -> method -> :class:`ToySchedule` ->
:func:`validate_schedule` -> :func:`toy_metrics`.  Importing this package registers
the family, its methods (``toy-exact`` in ``exact/``, ``toy-identity`` and ``toy-random`` in
``heuristics.py``), its generator (``coschedopt generate toy random``) and its suite (``toy-quick``).
"""

from ...core import Family, register_family
from .instance import ToyInstance
from .metrics import toy_metrics
from .schedule import ToySchedule, toy_objective, validate_schedule

FAMILY = register_family(
    Family(
        kind="toy",
        description="example family: order values to minimise the position-weighted sum",
        package=__name__,
        instance_from_dict=ToyInstance.from_dict,
        schedule_from_dict=ToySchedule.from_dict,
        validate=validate_schedule,
        objective=toy_objective,
        objective_name="weighted sum",
        metrics=toy_metrics,
        describe=lambda inst: {"n": inst.n, "k": inst.k},
        plotter="coschedopt.examples.toy.plot:draw_toy_schedule",
        figsize=lambda inst: (8.0, 1.6),
        examples=("random", dict(size=4, k=1)),
        breakers="coschedopt.examples.toy.schedule:BREAKERS",
    )
)

from . import exact, generate, heuristics  # noqa: E402,F401  (register the methods and the generator)

__all__ = ["FAMILY", "ToyInstance", "ToySchedule", "toy_metrics", "toy_objective", "validate_schedule"]
