"""``mcp-transcripts report``: which servers are migrated, at a glance."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator.cli.arguments import add_input_options, overrides, settings
from migrator.cli.io import IO, formatter
from migrator.cli.progress import run_files
from migrator.errors import InputError, UsageError

if TYPE_CHECKING:
    from migrator.engine.fleet import Fleet
    from migrator.engine.runner import FileDone

NAME = "report"
HELP = "per server: migrated, not migrated, mixed or no evidence"

EPILOG = """\
verdicts (per server, from every tools/call whose arguments failed validation):
  migrated      answered with tool results that have isError: true (SEP-1303)
  not-migrated  answered with JSON-RPC errors (-32602, or -32603 with a validation dump)
  mixed         both seen: the report lists where
  no-evidence   no invalid call seen; `mcp-transcripts probe` would tell

servers are named by serverInfo (name and version) of the initialize result; in a trace by
the server span's service (or the address a client span names); otherwise by the file.

output formats:
  text      a table, then an example and what to do for each server that needs work
  json      one document (schemas/report.schema.json); keep it for --compare next time
  markdown  GitHub-flavoured; also appended to $GITHUB_STEP_SUMMARY when that is set
  html      one self-contained page (inline CSS and SVG, no network): use --output FILE

examples:
  mcp-transcripts report recordings/ traces/
  mcp-transcripts report --output-format html --output fleet.html recordings/
  mcp-transcripts report --output-format json --output fleet.json recordings/
  mcp-transcripts report --compare last-week.json --output-format markdown recordings/

exit codes:
  0 the report was written; 2 a file could not be read (it is listed in the report), or the
  command line or --compare file is wrong"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add report's arguments."""
    from migrator.reporters.fleet import LANGUAGES, ReportFormat

    parser.description = (
        "Read everything `check` reads and say, per server, whether it answers tools/call "
        "arguments that fail validation the SEP-1303 way (isError results) or the old way "
        "(JSON-RPC errors), with counts, tools, first and last seen, the SDK where its wording "
        "tells, one example of each answer and what to do."
    )
    parser.formatter_class = formatter()
    parser.epilog = EPILOG + "\n\n" + (parser.epilog or "")
    add_input_options(parser)
    parser.add_argument(
        "--output-format",
        "--format",
        dest="output_format",
        choices=[f.value for f in ReportFormat],
        default=ReportFormat.TEXT.value,
        help="text (a table, the default), json (schemas/report.schema.json), markdown (also "
        "appended to $GITHUB_STEP_SUMMARY when set) or html (one self-contained page)",
    )
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the report to FILE instead of stdout (written whole or not at all)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the language of the markdown and html reports (default: en)",
    )
    parser.add_argument(
        "--compare",
        metavar="OLD.json",
        help="a report an earlier run wrote with --output-format json: also list the servers "
        "whose verdict changed since, and those new or gone",
    )


def run(args: argparse.Namespace, io: IO) -> int:
    """Read the files, merge what each shows per server, and write the report."""
    from dataclasses import replace

    from migrator import __version__
    from migrator.engine.fleet import Fleet, compare
    from migrator.engine.options import Mode

    previous = _load_previous(args.compare) if args.compare else None
    given = overrides(args, mode=Mode.CHECK)
    config, options = settings(io, given, verbose=args.verbose)
    # Only the verdicts are read: no rule runs, so no finding is kept for 10,000 files.
    options = replace(options, selected=frozenset(), servers=True)
    fleet = Fleet()

    def merge(done: FileDone) -> None:
        from migrator.engine.results import FileReport

        if isinstance(done.outcome, FileReport):
            fleet.add(done.outcome)

    result = run_files(args, io, config, options, on_file=merge)
    for report in result.files:  # stdin, which the runner reads without on_file
        if report.servers is not None:
            fleet.add(report)
    for error in result.errors:
        fleet.add_error(error.path or "-", error.line, error.message)
    generated = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    document = fleet.document(__version__, generated)
    if previous is not None:
        document["compared_with"] = previous.get("generated") or args.compare
        document["changes"] = compare(previous, document)
    _write(args, io, document)
    if args.output_format == "markdown" and os.environ.get("GITHUB_STEP_SUMMARY"):
        _append_summary(os.environ["GITHUB_STEP_SUMMARY"], document, args.lang)
    if not args.quiet:
        io.stderr.write(_summary(fleet, result.seconds) + "\n")
    return 2 if result.errors else 0


def _summary(fleet: Fleet, seconds: float) -> str:
    servers = fleet.servers()
    counts = {
        v: sum(1 for s in servers if s.verdict.value == v)
        for v in ("migrated", "not-migrated", "mixed", "no-evidence")
    }
    parts = ", ".join(f"{count} {verdict}" for verdict, count in counts.items() if count)
    return (
        f"Reported {len(servers)} server{'s' if len(servers) != 1 else ''} ({parts or 'none'}) "
        f"from {fleet.files} file{'s' if fleet.files != 1 else ''}, {fleet.messages} messages, {seconds:.2f}s"
    )


def _load_previous(path: str) -> dict[str, Any]:
    """An earlier run's JSON report; a clear error (file and line) when it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the --compare report: {exc.strerror}", path=path) from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"--compare: not JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    servers = document.get("servers") if isinstance(document, dict) else None
    if not isinstance(servers, list) or not all(
        isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("verdict"), str)
        for s in servers
    ):
        raise UsageError(
            "--compare wants a report written by `mcp-transcripts report --output-format json` "
            '(an object whose "servers" each have a name and a verdict)',
            path=path,
        )
    previous: dict[str, Any] = document
    return previous


def _write(args: argparse.Namespace, io: IO, document: dict[str, Any]) -> None:
    from migrator.reporters.fleet import render

    if not args.output or args.output == "-":
        render(document, args.output_format, io.stdout, args.lang)
        return
    import io as text_io

    from migrator.errors import WriteError
    from migrator.fix.writer import write_file

    rendered = text_io.StringIO(newline="\n")
    render(document, args.output_format, rendered, args.lang)
    try:  # the report appears whole, or not at all
        write_file(args.output, [rendered.getvalue().encode("utf-8")])
    except WriteError as exc:
        raise UsageError(f"cannot write the report: {exc.message}", path=args.output) from exc


def _append_summary(path: str, document: dict[str, Any], lang: str) -> None:
    """Add the Markdown to the job summary, as GitHub Actions reads ``$GITHUB_STEP_SUMMARY``."""
    from migrator.reporters.fleet import render

    try:
        with Path(path).open("a", encoding="utf-8", newline="\n") as summary:
            render(document, "markdown", summary, lang)
            summary.write("\n")
    except OSError as exc:
        print(
            f"mcp-transcripts: warning: cannot append to $GITHUB_STEP_SUMMARY ({path}): {exc.strerror}",
            file=sys.stderr,
        )
