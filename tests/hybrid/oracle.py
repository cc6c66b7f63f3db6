"""A brute-force reference for tiny instances: every task on every machine, the least makespan."""

from __future__ import annotations

import itertools

from coschedopt.hybrid import HybridInstance


def brute_force_optimum(instance: HybridInstance) -> float:
    """min over all (m + k)^n machine assignments of the largest load (n <= 6, m + k <= 4)."""
    p, q = instance.cpu_time.tolist(), instance.gpu_time.tolist()
    machines = [("cpu", i) for i in range(instance.cpus)] + [("gpu", g) for g in range(instance.gpus)]
    best = float("inf")
    for choice in itertools.product(range(len(machines)), repeat=instance.n):
        loads = [0.0] * len(machines)
        for j, u in enumerate(choice):
            loads[u] += q[j] if machines[u][0] == "gpu" else p[j]
        best = min(best, max(loads))
    return best
