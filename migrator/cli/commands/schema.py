"""``mcp-transcripts schema``: fetch and list the official MCP schemas for ``--mcp-schema``."""

from __future__ import annotations

import argparse

from migrator.cli.io import IO, formatter

NAME = "schema"
HELP = "fetch the official MCP schemas (for --mcp-schema cached)"

EPILOG = """\
examples:
  mcp-transcripts schema fetch 2025-11-25
  mcp-transcripts schema list
  mcp-transcripts check --mcp-schema cached traces/"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the schema subcommands."""
    from migrator.judge.official import PINNED_SHA256

    parser.description = (
        "Download an official MCP schema.json (pinned specification commit, verified sha256) into "
        "the user cache folder, for full-surface validation with `check --mcp-schema cached` (MCP206)."
    )
    parser.epilog = EPILOG
    parser.formatter_class = formatter()
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    fetch = actions.add_parser("fetch", help="download and verify one version's schema")
    fetch.add_argument(
        "version", metavar="VERSION", help=f"a protocol version: {', '.join(PINNED_SHA256)}"
    )
    fetch.add_argument("--url", help="download from here instead ({version} is filled in)")
    fetch.add_argument(
        "--sha256", help="expected checksum (required for versions without a pinned one)"
    )
    actions.add_parser("list", help="list the cached schemas")


def run(args: argparse.Namespace, io: IO) -> int:
    """Fetch or list."""
    from migrator.engine import schema_download
    from migrator.judge import official

    if args.action == "fetch":
        path = schema_download.fetch(args.version, args.url, args.sha256)
        io.stdout.write(f"{path}\n")
        io.stderr.write(f"Fetched and verified the {args.version} schema.\n")
        return 0
    found = sorted(official.cache_dir().glob("*/schema.json"))
    for path in found:
        io.stdout.write(f"{path.parent.name}\t{path}\n")
    if not found:
        io.stderr.write(
            f"No schema cached in {official.cache_dir()}; run `mcp-transcripts schema fetch VERSION`.\n"
        )
    return 0
