"""How the command line shows a run over many files: status lines and a progress bar.

:func:`run_files` hands the paths to :func:`migrator.engine.runner.run`, which runs
them; the status lines and the bar are its ``on_start`` and ``on_file`` callbacks.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from migrator.cli.io import IO

if TYPE_CHECKING:  # imported where used: start-up stays fast
    from migrator.engine.config import Config
    from migrator.engine.options import Options
    from migrator.engine.results import FileReport, RunResult
    from migrator.engine.runner import FileDone

PROGRESS_MIN_FILES = 20
"""A run over at least this many files shows a progress bar (on a terminal, outside CI)."""


def run_files(
    args: argparse.Namespace,
    io: IO,
    config: Config,
    options: Options,
    *,
    backup: str | None = None,
    output_dir: str | None = None,
    on_file: Callable[[FileDone], None] | None = None,
    on_paths: Callable[[list[str]], None] | None = None,
    on_found: Callable[[FileReport], None] | None = None,
) -> RunResult:
    """Run the command over its paths, ``--pair`` captures or stdin; diffs and fixed stdin go to stdout.

    ``on_file`` hears of each file after the progress bar does (``report`` merges it,
    ``check`` writes its findings); ``on_paths`` and ``on_found`` are the runner's (the
    files to run, and a file's findings so far while it is read).

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
            output_dir=output_dir,
            cluster=args.dask_scheduler,
            on_start=progress.start,
            on_file=progress.file_done if on_file is None else progress.also(on_file),
            on_paths=on_paths,
            on_found=on_found,
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
        self.cluster: str | None = args.dask_scheduler
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
        if self.verbose and self.cluster:
            self.note(
                f"mcp-transcripts: {total} files on the cluster at {self.cluster} ({jobs} workers)"
            )
        elif self.verbose and jobs > 1:
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
