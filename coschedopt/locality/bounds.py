"""Lower bounds on the makespan under the locality constraint: dual feasible functions per cluster.

Under locality every job of size <= ell (the processors of one cluster) runs inside one cluster
of capacity ell, so at any time the jobs running in a cluster have sizes summing to at most ell.
For a *dual feasible function* f (Fekete and Schepers, Math. Program. 91(1), 2001): any sizes
x_1 + ... + x_r <= ell give f(x_1) + ... + f(x_r) <= 1, hence, integrating over time, each
cluster's jobs satisfy sum_j p_j f(size_j) <= C, and over the k clusters

    C  >=  ceil( sum_j p_j f(size_j) / k ).

With f(x) = x / ell this is the area bound of one cluster; the functions below count what the
area cannot: two jobs of size > ell / 2 never run side by side in a cluster, whatever the
processors left free.  The families, all dual feasible on [0, ell]:

* u^(q), q = 1..ell (Fekete and Schepers): x / ell when (q + 1) x / ell is an integer, else
  floor((q + 1) x / ell) / q;
* U^(e), e = 1..ell/2: 1 above ell - e, 0 below e, x / ell between.

Sums are kept in integers (f scaled by ell q, or by ell), so the bound is exact.  Where some
job is larger than a cluster its share of each cluster is a decision, and only the area
bound stands (:func:`~.instance.lower_bound_ticks`).  O(ell n).
"""

from __future__ import annotations

import numpy as np

from .instance import LocalityInstance, integer_times, is_local_constraint, lower_bound_ticks


def cluster_dff_bound_ticks(instance: LocalityInstance) -> int:
    """The best bound of the families above, in the ticks of :func:`~.instance.integer_times`
    (0 when it does not apply: no locality, one cluster, or a job larger than a cluster)."""
    if not is_local_constraint(instance.constraint) or instance.clusters < 2 or not instance.fits_clusters:
        return 0
    ticks, _ = integer_times(instance)
    p = np.asarray(ticks, dtype=np.int64)
    x = np.asarray(instance.sizes, dtype=np.int64)
    ell, k = instance.cluster_size, instance.clusters
    best = 0
    for q in range(1, ell + 1):  # u^(q) scaled by ell q: x q, or floor((q + 1) x / ell) ell
        scaled = np.where(((q + 1) * x) % ell == 0, x * q, ((q + 1) * x // ell) * ell)
        best = max(best, -(-int(p @ scaled) // (ell * q * k)))
    for e in range(1, ell // 2 + 1):  # U^(e) scaled by ell
        scaled = np.where(x > ell - e, ell, np.where(x < e, 0, x))
        best = max(best, -(-int(p @ scaled) // (ell * k)))
    return best


def best_lower_bound_ticks(instance: LocalityInstance) -> int:
    """max(p_max, ceil(A / m), the per-cluster dual feasible bound) in ticks."""
    return max(lower_bound_ticks(instance), cluster_dff_bound_ticks(instance))
