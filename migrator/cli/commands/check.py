"""``mcp-transcripts check``: report findings."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from migrator.cli.arguments import (
    add_input_options,
    add_report_options,
    overrides,
    settings,
)
from migrator.cli.io import IO, formatter
from migrator.cli.progress import run_files

if TYPE_CHECKING:
    from migrator.engine.results import FileReport, InPathOrder, RunResult
    from migrator.engine.runner import FileDone
    from migrator.reporters import FindingWriter

NAME = "check"
HELP = "report findings"

EPILOG = """\
baselines:
  mcp-transcripts check --write-baseline mcp-baseline.json traces/   # accept today's findings
  mcp-transcripts check --baseline mcp-baseline.json traces/         # fail on new or stale ones"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add check's arguments."""

    parser.description = "Report every finding, sorted, one per line (or in another output format)."
    parser.formatter_class = formatter()
    from migrator.reporters import describe_formats

    formats = "output formats:\n" + describe_formats()
    parser.epilog = formats + "\n\n" + EPILOG + "\n\n" + (parser.epilog or "")
    add_input_options(parser)
    add_report_options(parser, fail_on_default=None)  # None: the configuration file may set it
    parser.add_argument(
        "--show-evidence",
        action="store_true",
        help="print the evidence behind each finding under it",
    )
    parser.add_argument(
        "--mcp-schema",
        action="append",
        metavar="PATH",
        help="validate every message against an official MCP schema.json (MCP206); its version comes from its folder name (.../2025-11-25/schema.json); 'cached' uses every schema fetched with `mcp-transcripts schema fetch` (repeatable)",
    )
    baseline = parser.add_mutually_exclusive_group()
    baseline.add_argument(
        "--baseline",
        metavar="FILE",
        help="report only findings not in this baseline; exit 1 if some of its entries no longer occur",
    )
    baseline.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="record the findings in this baseline file and exit 0",
    )


def run(args: argparse.Namespace, io: IO) -> int:
    """Check the files; the exit code is :meth:`RunResult.exit_code` (see ``EXIT_CODES``)."""
    from migrator import api
    from migrator.engine.options import Mode

    given = overrides(
        args, mode=Mode.CHECK, fail_on=args.fail_on, mcp_schemas=tuple(args.mcp_schema or ())
    )
    config, options = settings(io, given, verbose=args.verbose)
    fail_on = config.fail_level(given)
    streaming = None if args.write_baseline or args.baseline else _Streaming.of(args, io, fail_on)
    result = run_files(
        args,
        io,
        config,
        options,
        on_file=streaming.file_done if streaming else None,
        on_paths=streaming.start if streaming else None,
        on_found=streaming.found if streaming else None,
    )
    if args.write_baseline:
        return _write_baseline(args, io, result)
    if args.baseline:
        from migrator.engine.baseline import load_baseline

        result = load_baseline(args.baseline).filter(result, options.selected)
        if args.verbose:
            io.stderr.write(
                f"mcp-transcripts: baseline {args.baseline}: {result.known} known, {result.tally().findings} new, {len(result.stale)} stale\n"
            )
    if streaming is not None:
        streaming.finish(result)
    else:
        api.write_report(
            result, io.stdout, args.output_format, show_evidence=args.show_evidence, fail_on=fail_on
        )
    if not args.quiet:
        io.stderr.write(result.summary(Mode.CHECK) + "\n")
    if result.stale:
        one = len(result.stale) == 1
        io.stderr.write(
            f"mcp-transcripts: {len(result.stale)} baseline entr{'y' if one else 'ies'} in {args.baseline} "
            f"no longer occur{'s' if one else ''} (fixed? update the baseline with --write-baseline):\n"
        )
        io.stderr.writelines(f"  {line}\n" for line in result.stale)
    return result.exit_code(fail_on, Mode.CHECK)


class _Streaming:
    """Writes each file's findings while the run goes on, for a format that can (text, jsonl,
    github, json): a file is written once it and every file sorting before it are done
    (:class:`~migrator.engine.results.InPathOrder`), and a large wire transcript in parts
    while it is read, so the output is the same as written at the end, only sooner. Not under a progress bar on the same terminal, which would be
    drawn over; not with a baseline, which filters the findings after the run.
    """

    def __init__(self, args: argparse.Namespace, io: IO, writer: FindingWriter) -> None:
        self.args, self.io, self.writer = args, io, writer
        self.order: InPathOrder | None = None

    @classmethod
    def of(cls, args: argparse.Namespace, io: IO, fail_on: str) -> _Streaming | None:
        """The streaming of this run's format, or ``None`` if it is written whole at the end."""
        from migrator.reporters import ReportOptions, finding_writer

        options = ReportOptions(show_evidence=args.show_evidence, fail_on=fail_on)
        writer = finding_writer(args.output_format, io.stdout, options)
        return None if writer is None else cls(args, io, writer)

    def start(self, paths: list[str]) -> None:
        """The runner's ``on_paths``: the files it is about to run."""
        from migrator.cli.progress import show_progress
        from migrator.engine.results import InPathOrder
        from migrator.reporters.terminal import is_terminal

        io = self.io
        if show_progress(io, self.args.quiet, len(paths)) and is_terminal(io.stdout):
            return  # the bar is drawn where the findings would go: they come at the end
        self.order = InPathOrder(paths, self.writer.write)

    def found(self, report: FileReport) -> None:
        """The runner's ``on_found``: a large file's findings so far, written if they are due."""
        if self.order is not None:
            self.order.found(report)

    def file_done(self, done: FileDone) -> None:
        """The runner's ``on_file``: write what is due."""
        if self.order is not None:
            self.order.file_done(done.path, done.outcome)

    def finish(self, result: RunResult) -> None:
        """The run is over: what did not stream (stdin, ``--pair``), then what ends the report."""
        if self.order is None:
            self.writer.write(result)
        self.writer.close(result)


def _write_baseline(args: argparse.Namespace, io: IO, result: RunResult) -> int:
    from migrator.engine.baseline import LineSource, finding_keys, write_baseline

    target = Path(args.write_baseline)
    keys = finding_keys(result.findings, target.absolute().parent, LineSource(result.texts))
    entries = write_baseline(target, keys)
    if not args.quiet:
        count = len(keys)
        io.stderr.write(
            f"Wrote {count} finding{'s' if count != 1 else ''} ({entries} entr{'y' if entries == 1 else 'ies'}) "
            f"from {len(result.files)} file{'s' if len(result.files) != 1 else ''} to {args.write_baseline}\n"
        )
    return result.exit_code("never")
