"""``mcp-transcripts explain CODE``: print a rule's documentation."""

from __future__ import annotations

import argparse

from migrator.cli.io import IO

NAME = "explain"
HELP = "explain one rule"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add explain's argument."""
    parser.description = (
        "Print a rule's page: what it does, why, an example (the After is what fix writes), "
        "the fix and its safety, options, related rules, known limits, and the page's web address."
    )
    parser.add_argument("rule", metavar="CODE", help="a rule code (MCP101) or slug")


def run(args: argparse.Namespace, io: IO) -> int:
    """Print the rule's page, the text the docs site shows, ending with its address there."""
    from migrator.rules.page import render_page
    from migrator.rules.registry import get_rule

    io.stdout.write(render_page(get_rule(args.rule), "en", web=False))
    return 0
