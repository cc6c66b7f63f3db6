"""coschedopt: exact solvers and the published heuristics for co-scheduling parallel applications.

>>> import coschedopt as cs
>>> inst = cs.load_instance("inst.json")
>>> res = cs.solve(inst, method="enumerate", time_limit=60)
>>> cs.validate(inst, res.schedule)
"""

import importlib

from .core import (
    InputError,
    Result,
    Status,
    families,
    instance_from_dict,
    load_instance,
    load_schedule,
    methods,
    objective,
    save_instance,
    solve,
    validate,
)

#: the problem families shipped with the toolkit; importing one registers it
FAMILIES = ("pack", "combos", "hybrid", "locality", "batch", "online", "evolving")

for _family in FAMILIES:
    importlib.import_module(f"{__name__}.{_family}")

from . import bench  # noqa: E402, F401  (after the families: the benchmark harness, `coschedopt bench`)
from .workloads import commands as _traces_command  # noqa: E402, F401  (`coschedopt traces`)
from .workloads import traces  # noqa: E402  (coschedopt.traces.fetch / .list)

__version__ = "0.1.0"

__all__ = [
    "FAMILIES",
    "InputError",
    "Result",
    "Status",
    "families",
    "instance_from_dict",
    "load_instance",
    "load_schedule",
    "methods",
    "objective",
    "save_instance",
    "solve",
    "traces",
    "validate",
]
