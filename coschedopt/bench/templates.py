"""``coschedopt bench suites | show``: the bundled suites as a list, one of them as a template, and the
reference of the suite file format (``suite-format.md``, shipped inside the package so that an installed
wheel prints it: ``coschedopt bench show --format``)."""

from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

from ..core import InputError
from .suite import bundled_suite_files, bundled_suites

#: the reference page of the suite file format, package data beside this module
FORMAT_REFERENCE = Path(__file__).with_name("suite-format.md")


def _head(path: Path) -> tuple[str, str]:
    """The ``[suite]`` family and description of a suite file, the description on one line."""
    try:
        head = tomllib.loads(path.read_text(encoding="utf-8")).get("suite", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return "?", f"(cannot read: {exc})"
    return str(head.get("family", "?")), " ".join(str(head.get("description", "")).split())


def suites_listing(width: int = 110) -> str:
    """One line per bundled suite (name, family, what it runs), then how to go on."""
    files = bundled_suite_files()
    rows = [(name, *_head(files[name])) for name in bundled_suites()]
    name_w = max((len(r[0]) for r in rows), default=4)
    fam_w = max((len(r[1]) for r in rows), default=6)
    room = max(30, width - name_w - fam_w - 4)
    lines = [f"{'suite':<{name_w}}  {'family':<{fam_w}}  what it runs"]
    lines += [
        f"{name:<{name_w}}  {family:<{fam_w}}  {textwrap.shorten(text or '-', width=room, placeholder=' ...')}"
        for name, family, text in rows
    ]
    lines += [
        "",
        "coschedopt bench show NAME > my-suite.toml   # one of them, as a template to edit",
        "coschedopt bench run NAME|my-suite.toml      # run a bundled suite, or a suite file by its path",
        "coschedopt bench show --format               # the suite file format: every key, its type and default",
    ]
    return "\n".join(lines)


def suite_template(name: str) -> str:
    """The bundled suite ``name``'s file as it ships, after a comment saying how to make it one's own."""
    files = bundled_suite_files()
    if name not in files:
        known = ", ".join(bundled_suites()) or "none"
        raise InputError(f"no bundled suite {name!r}; bundled suites: {known} (coschedopt bench suites)", where="NAME")
    text = files[name].read_text(encoding="utf-8")
    intro = (
        f"# The bundled suite {name!r}, as a template: save it (coschedopt bench show {name} > my-suite.toml),\n"
        '# give it its own [suite] name = "...", edit it, and run it by its path:\n'
        "#   coschedopt bench run my-suite.toml --db my.sqlite\n"
        "# Every key: coschedopt bench show --format\n\n"
    )
    return intro + text


def format_reference() -> str:
    """The reference page of the suite file format (Markdown)."""
    return FORMAT_REFERENCE.read_text(encoding="utf-8")
