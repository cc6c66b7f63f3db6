"""coschedopt: exact solvers and the published heuristics for co-scheduling parallel applications.

>>> import coschedopt as cs
>>> inst = cs.load_instance("inst.json")
>>> res = cs.solve(inst, method="enumerate", time_limit=60)
>>> cs.validate(inst, res.schedule)
"""

from . import combos  # noqa: F401, I001  (ruff would merge the two family imports into one)
from . import pack  # noqa: F401  (each family registers itself on import)
from . import bench  # noqa: F401, I001  (after the families: the benchmark harness, `coschedopt bench`)
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

__version__ = "0.1.0"

__all__ = [
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
    "validate",
]
