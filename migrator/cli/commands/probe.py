"""``mcp-transcripts probe``: ask a live server how it answers invalid arguments."""

from __future__ import annotations

import argparse

from migrator.cli.io import IO, formatter

NAME = "probe"
HELP = "call a live server's tools with invalid arguments and judge its answers (SEP-1303)"

EPILOG = """\
Every call the probe makes has arguments the tool's own inputSchema rejects (checked with
the schema's dialect before sending). A server that does not validate runs its handler
with them: probe a test instance, not production. Tools marked destructiveHint: true are
skipped unless --include-destructive.

examples:
  mcp-transcripts probe -- node build/server.js
  mcp-transcripts probe --url http://127.0.0.1:9000/mcp --header "Authorization: Bearer $TOKEN"
  mcp-transcripts probe --out probe.jsonl --output-format sarif -- uv run server.py

exit codes:
  0 no finding at or above --fail-on; 1 findings at or above it; 2 the server could not be
  started, initialized or listed, or the command line is wrong"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add probe's arguments."""
    from migrator.cli.arguments import add_report_options
    from migrator.cli.server_arguments import add_server_argument
    from migrator.engine.results import DEFAULT_FAIL_ON

    parser.description = (
        "Start a stdio server (or connect to a Streamable HTTP one), list its tools, call each\n"
        "with arguments its inputSchema rejects, and report how it answers: an isError result\n"
        "(migrated), a -32602 error (MCP101), another error (MCP502), a success (MCP501), a crash\n"
        "(MCP503) or no answer (MCP504). `check` on its recording (--out) finds the same,\n"
        "but for crashes and silences, which a transcript cannot show."
    )
    parser.formatter_class = formatter()
    parser.epilog = EPILOG
    from migrator.cli.server_arguments import add_url_argument

    add_url_argument(
        parser, "probe a Streamable HTTP server at this MCP endpoint instead of starting one"
    )
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="an HTTP header for every request (credentials); never recorded (repeatable)",
    )
    parser.add_argument(
        "--protocol-version",
        metavar="VERSION",
        help="the protocol version to ask for in initialize (default: the newest known)",
    )
    parser.add_argument(
        "--tool",
        action="append",
        default=[],
        metavar="GLOB",
        help="probe only tools whose name matches (repeatable)",
    )
    parser.add_argument(
        "--exclude-tool",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out tools whose name matches (repeatable)",
    )
    parser.add_argument(
        "--include-destructive",
        action="store_true",
        help="also probe tools annotated destructiveHint: true",
    )
    parser.add_argument(
        "--max-cases", type=_positive_int, metavar="N", help="at most N cases per tool"
    )
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=10.0,
        metavar="SECONDS",
        help="how long to wait for each answer (default: 10)",
    )
    parser.add_argument(
        "--concurrency",
        type=_positive_int,
        default=1,
        metavar="N",
        help="calls in flight at once (default: 1, one after another)",
    )
    parser.add_argument(
        "--formats",
        action="store_true",
        help="also send values that break only a `format` (never counted as accepted)",
    )
    parser.add_argument(
        "--no-unknown-tool",
        dest="unknown_tool",
        action="store_false",
        help="do not call a tool the server did not list",
    )
    parser.add_argument(
        "--out",
        "-o",
        metavar="FILE",
        help="record the whole session to FILE (wire JSONL; check and fix read it)",
    )
    parser.add_argument(
        "--envelope",
        action="store_true",
        help='with --out: write {"ts", "direction", "message"} lines',
    )
    add_report_options(parser, fail_on_default=DEFAULT_FAIL_ON, format_note=", after the table")
    parser.add_argument(
        "--show-evidence",
        action="store_true",
        help="print the evidence behind each finding under it",
    )
    add_server_argument(parser)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def run(args: argparse.Namespace, io: IO) -> int:
    """Probe the server; 0 clean, 1 findings at or above --fail-on, 2 when it cannot be probed."""
    from migrator import api
    from migrator.engine.exitcodes import ERROR as EXIT_ERROR
    from migrator.engine.results import RunResult
    from migrator.errors import UsageError
    from migrator.live.probe.client import NEWEST_VERSION, ClientSession, SessionError
    from migrator.live.probe.prober import ProbeOptions, run_probe
    from migrator.live.probe.table import render
    from migrator.live.probe.transport import (
        Connection,
        HttpConnection,
        StdioConnection,
        Transcript,
    )
    from migrator.reporters import resolve_format

    if args.envelope and not args.out:
        raise UsageError("--envelope needs --out FILE")
    transcript = Transcript()
    connection: Connection
    from migrator.cli.server_arguments import stderr_log, warn_former_options

    warn_former_options(args, stderr_log(io.stderr))
    if args.url:
        if args.server and args.server != ["--"]:
            raise UsageError("give either --url or a server command after --, not both")
        connection = HttpConnection(args.url, _headers(args.header), transcript)
    else:
        if args.header:
            raise UsageError("--header is for --url (HTTP servers)")
        from migrator.cli.server_arguments import server_command

        connection = StdioConnection(server_command(args), transcript)
    session = ClientSession(connection, args.protocol_version or NEWEST_VERSION, args.timeout)
    options = ProbeOptions(
        include=tuple(args.tool),
        exclude=tuple(args.exclude_tool),
        include_destructive=args.include_destructive,
        max_cases=args.max_cases,
        formats=args.formats,
        concurrency=args.concurrency,
        unknown_tool=args.unknown_tool,
    )
    path = args.out or "<probe>"
    try:
        probe = run_probe(session, transcript, options, path)
    except SessionError as exc:
        tail = list(connection.stderr_tail)[-5:]
        io.stderr.write(f"mcp-transcripts: error: cannot probe {connection.description}: {exc}\n")
        for line in tail:
            io.stderr.write(f"mcp-transcripts:   server stderr: {line}\n")
        return EXIT_ERROR
    finally:
        connection.close()
    if args.out:
        transcript.save(args.out, envelope=args.envelope)
    result = RunResult(files=[probe.report], seconds=probe.seconds)
    output_format = resolve_format(args.output_format).value
    table = render(probe)
    if output_format == "text":
        io.stdout.write(table + "\n")
    else:
        io.stderr.write(table)  # stdout stays one machine-readable document
    api.write_report(
        result, io.stdout, output_format, show_evidence=args.show_evidence, fail_on=args.fail_on
    )
    io.stderr.write(result.summary() + "\n")
    return result.exit_code(args.fail_on)


def _headers(entries: list[str]) -> dict[str, str]:
    from migrator.errors import UsageError

    headers: dict[str, str] = {}
    for entry in entries:
        name, sep, value = entry.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--header {entry!r}: write it as 'Name: value'")
        headers[name.strip()] = value.strip()
    return headers
