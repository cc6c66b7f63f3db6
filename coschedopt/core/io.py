"""JSON files: reading with located errors, atomic writing, dispatch on ``kind``.

Output paths are checked before any work (:func:`check_output_file`,
:func:`check_output_dir`) and every write failure becomes one
:class:`InputError` naming the path and the problem, never a traceback.  A file
written here keeps the permissions of the file it replaces, else gets the
user's umask, as ``open()`` would give it.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
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
    except ValueError:  # Python refuses to convert an integer of more than 4300 digits
        raise InputError("malformed JSON: an integer of more than 4300 digits", where=str(p)) from None


def _is_a_directory(path: str | os.PathLike, example: str) -> InputError:
    return InputError(f"is a directory; give a file name inside it, e.g. {Path(path) / example}", where=str(path))


def output_error(path: str | os.PathLike, exc: OSError, *, example: str = "out.json") -> InputError:
    """One line for an output path that cannot be written: the path and what is wrong with it
    (``example``: a file name to suggest when the path is a directory)."""
    p = Path(path)
    if isinstance(exc, IsADirectoryError) or p.is_dir():
        return _is_a_directory(path, example)
    for parent in p.parents:
        if parent.exists() and not parent.is_dir():
            return InputError(f"{parent} is a file, not a directory", where=str(path))
    return InputError(f"cannot write here: {exc.strerror or exc}", where=str(path))


def _probe_directory(directory: Path, shown: str) -> None:
    """Raise unless a file can be created in ``directory`` (or in its nearest existing ancestor)."""
    for d in (directory, *directory.parents):
        if d.exists():
            if not d.is_dir():
                raise InputError(f"{d} is a file, not a directory", where=shown)
            try:
                fd, tmp = tempfile.mkstemp(prefix=".coschedopt-probe.", dir=d)
            except OSError as exc:
                raise InputError(f"cannot write in {d}: {exc.strerror or exc}", where=shown) from None
            os.close(fd)
            os.unlink(tmp)
            return


def check_output_file(path: str | os.PathLike, *, example: str = "out.json") -> Path:
    """Refuse, before any work, an output file that cannot be written (a directory, a file
    used as a directory, a place where nothing can be created); returns the path."""
    p = Path(path)
    if p.is_dir():
        raise _is_a_directory(path, example)
    _probe_directory(p.parent, str(path))
    return p


def check_output_dir(path: str | os.PathLike) -> Path:
    """Refuse, before any work, an output folder that is a file or cannot be created; returns the path."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise InputError("is a file, not a folder: give a folder for the report (e.g. reports/)", where=str(path))
    _probe_directory(p, str(path))
    return p


_umask_lock = threading.Lock()


def umask_file_mode() -> int:
    """The mode ``open()`` creates a file with: 0666 less the user's umask."""
    with _umask_lock:  # the umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return 0o666 & ~mask


def _new_file_mode(path: Path) -> int:
    """The mode ``path`` keeps if it exists, else what ``open()`` would create it with (0666 less the umask)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return umask_file_mode()


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` atomically (temp file + rename): a crash never leaves half a file.

    A file replaced keeps its permissions; a new one gets the umask's (``mkstemp``
    alone would make it 0600).  A path that cannot be written raises one
    :class:`InputError` naming it.
    """
    _write_atomic(path, [text])


def _write_atomic(path: str | os.PathLike, pieces: Iterable[str]) -> None:
    """:func:`write_text` of the concatenation of ``pieces``, written as they come (about a megabyte at a time)."""
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent)
    except OSError as exc:
        raise output_error(path, exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            batch: list[str] = []
            held = 0
            for piece in pieces:
                batch.append(piece)
                held += len(piece)
                if held >= 1 << 20:
                    fh.write("".join(batch))
                    batch.clear()
                    held = 0
            fh.write("".join(batch))
        os.chmod(tmp, _new_file_mode(p))
        os.replace(tmp, p)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise output_error(path, exc) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | os.PathLike, data: Any) -> None:
    """Write ``data`` as JSON atomically, as :func:`write_text` does (NaN and infinities refused).

    The text is ``json.dumps(data, indent=1, allow_nan=False)`` and a newline, streamed to the file
    (:func:`json_pieces`): a result with its instance of 280,000 jobs is never one string in memory."""
    _write_atomic(path, itertools.chain(json_pieces(data), ("\n",)))  # what json refuses leaves no file


_FLAT = frozenset((str, int, float, bool, type(None)))
_encode_str = json.encoder.encode_basestring_ascii


def json_pieces(data: Any, level: int = 0) -> Iterator[str]:
    """The text of ``json.dumps(data, indent=1, allow_nan=False)`` in pieces: the same characters.

    json's own encoder runs in Python, item by item, when it indents; here a non-empty list or dict whose
    items are all numbers, strings, booleans or null (a job of a schedule, say) is written by json's C
    encoder in one call, the indented separator as its item separator: a whole trace's result with its
    instance is written about three times faster."""
    if type(data) in (list, tuple, dict) and data:
        values = data.values() if type(data) is dict else data
        if all(type(v) in _FLAT for v in values):
            inner = _flat_encoder(level + 1).encode(data)
            yield f"{inner[0]}\n{' ' * (level + 1)}{inner[1:-1]}\n{' ' * level}{inner[-1]}"
            return
    if isinstance(data, list | tuple):
        if not data:
            yield "[]"
            return
        yield "[\n" + " " * (level + 1)
        for start in range(0, len(data), _CHUNK):
            if start:
                yield ",\n" + " " * (level + 1)
            chunk = data[start : start + _CHUNK]
            if (
                all(type(item) is dict and item for item in chunk)
                and {type(v) for item in chunk for v in item.values()} <= _FLAT
            ):
                yield _flat_dicts(chunk, level + 1)
                continue
            for i, item in enumerate(chunk):
                if i:
                    yield ",\n" + " " * (level + 1)
                yield from json_pieces(item, level + 1)
        yield "\n" + " " * level + "]"
    elif isinstance(data, dict):
        if not data:
            yield "{}"
            return
        yield "{\n" + " " * (level + 1)
        for i, (key, value) in enumerate(data.items()):
            if i:
                yield ",\n" + " " * (level + 1)
            yield _encode_str(key if isinstance(key, str) else _json_key(key)) + ": "
            yield from json_pieces(value, level + 1)
        yield "\n" + " " * level + "}"
    else:
        yield _flat_encoder(0).encode(data)


#: list items written per piece; a list of objects of plain values (a schedule's jobs) is written a chunk at a time
_CHUNK = 4096
#: the item separator of :func:`_flat_dicts`' one encoding: json's output never holds it (it escapes control
#: characters), so it marks where the indentation goes
_MARK = "\x00"


def _flat_dicts(items: Any, level: int) -> str:
    """``items`` (non-empty dicts of plain values) as json's indented text of list items at ``level``, joined by
    the list's separator: one call of the C encoder for all, the marked separators then replaced (between two
    objects, ``},<mark>{``: no plain value ends with a brace nor starts a key with one)."""
    text = _flat_encoder(-1).encode(list(items))
    outer, inner = "\n" + " " * level, "\n" + " " * (level + 1)
    body = text[2:-2].replace("}," + _MARK + "{", f"{outer}}},{outer}{{{inner}").replace("," + _MARK, "," + inner)
    return "{" + inner + body + outer + "}"


def _json_key(key: Any) -> str:
    """A dict key that is not a string as json writes it (numbers, booleans, null); anything else raises."""
    if isinstance(key, float):
        return _flat_encoder(0).encode(key)
    if key is True or key is False or key is None:
        return json.dumps(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


@functools.cache
def _flat_encoder(level: int) -> json.JSONEncoder:
    """json's C encoder, its items separated as json indents them at ``level`` (at -1: by :data:`_MARK`)."""
    item_separator = "," + _MARK if level < 0 else ",\n" + " " * level
    return json.JSONEncoder(separators=(item_separator, ": "), allow_nan=False)


def instance_from_dict(data: Any, *, repair: bool = False) -> Any:
    """Build an instance of any family from its dict (dispatch on ``kind``).

    ``repair=True`` asks the family to repair data that breaks its model's
    assumptions (pack: Eq. (1)-(2) of the profiles) instead of refusing it.
    """
    if not isinstance(data, dict):
        raise InputError(f"an instance must be a JSON object, got {type(data).__name__}")
    if "kind" not in data:
        if "schedule" in data:  # a solution given where an instance was expected (two files swapped, say)
            raise InputError(f"this is {_solution_of(data)}, not an instance")
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


def _solution_of(data: dict) -> str:
    """How a solution file describes itself: ``a 'pack' solution (method enumerate)``."""
    family, method = data.get("family"), data.get("method")
    what = f"a {family!r} solution" if isinstance(family, str) and family else "a solution"
    return f"{what} (method {method})" if isinstance(method, str) and method else what


def schedule_from_dict(instance: Any, data: Any) -> Any:
    """A schedule from a bare schedule dict or from a whole ``Result.to_dict()``."""
    if isinstance(data, dict) and "schedule" in data:
        family = data.get("family")
        if isinstance(family, str) and family and family != instance.kind:
            raise InputError(
                f"this is {_solution_of(data)}, not a solution of the {instance.kind!r} instance {instance.name!r}"
            )
        data = data["schedule"]
    elif isinstance(data, dict) and "kind" in data:
        raise InputError(
            f"this is a {data['kind']!r} instance, not a solution: solve it first "
            "(coschedopt solve INSTANCE -m METHOD -o sol.json)"
        )
    if not isinstance(data, dict):
        raise InputError(f"a solution must be a JSON object, got {type(data).__name__}")
    return family_of(instance).schedule_from_dict(instance, data)


def load_schedule(instance: Any, path: str | os.PathLike) -> Any:
    data = read_json(path)
    try:
        return schedule_from_dict(instance, data)
    except InputError as exc:
        raise exc.located(str(path)) from None
