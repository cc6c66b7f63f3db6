"""What every problem family shares, and nothing more."""

from .backends import SolverRun, quiet_highs, run_cbc, run_cpsat, run_highs, run_pyomo_highs, solver_result
from .deadline import Deadline
from .errors import InputError, MethodRefused, refuse_unknown
from .io import (
    instance_from_dict,
    load_instance,
    load_schedule,
    read_json,
    save_instance,
    schedule_from_dict,
    write_json,
)
from .machine import available_cores
from .options import MethodOptions, NoOptions, OptionSpec, option
from .registry import (
    Family,
    Method,
    check_options,
    families,
    family_of,
    get_family,
    get_method,
    method,
    method_options,
    methods,
    objective,
    register_family,
    resolve,
    scoped_registry,
    solve,
    validate,
)
from .result import Result
from .rng import make_rng
from .status import Status

__all__ = [
    "Deadline",
    "Family",
    "InputError",
    "Method",
    "MethodOptions",
    "MethodRefused",
    "NoOptions",
    "OptionSpec",
    "Result",
    "SolverRun",
    "Status",
    "available_cores",
    "check_options",
    "families",
    "family_of",
    "get_family",
    "get_method",
    "instance_from_dict",
    "load_instance",
    "load_schedule",
    "make_rng",
    "method",
    "method_options",
    "methods",
    "objective",
    "option",
    "quiet_highs",
    "read_json",
    "refuse_unknown",
    "register_family",
    "resolve",
    "run_cbc",
    "run_cpsat",
    "run_highs",
    "run_pyomo_highs",
    "scoped_registry",
    "save_instance",
    "schedule_from_dict",
    "solve",
    "solver_result",
    "validate",
    "write_json",
]
