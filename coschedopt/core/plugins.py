"""Families, methods, generators and commands come from plug-ins: the entry-point group ``coschedopt.plugins``.

Each entry point names a module whose import registers things with the registry
(:func:`~coschedopt.core.registry.register_family`, :func:`~coschedopt.core.registry.method`,
:func:`~coschedopt.core.commands.register_generator`, ...).  The toolkit's own seven
families are entry points of the ``coschedopt`` distribution like any other
package's, so a user's package adds a heuristic or a whole family by declaring

.. code-block:: toml

    [project.entry-points."coschedopt.plugins"]
    my-heuristics = "my_package.coschedopt_methods"

and ``coschedopt solve --method theirs`` sees it after ``pip install``.
With ``COSCHEDOPT_NO_PLUGINS=1`` in the environment only the toolkit's own
families load: what a user without any other package sees (the committed
notebooks are executed that way).

Loading is lazy: nothing is imported at ``import coschedopt``; the registry's
accessors (``families()``, ``get_family()``, ``methods()``, the generators and
commands) call :func:`load_plugins` on their first use, which imports every entry
point once, the toolkit's own first.  A plug-in that fails to import is reported
on stderr by name and left out; the others load.  A plug-in registering a name
that is already taken raises :class:`PluginConflict`, naming both packages.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import sys
import threading

from .errors import InputError

#: the entry-point group every plug-in (the built-in families included) declares
GROUP = "coschedopt.plugins"
#: the distribution whose entry points are the toolkit's own (loaded first)
TOOLKIT = "coschedopt"
#: set to anything but ``""`` or ``"0"``: load the toolkit's own plug-ins only, none of other packages
NO_PLUGINS_ENV = "COSCHEDOPT_NO_PLUGINS"


class PluginConflict(InputError):
    """A plug-in registered a family, method, generator or command name that another package registered first."""


_lock = threading.RLock()
_state = {"loaded": False, "loading": False}
#: entry-point name -> (distribution, module) of every plug-in imported
_LOADED: dict[str, tuple[str, str]] = {}
#: entry-point name -> one line saying why it was left out
_FAILED: dict[str, str] = {}


def _distribution(ep: importlib.metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else "?"


def entry_points() -> list[importlib.metadata.EntryPoint]:
    """The group's entry points, the toolkit's own first, then by distribution and name (the toolkit's
    only when ``COSCHEDOPT_NO_PLUGINS`` is set)."""
    eps = importlib.metadata.entry_points(group=GROUP)
    if os.environ.get(NO_PLUGINS_ENV, "") not in ("", "0"):
        eps = [ep for ep in eps if _distribution(ep) == TOOLKIT]
    unique = {(ep.name, ep.value): ep for ep in eps}  # an editable install may list its metadata twice
    return sorted(unique.values(), key=lambda ep: (_distribution(ep) != TOOLKIT, _distribution(ep), ep.name))


def plugin_names() -> list[str]:
    """The entry-point names of the group, without importing anything (``coschedopt --help`` lists them)."""
    return [ep.name for ep in entry_points()]


def load_plugins() -> None:
    """Import every plug-in once (see the module docstring); later calls return at once.

    Re-entrant calls (a plug-in's import asking the registry for a family) return
    without loading, so a family may look itself up while it registers.
    """
    if _state["loaded"]:
        return
    with _lock:
        if _state["loaded"] or _state["loading"]:
            return
        _state["loading"] = True
        try:
            for ep in entry_points():
                _load_one(ep)
            _state["loaded"] = True
        finally:
            _state["loading"] = False


def _load_one(ep: importlib.metadata.EntryPoint) -> None:
    if ep.name in _LOADED or ep.name in _FAILED:
        return
    dist = _distribution(ep)
    try:
        importlib.import_module(ep.value.partition(":")[0])
    except PluginConflict:
        raise
    except ValueError as exc:  # the registry refuses a name taken by another package
        if "already" not in str(exc):
            raise
        raise PluginConflict(
            f"{exc}; registered again by plug-in {ep.name!r} (package {dist!r}, module {ep.value!r})"
        ) from None
    except Exception as exc:  # a broken plug-in must not take the other families down
        line = f"{type(exc).__name__}: {exc}".splitlines()[0]
        _FAILED[ep.name] = line
        print(
            f"coschedopt: plug-in {ep.name!r} (package {dist!r}, module {ep.value!r}) failed to import and is "
            f"left out: {line}",
            file=sys.stderr,
        )
        return
    _LOADED[ep.name] = (dist, ep.value)


def loaded_plugins() -> dict[str, tuple[str, str]]:
    """``{entry-point name: (distribution, module)}`` of the plug-ins imported so far."""
    return dict(_LOADED)


def failed_plugins() -> dict[str, str]:
    """``{entry-point name: why}`` of the plug-ins that failed to import."""
    return dict(_FAILED)
