"""The command line: a thin layer over :mod:`migrator.api`.

Exit codes (the contract, as in black and ruff):

* ``check``: 0 no finding at or above ``--fail-on``; 1 there are; 2 a usage or input error.
* ``fix``: 0 done (files rewritten, or nothing to do); 2 a usage or input error,
  or a rewrite that failed validation (that file is left untouched).
* ``fix --diff``: 0 nothing would change; 1 something would; 2 an error.

Data goes to stdout, status lines to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from migrator import __version__
from migrator.errors import MigratorError, UsageError
from migrator.findings import Severity

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
FAIL_ON_CHOICES = ("error", "warning", "info", "never")

DESCRIPTION = """\
Find and fix MCP tools/call input-validation errors that are still sent as
JSON-RPC protocol errors (SEP-1303, protocol 2025-11-25), in recorded transcripts."""

EPILOG = """\
exit codes:
  check       0 no finding at or above --fail-on, 1 findings, 2 usage or input error
  fix         0 done (or nothing to do), 2 usage or input error (that file untouched)
  fix --diff  0 nothing would change, 1 something would change, 2 error

examples:
  mcp-migrate check traces/
  mcp-migrate fix --diff traces/session.jsonl
  mcp-migrate fix traces/
  mcp-migrate explain MCP101"""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    """The real argument parser (the docs' CLI reference is generated from it)."""
    from migrator.readers import InputFormat
    from migrator.reporters import OutputFormat

    parser = argparse.ArgumentParser(
        prog="mcp-migrate", description=DESCRIPTION, epilog=EPILOG, formatter_class=_Formatter
    )
    parser.add_argument("--version", action="version", version=f"mcp-migrate {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    def add_common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("paths", nargs="+", metavar="PATH", help="transcript files or folders (walked for *.jsonl, *.ndjson); '-' reads stdin")
        sub.add_argument("--input-format", choices=[f.value for f in InputFormat], default="auto", help="the transcript format (default: detected from the content)")
        sub.add_argument("--select", action="append", metavar="CODES", help="only these rules: codes, slugs or prefixes, comma-separated (repeatable)")
        sub.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules (comma-separated, repeatable)")
        sub.add_argument("--assume-version", metavar="VERSION", help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25")
        sub.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
        sub.add_argument("-q", "--quiet", action="store_true", help="no summary line")
        sub.add_argument("-v", "--verbose", action="store_true", help="also say which format was detected for each file")

    check = commands.add_parser(
        "check", help="report findings", description="Report every finding, sorted, one per line (or as JSON).",
        epilog=EPILOG, formatter_class=_Formatter,
    )
    add_common(check)
    check.add_argument("--output-format", "--format", dest="output_format", choices=[f.value for f in OutputFormat], default="text", help="how to print findings (default: text)")
    check.add_argument("--fail-on", choices=FAIL_ON_CHOICES, default="warning", help="lowest severity that makes the exit code 1 (default: warning)")
    check.add_argument("--show-evidence", action="store_true", help="print the evidence behind each finding under it")

    fix = commands.add_parser(
        "fix", help="rewrite files in place (atomically)", description="Rewrite what the rules can fix; every other byte stays as it was.",
        epilog=EPILOG, formatter_class=_Formatter,
    )
    add_common(fix)
    fix.add_argument("--diff", action="store_true", help="print a unified diff instead of writing; exit 1 if anything would change")
    fix.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes (MCP102, MCP103, MCP104)")
    fix.add_argument("--no-provenance", dest="provenance", action="store_false", help="do not keep the original error under _meta[\"dev.mcp-migrate/original-error\"]")

    rules = commands.add_parser("rules", help="list the rules", description="List every rule with its code, default severity and fix.")
    rules.add_argument("--output-format", "--format", dest="output_format", choices=["text", "json"], default="text")

    explain = commands.add_parser("explain", help="explain one rule", description="Print a rule's documentation: what it finds, before, after, why.")
    explain.add_argument("rule", metavar="CODE", help="a rule code (MCP101) or slug")
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (never calls ``sys.exit`` itself)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_ERROR
    try:
        if args.command == "rules":
            return _rules(args, out)
        if args.command == "explain":
            from migrator.rules import get_rule

            info = get_rule(args.rule)
            out.write(f"{info.title}\n\n{info.doc.strip()}\n")
            return EXIT_OK
        return _run(args, stdin, out, err)
    except MigratorError as exc:
        err.write(f"mcp-migrate: error: {exc}\n")
        return EXIT_ERROR


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    import json

    from migrator.rules import all_rules

    infos = all_rules()
    if args.output_format == "json":
        rows = [
            {"code": r.code, "slug": r.slug, "summary": r.summary, "severity": r.default_severity.value, "fix": r.fix.value}
            for r in infos
        ]
        out.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    for r in infos:
        out.write(f"{r.code}  {r.slug:<40} {r.default_severity.value:<8} fix: {r.fix.value:<7} {r.summary}\n")
    return EXIT_OK


def _split(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [part for value in values for part in value.split(",") if part.strip()]


def _options(args: argparse.Namespace) -> object:
    from migrator.engine import Options
    from migrator.readers import InputFormat
    from migrator.rules import resolve_selection

    return Options(
        selected=resolve_selection(_split(args.select), _split(args.ignore)),
        unsafe_fixes=getattr(args, "unsafe_fixes", False),
        provenance=getattr(args, "provenance", True),
        assume_version=args.assume_version,
        input_format=InputFormat(args.input_format),
    )


def _run(args: argparse.Namespace, stdin: TextIO | None, out: TextIO, err: TextIO) -> int:
    from migrator import api
    from migrator.engine import Options
    from migrator.reporters import REPORTERS, OutputFormat, ReportOptions, RunResult, summary_line

    options = _options(args)
    assert isinstance(options, Options)
    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    started = time.perf_counter()
    result = RunResult()
    fixing = args.command == "fix"
    would_change = 0
    if args.paths == ["-"]:
        name = args.stdin_filename or "-"
        text = (stdin or sys.stdin).read()
        if fixing:
            after, report = api.fix_text(text, name, options)
            if args.diff:
                from migrator.diff import unified_diff

                out.write(unified_diff(text, after, name))
                would_change += report.changed
            else:
                out.write(after)
        else:
            report = api.check_text(text, name, options)
        result.files.append(report)
    else:
        for path in api.iter_transcripts(args.paths):
            try:
                if not fixing:
                    report = api.check_file(path, options)
                elif args.diff:
                    outcome = api.fix_file(path, options, diff=True)
                    out.write(outcome.diff)
                    report = outcome.report
                    would_change += report.changed
                else:
                    report = api.fix_file(path, options).report
            except MigratorError as exc:
                result.errors.append(exc)
                err.write(f"mcp-migrate: error: {exc}\n")
                continue
            if args.verbose:
                err.write(f"{path}: {report.format} ({report.detection})\n")
            result.files.append(report)
    result.seconds = time.perf_counter() - started

    if not fixing:
        REPORTERS[OutputFormat(args.output_format)](result, out, ReportOptions(args.show_evidence))
        if not args.quiet:
            err.write(summary_line(result) + "\n")
        if result.errors:
            return EXIT_ERROR
        return _exit_for_findings(result, args.fail_on)

    if not args.quiet:
        err.write(_fix_summary(result, args.diff, options) + "\n")
    if result.errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if args.diff and would_change else EXIT_OK


def _exit_for_findings(result: object, fail_on: str) -> int:
    from migrator.reporters import RunResult

    assert isinstance(result, RunResult)
    if fail_on == "never":
        return EXIT_OK
    threshold = Severity(fail_on).rank
    return EXIT_FINDINGS if any(f.severity.rank >= threshold for f in result.findings) else EXIT_OK


def _fix_summary(result: object, diff: bool, options: object) -> str:
    from migrator.reporters import RunResult

    assert isinstance(result, RunResult)
    fixes = sum(r.fixes for r in result.files)
    changed = sum(1 for r in result.files if r.changed)
    remaining = len(result.findings) - fixes
    verb = "Would fix" if diff else "Fixed"
    files_word = "file" if changed == 1 else "files"
    line = f"{verb} {fixes} of {len(result.findings)} findings in {changed} {files_word} ({len(result.files)} read, {result.messages} messages, {result.seconds:.2f}s)"
    if remaining:
        line += f"; {remaining} left (see `mcp-migrate check`"
        unsafe_left = sum(1 for f in result.findings if f.fixable is not None and f.fixable.value == "unsafe")
        if unsafe_left and not getattr(options, "unsafe_fixes", False):
            line += f"; {unsafe_left} fixable with --unsafe-fixes"
        line += ")"
    if result.errors:
        line += f"; {len(result.errors)} file error{'s' if len(result.errors) != 1 else ''}"
    return line


__all__ = ["build_parser", "main"]
