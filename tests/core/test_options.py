"""core/options.py: options declared once, checked at construction."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pytest

from coschedopt.core import InputError, MethodOptions, NoOptions, option
from coschedopt.core.options import parse_option_text


@dataclass(frozen=True)
class Demo(MethodOptions):
    gap: float = option(0.0, "relative gap", min=0.0, below=1.0)
    rounds: int | None = option(None, "rounds (none: automatic)", min=0)
    mode: str = option("fast", "how", choices=("fast", "slow"))
    eps: tuple[float, ...] = option([0.1, 0.5], "values", min=0.0, max=1.0)
    flag: bool = option(True, "on or off", advanced=True)


def test_defaults_and_conversions():
    d = Demo()
    assert d.eps == (0.1, 0.5) and d.rounds is None and d.flag
    assert Demo(gap=0, rounds=3.0).gap == 0.0 and Demo(rounds=3.0).rounds == 3  # 0 -> 0.0, 3.0 -> 3
    assert Demo(eps=[1, 0]).eps == (1.0, 0.0)
    assert Demo.from_mapping({"mode": "slow"}).mode == "slow"
    assert replace(d, gap=0.5).gap == 0.5 and d.replace(gap=0.25).gap == 0.25


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"gap": 1.0}, "'gap' must be a number >= 0.0, < 1.0, got 1.0"),
        ({"gap": -0.1}, "'gap' must be a number"),
        ({"gap": "0.1"}, "'gap' must be a number, got '0.1'"),
        ({"gap": True}, "'gap' must be a number"),
        ({"gap": math.nan}, "'gap' must be a number"),
        ({"rounds": -1}, "'rounds' must be a number >= 0"),
        ({"rounds": 2.5}, "'rounds' must be an integer"),
        ({"mode": "medium"}, "'mode' must be one of 'fast', 'slow'"),
        ({"eps": [0.1, 2]}, "'eps' must be a number >= 0.0, <= 1.0"),
        ({"eps": "0.1"}, "'eps' must be a list of float"),
        ({"flag": 1}, "'flag' must be true or false"),
        ({"rounds": None, "mode": None}, "'mode' must be a str"),
        ({"colour": "blue"}, "unknown option 'colour' of method 'demo' .*valid options: gap, rounds, mode, eps, flag"),
    ],
)
def test_every_bad_value_is_one_clear_error(given, message):
    with pytest.raises(InputError, match=message) as info:
        Demo.from_mapping(given, method="demo")
    assert info.value.where in given


def test_specs_list_what_the_cli_shows():
    specs = {s.name: s for s in Demo.specs()}
    assert specs["gap"].type == "float" and specs["gap"].constraint == ">= 0.0, < 1.0"
    assert specs["rounds"].type == "int or none" and specs["eps"].type == "list of float"
    assert specs["mode"].constraint == "one of fast, slow" and specs["flag"].advanced
    assert NoOptions.specs() == [] and NoOptions.from_mapping({}) == NoOptions()
    with pytest.raises(InputError, match="none \\(it takes no option\\)"):
        NoOptions.from_mapping({"x": 1})


def test_to_dict_is_json_able():
    assert Demo(rounds=math.inf if False else 2).to_dict() == {
        "gap": 0.0,
        "rounds": 2,
        "mode": "fast",
        "eps": [0.1, 0.5],
        "flag": True,
    }


@pytest.mark.parametrize(
    ("text", "value"),
    [("0.3", 0.3), ("true", True), ("[0.1, 0.2]", [0.1, 0.2]), ("inf", math.inf), ("none", None), ("fast", "fast")],
)
def test_command_line_text_becomes_a_value(text, value):
    assert parse_option_text(text) == value


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("mode", "none", "none"),  # a string option: 'none' is a name, not null
        ("mode", '"slow"', "slow"),
        ("mode", "1", "1"),
        ("rounds", "none", None),  # an optional option: 'none' is null
        ("rounds", "3", 3),
        ("gap", "0.5", 0.5),
        ("unknown", "none", None),
    ],
)
def test_the_declared_type_decides_how_command_line_text_reads(name, text, value):
    assert Demo.parse_text(name, text) == value


@dataclass(frozen=True)
class Named(MethodOptions):
    penalty: str = option("linear", "a choice named none", choices=("none", "linear"))


def test_a_string_choice_named_none_is_settable_from_text():
    assert Named.from_mapping({"penalty": Named.parse_text("penalty", "none")}).penalty == "none"
