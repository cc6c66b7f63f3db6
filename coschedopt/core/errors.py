"""The one error type for bad input, carrying where the problem is.

Every family raises :class:`InputError` (a ``ValueError``) for data that breaks
its model; the message always names the field and the offending value, and the
I/O layer prefixes the file (and line, where JSON parsing knows it).
"""

from __future__ import annotations

from collections.abc import Collection


class InputError(ValueError):
    """Bad input: ``where`` locates it (file, line, field path), ``message`` says what."""

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    def located(self, prefix: str) -> InputError:
        """The same error, with ``prefix`` (a file name, say) put in front of its location,
        unless the location already starts with it (a reader that names its file and line)."""
        if self.where and self.where.startswith(prefix):
            return self
        where = f"{prefix}: {self.where}" if self.where else prefix
        return InputError(self.message, where=where)


def refuse_unknown(
    data: dict, allowed: Collection[str], where: str = "", *, label: str = "fields", show_value: bool = False
) -> None:
    """One :class:`InputError` for the first key of the JSON object ``data`` outside ``allowed``, located at
    ``where.key`` (``key`` at the top level) and listing the allowed keys (in their order when given as a
    sequence, sorted when a set); ``show_value`` puts the offending value in the message too."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        key = unknown[0]
        shown = f"{key!r} = {data[key]!r}" if show_value else repr(key)
        names = allowed if isinstance(allowed, list | tuple) else sorted(allowed)
        raise InputError(
            f"unknown field {shown}; {label}: {', '.join(names)}", where=f"{where}.{key}" if where else key
        )


class MethodRefused(InputError):
    """A method asked for an instance outside what it can take (size, k, ...)."""
