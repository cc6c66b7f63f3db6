"""A schedule of length <= T by local search over machine loads: the primal side of ``colgen``.

(Pm, Pk)||Cmax with many tasks per machine behaves like bin packing with small items:
where a capacity T is feasible at all, finding a schedule of length T is a matter of
balancing the loads to the unit.  The search (:func:`balance`)
minimises the total overload sum_u max(0, L_u - T) over the m + k machines (task j
costs p_j on a CPU, q_j on a GPU), by steepest descent over two neighbourhoods taken
from the most loaded machine u: moving one of its tasks to another machine, and
swapping one of its tasks with a task of another machine (every pair at once, one
numpy expression; O(n_u n) per step).  Ties in overload are broken by the smaller
sum of squared loads, which spreads the load and opens room for the next move
(the usual balancing move of P||Cmax local search, e.g. Dell'Amico and Martello's
exchange heuristics, INFORMS J. Comput. 7(2), 1995).  When no step improves, a kick
moves a random task of the most loaded machine to a random machine.

Where it stalls a unit or two above T, :func:`repack` re-packs the most loaded machine
with a few others exactly by CP-SAT (a large neighbourhood of whole machines).

Complexity: O(n_u n) numpy work per step for n_u tasks on the most loaded machine; a
repacking round is one CP-SAT model of (tasks on the group) x (group size) booleans.
"""

from __future__ import annotations

import numpy as np

from ...core import Deadline, Status, run_cpsat


def _costs_and_loads(
    p: np.ndarray, q: np.ndarray, cpus: int, gpus: int, machine: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cost[u, j], task j's integer time on machine u; a copy of ``machine``; the loads)."""
    p, q = np.asarray(p, dtype=np.int64), np.asarray(q, dtype=np.int64)
    machines = cpus + gpus
    cost = np.where((np.arange(machines) < cpus)[:, None], p[None, :], q[None, :])
    machine = np.asarray(machine, dtype=np.int64).copy()
    return cost, machine, _loads(cost, machine)


def _loads(cost: np.ndarray, machine: np.ndarray) -> np.ndarray:
    return np.bincount(machine, weights=cost[machine, np.arange(machine.size)], minlength=cost.shape[0]).astype(
        np.int64
    )


def balance(
    p: np.ndarray,
    q: np.ndarray,
    cpus: int,
    gpus: int,
    T: int,
    machine: np.ndarray,
    deadline: Deadline,
    rng: np.random.Generator,
    max_steps: int = 200_000,
    closest: list[np.ndarray] | None = None,
) -> np.ndarray | None:
    """Machines 0..cpus-1 are the CPUs, cpus..cpus+gpus-1 the GPUs; ``machine[j]`` is task j's
    machine at the start.  Returns an assignment whose loads are all <= ``T`` (integer
    times), or ``None`` when the deadline or ``max_steps`` comes first; then ``closest``
    (a list, if given) receives the assignment of least total overload seen."""
    cost, machine, load = _costs_and_loads(p, q, cpus, gpus, machine)
    machines = cpus + gpus
    if machines == 1:
        return machine if load.max() <= T else None

    def over(x: np.ndarray) -> np.ndarray:
        return np.maximum(x - T, 0)

    least = None
    for step in range(max_steps):
        if load.max() <= T:
            return machine
        total = int(over(load).sum())
        if least is None or total < least[0]:
            least = (total, machine.copy())
        if step % 64 == 0 and deadline.expired():
            break
        u = int(np.argmax(load))
        mine = np.flatnonzero(machine == u)
        here = cost[u, mine]
        # moves: task a of u to machine v
        lu_after = load[u] - here  # (a,)
        lv_after = load[None, :] + cost[:, mine].T  # (a, v)
        gain = (over(load[u]) - over(lu_after))[:, None] + over(load)[None, :] - over(lv_after)
        square = (load[u] ** 2 - lu_after**2)[:, None] + load[None, :] ** 2 - lv_after**2
        gain[:, u], square[:, u] = -1, -1
        a, v = np.unravel_index(np.lexsort((-square.ravel(), -gain.ravel()))[0], gain.shape)
        best = (int(gain[a, v]), int(square[a, v]))
        choice = ("move", int(mine[a]), int(v), -1)
        # swaps: task a of u with task b of machine v = machine[b] != u
        others = np.flatnonzero(machine != u)
        if others.size:
            vb = machine[others]
            nu = load[u] - here[:, None] + cost[u, others][None, :]  # (a, b)
            nv = load[vb][None, :] - cost[vb, others][None, :] + cost[vb[None, :], mine[:, None]]
            sgain = over(load[u]) + over(load[vb])[None, :] - over(nu) - over(nv)
            ssq = load[u] ** 2 + (load[vb] ** 2)[None, :] - nu**2 - nv**2
            i = np.lexsort((-ssq.ravel(), -sgain.ravel()))[0]
            a2, b2 = np.unravel_index(i, sgain.shape)
            if (int(sgain[a2, b2]), int(ssq[a2, b2])) > best:
                best = (int(sgain[a2, b2]), int(ssq[a2, b2]))
                choice = ("swap", int(mine[a2]), int(vb[b2]), int(others[b2]))
        if best[0] < 0 or best == (0, 0) or (best[0] == 0 and best[1] <= 0):
            # no step lowers the overload or spreads the load: kick a random task of u away
            j = int(rng.choice(mine))
            v = int(rng.choice([w for w in range(machines) if w != u]))
            choice = ("move", j, v, -1)
        kind, j, v, i = choice
        load[u] -= cost[u, j]
        load[v] += cost[v, j]
        machine[j] = v
        if kind == "swap":
            load[v] -= cost[v, i]
            load[u] += cost[u, i]
            machine[i] = u
    if closest is not None and least is not None:
        closest.append(least[1])
    return None


def repack(
    p: np.ndarray,
    q: np.ndarray,
    cpus: int,
    gpus: int,
    T: int,
    machine: np.ndarray,
    deadline: Deadline,
    rng: np.random.Generator,
    group: int = 4,
    box: float = 2.0,
    rounds: int | None = None,
) -> np.ndarray | None:
    """Large neighbourhood search for the last units of overload: the most loaded machine and
    ``group`` - 1 others drawn at random (the other type among them when there is one) are
    re-packed exactly by CP-SAT at capacity ``T``, the other machines' tasks fixed (a few
    hundred booleans, ``box`` seconds each), until every load is <= ``T`` or the deadline.
    Returns the assignment, or ``None`` after ``rounds`` groups (default 5 per machine) or
    when the group is every machine and CP-SAT proves it infeasible.  Where balancing alone
    stalls one unit above the bound, a few machines re-packed together often find the exact
    fit that single moves and swaps cannot reach."""
    from ortools.sat.python import cp_model

    cost, machine, _ = _costs_and_loads(p, q, cpus, gpus, machine)
    machines = cpus + gpus
    for _ in range(5 * machines if rounds is None else rounds):
        if deadline.expired():
            break
        load = _loads(cost, machine)
        if load.max() <= T:
            return machine
        u = int(np.argmax(load))
        rest = [w for w in range(machines) if w != u]
        pick = [u, *rng.choice(rest, size=min(group - 1, len(rest)), replace=False).tolist()]
        if cpus and gpus and all((w < cpus) == (u < cpus) for w in pick) and len(pick) > 1:
            other = [w for w in rest if (w < cpus) != (u < cpus)]
            pick[-1] = int(rng.choice(other))
        chosen = np.flatnonzero(np.isin(machine, pick))
        model = cp_model.CpModel()
        x = {(j, w): model.NewBoolVar("") for j in chosen.tolist() for w in pick}
        for j in chosen.tolist():
            model.AddExactlyOne(x[j, w] for w in pick)
        for w in pick:
            model.Add(sum(int(cost[w, j]) * x[j, w] for j in chosen.tolist()) <= T)
        for (j, w), var in x.items():
            model.AddHint(var, int(machine[j] == w))
        run = run_cpsat(
            model,
            deadline.share(1.0, box),
            seed=int(rng.integers(2**31)),
            workers=1,
            params={"stop_after_first_solution": True},
        )
        if run.has_solution:
            for (j, w), var in x.items():
                if run.value(var):
                    machine[j] = w
        elif run.status is Status.INFEASIBLE and len(pick) == machines:
            return None
    return None
