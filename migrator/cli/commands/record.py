"""``mcp-transcripts record``: a transparent stdio proxy that records the traffic."""

from __future__ import annotations

import argparse

from migrator.cli.io import IO, formatter

NAME = "record"
HELP = "run a stdio or Streamable HTTP server behind a transparent proxy and record its traffic"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add record's arguments."""
    from migrator.cli.server_arguments import (
        HTTP_EPILOG,
        RELAY_EPILOG,
        add_http_arguments,
        add_server_argument,
    )

    parser.description = (
        "Start the server, pass every line both ways unchanged, and append each line to FILE\n"
        "as it passes (flushed line by line, so a crash keeps everything up to it)."
    )
    parser.formatter_class = formatter()
    parser.epilog = (
        RELAY_EPILOG
        + "\n\n"
        + HTTP_EPILOG
        + " Over HTTP the recording is always envelope JSONL, with the HTTP method,\n"
        + "status and session id of each message."
        + "\n\nexamples:\n  mcp-transcripts record --out session.jsonl -- node server.js"
        + "\n  mcp-transcripts record --url https://mcp.example.com/mcp --listen 127.0.0.1:9100 --out session.jsonl"
    )
    parser.add_argument(
        "--out",
        "-o",
        required=True,
        metavar="FILE",
        help="the recording (created or truncated): wire JSONL, one message per line",
    )
    parser.add_argument(
        "--envelope",
        action="store_true",
        help='write {"ts", "direction", "message"} lines instead; the message is embedded byte for byte',
    )
    add_http_arguments(parser)
    add_server_argument(parser)


def run(args: argparse.Namespace, io: IO) -> int:
    """Relay and record until the server exits (or, over HTTP, until interrupted)."""
    from migrator.cli.server_arguments import serve

    return serve(args, io, options=None, record=args.out, envelope=args.envelope)
