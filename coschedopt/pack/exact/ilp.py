"""``ilp`` and ``ilp-cbc``: the integer linear program of Theorem 4 (section 4.3).

Unknowns, for 1 <= i, b <= n and 1 <= j <= p: x[i, j, b] in {0, 1} (task i runs in
pack b on j processors) and y[b] >= 0 (the execution time of pack b)::

    minimise   sum_b y[b]
    (i)    sum_{j,b} x[i, j, b]     = 1      1 <= i <= n
    (ii)   sum_{i,j} x[i, j, b]     <= k     1 <= b <= n
    (iii)  sum_{i,j} j x[i, j, b]   <= p     1 <= b <= n
    (iv)   x[i, j, b] t(i, j)       <= y[b]  1 <= i, b <= n, 1 <= j <= p

n^2 p binaries and n^2 p + n (n + 2) constraints.  The paper's y_b are "rational";
y[b] >= 0 is stated explicitly (the proof's "y_b = 0 if there are no tasks in pack b"),
otherwise an empty pack would make the program unbounded.

``ilp`` declares the program in Pyomo and solves it with HiGHS through Pyomo's
``pyomo.contrib.solver`` HiGHS interface (it reports the MIP dual bound on a time
limit).  ``ilp-cbc`` builds the same program in PuLP and solves it with CBC, an
independent path to cross-check the optima.

Option ``symmetry_breaking=True`` adds two families of valid cuts that label each pack
by its lowest task (any co-schedule can be relabelled so, hence the optimum is unchanged):

    (s1)  x[i, j, b] = 0                              for i < b   (task i only in packs b <= i)
    (s2)  sum_j x[i, j, b] <= sum_j x[b, j, b]        for i > b   (pack b is used only if task b opens it)
"""

from __future__ import annotations

import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core import Deadline, MethodOptions, Result, Status, method, option, run_cbc, run_pyomo_highs, solver_result
from ..instance import PackInstance
from ..schedule import PackSchedule, pack_cost, validate_schedule
from .common import one_task_per_pack_schedule, simple_lower_bound

if TYPE_CHECKING:  # Pyomo is imported where a model is built: `coschedopt --help` does not pay for it
    import pyomo.environ as pyo

# --------------------------------------------------------------------------- model (Pyomo)


def build_theorem4_model(instance: PackInstance, *, symmetry_breaking: bool = False) -> pyo.ConcreteModel:
    """The ILP of Theorem 4 as a Pyomo model, indices 1-based as in the paper."""
    import pyomo.environ as pyo

    n, p, k = instance.n, instance.processors, instance.max_pack_size
    m = pyo.ConcreteModel(name=f"theorem4-{instance.name}")
    m.I = pyo.RangeSet(1, n)  # tasks i
    m.J = pyo.RangeSet(1, p)  # processor counts j
    m.B = pyo.RangeSet(1, n)  # packs b (at most n: one task per pack)
    m.t = pyo.Param(m.I, m.J, initialize=lambda m, i, j: float(instance.times[i - 1, j - 1]))
    m.x = pyo.Var(m.I, m.J, m.B, domain=pyo.Binary)  # x[i,j,b] = 1 iff task i is in pack b on j processors
    m.y = pyo.Var(m.B, domain=pyo.NonNegativeReals)  # y[b] = execution time of pack b

    # Minimize sum_b y_b
    m.cost = pyo.Objective(expr=sum(m.y[b] for b in m.B), sense=pyo.minimize)

    # (i) sum_{j,b} x_{i,j,b} = 1 for 1 <= i <= n: each task in exactly one pack, on one processor count
    m.one_pack_per_task = pyo.Constraint(m.I, rule=lambda m, i: sum(m.x[i, j, b] for j in m.J for b in m.B) == 1)
    # (ii) sum_{i,j} x_{i,j,b} <= k for 1 <= b <= n: at most k tasks per pack
    m.at_most_k_tasks = pyo.Constraint(m.B, rule=lambda m, b: sum(m.x[i, j, b] for i in m.I for j in m.J) <= k)
    # (iii) sum_{i,j} j x_{i,j,b} <= p for 1 <= b <= n: at most p processors per pack
    m.at_most_p_processors = pyo.Constraint(m.B, rule=lambda m, b: sum(j * m.x[i, j, b] for i in m.I for j in m.J) <= p)
    # (iv) x_{i,j,b} t_{i,j} <= y_b for 1 <= i, b <= n, 1 <= j <= p: a pack lasts as long as its longest task
    m.pack_time = pyo.Constraint(m.I, m.J, m.B, rule=lambda m, i, j, b: m.x[i, j, b] * m.t[i, j] <= m.y[b])

    if symmetry_breaking:
        # (s1) task i only in packs b <= i
        for i in m.I:
            for j in m.J:
                for b in m.B:
                    if b > i:
                        m.x[i, j, b].fix(0)
        # (s2) pack b holds task i > b only if task b is in pack b (pack b is labelled by its lowest task)
        m.pack_opened_by_lowest = pyo.Constraint(
            [(i, b) for i in m.I for b in m.B if i > b],
            rule=lambda m, i, b: sum(m.x[i, j, b] for j in m.J) <= sum(m.x[b, j, b] for j in m.J),
        )
    return m


def _decode(instance: PackInstance, x: np.ndarray) -> PackSchedule | None:
    """Schedule from x values (n x p x n array, 0-based), ``None`` if they do not form a valid one.

    Each task goes to its (j, b) with the largest x (the one above 0.5 for an integral solution).
    """
    n = instance.n
    packs: dict[int, list[tuple[int, int]]] = {}
    for i in range(n):
        flat = int(np.argmax(x[i]))
        j, b = divmod(flat, n)
        if x[i, j, b] <= 0.5:
            return None
        packs.setdefault(b, []).append((i, j + 1))
    schedule = PackSchedule.from_indices(instance, [packs[b] for b in sorted(packs)])
    try:
        validate_schedule(instance, schedule)
    except ValueError:
        return None
    return schedule


def _finish(
    instance: PackInstance,
    schedule: PackSchedule | None,
    status: Status,
    bound: float | None,
    stats: dict[str, Any],
    what: str,
) -> Result:
    """The Result of an ILP solve whose solver run ended with ``status`` (:func:`~coschedopt.core.solver_result`).

    The family's own schedule is one task per pack, kept when the solver has no incumbent or a
    worse one (the incumbent of the weak Theorem 4 relaxation often is); the bound is the larger
    of the solver's dual bound and :func:`simple_lower_bound` (the LP relaxation of Theorem 4 is
    weak: its bound is about max t / n).  Proven optimal within a requested ``mip_gap``, the bound
    stays the certified one.  ``stats`` keeps the raw ``dual_bound`` and ``simple_bound`` apart
    and says which schedule was ``returned``; the message says why the fallback was.
    """
    fallback = one_task_per_pack_schedule(instance)
    simple = simple_lower_bound(instance)
    stats["simple_bound"] = simple
    stats["dual_bound"] = None if bound is None or not math.isfinite(bound) else float(bound)
    bounds = [simple] + ([float(bound)] if bound is not None and math.isfinite(bound) else [])
    if schedule is None:
        message = f"{what}: no incumbent; returning one task per pack"
    elif pack_cost(instance, fallback) < pack_cost(instance, schedule):
        message = f"{what}: incumbent worse than one task per pack; returning one task per pack"
    else:
        message = "" if status is Status.TIME_LIMIT else f"{what}: stopped ({stats.get('termination')})"
    result = solver_result(
        status,
        schedule,
        fallback,
        partial(pack_cost, instance),
        max(bounds),
        exact=not stats.get("mip_gap"),
        stats=stats,
        message=message,
    )
    stats["returned"] = "fallback" if result.schedule is fallback else "solver"
    return result


def _printed_lower(text: str) -> float:
    """A printed lower bound rounded down by half a unit of its last printed digit (CBC prints "2.787")."""
    d = Decimal(text)
    exponent = d.as_tuple().exponent
    return float(d - Decimal(1).scaleb(exponent) / 2) if isinstance(exponent, int) else float(d)


@dataclass(frozen=True)
class ILPOptions(MethodOptions):
    """Options of the Theorem 4 ILP, with HiGHS (``ilp``) or CBC (``ilp-cbc``)."""

    symmetry_breaking: bool = option(False, "add the valid cuts (s1)-(s2) of the module docstring")
    mip_gap: float = option(0.0, "the solver's relative gap (0 = prove optimality)", min=0.0, below=1.0)


@method("pack", "ilp", exact=True, options=ILPOptions)
def solve_ilp(
    instance: PackInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: ILPOptions
) -> Result:
    """Theorem 4: the ILP of section 4.3 in Pyomo, solved by HiGHS (n^2 p binaries).

    ``symmetry_breaking`` adds the valid cuts (s1)-(s2) of the module docstring;
    ``mip_gap`` is HiGHS's relative gap (0 = prove optimality).  On a time limit the
    status is TIME_LIMIT with HiGHS's incumbent (or one task per pack if it has none or
    it is worse) and, as ``lower_bound``, HiGHS's MIP dual bound or the simple bound of
    :func:`simple_lower_bound` if larger (``stats`` has both).  HiGHS's log goes to
    stderr when ``verbose``.
    """
    symmetry_breaking, mip_gap = options.symmetry_breaking, options.mip_gap
    deadline = Deadline(time_limit)
    n, p = instance.n, instance.processors
    # HiGHS 1.15.1's symmetry detection proves a wrong optimum on this highly symmetric
    # program (interchangeable packs): on a 6-task, p = 3, k = 2 instance (the test
    # test_ilp_optimum_without_highs_symmetry_detection) it returns 186.75 as optimal
    # where the optimum is 180.16 (enumerate, branch-and-price, CBC); off, it finds 180.16
    run = run_pyomo_highs(
        lambda: build_theorem4_model(instance, symmetry_breaking=bool(symmetry_breaking)),
        deadline,
        seed=seed,
        verbose=verbose,
        rel_gap=mip_gap,
        abs_gap=0.0 if mip_gap == 0 else None,
        options={"mip_detect_symmetry": False},
    )
    stats: dict[str, Any] = {
        **run.stats,
        "binaries": n * n * p,
        "symmetry_breaking": bool(symmetry_breaking),
        "mip_gap": mip_gap,
    }
    schedule = None
    if run.has_solution:
        x = np.zeros((n, p, n))
        for (i, j, b), var in run.model.x.items():
            x[i - 1, j - 1, b - 1] = var.value or 0.0
        schedule = _decode(instance, x)
        stats["incumbent"] = run.objective
    return _finish(instance, schedule, run.status, run.bound, stats, "HiGHS")


# --------------------------------------------------------------------------- model (PuLP / CBC)


def build_theorem4_pulp(instance: PackInstance, *, symmetry_breaking: bool = False) -> tuple[Any, dict]:
    """The ILP of Theorem 4 as a PuLP problem; returns (problem, x) with x[(i, j, b)] 1-based."""
    import pulp

    n, p, k = instance.n, instance.processors, instance.max_pack_size
    t = {(i, j): float(instance.times[i - 1, j - 1]) for i in range(1, n + 1) for j in range(1, p + 1)}
    I, J, B = range(1, n + 1), range(1, p + 1), range(1, n + 1)  # noqa: E741
    prob = pulp.LpProblem("theorem4", pulp.LpMinimize)
    # PuLP >= 3.3 owns variables through prob.add_variable (LpVariable(...) is deprecated there)
    new_var = getattr(prob, "add_variable", None) or pulp.LpVariable
    x = {(i, j, b): new_var(f"x_{i}_{j}_{b}", cat=pulp.LpBinary) for i in I for j in J for b in B}
    y = {b: new_var(f"y_{b}", lowBound=0) for b in B}
    prob += pulp.lpSum(y[b] for b in B)  # minimise sum_b y_b
    for i in I:  # (i) each task in exactly one pack, on one processor count
        prob += pulp.lpSum(x[i, j, b] for j in J for b in B) == 1, f"i_{i}"
    for b in B:  # (ii) at most k tasks per pack
        prob += pulp.lpSum(x[i, j, b] for i in I for j in J) <= k, f"ii_{b}"
    for b in B:  # (iii) at most p processors per pack
        prob += pulp.lpSum(j * x[i, j, b] for i in I for j in J) <= p, f"iii_{b}"
    for i in I:  # (iv) the pack lasts as long as its longest task
        for j in J:
            for b in B:
                prob += t[i, j] * x[i, j, b] - y[b] <= 0, f"iv_{i}_{j}_{b}"
    if symmetry_breaking:
        for i in I:
            for b in B:
                if b > i:  # (s1) task i only in packs b <= i
                    for j in J:
                        prob += x[i, j, b] == 0, f"s1_{i}_{j}_{b}"
                elif i > b:  # (s2) pack b is opened by its lowest task b
                    prob += pulp.lpSum(x[i, j, b] for j in J) <= pulp.lpSum(x[b, j, b] for j in J), f"s2_{i}_{b}"
    return prob, x


def _cbc_solver(**kwargs: Any) -> Any:
    """CBC through PuLP's ``COIN_CMD``: a CBC on the PATH, else the binary bundled with PuLP.

    (``PULP_CBC_CMD`` is deprecated in PuLP 3.x; pointing ``COIN_CMD`` at the bundled
    binary runs the same solver without the warning.)
    """
    import pulp
    from pulp.apis.coin_api import PULP_CBC_CMD

    solver = pulp.COIN_CMD(**kwargs)
    if not solver.available():
        solver = pulp.COIN_CMD(path=PULP_CBC_CMD.pulp_cbc_path, **kwargs)
    if not solver.available():
        raise RuntimeError("no CBC executable found (neither on PATH nor bundled with PuLP)")
    return solver


_CBC_BOUND = re.compile(r"^Lower bound:\s*([-+0-9.eE]+)", re.MULTILINE)
_CBC_OBJ = re.compile(r"^Objective value:\s*([-+0-9.eE]+)", re.MULTILINE)
_CBC_RESULT = re.compile(r"^Result - (.*)$", re.MULTILINE)
_CBC_NODES = re.compile(r"^Enumerated nodes:\s*(\d+)", re.MULTILINE)


@method("pack", "ilp-cbc", exact=True, options=ILPOptions)
def solve_ilp_cbc(
    instance: PackInstance, *, time_limit: float | None, seed: int | None, verbose: bool, options: ILPOptions
) -> Result:
    """Theorem 4: the same ILP built in PuLP and solved by CBC (independent cross-check of ``ilp``).

    CBC runs with its preprocessing off (see the comment in the code).  On a time limit:
    TIME_LIMIT with CBC's incumbent (or one task per pack if it has none or it is worse)
    and, as ``lower_bound``, the bound CBC prints in its log (rounded down) or the
    simple bound of :func:`simple_lower_bound` if larger.  The CBC log goes to stderr
    when ``verbose``.
    """
    import pulp

    symmetry_breaking, mip_gap = options.symmetry_breaking, options.mip_gap
    deadline = Deadline(time_limit)
    n, p = instance.n, instance.processors
    with tempfile.TemporaryDirectory(prefix="coschedopt-cbc-") as tmp:
        log_path = os.path.join(tmp, "cbc.log")
        # "preprocess off": CBC 2.10's default SOS preprocessing returns wrong "optimal" answers on
        # this model (seen with symmetry_breaking, n=6 p=6 k=3: 73.54 for an optimum of 68.95;
        # coin-or/Cbc#283 "wrong optimal solution - preprocess SOS")
        status, built = run_cbc(
            lambda: build_theorem4_pulp(instance, symmetry_breaking=bool(symmetry_breaking)),
            _cbc_solver,
            deadline,
            seed=seed,
            rel_gap=mip_gap,
            options=["preprocess off"],
            log_path=log_path,
        )
        log = ""
        if os.path.exists(log_path):
            with open(log_path, encoding="utf-8", errors="replace") as fh:
                log = fh.read()
    if verbose:
        sys.stderr.write(log)
    result_line = _CBC_RESULT.search(log)
    stats: dict[str, Any] = {
        "solver": "CBC (PuLP)",
        "binaries": n * n * p,
        "symmetry_breaking": bool(symmetry_breaking),
        "mip_gap": mip_gap,
        "termination": result_line.group(1).strip() if result_line else str(status),
        "nodes": int(m.group(1)) if (m := _CBC_NODES.search(log)) else None,
    }
    schedule = None
    if built is not None and built[0].sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        x = built[1]
        xv = np.zeros((n, p, n))
        for (i, j, b), var in x.items():
            xv[i - 1, j - 1, b - 1] = var.value() or 0.0
        schedule = _decode(instance, xv)
    bound = None
    if (mb := _CBC_BOUND.search(log)) is not None:
        bound = _printed_lower(mb.group(1))
    elif status is Status.OPTIMAL and (mo := _CBC_OBJ.search(log)) is not None:
        bound = _printed_lower(mo.group(1))
    return _finish(instance, schedule, status, bound, stats, "CBC")
