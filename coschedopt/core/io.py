"""JSON files: reading with located errors, atomic writing, dispatch on ``kind``."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import InputError
from .registry import families, family_of, get_family


def read_json(path: str | os.PathLike) -> Any:
    """Parse a JSON file; a malformed one raises InputError naming file, line and column."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", where=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", where=str(p)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg}", where=f"{p}:{exc.lineno}:{exc.colno}") from None


def write_json(path: str | os.PathLike, data: Any) -> None:
    """Write ``data`` atomically (temp file + rename): a crash never leaves half a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, allow_nan=False)
            fh.write("\n")
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def instance_from_dict(data: Any, *, repair: bool = False) -> Any:
    """Build an instance of any family from its dict (dispatch on ``kind``).

    ``repair=True`` asks the family to repair data that breaks its model's
    assumptions (pack: Eq. (1)-(2) of the profiles) instead of refusing it.
    """
    if not isinstance(data, dict):
        raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
    if "kind" not in data:
        raise InputError("missing field 'kind'", where="kind")
    family = get_family(data["kind"])
    if repair:
        if family.repair is None:
            raise InputError(f"kind {family.kind!r} has no repair", where="--repair")
        return family.repair(data)
    return family.instance_from_dict(data)


def reader_for(path: str | os.PathLike) -> Callable[[Path], Any] | None:
    """The reader a family registered for this file's suffix (``.swf.gz``), if any."""
    name = Path(path).name.lower()
    best: tuple[int, Callable[[Path], Any]] | None = None
    for kind in families():
        for suffix, read in get_family(kind).readers.items():
            if name.endswith(suffix.lower()) and (best is None or len(suffix) > best[0]):
                best = (len(suffix), read)
    return None if best is None else best[1]


def load_instance(path: str | os.PathLike, *, repair: bool = False) -> Any:
    """Read an instance file of any family; errors name the file and the field.

    JSON files dispatch on their ``kind``; a file whose suffix a family declared
    in :attr:`Family.readers` (an SWF trace, say) is read by that family.
    """
    read = reader_for(path)
    if read is not None and not str(path).lower().endswith(".json"):
        if repair:
            raise InputError("--repair applies to JSON instances only", where=str(path))
        try:
            return read(Path(path))
        except InputError as exc:
            raise exc.located(str(path)) from None
    data = read_json(path)
    try:
        return instance_from_dict(data, repair=repair)
    except InputError as exc:
        raise exc.located(str(path)) from None


def save_instance(instance: Any, path: str | os.PathLike) -> None:
    write_json(path, instance.to_dict())


def schedule_from_dict(instance: Any, data: Any) -> Any:
    """A schedule from a bare schedule dict or from a whole ``Result.to_dict()``."""
    if isinstance(data, dict) and "schedule" in data:
        data = data["schedule"]
    if not isinstance(data, dict):
        raise InputError(f"a solution must be a JSON object, got {type(data).__name__}")
    return family_of(instance).schedule_from_dict(instance, data)


def load_schedule(instance: Any, path: str | os.PathLike) -> Any:
    data = read_json(path)
    try:
        return schedule_from_dict(instance, data)
    except InputError as exc:
        raise exc.located(str(path)) from None
