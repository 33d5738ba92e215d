"""``mcp-transcripts fix``: rewrite what the rules can fix."""

from __future__ import annotations

import argparse

from migrator.cli.arguments import (
    add_fix_options,
    add_input_options,
    overrides,
    settings,
)
from migrator.cli.io import IO, formatter
from migrator.cli.progress import run_files

NAME = "fix"
HELP = "rewrite files in place (atomically)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add fix's arguments."""
    parser.description = "Rewrite what the rules can fix; every other byte stays as it was."
    parser.formatter_class = formatter()
    add_input_options(parser)
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print a unified diff instead of writing; exit 1 if anything would change",
    )
    add_fix_options(parser)
    parser.add_argument(
        "--backup",
        metavar="SUFFIX",
        help="keep each original next to its rewrite, as PATH + SUFFIX (e.g. .orig)",
    )
    parser.add_argument(
        "--output-dir",
        metavar="DIR|URL",
        help="write the fixed copies into this folder (or under this URL prefix), each at its "
        "place below the folder or prefix it was found in; the originals are only read. "
        "Only files that change are written, whole, once validated (gzip input gets a gzip "
        "copy). Needed to fix objects at URLs, which are never rewritten in place",
    )


def run(args: argparse.Namespace, io: IO) -> int:
    """Fix the files (or print the diff); the exit code is :meth:`RunResult.exit_code`."""
    from migrator.engine.options import Mode

    mode = Mode.DIFF if args.diff else Mode.FIX
    given = overrides(args, mode=mode, unsafe_fixes=args.unsafe_fixes, provenance=args.provenance)
    config, options = settings(io, given, verbose=args.verbose)
    result = run_files(args, io, config, options, backup=args.backup, output_dir=args.output_dir)
    if not args.quiet:
        io.stderr.write(result.summary(mode, unsafe_fixes=options.unsafe_fixes) + "\n")
    return result.exit_code(mode=mode)
