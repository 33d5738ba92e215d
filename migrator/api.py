"""The Python API: check and fix transcripts from code.

Everything the CLI does goes through these functions; they never print and
never exit. Each works on one file, so they map cleanly over a folder with any
engine you already use (a process pool, a Dask bag, a CI matrix).

Example:
    >>> from migrator.api import fix_text
    >>> before = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}\\n'
    >>> before += '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid arguments for tool add: bad a"}}\\n'
    >>> after, report = fix_text(before)
    >>> report.fixes
    1
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO

from migrator.compressed import is_compressed, open_maybe_compressed
from migrator.diff import StreamingDiff, unified_diff
from migrator.engine import FileReport, Options, process, process_units
from migrator.errors import InputError, MigratorError
from migrator.reporters import RunResult
from migrator.source import decode, encode, iter_lines, split_lines
from migrator.writer import AtomicWriter, check_writable, is_our_temporary, resolve_target

__all__ = [
    "DOCUMENT_SUFFIXES",
    "TRANSCRIPT_SUFFIXES",
    "FileReport",
    "FixOutcome",
    "Options",
    "check_file",
    "check_text",
    "fix_file",
    "fix_text",
    "iter_transcripts",
    "merge_reports",
    "try_check_file",
    "write_report",
]

TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson", ".jsonlines")
"""Line formats: every such file in a walked folder is a transcript."""
DOCUMENT_SUFFIXES = (".json", ".har", ".yaml", ".yml", ".txtar")
"""Files that may be transcripts: walked, and passed over quietly if they hold no MCP traffic."""


def is_candidate(path: Path) -> bool:
    """Whether a file met while walking a folder may be a transcript."""
    name = path.name.removesuffix(".gz")  # compressed transcripts and traces are read too
    return name.endswith(TRANSCRIPT_SUFFIXES + DOCUMENT_SUFFIXES) or (
        name.startswith("mcp") and name.endswith(".log")  # Claude Desktop's mcp*.log
    )
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})


def iter_transcripts(
    paths: Iterable[str | Path],
    *,
    include: Callable[[Path], bool] | None = None,
    exclude: Callable[[Path], bool] | None = None,
) -> Iterator[Path]:
    """The files to process: files as given, folders walked for transcript files.

    Folders are walked in sorted order without following symbolic links (so a
    link loop cannot trap the walk); hidden folders are skipped.

    Args:
        paths: files and folders.
        include: which files found in a folder to take (default: names ending in
            one of :data:`TRANSCRIPT_SUFFIXES` or :data:`DOCUMENT_SUFFIXES`, and
            ``mcp*.log``).
        exclude: files and folders found in a folder to leave out (a folder left
            out is not entered). Paths given in ``paths`` are always taken.

    Raises:
        InputError: for a path that does not exist.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d
                    for d in dirs
                    if not d.startswith(".")
                    and d not in _SKIPPED_DIRS
                    and not (exclude is not None and exclude(Path(root) / d))
                )
                for name in sorted(files):
                    if is_our_temporary(name):  # a writer's, in flight or left by a kill
                        continue
                    candidate = Path(root) / name
                    wanted = include(candidate) if include is not None else is_candidate(candidate)
                    if wanted and not (exclude is not None and exclude(candidate)):
                        yield candidate
        elif path.exists():
            yield path
        else:
            raise InputError("no such file or folder", path=str(raw))


def check_text(text: str, path: str = "<string>", options: Options | None = None) -> FileReport:
    """Check a transcript held in a string."""
    report = FileReport(path)
    for _ in process(split_lines(text), path, options or Options(), report):
        pass
    return report


def fix_text(text: str, path: str = "<string>", options: Options | None = None) -> tuple[str, FileReport]:
    """Fix a transcript held in a string; returns the new text and the report.

    Raises:
        UnsafeRewriteError: if a rewrite would not be valid MCP.
    """
    opts = _fixing(options)
    report = FileReport(path)
    after = "".join(process(split_lines(text), path, opts, report))
    return after, report


def check_file(path: str | Path, options: Options | None = None) -> FileReport:
    """Check one transcript file, streaming it."""
    report = FileReport(str(path))
    with _open(path) as stream:
        for _ in process(iter_lines(stream), str(path), options or Options(), report):
            pass
    return report


def try_check_file(path: str | Path, options: Options | None = None) -> FileReport | MigratorError:
    """:func:`check_file` for executors: a file's error comes back as a value.

    This is the function to map over a folder with an engine you already run
    (``concurrent.futures``, a Dask bag, a CI matrix): one unreadable file does
    not stop the others, and both results pickle. Merge what comes back with
    :func:`merge_reports`.
    """
    try:
        return check_file(path, options)
    except MigratorError as error:
        return error


def merge_reports(results: Iterable[FileReport | MigratorError]) -> RunResult:
    """One run's result from per-file reports and errors, as ``check`` builds it.

    Hand the result to :func:`write_report` for any ``--output-format``.
    """
    merged = RunResult()
    for result in results:
        if isinstance(result, MigratorError):
            merged.errors.append(result)
        else:
            merged.files.append(result)
    return merged


def write_report(
    result: RunResult,
    out: TextIO,
    output_format: str = "text",
    *,
    show_evidence: bool = False,
    fail_on: str = "warning",
) -> None:
    """Write a report of ``result`` in one of the ``--output-format`` formats.

    Raises:
        ValueError: ``output_format`` is not one of them.
    """
    from migrator.reporters import REPORTERS, OutputFormat, ReportOptions

    options = ReportOptions(show_evidence=show_evidence, fail_on=fail_on)
    REPORTERS[OutputFormat(output_format)](result, out, options)


@dataclass
class FixOutcome:
    """The result of :func:`fix_file`."""

    report: FileReport
    diff: str = ""  # with diff=True: the unified diff (empty when nothing changes)
    written: bool = False


def fix_file(
    path: str | Path,
    options: Options | None = None,
    *,
    diff: bool = False,
    backup: str | None = None,
    diff_to: TextIO | None = None,
) -> FixOutcome:
    """Fix one file in place, atomically; or, with ``diff=True``, only compute the diff.

    The file is rewritten only when something changed. On any error the
    original is left exactly as it was. With ``backup`` (a suffix such as
    ``.orig``) the original is kept beside the new file. With ``diff=True``
    and ``diff_to``, the diff is written to that stream as it is made (so a
    large diff is never held in memory) and :attr:`FixOutcome.diff` stays
    empty; on an error, part of the diff may already be in the stream.

    Raises:
        UnsafeRewriteError: a rewrite would not be valid MCP (nothing written).
        WriteError: the file is read-only, changed meanwhile, or the disk is full.
    """
    opts = _fixing(options)
    target = Path(path)
    report = FileReport(str(path))
    if diff:
        if diff_to is not None:
            _diff(target, str(path), opts, report, diff_to)
            return FixOutcome(report)
        whole = io.StringIO()
        _diff(target, str(path), opts, report, whole)
        return FixOutcome(report, whole.getvalue())
    real, snapshot = resolve_target(target)
    writer: AtomicWriter | None = None
    try:
        with _open(target) as stream:  # named as given, as check names it
            chunks = (encode(piece) for piece in process(iter_lines(stream), str(path), opts, report))
            first = b""
            # Nothing is written (not even a temporary file) for a file that
            # needs no change: find the first change before opening a writer.
            done: list[bytes] = []
            for chunk in chunks:
                done.append(chunk)
                if report.fixes:
                    first = b"".join(done)
                    break
            if not report.fixes:
                return FixOutcome(report)
            if is_compressed(stream):
                raise InputError("fix does not write compressed files: decompress it first (`--diff` shows the changes)", path=str(path))
            check_writable(real, snapshot)
            writer = AtomicWriter(real)
            writer.write_all(_prepend(first, chunks))
        writer.commit(snapshot, backup)
    except BaseException:  # a refused rewrite, a full disk, a bug, Ctrl-C: the original stays
        if writer is not None:
            writer.discard()
        raise
    return FixOutcome(report, written=True)


def _diff(target: Path, name: str, options: Options, report: FileReport, out: TextIO) -> None:
    """Write the diff ``fix`` would apply: streamed for line formats, whole for documents."""
    streaming = StreamingDiff(name)
    after: list[str] = []
    with _open(target) as stream:
        for old, new in process_units(iter_lines(stream), name, options, report):
            if report.line_for_line and old is not None:
                if piece := streaming.feed(old, new):
                    out.write(piece)
            else:  # a document: its output may come whole, at the end, and in its own order
                after.append(new)
    if report.line_for_line:
        out.write(streaming.finish())
        return
    with _open(target) as stream:
        before = decode(stream.read())
    out.write(unified_diff(before, "".join(after), name))


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


def _fixing(options: Options | None) -> Options:
    from dataclasses import replace

    return replace(options or Options(), apply_fixes=True)


def _open(path: str | Path) -> BinaryIO:
    try:
        return open_maybe_compressed(Path(path).open("rb"), str(path))  # the caller closes it
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a transcript file", path=str(path)) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc
