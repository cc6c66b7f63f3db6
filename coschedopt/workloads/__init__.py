"""Real workloads as a data source: the SWF reader and the Parallel Workloads Archive's traces.

- :mod:`.swf`: the Standard Workload Format reader (streaming, located errors, counted filters);
- :mod:`.traces`: the catalogue of known traces, the verified download cache and the lookup
  (``coschedopt traces list | fetch``, :func:`coschedopt.traces.fetch`).

Families that replay real logs (batch, online) import from here; this package imports only ``core``.
"""

from .swf import (
    SWF_DTYPE,
    SWF_FIELDS,
    SWFHeader,
    SWFOptions,
    SWFTrace,
    iter_swf_chunks,
    read_swf,
    read_swf_header,
)
from .traces import locate as locate_trace

__all__ = [
    "SWFHeader",
    "SWFOptions",
    "SWFTrace",
    "SWF_DTYPE",
    "SWF_FIELDS",
    "iter_swf_chunks",
    "locate_trace",
    "read_swf",
    "read_swf_header",
]
