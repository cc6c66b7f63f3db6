"""core/commands.py: generators and commands in their family's name space; the old flat names still work."""

from __future__ import annotations

import json

import pytest

import coschedopt as cs
from coschedopt.cli import main
from coschedopt.core.commands import (
    COMMAND_ALIASES,
    GENERATOR_ALIASES,
    Command,
    Generator,
    expand_aliases,
    generators,
    get_generator,
    register_command,
    register_generator,
)

#: every flat name the README and scripts used before the name spaces
OLD_GENERATOR_NAMES = ["random", "workload-i", "workload-ii", "workload-iii", "profiles", "three-partition", "combos"]


def test_every_old_generator_name_is_an_alias():
    generators()  # the families (plug-ins) register their generators on first use
    assert set(OLD_GENERATOR_NAMES) <= set(GENERATOR_ALIASES)
    assert COMMAND_ALIASES["measure"] == ("combos", "measure")


@pytest.mark.parametrize(
    ("argv", "expanded"),
    [
        (["generate", "workload-ii", "-k", "4"], ["generate", "pack", "workload-ii", "-k", "4"]),
        (["generate", "combos", "--tasks", "4"], ["generate", "combos", "random", "--tasks", "4"]),
        (["generate", "combos"], ["generate", "combos", "random"]),
        (["generate", "combos", "random", "--tasks", "4"], ["generate", "combos", "random", "--tasks", "4"]),
        (["generate", "combos", "--help"], ["generate", "combos", "--help"]),
        (["generate", "pack", "random"], ["generate", "pack", "random"]),
        (["measure", "a", "b"], ["combos", "measure", "a", "b"]),
        (["solve", "x.json", "-m", "ilp"], ["solve", "x.json", "-m", "ilp"]),
    ],
)
def test_old_command_lines_are_rewritten_to_the_name_spaces(argv, expanded):
    assert expand_aliases(argv, cs.families()) == expanded


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["random", "--tasks", "4", "-p", "3", "-k", "2"], ["pack", "random", "--tasks", "4", "-p", "3", "-k", "2"]),
        (["workload-i", "-k", "3"], ["pack", "workload-i", "-k", "3"]),
        (["workload-ii", "-k", "4"], ["pack", "workload-ii", "-k", "4"]),
        (["workload-iii", "-k", "8"], ["pack", "workload-iii", "-k", "8"]),
        (["three-partition", "--triplets", "2"], ["pack", "three-partition", "--triplets", "2"]),
        (["combos", "--tasks", "4"], ["combos", "random", "--tasks", "4"]),
    ],
)
def test_old_and_new_generate_commands_give_the_same_instance(capsys, old, new):
    outs = []
    for argv in (old, new):
        assert main(["generate", *argv, "--seed", "3"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]


def test_old_measure_command_still_parses(capsys):
    with pytest.raises(SystemExit) as info:
        main(["measure", "--help"])
    assert info.value.code == 0 and "combinations" in capsys.readouterr().out


def test_generators_resolve_within_their_family():
    assert get_generator("pack", "workload-ii") is get_generator("pack", "workload-ii")
    assert get_generator("combos", "combos") is get_generator("combos", "random")  # the old name, in its family
    with pytest.raises(cs.InputError, match="unknown generator 'workload-ii' of family 'combos'"):
        get_generator("combos", "workload-ii")


def test_registering_a_generator_or_command_twice_raises():
    g = get_generator("pack", "random")
    with pytest.raises(ValueError, match="generator 'pack random' is already registered"):
        register_generator(g)
    with pytest.raises(ValueError, match="alias 'random' already names 'pack random'"):
        register_generator(Generator("test", "other", "", g.add_arguments, g.make, aliases=("random",)))
    with pytest.raises(ValueError, match="command 'combos measure' is already registered"):
        register_command(Command("combos", "measure", "", lambda p: None, lambda a: 0))
    with pytest.raises(ValueError, match="command alias 'bench' is already taken"):
        register_command(Command("test", "other", "", lambda p: None, lambda a: 0, aliases=("bench",)))
