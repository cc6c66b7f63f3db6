"""Command-line hooks: families contribute generators and commands, each in its own name space.

``coschedopt/cli.py`` builds its parsers from what is registered here, so a new
family adds its generators (``coschedopt generate FAMILY NAME ...``) and commands
(``coschedopt FAMILY NAME ...``) without editing the CLI module.  A generator or
command belongs to one family (``family=None``: a toolkit command such as
``bench``); its ``aliases`` are the flat names it was known by before families
had their own name spaces (``coschedopt generate workload-ii``, ``coschedopt
measure``), kept so that scripts and suites keep working.  A name or alias
registered twice raises ``ValueError``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InputError
from .plugins import load_plugins


@dataclass(frozen=True)
class Generator:
    """``coschedopt generate FAMILY NAME``: ``add_arguments(parser)`` declares the options,
    ``make(**options, seed=...)`` builds the instance.

    The keyword arguments of ``make`` are the argparse ``dest`` names that
    ``add_arguments`` declares, plus ``seed``; the benchmark harness calls
    ``make`` with the same names from a suite file.

    ``check_written(**options, seed=...)``, if given, is called before an instance
    is written as JSON (``coschedopt generate``'s ``-o`` and stdout, a suite's
    instance built in the runner, whose JSON the store keeps and each cell
    carries) and raises :class:`InputError` for one too large to write: the
    limit is on writing, not on building (a suite's ``build = "worker"``
    instance is never written, only rebuilt from its recipe in the worker).
    """

    family: str
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    make: Callable[..., Any]
    aliases: tuple[str, ...] = ()
    check_written: Callable[..., None] | None = None

    @property
    def qualified(self) -> str:
        return f"{self.family} {self.name}"


@dataclass(frozen=True)
class Command:
    """``coschedopt FAMILY NAME`` (or ``coschedopt NAME`` when ``family`` is None):
    ``add_arguments(parser)`` then ``run(args) -> exit code``."""

    family: str | None
    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    aliases: tuple[str, ...] = ()


#: (family, name) -> generator
GENERATORS: dict[tuple[str, str], Generator] = {}
#: flat legacy name -> (family, name)
GENERATOR_ALIASES: dict[str, tuple[str, str]] = {}
#: (family or None, name) -> command
COMMANDS: dict[tuple[str | None, str], Command] = {}
#: flat legacy name -> (family, name)
COMMAND_ALIASES: dict[str, tuple[str | None, str]] = {}
#: every table above (for :func:`coschedopt.core.registry.scoped_registry`)
TABLES = (GENERATORS, GENERATOR_ALIASES, COMMANDS, COMMAND_ALIASES)


def register_generator(gen: Generator) -> Generator:
    key = (gen.family, gen.name)
    if key in GENERATORS:
        raise ValueError(f"generator {gen.qualified!r} is already registered (by {GENERATORS[key].make.__module__!r})")
    for a in gen.aliases:
        if a in GENERATOR_ALIASES:
            raise ValueError(f"generator alias {a!r} already names {' '.join(GENERATOR_ALIASES[a])!r}")
    GENERATORS[key] = gen
    for a in gen.aliases:
        GENERATOR_ALIASES[a] = key
    return gen


def register_command(cmd: Command) -> Command:
    key = (cmd.family, cmd.name)
    if key in COMMANDS:
        raise ValueError(
            f"command {' '.join(filter(None, key))!r} is already registered (by {COMMANDS[key].run.__module__!r})"
        )
    for a in cmd.aliases:
        if a in COMMAND_ALIASES or (None, a) in COMMANDS:
            raise ValueError(f"command alias {a!r} is already taken")
    COMMANDS[key] = cmd
    for a in cmd.aliases:
        COMMAND_ALIASES[a] = key
    return cmd


def generators(family: str | None = None) -> list[Generator]:
    """The registered generators (of ``family``), sorted by family and name (loading the plug-ins)."""
    load_plugins()
    return [g for k, g in sorted(GENERATORS.items()) if family is None or g.family == family]


def get_generator(family: str, name: str) -> Generator:
    """The generator ``name`` of ``family``; a legacy flat alias of it is accepted too."""
    load_plugins()
    key = (family, name)
    if key not in GENERATORS and name in GENERATOR_ALIASES and GENERATOR_ALIASES[name][0] == family:
        key = GENERATOR_ALIASES[name]
    try:
        return GENERATORS[key]
    except KeyError:
        known = ", ".join(g.name for g in generators(family)) or "none"
        raise InputError(
            f"unknown generator {name!r} of family {family!r}; known: {known}", where="generator"
        ) from None


def commands() -> list[Command]:
    """The registered commands, the toolkit's (``family`` None) and every family's (loading the plug-ins)."""
    load_plugins()
    return [c for _, c in sorted(COMMANDS.items(), key=lambda kv: (kv[0][0] or "", kv[0][1]))]


def expand_aliases(argv: Sequence[str], families: Sequence[str]) -> list[str]:
    """The command line with a legacy flat name rewritten to its family's name space.

    ``generate workload-ii -k 4`` -> ``generate pack workload-ii -k 4``;
    ``generate combos --tasks 8`` (``combos`` is a family and the old name of its
    random generator) -> ``generate combos random --tasks 8``; ``measure ...`` ->
    ``combos measure ...``.  Anything else is returned unchanged.
    """
    argv = list(argv)
    if not argv:
        return argv
    load_plugins()
    head = argv[0]
    if head == "generate" and len(argv) >= 2:
        name = argv[1]
        if name in families:
            rest = argv[2:]
            if name in GENERATOR_ALIASES and (
                not rest or (rest[0].startswith("-") and rest[0] not in ("-h", "--help"))
            ):
                return ["generate", *GENERATOR_ALIASES[name], *rest]
            return argv
        if name in GENERATOR_ALIASES:
            return ["generate", *GENERATOR_ALIASES[name], *argv[2:]]
        return argv
    if head in COMMAND_ALIASES and head not in families and (None, head) not in COMMANDS:
        fam, name = COMMAND_ALIASES[head]
        return [*filter(None, (fam, name)), *argv[1:]]
    return argv
