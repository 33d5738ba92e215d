"""What ``record`` and ``proxy`` share on the command line (CLI code, so it lives in ``commands/``)."""

from __future__ import annotations

import argparse
from typing import TextIO

from migrator.errors import UsageError
from migrator.wire.relay import Log

PREFIX = "mcp-transcripts: "

RELAY_EPILOG = """\
The client starts this command instead of the server; everything after -- is the
server's own command line. Our diagnostics go to stderr prefixed "mcp-transcripts:",
next to the server's own stderr.

exit codes:
  the server's exit code (128 + N when signal N ended it); 2 when the server
  cannot be started or the command line is wrong"""


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    """The server command line, everything after ``--``."""
    parser.add_argument(
        "server",
        nargs=argparse.REMAINDER,
        metavar="-- SERVER COMMAND",
        help="the server's command line, after --",
    )


def server_command(args: argparse.Namespace) -> list[str]:
    """The server's command line from the parsed arguments.

    Raises:
        UsageError: none was given.
    """
    command = list(args.server)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise UsageError("no server command: put it after --, e.g. -- node server.js")
    return command


def stdio_fds(stdin: TextIO, stdout: TextIO) -> tuple[int, int]:
    """The file descriptors behind the command's stdin and stdout.

    Raises:
        UsageError: a stream is not backed by a file descriptor.
    """
    try:
        stdout.flush()
        return stdin.fileno(), stdout.fileno()
    except (AttributeError, OSError, ValueError) as exc:
        raise UsageError(
            "record and proxy need real stdin and stdout (pipes from the client)"
        ) from exc


def stderr_log(stderr: TextIO) -> Log:
    """A log function that writes ``mcp-transcripts: <message>`` lines to stderr."""

    def log(message: str) -> None:
        try:
            stderr.write(PREFIX + message + "\n")
            stderr.flush()
        except (OSError, ValueError):
            pass  # nowhere left to complain to

    return log
