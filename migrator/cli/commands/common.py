"""Options shared by ``check`` and ``fix``, and how the CLI shows a run over many files.

The arguments become typed :class:`~migrator.engine.config.Overrides` once; the
configuration layer resolves them over the configuration file (the command line
wins, then the file, then the built-in defaults) and :func:`migrator.engine.runner.run`
runs the files. What stays here is the terminal: status lines, and a progress
bar drawn from the runner's ``on_file`` callback.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from migrator.cli.commands import IO

if TYPE_CHECKING:  # imported where used: start-up stays fast
    from migrator.engine.config import Config, Overrides
    from migrator.engine.options import Options
    from migrator.engine.results import FileReport, RunResult
    from migrator.engine.runner import FileDone

PROGRESS_MIN_FILES = 20
"""A run over at least this many files shows a progress bar (on a terminal, outside CI)."""


def add_report_options(
    parser: argparse.ArgumentParser, *, fail_on_default: str | None, format_note: str = ""
) -> None:
    """``--output-format`` and ``--fail-on``, as every command that reports findings has them.

    ``fail_on_default`` is ``None`` where the configuration file may set it.
    """
    from migrator.engine.results import DEFAULT_FAIL_ON, FAIL_ON_CHOICES
    from migrator.reporters import OutputFormat

    parser.add_argument(
        "--output-format",
        "--format",
        dest="output_format",
        choices=[f.value for f in OutputFormat],
        default="text",
        help=f"how to print findings (default: text{format_note})",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON_CHOICES,
        default=fail_on_default,
        help=f"lowest severity that makes the exit code 1 (default: {DEFAULT_FAIL_ON})",
    )


def add_fix_options(parser: argparse.ArgumentParser) -> None:
    """``--unsafe-fixes`` and ``--no-provenance``, shared by ``fix`` and ``proxy``."""
    from migrator.model.provenance import ORIGINAL_ERROR

    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply unsafe fixes (MCP102, MCP103, MCP104)",
    )
    parser.add_argument(
        "--no-provenance",
        dest="provenance",
        action="store_false",
        help=f'do not keep the original under _meta["{ORIGINAL_ERROR}"]',
    )


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """PATH arguments and the options that choose what to read and which rules run."""
    from migrator.readers import InputFormat

    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="transcript files or folders (walked for *.jsonl, *.ndjson, *.jsonlines, and *.json, *.har, *.yaml, *.yml, mcp*.log files that hold MCP traffic); '-' reads stdin",
    )
    parser.add_argument(
        "--input-format",
        choices=[f.value for f in InputFormat],
        default=None,
        help="the transcript format (default: detected from the content)",
    )
    parser.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)",
    )
    parser.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="skip these rules (comma-separated, repeatable)",
    )
    parser.add_argument(
        "--assume-version",
        metavar="VERSION",
        help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25",
    )
    parser.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the configuration file (default: the nearest .mcp-transcripts.yaml, or pyproject.toml with [tool.mcp-transcripts], from the current folder up)",
    )
    parser.add_argument(
        "--pair",
        nargs=2,
        action="append",
        metavar=("C2S_FILE", "S2C_FILE"),
        help="a two-file stdio capture: what the client wrote and what the server wrote, merged by time or causality (repeatable; fix rewrites only S2C_FILE)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes: files run in parallel, and one large wire transcript is cut at its session starts into stretches that run in parallel (default: the number of cores when there are several files and over 16 MB to read, else 1)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also say which configuration is used, and for each file its format, messages and findings",
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def overrides(args: argparse.Namespace, **command: Any) -> Overrides:
    """The typed overrides of the options :func:`add_input_options` adds, plus the command's own.

    Args:
        args: the parsed command line.
        command: the command's own :class:`~migrator.engine.config.Overrides` fields
            (``mode``, ``fail_on``, ``unsafe_fixes``, ...).
    """
    from migrator.engine.config import Overrides

    return Overrides(
        config=args.config,
        select=Overrides.codes(args.select),
        ignore=Overrides.codes(args.ignore),
        assume_version=args.assume_version,
        input_format=args.input_format,
        **command,
    )


def settings(io: IO, given: Overrides, *, verbose: bool) -> tuple[Config, Options]:
    """The configuration and the resolved options of a run; says which file is used.

    Prints the configuration's deprecation notice (a file of the former name)
    and, with ``--verbose``, which configuration file is read.

    Raises:
        ConfigError: the file is missing or invalid.
        UsageError: a rule name is unknown.
    """
    from migrator.engine import config

    loaded = config.load(given)
    if loaded.deprecation:
        io.stderr.write(f"mcp-transcripts: warning: {loaded.deprecation}\n")
    if verbose:
        io.stderr.write(f"mcp-transcripts: configuration: {loaded.describe()}\n")
    return loaded, loaded.resolve(given)


def run_files(
    args: argparse.Namespace,
    io: IO,
    config: Config,
    options: Options,
    *,
    backup: str | None = None,
    on_file: Callable[[FileDone], None] | None = None,
) -> RunResult:
    """Run the command over its paths, ``--pair`` captures or stdin; diffs and fixed stdin go to stdout.

    ``on_file`` hears of each file after the progress bar does (``report`` merges it).

    Raises:
        UsageError: '-' or --pair combined with other paths, or no path at all.
        InputError: a path does not exist.
    """
    from migrator.engine import runner

    progress = _Progress(io, args)
    try:
        return runner.run(
            args.paths,
            options,
            config=config,
            pairs=[(c2s, s2c) for c2s, s2c in args.pair or ()],
            jobs=args.jobs,
            backup=backup,
            stdin=io.stdin,
            stdin_name=args.stdin_filename,
            out=io.stdout,
            on_start=progress.start,
            on_file=progress.file_done if on_file is None else progress.also(on_file),
        )
    finally:
        progress.stop()


def _in_ci() -> bool:
    from migrator.reporters.terminal import in_ci

    return in_ci()


def show_progress(io: IO, quiet: bool, total: int) -> bool:
    """Whether a run over ``total`` files gets a progress bar.

    Only on a terminal (stderr), outside CI, not with ``--quiet``, and only for
    :data:`PROGRESS_MIN_FILES` files or more.
    """
    from migrator.reporters.terminal import is_terminal

    return (
        total >= PROGRESS_MIN_FILES
        and not quiet
        and is_terminal(io.stderr)
        and os.environ.get("TERM") != "dumb"
        and not _in_ci()
    )


class _Progress:
    """Status lines on stderr, and a live progress bar above them on a long run.

    Its methods are the runner's ``on_start`` and ``on_file`` callbacks.
    """

    def __init__(self, io: IO, args: argparse.Namespace) -> None:
        self.io = io
        self.quiet: bool = args.quiet
        self.verbose: bool = args.verbose
        self.verb = "Fixing" if args.command == "fix" else "Checking"
        self.bar: Any = None
        self.task: Any = None

    def start(self, total: int, jobs: int) -> None:
        """The files are about to run: draw the bar when the run is long enough."""
        if show_progress(self.io, self.quiet, total):
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn(self.verb),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.description}", style="dim"),
                console=Console(file=self.io.stderr),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("", total=total)
        if self.verbose and jobs > 1:
            self.note(f"mcp-transcripts: {total} files on {jobs} worker processes")

    def file_done(self, done: FileDone) -> None:
        """One file is done: advance the bar; say why it failed, or (verbose) what it was."""
        from migrator.errors import MigratorError

        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=done.path)
        outcome = done.outcome
        if isinstance(outcome, MigratorError):
            if not done.skipped:
                self.note(f"mcp-transcripts: error: {outcome}")
            elif self.verbose:  # found in a folder: a config file or the like
                self.note(f"{done.path}: skipped ({outcome.message})")
        elif self.verbose:
            self.note(_describe(outcome, done.seconds))

    def also(self, then: Callable[[FileDone], None]) -> Callable[[FileDone], None]:
        """:meth:`file_done`, then ``then``."""

        def both(done: FileDone) -> None:
            self.file_done(done)
            then(done)

        return both

    def stop(self) -> None:
        """The run is over (or failed): take the bar away."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def note(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            self.io.stderr.write(text + "\n")


def _describe(report: FileReport, seconds: float) -> str:
    findings = len(report.findings)
    line = (
        f"{report.path}: {report.format} ({report.detection}); {report.messages} message{'s' if report.messages != 1 else ''}, "
        f"{findings} finding{'s' if findings != 1 else ''}"
    )
    if report.fixes:
        line += f", {report.fixes} fix{'es' if report.fixes != 1 else ''}"
    return line + f", {seconds:.2f}s"
