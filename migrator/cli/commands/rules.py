"""``mcp-transcripts rules``: list the rules."""

from __future__ import annotations

import argparse
import json

from migrator.cli.io import IO

NAME = "rules"
HELP = "list the rules"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the rules command's arguments."""
    parser.description = "List every rule with its code, slug, default severity and fix."
    parser.add_argument(
        "--output-format",
        "--format",
        dest="output_format",
        choices=["text", "json"],
        default="text",
        help="text (default) or json",
    )


def run(args: argparse.Namespace, io: IO) -> int:
    """Print the rule table."""
    from migrator.rules.registry import all_rules

    infos = all_rules()
    if args.output_format == "json":
        rows = [
            {
                "code": r.code,
                "slug": r.slug,
                "summary": r.summary,
                "severity": r.default_severity.value,
                "fix": r.fix.value,
            }
            for r in infos
        ]
        io.stdout.write(json.dumps(rows, indent=2) + "\n")
        return 0
    for r in infos:
        io.stdout.write(
            f"{r.code}  {r.slug:<42} {r.default_severity.value:<8} fix: {r.fix.value:<7} {r.summary}\n"
        )
    return 0
