"""What ``record`` and ``proxy`` share on the command line (CLI code, so it lives in ``commands/``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from migrator.errors import UsageError
from migrator.live.relay import DEFAULT_LISTEN, DEFAULT_TIMEOUT, Log

if TYPE_CHECKING:
    from migrator.live.http_proxy import HttpSettings

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


HTTP_EPILOG = """\
With --upstream URL the server is a Streamable HTTP endpoint instead: the command
listens on --listen (loopback, a free port, by default), prints the local URL
(the upstream's path on the local address) and runs until Ctrl-C. Point the
client at the printed URL. Needs the HTTP extra: pip install 'mcp-transcripts[http]'."""


def add_http_arguments(parser: argparse.ArgumentParser) -> None:
    """``--upstream``, ``--listen`` and what goes with them (record and proxy alike)."""
    group = parser.add_argument_group("Streamable HTTP servers")
    group.add_argument(
        "--upstream",
        metavar="URL",
        help="the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp",
    )
    group.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help=f"where to listen (default {DEFAULT_LISTEN}: loopback, a free port); "
        "an address other than loopback prints a warning",
    )
    group.add_argument(
        "--har",
        metavar="FILE",
        help="also write the original traffic as HAR 1.2 to FILE when stopped",
    )
    group.add_argument(
        "--record-secrets",
        action="store_true",
        help="keep Authorization, cookies and other credential headers in the HAR file",
    )
    group.add_argument(
        "--upstream-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long to wait for the upstream to begin its answer (default {DEFAULT_TIMEOUT:g}); "
        "then the client gets 504",
    )


def http_settings(args: argparse.Namespace, **kwargs: object) -> HttpSettings:
    """The HTTP settings from the parsed arguments (the upstream's, not stdio's).

    Raises:
        UsageError: a server command was given as well, or HTTP-only options without --upstream.
    """
    from migrator.live.http_proxy import HttpSettings

    if [part for part in args.server if part != "--"]:
        raise UsageError("give either --upstream URL or a server command after --, not both")
    return HttpSettings(
        upstream=args.upstream,
        listen=args.listen or DEFAULT_LISTEN,
        har=args.har,
        record_secrets=args.record_secrets,
        timeout=args.upstream_timeout,
        **kwargs,  # type: ignore[arg-type]
    )


def refuse_http_only_options(args: argparse.Namespace) -> None:
    """``--listen``, ``--har`` and ``--record-secrets`` mean nothing without ``--upstream``.

    Raises:
        UsageError: one of them was given.
    """
    for flag, value in (
        ("--listen", args.listen),
        ("--har", args.har),
        ("--record-secrets", args.record_secrets),
    ):
        if value:
            raise UsageError(f"{flag} needs --upstream URL (it is for Streamable HTTP servers)")
