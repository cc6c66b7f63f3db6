"""Two readings of the thesis's batch simulator: ours, and the author's published code (option ``reading``).

The thesis (chapters 4-5) leaves some behaviours unsaid, and the author's simulator
(``fernandodeperto/batch-simulator``, Perl; read, not copied: GPLv3; the version read is in
``benchmarks/results/batch-notes.md``) settles them, sometimes against the text.  ``reading="ours"`` (the default) is the
textbook reading; ``reading="author"`` sets every option below to the code's behaviour.
An option given explicitly wins over the reading, so an ablation switches one at a time.

================  ==================  ====================  ===========================================
option            ours                author                what the author's code does
================  ==================  ====================  ===========================================
event_order       completions-first   submissions-first     ``Event.pm`` orders an instant's events by
                                                            type (submission, start, completion) and
                                                            ``Heap::retrieve_all`` returns one type per
                                                            pass of ``Backfilling::run``: the jobs
                                                            submitted at t are reserved before the jobs
                                                            ending at t free their processors
reassign_test     whole-window        first-slice           ``ExecutionProfile::could_start_job``
                                                            compares every profile's start with *now*,
                                                            so its loop stops after the first slice: a
                                                            reserved job is offered a move only if the
                                                            slice at now lasts its whole requested time
reassign_penalty  recompute           keep                  ``Backfilling::reassign_jobs`` moves the job
                                                            (``Job::assign``) without recomputing the
                                                            run time that ``assign_job`` penalised on
                                                            the processors of its first reservation
metric_topology   as ``topology``     ring                  ``Platform::job_contiguity`` counts a job on
                                                            a range from 0 and one ending at P-1 as one
                                                            range, while no allocation wraps around
================  ==================  ====================  ===========================================

The variants' rules are the code's in both readings (``becont_rule="largest-first"``,
``cont_rule="first-fit"``, ``beplat_rule="lowest-ids"``: :mod:`.allocation`), and so is the
reassignment's order (reserved jobs in FCFS order, moved to now only).

``first-slice`` reproduces a defect (the loop means to walk the slices from now while they
are contiguous, and its early exit compares a time with a duration), because it only
withholds moves: every schedule stays valid, and the thesis's figures were made with it.
Not reproduced: ``find_first_profile`` tries a window only once its slices span strictly
more than the requested time, so a start whose slices end exactly at the job's end, before
a slice without enough processors, is never tried (an off-by-one that delays jobs); and any
behaviour that would put two jobs on one processor at once (the validator refuses such a
schedule under every option).  Ties between equal submit times follow the heap's order
(not stable) there; ours are the trace's order.

The committed ``scripts/test.conf`` sets ``reassign_jobs=0``; the thesis (§5.5) describes
the reassignment and the configuration's history holds ``reassign_jobs=1``, so both
readings reassign (``reassign=false`` turns it off).
"""

from __future__ import annotations

READING_NAMES = ("ours", "author")

#: per reading, the value each option left unset (None) takes
READINGS: dict[str, dict[str, str]] = {
    "ours": {"event_order": "completions-first", "reassign_test": "whole-window", "reassign_penalty": "recompute"},
    "author": {
        "event_order": "submissions-first",
        "reassign_test": "first-slice",
        "reassign_penalty": "keep",
        "metric_topology": "ring",
    },
}


def resolve(options: object) -> None:
    """Give each option of ``options`` (a frozen dataclass with a ``reading`` field) that is None and that the
    reading sets the reading's value; a reading's option that the class does not have is skipped (``easy`` has
    no reassignment)."""
    for name, value in READINGS[options.reading].items():  # type: ignore[attr-defined]
        if hasattr(options, name) and getattr(options, name) is None:
            object.__setattr__(options, name, value)


def configuration(options: dict[str, object]) -> str:
    """A configuration's name from a method's options as given (a suite's): ``ours``, ``author``, or the reading
    and the options that depart from it (``ours + event_order=submissions-first``, ``ours + reassign=False``)."""
    reading = str(options.get("reading", "ours"))
    base = READINGS[reading]
    changed = [
        f"{name}={options[name]}"
        for name in (*READINGS["author"], "reassign")
        if name in options and options[name] != base.get(name, True if name == "reassign" else None)
    ]
    return " + ".join([reading, *changed])


def configurations_in_order(names: object) -> list[str]:
    """Distinct configuration names, ours first, then ours with one option changed, then the author's ones."""
    return sorted(dict.fromkeys(names), key=lambda c: (c != "ours", c.startswith("author"), c != "author", c))
