"""A silent HiGHS for every family.

HiGHS 1.16 prints its banner ("Running HiGHS 1.16.0 ...") on the process's standard
output when the first ``highspy.Highs`` of a process is built, before any option can
be set, so ``coschedopt solve --json`` printed two lines before its JSON Result.  The
first construction therefore runs with file descriptor 1 on the null device; HiGHS
writes its banner once per process, so later ones need nothing.  (Pyomo's HiGHS
interface keeps the banner off stdout itself: tests/test_cli.py checks both paths.)
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

_lock = threading.Lock()
_banner_written = False


def quiet_highs(threads: int | None = None) -> Any:
    """A ``highspy.Highs`` with its output off (``output_flag`` false), its banner swallowed.

    ``threads``: HiGHS starts one thread pool per process, sized by the first solve;
    a later instance asking for another count refuses to run (model status "Not
    Set").  Leave it ``None`` unless every HiGHS of the process asks for the same.
    """
    import highspy

    global _banner_written
    with _lock:
        if not _banner_written:
            sys.stdout.flush()
            saved = os.dup(1)
            try:
                with open(os.devnull, "wb") as null:
                    os.dup2(null.fileno(), 1)
                    h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _banner_written = True
        else:
            h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if threads is not None:
        h.setOptionValue("threads", threads)
    return h
