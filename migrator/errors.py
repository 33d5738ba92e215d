"""The one exception hierarchy of the migrator.

The core never prints and never exits; it raises these, and the CLI turns them
into a message naming the file (and line, where there is one) and exit code 2.
"""

from __future__ import annotations


class MigratorError(Exception):
    """Base class of every error the migrator reports to its user."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __reduce__(self) -> tuple[object, ...]:
        # Keep the path and line when an error crosses to another process (--jobs).
        return (_rebuild, (type(self), self.message, self.path, self.line))

    def __str__(self) -> str:
        where = self.path or ""
        if self.path is not None and self.line is not None:
            where = f"{self.path}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


class UsageError(MigratorError):
    """The command line asks for something that cannot be done."""


class InputError(MigratorError):
    """A file cannot be read as a transcript at all (not a single bad line)."""


class NotATranscriptError(InputError):
    """A file holds no MCP traffic in any known format (a config file, a README).

    Named on the command line, it is an error; met while walking a folder, it
    is passed over quietly.
    """


class UnsafeRewriteError(MigratorError):
    """A rewrite produced a message that fails validation; nothing was written."""


class WriteError(MigratorError):
    """Writing the result failed; the original file is intact."""


def _rebuild(
    cls: type[MigratorError], message: str, path: str | None, line: int | None
) -> MigratorError:
    return cls(message, path=path, line=line)
