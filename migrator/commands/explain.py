"""``mcp-transcripts explain CODE``: print a rule's documentation."""

from __future__ import annotations

import argparse

from migrator.commands import IO

NAME = "explain"
HELP = "explain one rule"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add explain's argument."""
    parser.description = "Print a rule's documentation: what it finds, before, after, why."
    parser.add_argument("rule", metavar="CODE", help="a rule code (MCP101) or slug")


def run(args: argparse.Namespace, io: IO) -> int:
    """Print the rule's docstring."""
    from migrator.rules import get_rule

    info = get_rule(args.rule)
    io.stdout.write(f"{info.title}\n\n{info.doc.strip()}\n")
    return 0
