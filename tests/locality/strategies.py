"""Hypothesis strategies for small locality instances (tiny enough for both exact models)."""

from __future__ import annotations

from hypothesis import strategies as st

from coschedopt.locality import CONSTRAINTS, make_instance


@st.composite
def locality_instances(
    draw,
    *,
    max_jobs: int = 5,
    max_clusters: int = 3,
    max_cluster_size: int = 4,
    max_time: int = 4,
    within_clusters: bool | None = None,
    constraint: str | None = None,
    topology: str | None = None,
):
    """A random instance; sizes up to ell when ``within_clusters`` (drawn when None), else up to m."""
    k = draw(st.integers(1, max_clusters))
    ell = draw(st.integers(1, max_cluster_size))
    m = k * ell
    inside = draw(st.booleans()) if within_clusters is None else within_clusters
    top = ell if inside else m
    n = draw(st.integers(1, max_jobs))
    jobs = draw(st.lists(st.tuples(st.integers(1, max_time), st.integers(1, top)), min_size=n, max_size=n))
    c = constraint or draw(st.sampled_from(CONSTRAINTS))
    topo = topology or draw(st.sampled_from(["line", "line", "ring"]))
    return make_instance([(float(t), s) for t, s in jobs], m, k, constraint=c, topology=topo)
