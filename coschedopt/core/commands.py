"""Command-line hooks: families contribute ``generate`` generators and extra commands.

``coschedopt/cli.py`` builds its parsers from what is registered here, so a new
family adds its generators (``coschedopt generate NAME ...``) and commands
(``coschedopt NAME ...``) without editing the CLI module.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Generator:
    """``coschedopt generate NAME``: ``add_arguments(parser)`` declares the options,
    ``make(**options, seed=...)`` builds the instance.

    The keyword arguments of ``make`` are the argparse ``dest`` names that
    ``add_arguments`` declares, plus ``seed``; the benchmark harness calls
    ``make`` with the same names from a suite file.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    make: Callable[..., Any]


@dataclass(frozen=True)
class Command:
    """``coschedopt NAME``: ``add_arguments(parser)`` then ``run(args) -> exit code``."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


GENERATORS: dict[str, Generator] = {}
COMMANDS: dict[str, Command] = {}


def register_generator(gen: Generator) -> Generator:
    GENERATORS[gen.name] = gen
    return gen


def register_command(cmd: Command) -> Command:
    COMMANDS[cmd.name] = cmd
    return cmd
