"""The options of ``branch-and-price``, declared once: what a user sets and every tuning knob.

One frozen :class:`BnpOptions` object is built (and checked) by the registry, passed
down to every phase of the solver, and sent as it is to the neighbourhood search's
worker process: no module of :mod:`coschedopt.pack.exact.bnp` reads a tunable of its own.
The fields marked ``advanced`` are the tuning knobs (``coschedopt methods pack
--options`` lists them apart); the measurements behind their defaults are in
``benchmarks/results/bnp-notes.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ....core import MethodOptions, option
from ...schedule import PackSchedule


@dataclass(frozen=True)
class BnpOptions(MethodOptions):
    # ------------------------------------------------------------------ what a user sets
    gap: float = option(0.0, "relative optimality gap to stop at (0: proven optimum)", min=0.0, below=1.0)
    heuristics: bool = option(True, "seed the incumbent with the paper's heuristics")
    max_columns: int = option(400_000, "cap on enumerated columns (memory)", min=0)
    rmp_time: float = option(10.0, "seconds of the restricted-master MIP heuristic (0: none)", min=0.0)
    cut_rounds: int | None = option(None, "rounds of subset-row cuts (none: auto_cut_rounds when k is small)", min=0)
    pack_count_cuts: bool = option(True, "the rounded pack-count inequalities")
    tree: bool = option(True, "branch after the root (off: staged enumeration only)")
    probe_columns: int = option(3000, "column budget of the enumeration probes (0: never)", min=0)
    lns: bool = option(True, "the neighbourhood search re-solving windows of packs")
    lns_workers: int | None = option(
        None, "worker processes of that search (none: 1 on two cores or more)", min=0, max=1
    )
    start: PackSchedule | None = option(None, "a schedule of this instance to start from")
    complete_master: int | None = option(
        None, "start from every task set when there are at most this many (none: complete_master_max)", min=0
    )
    dominance: bool = option(True, "the dual-optimal inequalities pi_i <= pi_j")

    # ------------------------------------------------------------------ root and column generation
    seed_heuristics: tuple[str, ...] = option(
        ("pack-by-pack-9", "pack-approx", "random-proc-9", "random-pack-9"),
        "the paper's heuristics tried for a first incumbent, when registered",
        advanced=True,
    )
    complete_master_max: int = option(500, "default of complete_master", min=0, advanced=True)
    auto_cut_rounds: int = option(
        10, "subset-row cut rounds when cut_rounds is none and k is small", min=0, advanced=True
    )
    auto_cut_max_k: int = option(4, "largest k that gets auto_cut_rounds", min=0, advanced=True)
    cuts_per_round: int = option(50, "subset-row cuts added per round", min=1, advanced=True)
    cut_share: float = option(
        0.4, "share of the time left for the subset-row cut rounds", above=0.0, max=1.0, advanced=True
    )
    cut_nodes: int = option(
        40, "node limit of the exact pricing branch and bound per level (with cuts)", min=1, advanced=True
    )
    smoothing: float = option(
        0.5, "Wentges dual smoothing factor of column generation", min=0.0, below=1.0, advanced=True
    )
    per_level: int = option(3, "disjoint columns taken per priced level", min=1, advanced=True)
    rc_eps: float = option(
        1e-9, "a column enters when its (scaled) reduced cost is below -rc_eps", above=0.0, advanced=True
    )
    node_pricing_enough: int = option(
        30, "a tree node's partial pricing stops once this many columns price out", min=1, advanced=True
    )
    bound_safety: float = option(1e-9, "relative slack on every bound handed back", min=0.0, below=1e-3, advanced=True)
    full_table_limit: int = option(
        30_000_000,
        "the level table keeps m_i(tau) for every (level, task) up to this many entries; above, rows on demand",
        min=0,
        advanced=True,
    )
    artificial_cost_factor: float = option(
        10.0,
        "the pack-count rows' artificial columns cost this times the all-singletons schedule (plus 1)",
        above=1.0,
        advanced=True,
    )
    pack_count_rounds: int = option(50, "most rounds of pack-count cuts at the root", min=0, advanced=True)
    cut_min_gain: float = option(
        0.1,
        "subset-row cut rounds stop when a round closes less than this share of the LP-incumbent gap",
        min=0.0,
        advanced=True,
    )
    cg_log_every: float = option(
        2.0, "seconds between two progress lines of column generation (verbose)", min=0.0, advanced=True
    )

    # ------------------------------------------------------------------ primal heuristics
    local_search_window: float = option(
        0.02, "schedules within this relative distance above the incumbent get the local search", min=0.0, advanced=True
    )
    local_search_share: float = option(
        0.02, "time box of one local search: share of the time left", above=0.0, max=1.0, advanced=True
    )
    local_search_max: float = option(
        5.0, "time box of one local search: at most these seconds", above=0.0, advanced=True
    )
    local_search_passes: int = option(
        50, "most passes of one local search (moves and swaps of single tasks)", min=1, advanced=True
    )
    ils_share: float = option(
        0.05, "time box of the root's iterated local search: share", above=0.0, max=1.0, advanced=True
    )
    ils_max: float = option(10.0, "time box of the root's iterated local search: seconds", above=0.0, advanced=True)
    ils_idle_kicks: int = option(
        20,
        "the iterated local search stops after max(this, n) kicks in a row without a better schedule",
        min=1,
        advanced=True,
    )
    ils_swaps: int = option(
        2, "random swaps of two tasks in one kick of the iterated local search", min=1, advanced=True
    )
    heuristic_share: float = option(
        0.05, "time limit of each seed heuristic: share of the time left", above=0.0, max=1.0, advanced=True
    )
    heuristic_min: float = option(
        0.05, "time limit of each seed heuristic: at least these seconds", above=0.0, advanced=True
    )
    heuristic_max: float = option(
        10.0,
        "time limit of each seed heuristic: at most these seconds (also without a time limit)",
        above=0.0,
        advanced=True,
    )
    dive_candidates: int = option(8, "columns scored by a trial LP at each step of the dive", min=1, advanced=True)
    dive_min_x: float = option(0.05, "least LP value of a dive candidate", min=0.0, max=1.0, advanced=True)
    dive_share: float = option(
        0.2, "time box of a root dive: share of the time left", above=0.0, max=1.0, advanced=True
    )

    # ------------------------------------------------------------------ closing the gap by enumeration
    face_delta: float = option(
        1e-8,
        "the root's face probe: columns of reduced cost up to this times the LP bound (0: no probe)",
        min=0.0,
        advanced=True,
    )
    face_columns: int = option(200_000, "the face probe's cap on enumerated columns", min=1, advanced=True)
    face_share: float = option(
        0.1, "the face probe's time box: share of the time left", above=0.0, max=1.0, advanced=True
    )
    face_max: float = option(10.0, "the face probe's time box: at most these seconds", above=0.0, advanced=True)
    cover_nodes: int = option(200_000, "node limit of the exact-cover searches", min=1, advanced=True)
    cover_restart_nodes: int = option(
        1000, "a primal cover search restarts after this many nodes times the Luby sequence", min=1, advanced=True
    )
    cover_share: float = option(
        0.1,
        "time box of the cover search over enumerated columns: share of the time left",
        above=0.0,
        max=1.0,
        advanced=True,
    )
    cover_max: float = option(30.0, "that time box at the root: at most these seconds", above=0.0, advanced=True)
    cover_node_max: float = option(2.0, "that time box in a tree node: at most these seconds", above=0.0, advanced=True)
    enum_first_fraction: float = option(
        4096.0, "the staged enumeration's first delta is the gap divided by this", min=1.0, advanced=True
    )
    enum_growth: float = option(
        8.0,
        "the staged enumeration's delta grows by this factor after a stage solved to optimality",
        above=1.0,
        advanced=True,
    )
    enum_min_step: float = option(
        1.05,
        "the staged enumeration stops when its next delta is below this times the last one solved",
        min=1.0,
        advanced=True,
    )
    enum_shrink: float = option(
        4.0,
        "the staged enumeration's delta shrinks by (at least) this factor past the column budget",
        above=1.0,
        advanced=True,
    )
    ratio_slack: float = option(
        1e-9,
        "the enumeration computes its exact dual ratio when the pricing's exceeds 1 by more",
        min=0.0,
        advanced=True,
    )
    ratio_columns: int = option(20_000, "column budget of that exact ratio", min=0, advanced=True)
    node_mip_time: float = option(30.0, "time box of a tree node's probe MIP (seconds)", min=0.0, advanced=True)

    # ------------------------------------------------------------------ the tree
    rmp_every: int = option(25, "tree nodes between two restricted-master MIPs", min=1, advanced=True)
    rmp_node_share: float = option(0.3, "their time limit, as a share of rmp_time", min=0.0, advanced=True)
    rmp_tree_share: float = option(0.15, "their total time, as a share of the tree's", min=0.0, advanced=True)
    probe_shrink: float = option(
        0.5, "a node probes its gap once it is below this share of the last failed probe's", min=0.0, advanced=True
    )
    count_fraction: float = option(
        0.02, "pack counts this close to an integer are not branched on", min=0.0, max=0.5, advanced=True
    )
    strong_candidates: int = option(5, "pack counts strong-branched per node", min=1, advanced=True)
    strong_lp_time: float = option(5.0, "time box of one strong-branching LP (seconds)", above=0.0, advanced=True)
    strong_iterations: int | None = option(
        None, "dual simplex iteration limit of a strong-branching LP (none: to optimality)", min=1, advanced=True
    )
    purge_above: int = option(4500, "a node first purges the master when it holds more columns", min=0, advanced=True)
    purge_to: int = option(3000, "columns left by a purge", min=0, advanced=True)
    purge_age: int = option(100, "LP solves a purged column has been out of the LP support", min=0, advanced=True)
    plunge_share: float = option(0.5, "share of the tree's time for plunges", min=0.0, advanced=True)
    plunge_decay: float = option(
        4.0,
        "the plunges' share is divided by this for every plunge that ended without an incumbent",
        min=1.0,
        advanced=True,
    )
    plunge_quot: float = option(
        0.5, "a plunge stops at a child above lb + plunge_quot (ub - lb)", min=0.0, advanced=True
    )
    profile_share: float = option(
        0.1, "share of the tree's time for the pack-profile heuristic", min=0.0, advanced=True
    )
    profile_time: float = option(5.0, "time box of one pack-profile assignment MIP (seconds)", above=0.0, advanced=True)
    log_every: float = option(
        10.0, "seconds between two progress lines of the tree (verbose)", above=0.0, advanced=True
    )

    # ------------------------------------------------------------------ the neighbourhood search
    lns_tasks: int = option(48, "most tasks freed by a window (it holds at least two packs)", min=1, advanced=True)
    lns_stages: tuple[tuple[int, int], ...] = option(
        ((1, 1), (1, 4), (2, 1), (3, 1)),
        "stages of windows: (most tasks as a multiple of lns_tasks, reach; 1 adjacent packs, r > 1 skipping)",
        advanced=True,
    )
    lns_skip_packs: int = option(4, "most packs in a window of a stage of reach > 1", min=2, advanced=True)
    lns_sub_time: float = option(10.0, "time box of one window's re-solve (seconds)", above=0.0, advanced=True)
    lns_retry_factor: float = option(
        2.0, "a window stopped by its time box is retried with this times the box", above=1.0, advanced=True
    )
    lns_max_sub_time: float = option(80.0, "largest time box of a window's retries (seconds)", above=0.0, advanced=True)
    lns_after: float = option(60.0, "in-process search: starts after these seconds", min=0.0, advanced=True)
    lns_share: float = option(0.4, "in-process search: share of the time spent", min=0.0, max=1.0, advanced=True)
    lns_worker_after: float = option(10.0, "the worker process starts after these seconds", min=0.0, advanced=True)
    lns_idle_wait: float = option(
        1.0, "seconds the exhausted worker waits for a new incumbent", above=0.0, advanced=True
    )
    lns_profile_reach: float = option(
        0.05, "profile moves: a pack's candidate levels lie within this factor of its own", min=0.0, advanced=True
    )
    lns_profile_time: float = option(60.0, "time box of one profile move MIP (seconds)", above=0.0, advanced=True)
    lns_profile_share: float = option(0.5, "profile moves' share of the search's time", min=0.0, advanced=True)

    @classmethod
    def public(cls) -> list[str]:
        """The options a user normally sets (the others are tuning knobs)."""
        return [s.name for s in cls.specs() if not s.advanced]

    def for_window(self) -> BnpOptions:
        """The options of a neighbourhood-search window's re-solve: the public options at
        their defaults but for no heuristics, a 1 s restricted-master MIP and no search of
        its own; the tuning knobs as they are here."""
        public = self.public()
        defaults = {f.name: f.default for f in dataclasses.fields(self) if f.name in public}
        return self.replace(**{**defaults, "heuristics": False, "rmp_time": 1.0, "lns": False})
