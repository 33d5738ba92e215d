"""``mcp-migrate check``: report findings."""

from __future__ import annotations

import argparse

from migrator.commands import IO, formatter
from migrator.commands.common import add_input_options, options_from_args, run_files
from migrator.findings import Severity

NAME = "check"
HELP = "report findings"
FAIL_ON_CHOICES = ("error", "warning", "info", "never")
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    """Add check's arguments."""
    from migrator.reporters import OutputFormat

    parser.description = "Report every finding, sorted, one per line (or in another output format)."
    parser.formatter_class = formatter()
    add_input_options(parser)
    parser.add_argument("--output-format", "--format", dest="output_format", choices=[f.value for f in OutputFormat], default="text", help="how to print findings (default: text)")
    parser.add_argument("--fail-on", choices=FAIL_ON_CHOICES, default="warning", help="lowest severity that makes the exit code 1 (default: warning)")
    parser.add_argument("--show-evidence", action="store_true", help="print the evidence behind each finding under it")


def run(args: argparse.Namespace, io: IO) -> int:
    """Check the files; 0 clean, 1 findings at or above --fail-on, 2 errors."""
    from migrator import api
    from migrator.reporters import REPORTERS, OutputFormat, ReportOptions, summary_line

    options = options_from_args(args)
    result = run_files(
        args,
        io,
        on_file=lambda path: api.check_file(path, options),
        on_stdin=lambda text, name: api.check_text(text, name, options),
    )
    REPORTERS[OutputFormat(args.output_format)](result, io.stdout, ReportOptions(args.show_evidence))
    if not args.quiet:
        io.stderr.write(summary_line(result) + "\n")
    if result.errors:
        return EXIT_ERROR
    if args.fail_on == "never":
        return EXIT_OK
    threshold = Severity(args.fail_on).rank
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in result.findings) else EXIT_OK
