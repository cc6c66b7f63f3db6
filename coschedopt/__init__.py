"""coschedopt: exact solvers and the published heuristics for co-scheduling parallel applications.

>>> import coschedopt as cs
>>> inst = cs.load_instance("inst.json")
>>> res = cs.solve(inst, method="enumerate", time_limit=60)
>>> cs.validate(inst, res.schedule)
>>> cs.options("pack", "pack-by-pack-1")  # a method's options: name, type, default, meaning

The problem families are plug-ins (entry-point group ``coschedopt.plugins``, the
toolkit's seven included), imported on first use of the registry: ``import
coschedopt`` loads none of them.
"""

from . import bench  # noqa: F401  (registers `coschedopt bench`; the harness itself loads on use)
from .core import (
    InputError,
    Result,
    Status,
    families,
    instance_from_dict,
    load_instance,
    load_schedule,
    method,
    methods,
    objective,
    register_family,
    save_instance,
    solve,
    validate,
)
from .core.commands import register_generator
from .core.registry import method_options as options
from .workloads import commands as _traces_command  # noqa: F401  (registers `coschedopt traces`)
from .workloads import traces  # coschedopt.traces.fetch / .list

__version__ = "0.1.0"

__all__ = [
    "InputError",
    "Result",
    "Status",
    "families",
    "instance_from_dict",
    "load_instance",
    "load_schedule",
    "method",
    "methods",
    "objective",
    "options",
    "register_family",
    "register_generator",
    "save_instance",
    "solve",
    "traces",
    "validate",
]
