"""Options shared by ``check`` and ``fix``, the configuration file, and the loop over files.

The command line wins over the configuration file (see :mod:`migrator.config`),
which wins over the built-in defaults.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from migrator.commands import IO
from migrator.errors import MigratorError, NotATranscriptError, UsageError
from migrator.reporters import RunResult

if TYPE_CHECKING:  # imported where used: start-up stays fast
    from migrator.config import Config
    from migrator.engine import FileReport, Options

PROGRESS_MIN_FILES = 20
"""A run over at least this many files shows a progress bar (on a terminal, outside CI)."""


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """PATH arguments and the options that choose what to read and which rules run."""
    from migrator.readers import InputFormat

    parser.add_argument("paths", nargs="*", metavar="PATH", help="transcript files or folders (walked for *.jsonl, *.ndjson, *.jsonlines, and *.json, *.har, *.yaml, *.yml, mcp*.log files that hold MCP traffic); '-' reads stdin")
    parser.add_argument("--input-format", choices=[f.value for f in InputFormat], default=None, help="the transcript format (default: detected from the content)")
    parser.add_argument("--select", action="append", metavar="CODES", help="only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)")
    parser.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules (comma-separated, repeatable)")
    parser.add_argument("--assume-version", metavar="VERSION", help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25")
    parser.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
    parser.add_argument("--config", metavar="FILE", help="the configuration file (default: the nearest .mcp-transcripts.yaml, or pyproject.toml with [tool.mcp-transcripts], from the current folder up)")
    parser.add_argument("--pair", nargs=2, action="append", metavar=("C2S_FILE", "S2C_FILE"), help="a two-file stdio capture: what the client wrote and what the server wrote, merged by time or causality (repeatable; fix rewrites only S2C_FILE)")
    parser.add_argument("-j", "--jobs", type=_positive, metavar="N", help="worker processes: files run in parallel, and one large wire transcript is cut at its session starts into stretches that run in parallel (default: the number of cores when there are several files and over 16 MB to read, else 1)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.add_argument("-v", "--verbose", action="store_true", help="also say which configuration is used, and for each file its format, messages and findings")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _split(values: Sequence[str] | None) -> list[str] | None:
    if not values:
        return None
    return [part for value in values for part in value.split(",") if part.strip()]


def config_for(args: argparse.Namespace) -> Config:
    """The configuration for this run: ``--config FILE``, or the one found from here up.

    Loaded once per parsed command line.

    Raises:
        ConfigError: the file is missing or invalid (the CLI exits with 2).
    """
    from migrator import config

    loaded: Config | None = getattr(args, "loaded_config", None)
    if loaded is None:
        explicit = getattr(args, "config", None)
        loaded = config.load_config(explicit) if explicit else config.discover()
        args.loaded_config = loaded
    return loaded


def options_from_args(args: argparse.Namespace) -> Options:
    """The engine options for the parsed command line and the configuration file."""
    from migrator.engine import Options
    from migrator.readers import InputFormat
    from migrator.rules import resolve_selection

    cfg = config_for(args)
    select = _split(args.select)
    if select is None:  # --select replaces both select and extend-select of the file
        select = list(cfg.select) if cfg.select is not None else None
        if cfg.extend_select:
            select = (select if select is not None else ["ALL"]) + list(cfg.extend_select)
    ignore = _split(args.ignore)
    if ignore is None:
        ignore = list(cfg.ignore or ())
    provenance = getattr(args, "provenance", True)  # fix's --no-provenance can only turn it off
    if provenance and cfg.provenance is not None:
        provenance = cfg.provenance
    return Options(
        selected=resolve_selection(select, ignore),
        unsafe_fixes=bool(getattr(args, "unsafe_fixes", False) or cfg.unsafe_fixes),
        provenance=provenance,
        assume_version=args.assume_version or cfg.assume_version,
        input_format=InputFormat(args.input_format or cfg.input_format or InputFormat.AUTO.value),
        mcp_schemas=tuple(getattr(args, "mcp_schema", None) or ()),
        unknown_tool_patterns=cfg.unknown_tool_patterns,
        validation_patterns=cfg.validation_patterns,
    )


def options_for(args: argparse.Namespace, options: Options, path: str) -> Options:
    """``options`` narrowed by the configuration's ``per-file-ignores`` for ``path``."""
    from migrator.rules import all_rules, resolve_selection

    names = config_for(args).ignored_codes(path) if path != "-" else ()
    if not names:
        return options
    ignored = resolve_selection(list(names), None)
    selected = options.selected if options.selected is not None else frozenset(r.code for r in all_rules())
    return replace(options, selected=selected - ignored)


def _in_ci() -> bool:
    from migrator.reporters.terminal import in_ci

    return in_ci()


def show_progress(io: IO, args: argparse.Namespace, total: int) -> bool:
    """Whether a run over ``total`` files gets a progress bar.

    Only on a terminal (stderr), outside CI, not with ``--quiet``, and only for
    :data:`PROGRESS_MIN_FILES` files or more.
    """
    from migrator.reporters.terminal import is_terminal

    return (
        total >= PROGRESS_MIN_FILES
        and not args.quiet
        and is_terminal(io.stderr)
        and os.environ.get("TERM") != "dumb"
        and not _in_ci()
    )


class _Status:
    """Status lines on stderr, printed above a live progress bar when there is one."""

    def __init__(self, stream: TextIO, bar: Any = None, task: Any = None) -> None:
        self.stream = stream
        self.bar = bar
        self.task = task

    def note(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            self.stream.write(text + "\n")

    def advance(self, path: str) -> None:
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=path)


@contextmanager
def _status(io: IO, enabled: bool, total: int, verb: str) -> Iterator[_Status]:
    if not enabled:
        yield _Status(io.stderr)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(file=io.stderr)
    bar = Progress(
        TextColumn(f"{verb}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.description}", style="dim"),
        console=console,
        transient=True,
    )
    with bar:
        yield _Status(io.stderr, bar, bar.add_task("", total=total))


def _walk(args: argparse.Namespace) -> list[Path]:
    from migrator import api

    include, exclude = config_for(args).walk_filters()
    return list(api.iter_transcripts(args.paths, include=include, exclude=exclude))


def _describe(report: FileReport, seconds: float) -> str:
    findings = len(report.findings)
    line = (
        f"{report.path}: {report.format} ({report.detection}); {report.messages} message{'s' if report.messages != 1 else ''}, "
        f"{findings} finding{'s' if findings != 1 else ''}"
    )
    if report.fixes:
        line += f", {report.fixes} fix{'es' if report.fixes != 1 else ''}"
    return line + f", {seconds:.2f}s"


@dataclass(frozen=True)
class FileTask:
    """What to do with each file: picklable, so worker processes can run it."""

    action: str  # "check", "fix" or "diff"
    options: Options
    backup: str | None = None


@dataclass(frozen=True)
class SpooledDiff:
    """A diff a (worker) process wrote to a temporary file, to be copied out in order.

    Diffs of large files can be larger than memory should hold, and worker
    processes cannot hand back a stream: the file is the hand-over.
    """

    path: str

    def copy_to(self, out: TextIO) -> None:
        """Write the diff to ``out`` and delete the file."""
        try:
            with Path(self.path).open(encoding="utf-8", errors="surrogateescape", newline="") as spool:
                shutil.copyfileobj(spool, out, 1 << 16)
        finally:
            self.discard()

    def discard(self) -> None:
        """Delete the file."""
        with contextlib.suppress(OSError):
            Path(self.path).unlink()


def perform(task: FileTask, path: str) -> tuple[FileReport, str | SpooledDiff]:
    """Run a task on one file; returns its report and its output (the diff, for "diff")."""
    from migrator import api

    if task.action == "check":
        return api.check_file(path, task.options), ""
    if task.action == "diff":
        handle, name = tempfile.mkstemp(prefix="mcp-transcripts-", suffix=".diff")
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="surrogateescape", newline="") as spool:
                outcome = api.fix_file(path, task.options, diff=True, diff_to=spool)
        except BaseException:
            SpooledDiff(name).discard()
            raise
        return outcome.report, SpooledDiff(name)
    return api.fix_file(path, task.options, backup=task.backup).report, ""


def perform_pair(task: FileTask, c2s: str, s2c: str) -> tuple[FileReport, str]:
    """Run a task on a two-file capture (only the server's file is ever rewritten)."""
    from migrator.readers.pair import check_pair, fix_pair

    if task.action == "check":
        return check_pair(c2s, s2c, task.options), ""
    outcome = fix_pair(c2s, s2c, task.options, diff=task.action == "diff", backup=task.backup)
    return outcome.report, outcome.diff


def _perform_caught(task: FileTask, path: str) -> tuple[FileReport | MigratorError, str | SpooledDiff, float]:
    # Runs in worker processes too: errors come back as values, in order.
    began = time.perf_counter()
    try:
        report, output = perform(task, path)
    except MigratorError as exc:
        return exc, "", time.perf_counter() - began
    return report, output, time.perf_counter() - began


def _split_run(args: argparse.Namespace, task: FileTask, path: Path) -> tuple[FileReport | MigratorError, str, float] | None:
    from migrator.split import split_run

    return split_run(task.action, str(path), task.options, getattr(args, "jobs", None), task.backup)


# Below this much input, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024


def _jobs(args: argparse.Namespace, paths: Sequence[Path]) -> int:
    requested: int | None = getattr(args, "jobs", None)
    if requested is not None:
        return max(1, min(requested, len(paths)))
    if len(paths) < 2:
        return 1
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += path.stat().st_size
    return min(os.cpu_count() or 1, len(paths)) if total >= PARALLEL_MIN_BYTES else 1


def run_files(
    args: argparse.Namespace,
    io: IO,
    task: FileTask,
    on_stdin: Callable[[str, str], FileReport],
) -> RunResult:
    """Run ``task`` on every transcript (or ``on_stdin`` on stdin's text), or on ``--pair`` captures.

    Folders are walked with the configuration's ``include`` and ``exclude``;
    each file gets the configuration's ``per-file-ignores``. Files run in
    parallel worker processes with ``--jobs`` (by default when there is a lot
    to read); output (diffs) and reports keep the order of the paths. An error
    in one file is reported and the others go on; a file found in a folder
    that holds no MCP traffic is passed over.

    Raises:
        UsageError: '-' or --pair combined with other paths, or no path at all.
        InputError: a path does not exist.
    """
    pairs: list[list[str]] = getattr(args, "pair", None) or []
    if pairs and args.paths:
        raise UsageError("--pair cannot be combined with PATH arguments")
    if not pairs and not args.paths:
        raise UsageError("give at least one PATH (or '-' for stdin), or --pair C2S_FILE S2C_FILE")
    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    cfg = config_for(args)
    if cfg.deprecation:
        io.stderr.write(f"mcp-transcripts: warning: {cfg.deprecation}\n")
    if args.verbose:
        io.stderr.write(f"mcp-transcripts: configuration: {cfg.describe()}\n")
    started = time.perf_counter()
    result = RunResult()
    if args.paths == ["-"]:
        stdin = io.stdin if io.stdin is not None else sys.stdin
        # Bytes, decoded the lossless way files are: invalid UTF-8 and CR LF
        # survive whatever the locale makes of sys.stdin.
        from migrator.source import decode

        buffer = getattr(stdin, "buffer", None)
        text = decode(buffer.read()) if buffer is not None else stdin.read()
        name = args.stdin_filename or "-"
        result.texts[name] = text
        result.files.append(on_stdin(text, name))
    elif pairs:
        for c2s, s2c in pairs:
            pair_task = replace(task, options=options_for(args, task.options, s2c))
            try:
                report, output = perform_pair(pair_task, c2s, s2c)
            except MigratorError as exc:
                result.errors.append(exc)
                io.stderr.write(f"mcp-transcripts: error: {exc}\n")
                continue
            io.stdout.write(output)
            result.files.append(report)
    else:
        _run_paths(args, io, task, _walk(args), result)
    result.seconds = time.perf_counter() - started
    return result


def _run_paths(args: argparse.Namespace, io: IO, task: FileTask, paths: list[Path], result: RunResult) -> None:
    named = {Path(p) for p in args.paths if not Path(p).is_dir()}
    tasks = [replace(task, options=options_for(args, task.options, str(path))) for path in paths]
    jobs = _jobs(args, paths)
    verb = "Fixing" if args.command == "fix" else "Checking"
    with contextlib.ExitStack() as stack:
        status = stack.enter_context(_status(io, show_progress(io, args, len(paths)), len(paths), verb))
        if jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            outcomes = pool.map(_perform_caught, tasks, map(str, paths), chunksize=1)
        elif len(paths) == 1 and (split := _split_run(args, tasks[0], paths[0])) is not None:
            outcomes = iter([split])  # one large file on several processes
        else:
            outcomes = map(_perform_caught, tasks, map(str, paths))
        if args.verbose and jobs > 1:
            status.note(f"mcp-transcripts: {len(paths)} files on {jobs} worker processes")
        for path, (report, output, seconds) in zip(paths, outcomes, strict=True):
            status.advance(str(path))
            if isinstance(report, NotATranscriptError) and path not in named:
                if args.verbose:  # found in a folder: a config file or the like
                    status.note(f"{path}: skipped ({report.message})")
                continue
            if isinstance(report, MigratorError):
                result.errors.append(report)
                status.note(f"mcp-transcripts: error: {report}")
                continue
            if isinstance(output, SpooledDiff):
                output.copy_to(io.stdout)
            else:
                io.stdout.write(output)
            if args.verbose:
                status.note(_describe(report, seconds))
            result.files.append(report)
