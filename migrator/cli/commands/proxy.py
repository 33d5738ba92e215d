"""``mcp-transcripts proxy``: fix the server's answers on the wire, as they pass."""

from __future__ import annotations

import argparse

from migrator.cli.io import IO, formatter

NAME = "proxy"
HELP = "run a stdio or Streamable HTTP server behind a proxy that fixes its answers live"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add proxy's arguments."""
    from migrator.cli.arguments import add_fix_options
    from migrator.cli.server_arguments import (
        HTTP_EPILOG,
        RELAY_EPILOG,
        add_http_arguments,
        add_server_argument,
    )

    parser.description = (
        "Start the server and pass every line both ways; answers the rules can fix\n"
        "(input validation errors sent as JSON-RPC errors) reach the client rewritten\n"
        "as tool results with isError: true. Everything else passes byte for byte."
    )
    parser.formatter_class = formatter()
    parser.epilog = (
        RELAY_EPILOG
        + "\n\n"
        + HTTP_EPILOG
        + "\n\nexamples:\n  mcp-transcripts proxy --record session.jsonl -- node server.js"
        + "\n  mcp-transcripts proxy --url http://127.0.0.1:9000/mcp --listen 127.0.0.1:9100"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="also record the ORIGINAL traffic (before any rewrite) to FILE, as wire JSONL "
        "(envelope JSONL with HTTP metadata for --url)",
    )
    add_fix_options(parser)
    parser.add_argument(
        "--assume-version",
        metavar="VERSION",
        help="protocol version for a session without an initialize handshake, e.g. 2025-11-25",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="do not log each finding and the closing summary to stderr",
    )
    add_http_arguments(parser)
    add_server_argument(parser)


def run(args: argparse.Namespace, io: IO) -> int:
    """Relay and fix until the server exits (or, over HTTP, until interrupted)."""
    from migrator.cli.arguments import settings
    from migrator.cli.server_arguments import serve
    from migrator.engine.config import Overrides
    from migrator.engine.options import Mode

    # Live traffic follows the project's configuration file as check and fix do
    # (select, ignore, the in-house patterns); the command line wins over it.
    given = Overrides(
        unsafe_fixes=args.unsafe_fixes,
        provenance=args.provenance,
        assume_version=args.assume_version,
        mode=Mode.FIX,
    )
    _, options = settings(io, given, verbose=False)
    return serve(args, io, options=options, record=args.record, quiet=args.quiet)
