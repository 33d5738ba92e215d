"""Options shared by ``check`` and ``fix``, and the loop over files."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from migrator.commands import IO
from migrator.engine import FileReport, Options
from migrator.errors import MigratorError, UsageError
from migrator.reporters import RunResult


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """PATH arguments and the options that choose what to read and which rules run."""
    from migrator.readers import InputFormat

    parser.add_argument("paths", nargs="+", metavar="PATH", help="transcript files or folders (walked for *.jsonl, *.ndjson, *.jsonlines); '-' reads stdin")
    parser.add_argument("--input-format", choices=[f.value for f in InputFormat], default="auto", help="the transcript format (default: detected from the content)")
    parser.add_argument("--select", action="append", metavar="CODES", help="only these rules: codes, slugs or prefixes such as MCP1, comma-separated (repeatable)")
    parser.add_argument("--ignore", action="append", metavar="CODES", help="skip these rules (comma-separated, repeatable)")
    parser.add_argument("--assume-version", metavar="VERSION", help="protocol version for sessions without an initialize handshake, e.g. 2025-11-25")
    parser.add_argument("--stdin-filename", metavar="NAME", help="the path to report for '-'")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    parser.add_argument("-v", "--verbose", action="store_true", help="also say which format was detected for each file")


def _split(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    return [part for value in values for part in value.split(",") if part.strip()]


def options_from_args(args: argparse.Namespace) -> Options:
    """The engine options for the parsed command line."""
    from migrator.readers import InputFormat
    from migrator.rules import resolve_selection

    return Options(
        selected=resolve_selection(_split(args.select), _split(args.ignore)),
        unsafe_fixes=getattr(args, "unsafe_fixes", False),
        provenance=getattr(args, "provenance", True),
        assume_version=args.assume_version,
        input_format=InputFormat(args.input_format),
    )


def run_files(
    args: argparse.Namespace,
    io: IO,
    on_file: Callable[[str], FileReport],
    on_stdin: Callable[[str, str], FileReport],
) -> RunResult:
    """Apply ``on_file`` to every transcript (or ``on_stdin`` to stdin's text).

    An error in one file is reported and the others go on.
    """
    from migrator import api

    if "-" in args.paths and len(args.paths) > 1:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    started = time.perf_counter()
    result = RunResult()
    if args.paths == ["-"]:
        stdin = io.stdin if io.stdin is not None else sys.stdin
        result.files.append(on_stdin(stdin.read(), args.stdin_filename or "-"))
    else:
        for path in api.iter_transcripts(args.paths):
            try:
                report = on_file(str(path))
            except MigratorError as exc:
                result.errors.append(exc)
                io.stderr.write(f"mcp-migrate: error: {exc}\n")
                continue
            if args.verbose:
                io.stderr.write(f"{path}: {report.format} ({report.detection})\n")
            result.files.append(report)
    result.seconds = time.perf_counter() - started
    return result
