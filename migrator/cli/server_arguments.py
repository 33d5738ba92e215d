"""What ``record``, ``proxy`` and ``probe`` share on the command line: the server to talk to.

A server is either a command line after ``--`` (stdio) or ``--url URL`` (Streamable HTTP);
the three commands spell both the same way.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from migrator.errors import UsageError
from migrator.live.relay import DEFAULT_LISTEN, DEFAULT_TIMEOUT, Log

if TYPE_CHECKING:
    from migrator.cli.io import IO
    from migrator.engine.options import Options
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
With --url URL the server is a Streamable HTTP endpoint instead: the command
listens on --listen (loopback, a free port, by default), prints the local URL
(the upstream's path on the local address) and runs until Ctrl-C. Point the
client at the printed URL. Needs the HTTP extra: pip install 'mcp-transcripts[http]'."""


class _FormerName(argparse.Action):
    """A former spelling of an option: stores the value and notes the spelling, so that
    the command can warn once (argparse has no stream of ours to warn on)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.former_options = [*namespace.former_options, option_string]


def add_url_argument(group: argparse._ArgumentGroup | argparse.ArgumentParser, help: str) -> None:
    """``--url URL``: the server's Streamable HTTP endpoint (``--upstream`` still works, and warns)."""
    group.add_argument("--url", metavar="URL", help=help)
    group.add_argument("--upstream", dest="url", action=_FormerName, help=argparse.SUPPRESS)
    group.set_defaults(former_options=[])


def warn_former_options(args: argparse.Namespace, log: Log) -> None:
    """Say once per option that a former spelling was used, and what to write instead."""
    replacements = {"--upstream": "--url"}
    for spelling in dict.fromkeys(args.former_options):
        log(
            f"warning: {spelling} is now {replacements[spelling]}; the old name goes away in the next release"
        )


def add_http_arguments(parser: argparse.ArgumentParser) -> None:
    """``--url``, ``--listen`` and what goes with them (record and proxy alike)."""
    group = parser.add_argument_group("Streamable HTTP servers")
    add_url_argument(
        group, "the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp"
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
        UsageError: a server command was given as well, or HTTP-only options without --url.
    """
    from migrator.live.http_proxy import HttpSettings

    if [part for part in args.server if part != "--"]:
        raise UsageError("give either --url URL or a server command after --, not both")
    return HttpSettings(
        upstream=args.url,
        listen=args.listen or DEFAULT_LISTEN,
        har=args.har,
        record_secrets=args.record_secrets,
        timeout=args.upstream_timeout,
        **kwargs,  # type: ignore[arg-type]
    )


def refuse_http_only_options(args: argparse.Namespace) -> None:
    """``--listen``, ``--har`` and ``--record-secrets`` mean nothing without ``--url``.

    Raises:
        UsageError: one of them was given.
    """
    for flag, value in (
        ("--listen", args.listen),
        ("--har", args.har),
        ("--record-secrets", args.record_secrets),
    ):
        if value:
            raise UsageError(f"{flag} needs --url URL (it is for Streamable HTTP servers)")


def serve(
    args: argparse.Namespace,
    io: IO,
    *,
    options: Options | None,
    record: str | None,
    envelope: bool = False,
    quiet: bool = False,
) -> int:
    """Relay to the server the arguments name, over HTTP (``--url``) or stdio (``--``).

    ``options`` makes the relay a fixer (``proxy``); without them it only records
    (``record``). Returns the exit code: the stdio server's own, or the HTTP listener's.

    Raises:
        UsageError: the arguments contradict each other, or the server cannot be reached.
    """
    log = stderr_log(io.stderr)
    warn_former_options(args, log)
    if args.url:
        from migrator.live import http_proxy

        extra = {"options": options, "quiet": quiet} if options is not None else {}
        return http_proxy.serve(http_settings(args, record=record, **extra), log, io.stdout)
    refuse_http_only_options(args)
    from migrator.live import stdio_proxy

    stdio = stdio_proxy.StdioSettings(
        server_command(args), options=options, record=record, envelope=envelope, quiet=quiet
    )
    return stdio_proxy.serve(stdio, log, *stdio_fds(io.stdin, io.stdout))
