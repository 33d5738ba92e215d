"""Options shared by ``check`` and ``fix``, the configuration file, and the loop over files.

The command line wins over the configuration file (see :mod:`migrator.config`),
which wins over the built-in defaults.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from migrator.commands import IO
from migrator.engine import FileReport, Options
from migrator.errors import MigratorError, UsageError
from migrator.reporters import RunResult

if TYPE_CHECKING:
    from migrator.config import Config

PROGRESS_MIN_FILES = 20
"""A run over at least this many files shows a progress bar (on a terminal, outside CI)."""


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """PATH arguments and the options that choose what to read and which rules run."""
    from migrator.readers import InputFormat

    parser.add_argument("paths", nargs="+", metavar="PATH", help="transcript files or folders (walked for *.jsonl, *.ndjson, *.jsonlines); '-' reads stdin")
    parser.add_argument("--input-format", choices=[f.value for f in InputFormat], default=None, help="the transcript format (default: detected from the content)")
    parser.add_argument("--select", action="append", metavar="CODES", help="only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)")
    parser.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules (comma-separated, repeatable)")
    parser.add_argument("--assume-version", metavar="VERSION", help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25")
    parser.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
    parser.add_argument("--config", metavar="FILE", help="the configuration file (default: the nearest .mcp-migrate.yaml, or pyproject.toml with [tool.mcp-migrate], from the current folder up)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.add_argument("-v", "--verbose", action="store_true", help="also say which configuration is used, and for each file its format, messages and findings")


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


def run_files(
    args: argparse.Namespace,
    io: IO,
    on_file: Callable[[str], FileReport],
    on_stdin: Callable[[str, str], FileReport],
    *,
    per_file_options: bool = False,
) -> RunResult:
    """Apply ``on_file`` to every transcript (or ``on_stdin`` to stdin's text).

    Folders are walked with the configuration's ``include`` and ``exclude``. An
    error in one file is reported and the others go on.

    Args:
        args: the parsed command line.
        io: the streams.
        on_file: checks or fixes one file.
        on_stdin: the same for stdin's text and the name to report.
        per_file_options: ``on_file`` applies :func:`options_for` itself. When
            False, a configuration with ``per-file-ignores`` for a file to read
            is refused rather than ignored.

    Raises:
        UsageError: '-' combined with other paths, or per-file-ignores the caller
            cannot apply.
        InputError: a path does not exist.
    """
    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    cfg = config_for(args)
    if args.verbose:
        io.stderr.write(f"mcp-migrate: configuration: {cfg.describe()}\n")
    started = time.perf_counter()
    result = RunResult()
    if args.paths == ["-"]:
        stdin = io.stdin if io.stdin is not None else sys.stdin
        text, name = stdin.read(), args.stdin_filename or "-"
        result.texts[name] = text
        result.files.append(on_stdin(text, name))
        result.seconds = time.perf_counter() - started
        return result
    paths = _walk(args)
    if not per_file_options:
        _refuse_per_file_ignores(cfg, paths)
    verb = "Fixing" if args.command == "fix" else "Checking"
    with _status(io, show_progress(io, args, len(paths)), len(paths), verb) as status:
        for path in paths:
            began = time.perf_counter()
            try:
                report = on_file(str(path))
            except MigratorError as exc:
                result.errors.append(exc)
                status.note(f"mcp-migrate: error: {exc}")
                continue
            finally:
                status.advance(str(path))
            if args.verbose:
                status.note(_describe(report, time.perf_counter() - began))
            result.files.append(report)
    result.seconds = time.perf_counter() - started
    return result


def _refuse_per_file_ignores(cfg: Config, paths: Sequence[Path]) -> None:
    for path in paths:
        names = cfg.ignored_codes(path)
        if names:
            raise UsageError(
                f"{path}: the configuration's per-file-ignores ({', '.join(names)}) apply to this file, "
                "and this command does not apply per-file-ignores yet; "
                "run it on other files or use --config with a file without them"
            )
