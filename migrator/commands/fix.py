"""``mcp-transcripts fix``: rewrite what the rules can fix."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from migrator.commands import IO, formatter
from migrator.commands.common import (
    FileTask,
    add_input_options,
    options_for,
    options_from_args,
    run_files,
)
from migrator.exitcodes import CHANGES as EXIT_CHANGES
from migrator.exitcodes import ERROR as EXIT_ERROR
from migrator.exitcodes import OK as EXIT_OK
from migrator.reporters import RunResult

if TYPE_CHECKING:
    from migrator.engine import FileReport

NAME = "fix"
HELP = "rewrite files in place (atomically)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add fix's arguments."""
    parser.description = "Rewrite what the rules can fix; every other byte stays as it was."
    parser.formatter_class = formatter()
    add_input_options(parser)
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing; exit 1 if anything would change")
    parser.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes (MCP102, MCP103, MCP104)")
    parser.add_argument("--no-provenance", dest="provenance", action="store_false", help='do not keep the original under _meta["io.github.mcp-transcripts/original-error"]')
    parser.add_argument("--backup", metavar="SUFFIX", help="keep each original next to its rewrite, as PATH + SUFFIX (e.g. .orig)")


def run(args: argparse.Namespace, io: IO) -> int:
    """Fix the files (or print the diff)."""
    from migrator import api
    from migrator.diff import unified_diff

    options = options_from_args(args)

    def on_stdin(text: str, name: str) -> FileReport:
        after, report = api.fix_text(text, name, options_for(args, options, name))
        io.stdout.write(unified_diff(text, after, name) if args.diff else after)
        return report

    task = FileTask("diff" if args.diff else "fix", options, args.backup)
    result = run_files(args, io, task, on_stdin)
    if not args.quiet:
        io.stderr.write(summary(result, args.diff, options.unsafe_fixes) + "\n")
    if result.errors:
        return EXIT_ERROR
    changed = any(report.changed for report in result.files)
    return EXIT_CHANGES if args.diff and changed else EXIT_OK


def summary(result: RunResult, diff: bool, unsafe_fixes: bool) -> str:
    """``Fixed 7 of 8 findings in 1 file (...)``."""
    fixes = sum(r.fixes for r in result.files)
    changed = sum(1 for r in result.files if r.changed)
    tally = result.tally()
    verb = "Would fix" if diff else "Fixed"
    line = (
        f"{verb} {fixes} of {tally.findings} findings in {changed} file{'' if changed == 1 else 's'} "
        f"({len(result.files)} read, {result.messages} messages, {result.seconds:.2f}s)"
    )
    remaining = tally.findings - fixes
    if remaining:
        line += f"; {remaining} left (see `mcp-transcripts check`"
        unsafe_left = tally.unsafe_fixes
        if unsafe_left and not unsafe_fixes:
            line += f"; {unsafe_left} fixable with --unsafe-fixes"
        line += ")"
    if result.errors:
        line += f"; {len(result.errors)} file error{'s' if len(result.errors) != 1 else ''}"
    return line
