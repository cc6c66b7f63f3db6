"""Test-wide setup: the real traces of the shared data folder are where trace lookups look.

The Parallel Workloads Archive logs are third-party data, not shipped: a user names
their folder in ``COSCHEDOPT_TRACES``.  The tests read the copies beside the
repository (``../shared/data/traces``) and fail, not skip, when they are missing.
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED_TRACES = Path(__file__).resolve().parents[2] / "shared" / "data" / "traces"

os.environ.setdefault("COSCHEDOPT_TRACES", str(SHARED_TRACES))
