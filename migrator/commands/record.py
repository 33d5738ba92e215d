"""``mcp-transcripts record``: a transparent stdio proxy that records the traffic."""

from __future__ import annotations

import argparse

from migrator.commands import IO, formatter

NAME = "record"
HELP = "run a stdio server behind a transparent proxy and record its traffic"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add record's arguments."""
    from migrator.commands.relay_options import RELAY_EPILOG, add_server_argument

    parser.description = (
        "Start the server, pass every line both ways unchanged, and append each line to FILE\n"
        "as it passes (flushed line by line, so a crash keeps everything up to it)."
    )
    parser.formatter_class = formatter()
    parser.epilog = (
        RELAY_EPILOG + "\n\nexample:\n  mcp-transcripts record --out session.jsonl -- node server.js"
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
    add_server_argument(parser)


def run(args: argparse.Namespace, io: IO) -> int:
    """Relay and record until the server exits; return its exit code."""
    from migrator.commands.relay_options import server_command, stderr_log, stdio_fds
    from migrator.wire.recording import Recorder
    from migrator.wire.relay import Relay

    command = server_command(args)
    stdin_fd, stdout_fd = stdio_fds(io.stdin, io.stdout)
    log = stderr_log(io.stderr)
    recorder = Recorder.open(args.out, envelope=args.envelope, log=log)
    try:
        return Relay(command, log=log, sink=recorder, stdin_fd=stdin_fd, stdout_fd=stdout_fd).run()
    finally:
        recorder.close()
