"""The one error type for bad input, carrying where the problem is.

Every family raises :class:`InputError` (a ``ValueError``) for data that breaks
its model; the message always names the field and the offending value, and the
I/O layer prefixes the file (and line, where JSON parsing knows it).
"""

from __future__ import annotations


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


class MethodRefused(InputError):
    """A method asked for an instance outside what it can take (size, k, ...)."""
