"""Check and fix one file (or one text, or one pair of files).

Everything the CLI does goes through these functions; they never print and
never exit. Each works on one file, so they map cleanly over a folder with any
engine you already use (a process pool, a Dask bag, a CI matrix).

Example:
    >>> from migrator.engine.files import fix_text
    >>> before = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":"x"}}}\\n'
    >>> before += '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid arguments for tool add: bad a"}}\\n'
    >>> after, report = fix_text(before)
    >>> report.fixes
    1
"""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from migrator.engine.config import LEGACY_YAML_NAME, PYPROJECT_NAME, YAML_NAME
from migrator.engine.options import Mode, Options
from migrator.engine.pipeline import Pipeline, process, process_units
from migrator.engine.results import FileReport, FixOutcome, RunResult
from migrator.errors import InputError, MigratorError, NotATranscriptError, UnsafeRewriteError
from migrator.fix.diff import StreamingDiff, unified_diff
from migrator.fix.writer import is_our_temporary, replace_file, resolve_target
from migrator.model.findings import FindingList
from migrator.model.source import decode, encode, iter_lines, split_lines
from migrator.readers import is_walked
from migrator.readers.compressed import is_compressed, open_maybe_compressed
from migrator.readers.pair import C2S, S2C, Side, merge_pair, read_side

__all__ = [
    "DOCUMENT_SUFFIXES",
    "TRANSCRIPT_SUFFIXES",
    "FileReport",
    "FixOutcome",
    "Mode",
    "Options",
    "RunResult",
    "check_file",
    "check_pair",
    "check_text",
    "fix_file",
    "fix_pair",
    "fix_text",
    "iter_transcripts",
    "merge_reports",
    "try_check_file",
]

TRANSCRIPT_SUFFIXES = (".jsonl", ".ndjson", ".jsonlines")
"""Line formats (kept for the API; the format table in :mod:`migrator.readers` is the source)."""
DOCUMENT_SUFFIXES = (".json", ".har", ".yaml", ".yml", ".txtar")
"""Document formats (kept for the API; the format table in :mod:`migrator.readers` is the source)."""


def is_candidate(path: Path) -> bool:
    """Whether a file met while walking a folder may be a transcript.

    Args:
        path: a file found in a folder.

    Returns:
        True when its name matches a pattern of the format table
        (:func:`migrator.readers.walked_patterns`), compressed or not.
    """
    return is_walked(path.name)


_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "site-packages"})

CONFIGURATION_NAMES = frozenset({YAML_NAME, LEGACY_YAML_NAME, PYPROJECT_NAME})
"""Configuration files: never read as input, neither named nor met in a walk."""


def _what_is_there(path: Path) -> str:
    """Why a file with no message in it has none: empty, blank, or lines that are not messages."""
    try:
        size = path.stat().st_size
        if size == 0:
            return "the file is empty"
        if size <= 1 << 16 and not path.read_bytes().strip():  # small enough to look at again
            return "the file holds only blank lines"
    except OSError:  # stdin, or gone since
        pass
    return "no line of it is a message"


def is_configuration(path: str | Path) -> bool:
    """Whether ``path`` is named as a configuration file of ours (or ``pyproject.toml``)."""
    return Path(path).name in CONFIGURATION_NAMES


def no_traffic(report: FileReport) -> NotATranscriptError:
    """The error for a file read to its end without MCP traffic (see :attr:`FileReport.holds_traffic`).

    It says what was there instead: nothing, blank lines, or JSON that is not JSON-RPC.
    """
    path = report.path
    if report.format == "otlp-json":  # spans, not messages
        return NotATranscriptError(
            "holds no MCP spans: a trace, but none of its spans is an MCP operation", path=path
        )
    if report.messages:
        count = report.messages
        reason = (
            f"none of its {count} JSON value{'s' if count != 1 else ''} has a jsonrpc, "
            "method, result or error member"
        )
    else:
        reason = _what_is_there(Path(path))
    return NotATranscriptError(f"holds no JSON-RPC messages: {reason}", path=path)


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
        include: which files found in a folder to take (default: the names the
            format table walks, :func:`is_candidate`).
        exclude: files and folders found in a folder to leave out (a folder left
            out is not entered). Paths given in ``paths`` are always taken.

    Yields:
        Each file to process, in the order given and, within a folder, sorted.

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
                    if name in CONFIGURATION_NAMES:  # settings, never input
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
    """Check a transcript held in a string.

    Args:
        text: the whole transcript, in any input format.
        path: the name findings carry (and ``per-file-ignores`` would match).
        options: which rules run, and how (default: all, as ``check`` does).

    Returns:
        The report: format, messages read and findings.

    Raises:
        InputError: the text holds no MCP traffic in any known format.
    """
    report = FileReport(path)
    for _ in process(split_lines(text), path, options or Options(), report):
        pass
    return report


def fix_text(
    text: str, path: str = "<string>", options: Options | None = None
) -> tuple[str, FileReport]:
    """Fix a transcript held in a string.

    Args:
        text: the whole transcript, in any input format.
        path: the name findings carry.
        options: which rules run and which fixes apply (unsafe ones only with
            ``unsafe_fixes``); the mode is always fix.

    Returns:
        The new text (every byte not fixed as it was) and the report.

    Raises:
        InputError: the text holds no MCP traffic in any known format.
        UnsafeRewriteError: if a rewrite would not be valid MCP.
    """
    opts = _fixing(options)
    report = FileReport(path)
    after = "".join(process(split_lines(text), path, opts, report))
    return after, report


def check_file(path: str | Path, options: Options | None = None) -> FileReport:
    """Check one transcript file, streaming it (memory stays bounded for line formats).

    Args:
        path: the transcript file.
        options: which rules run, and how (default: all, as ``check`` does).

    Returns:
        The report: format, messages read and findings.

    Raises:
        InputError: the file cannot be read, or holds no MCP traffic (a
            :class:`~migrator.errors.NotATranscriptError`).
    """
    report = FileReport(str(path))
    with _open(path) as stream:
        for _ in process(_read_lines(stream, path), str(path), options or Options(), report):
            pass
    return report


def try_check_file(path: str | Path, options: Options | None = None) -> FileReport | MigratorError:
    """:func:`check_file` for executors: a file's error comes back as a value.

    This is the function to map over a folder with an engine you already run
    (``concurrent.futures``, a Dask bag, a CI matrix): one unreadable file does
    not stop the others, and both results pickle. Merge what comes back with
    :func:`merge_reports`. (``mcp-transcripts check`` itself runs folders with
    :func:`migrator.engine.runner.run`, which does the same per file.)

    Args:
        path: the transcript file.
        options: which rules run, and how.

    Returns:
        The report, or the error that stopped this file.
    """
    try:
        return check_file(path, options)
    except MigratorError as error:
        return error


def merge_reports(results: Iterable[FileReport | MigratorError]) -> RunResult:
    """One run's result from per-file reports and errors, as ``check`` builds it.

    Args:
        results: what :func:`try_check_file` returned for each file, in order.

    Returns:
        The run's result: hand it to :func:`write_report` for any
        ``--output-format``; :meth:`RunResult.exit_code` gives ``check``'s exit code.
    """
    return RunResult.gather(results)


def fix_file(
    path: str | Path,
    options: Options | None = None,
    *,
    backup: str | None = None,
    diff_to: TextIO | None = None,
) -> FixOutcome:
    """Fix one file in place, atomically; or, in diff mode, only compute the diff.

    The file is rewritten only when something changed. On any error the
    original is left exactly as it was.

    Args:
        path: the transcript file.
        options: how to fix it; with ``options.mode`` :attr:`Mode.DIFF` nothing
            is written and the outcome holds the unified diff (check mode fixes,
            as fix mode does).
        backup: a suffix such as ``.orig``: keep the original beside the new file.
        diff_to: in diff mode, write the diff to this stream as it is made (so a
            large diff is never held in memory) and leave :attr:`FixOutcome.diff`
            empty; on an error, part of the diff may already be in the stream.

    Returns:
        The file's report, its diff (diff mode) and whether it was written.

    Raises:
        InputError: the file cannot be read or holds no MCP traffic.
        UnsafeRewriteError: a rewrite would not be valid MCP (nothing written).
        WriteError: the file is read-only, changed meanwhile, or the disk is full.
    """
    opts = _fixing(options)
    target = Path(path)
    report = FileReport(str(path))
    if opts.mode is Mode.DIFF:
        if diff_to is not None:
            _diff(target, str(path), opts, report, diff_to)
            return FixOutcome(report)
        whole = io.StringIO()
        _diff(target, str(path), opts, report, whole)
        return FixOutcome(report, whole.getvalue())
    real, snapshot = resolve_target(target)
    stream = _open(target)  # named as given, as check names it
    try:
        chunks = (
            encode(piece) for piece in process(_read_lines(stream, path), str(path), opts, report)
        )
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
            raise InputError(
                "fix does not write compressed files: decompress it first (`--diff` shows the changes)",
                path=str(path),
            )
        replace_file(real, snapshot, _then_close(stream, first, chunks), backup)
    finally:
        stream.close()
    return FixOutcome(report, written=True)


def check_pair(
    c2s_path: str | Path, s2c_path: str | Path, options: Options | None = None
) -> FileReport:
    """Check a two-file stdio capture (see :mod:`migrator.readers.pair`).

    Args:
        c2s_path: what the client wrote (the server's stdin).
        s2c_path: what the server wrote (its stdout); the report is named after it.
        options: which rules run, and how.

    Returns:
        The report; each finding names the file its line is in.

    Raises:
        InputError: a file cannot be read, or the two cannot be merged.
    """
    report, _, _ = _run_pair(str(c2s_path), str(s2c_path), options or Options())
    return report


def fix_pair(
    c2s_path: str | Path,
    s2c_path: str | Path,
    options: Options | None = None,
    *,
    backup: str | None = None,
) -> FixOutcome:
    """Fix a two-file stdio capture: rewrite the server->client file in place, atomically.

    The client->server file is only read (answers are the server's).

    Args:
        c2s_path: what the client wrote (the server's stdin).
        s2c_path: what the server wrote (its stdout): the file rewritten.
        options: how to fix; with ``options.mode`` :attr:`Mode.DIFF` nothing is
            written and the outcome holds the unified diff of the server's file.
        backup: a suffix such as ``.orig``: keep the original server file beside the new one.

    Returns:
        The report, the diff (diff mode) and whether the server's file was written.

    Raises:
        InputError: a file cannot be read, or the two cannot be merged.
        UnsafeRewriteError: a rewrite would not be valid MCP (nothing written).
        WriteError: the server file is read-only, changed meanwhile, or the disk is full.
    """
    opts = _fixing(options)
    target = str(s2c_path)
    real, snapshot = resolve_target(target)
    report, s2c, outputs = _run_pair(str(c2s_path), target, opts)
    after = "".join(s2c.rewritten(outputs))
    if opts.mode is Mode.DIFF:
        return FixOutcome(report, unified_diff(s2c.text, after, target))
    if not report.fixes or after == s2c.text:
        return FixOutcome(report)
    replace_file(real, snapshot, [encode(after)], backup)
    return FixOutcome(report, written=True)


def _run_pair(
    c2s_path: str, s2c_path: str, options: Options
) -> tuple[FileReport, Side, dict[int, str]]:
    """The rules over a merged pair: the report, the server's side, and each unit's output by ``id``."""
    c2s = read_side(c2s_path, C2S, options.input_format)
    s2c = read_side(s2c_path, S2C, options.input_format)
    merged = merge_pair(c2s, s2c)
    report = FileReport(
        s2c_path, format=f"pair ({c2s.reader.name} + {s2c.reader.name})", detection=merged.how
    )
    pipeline = Pipeline(s2c_path, options, report)
    positions = {
        side.path: {(m.line, m.column) for u in side.units for m in u.messages}
        for side in (c2s, s2c)
    }
    outputs: dict[int, str] = {}
    kept = report.findings
    for side, unit in merged.order:
        report.findings = FindingList()  # this unit's findings, to be placed in their file
        try:
            text = pipeline.handle(unit)
        except MigratorError as exc:
            exc.path = side.path
            raise
        if side is c2s and text != unit.text:
            raise UnsafeRewriteError(
                "a rewrite in the client->server file; only server answers are rewritten",
                path=c2s.path,
                line=unit.line,
            )
        outputs[id(unit)] = text
        other = s2c if side is c2s else c2s
        own = {(m.line, m.column) for m in unit.messages}
        for finding in report.findings:
            where = (finding.line, finding.column)
            # A finding belongs to the file of the message it points at.
            path = other.path if where not in own and where in positions[other.path] else side.path
            kept.append(
                finding if finding.path == path else dataclasses.replace(finding, path=path)
            )
    report.findings = kept
    return report, s2c, outputs


def _then_close(stream: BinaryIO, first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    # The source is closed once read, before the new file is moved into its place.
    yield first
    yield from rest
    stream.close()


def _diff(target: Path, name: str, options: Options, report: FileReport, out: TextIO) -> None:
    """Write the diff ``fix`` would apply: streamed for line formats, whole for documents."""
    streaming = StreamingDiff(name)
    after: list[str] = []
    with _open(target) as stream:
        for old, new in process_units(_read_lines(stream, name), name, options, report):
            if report.line_for_line and old is not None:
                if piece := streaming.feed(old, new):
                    out.write(piece)
            else:  # a document: its output may come whole, at the end, and in its own order
                after.append(new)
    if report.line_for_line:
        out.write(streaming.finish())
        return
    with _open(target) as stream:
        try:
            before = decode(stream.read())
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", path=name) from exc
    out.write(unified_diff(before, "".join(after), name))


def _fixing(options: Options | None) -> Options:
    """``options`` for fixing: diff mode stays diff, anything else becomes fix."""
    opts = options or Options()
    return opts if opts.mode.fixes else dataclasses.replace(opts, mode=Mode.FIX)


def _read_lines(stream: BinaryIO, path: str | Path) -> Iterator[str]:
    """The file's lines; a read that fails midway (EIO, a vanished disk) is an input error."""
    try:
        yield from iter_lines(stream)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc


def _open(path: str | Path) -> BinaryIO:
    if is_configuration(path):
        raise NotATranscriptError(
            "a configuration file, not a transcript: it is never read as input",
            path=str(path),
        )
    try:
        raw = Path(path).open("rb")  # noqa: SIM115 - handed to the caller, who closes it
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a transcript file", path=str(path)) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc
    try:
        return open_maybe_compressed(raw, str(path))  # the caller closes it
    except BaseException as exc:
        raw.close()  # the first read (the gzip magic) failed: nothing is handed on
        if isinstance(exc, OSError):
            raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc
        raise
