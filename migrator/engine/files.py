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
from migrator.engine.pipeline import Pipeline, check_lines, process, process_units
from migrator.engine.results import FileReport, FixOutcome, RunResult
from migrator.errors import (
    InputError,
    MigratorError,
    NotATranscriptError,
    UnsafeRewriteError,
    UsageError,
    WriteError,
)
from migrator.fix.diff import StreamingDiff, unified_diff
from migrator.fix.writer import (
    gzipped,
    is_our_temporary,
    replace_file,
    resolve_target,
    write_file,
    write_object,
)
from migrator.model.findings import FindingList
from migrator.model.source import decode, encode, iter_lines, split_lines
from migrator.readers import is_walked
from migrator.readers.compressed import is_compressed, open_maybe_compressed
from migrator.readers.pair import C2S, S2C, Side, merge_pair, read_side
from migrator.readers.storage import StorageOptions, is_url

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


def _what_is_there(path: str, storage_options: StorageOptions = ()) -> str:
    """Why a file with no message in it has none: empty, blank, or lines that are not messages."""
    if is_url(path):
        from migrator.readers.storage import object_size

        if object_size(path, storage_options) == 0:
            return "the object is empty"
        return "no line of it is a message"
    local = Path(path)
    try:
        size = local.stat().st_size
        if size == 0:
            return "the file is empty"
        if size <= 1 << 16 and not local.read_bytes().strip():  # small enough to look at again
            return "the file holds only blank lines"
    except OSError:  # stdin, or gone since
        pass
    return "no line of it is a message"


def is_configuration(path: str | Path) -> bool:
    """Whether ``path`` is named as a configuration file of ours (or ``pyproject.toml``)."""
    return Path(path).name in CONFIGURATION_NAMES


def no_traffic(report: FileReport, storage_options: StorageOptions = ()) -> NotATranscriptError:
    """The error for a file read to its end without MCP traffic (see :attr:`FileReport.holds_traffic`).

    It says what was there instead: nothing, blank lines, or JSON that is not JSON-RPC.
    ``storage_options`` are those of the store an object URL names.
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
        reason = _what_is_there(path, storage_options)
    return NotATranscriptError(f"holds no JSON-RPC messages: {reason}", path=path)


def iter_transcripts(
    paths: Iterable[str | Path],
    *,
    include: Callable[[Path | str], bool] | None = None,
    exclude: Callable[[Path | str], bool] | None = None,
    storage_options: StorageOptions = (),
) -> Iterator[Path | str]:
    """The files to process: files as given, folders walked for transcript files.

    Folders are walked in sorted order without following symbolic links (so a
    link loop cannot trap the walk); hidden folders are skipped. A URL
    (``s3://bucket/prefix/``) names an object, or a prefix listed as a folder is
    walked, by the same rules and in the same order (see :mod:`migrator.readers.storage`).

    Args:
        paths: files, folders, and URLs of objects or prefixes.
        include: which files found in a folder to take (default: the names the
            format table walks, :func:`is_candidate`).
        exclude: files and folders found in a folder to leave out (a folder left
            out is not entered). Paths given in ``paths`` are always taken.
        storage_options: ``--storage-option`` pairs for the stores URLs name.

    Yields:
        Each file to process (a :class:`~pathlib.Path`; an object as its URL, a
        ``str``), in the order given and, within a folder, sorted.

    Raises:
        InputError: for a path that does not exist.
        UsageError: a URL is given and the ``cloud`` extra is not installed.
    """
    for raw in paths:
        if is_url(raw):
            yield from _walk_url(str(raw), include, exclude, storage_options)
            continue
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
                    if _never_input(name):
                        continue
                    candidate = Path(root) / name
                    wanted = include(candidate) if include is not None else is_candidate(candidate)
                    if wanted and not (exclude is not None and exclude(candidate)):
                        yield candidate
        elif path.exists():
            yield path
        else:
            raise InputError("no such file or folder", path=str(raw))


def _never_input(name: str) -> bool:
    """A writer's temporary file (in flight or left by a kill), or settings: never input."""
    return is_our_temporary(name) or name in CONFIGURATION_NAMES


def _walk_url(
    url: str,
    include: Callable[[Path | str], bool] | None,
    exclude: Callable[[Path | str], bool] | None,
    storage_options: StorageOptions,
) -> Iterator[str]:
    """The objects under a prefix, taken by the rules of a folder walk (or the one object named)."""
    from migrator.readers.storage import walk_prefix

    def skipped_folder(name: str, folder: str) -> bool:
        hidden = name.startswith(".") or name in _SKIPPED_DIRS
        return hidden or (exclude is not None and exclude(folder))

    def wanted(candidate: str) -> bool:
        name = candidate.rsplit("/", 1)[-1]
        if _never_input(name):
            return False
        taken = include(candidate) if include is not None else is_walked(name)
        return taken and not (exclude is not None and exclude(candidate))

    found = walk_prefix(url, storage_options, wanted=wanted, skipped_folder=skipped_folder)
    if found is None:
        yield url
    else:
        yield from found


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
    check_lines(split_lines(text), path, options or Options(), report)
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


def check_file(
    path: str | Path,
    options: Options | None = None,
    *,
    on_found: Callable[[FileReport], None] | None = None,
) -> FileReport:
    """Check one transcript file, streaming it (memory stays bounded for line formats).

    Args:
        path: the transcript file.
        options: which rules run, and how (default: all, as ``check`` does).
        on_found: called with the report as a large wire transcript is read, with
            findings that are final (see :func:`~migrator.engine.pipeline.check_lines`).

    Returns:
        The report: format, messages read and findings.

    Raises:
        InputError: the file cannot be read, or holds no MCP traffic (a
            :class:`~migrator.errors.NotATranscriptError`).
    """
    opts = options or Options()
    report = FileReport(str(path))
    with _open(path, opts.storage_options) as stream:
        check_lines(_read_lines(stream, path), str(path), opts, report, on_found=on_found)
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
    output: str | Path | None = None,
) -> FixOutcome:
    """Fix one file in place, atomically; or write the fixed copy elsewhere; or, in diff mode, only compute the diff.

    The file (or its copy) is written only when something changed. On any error the
    original is left exactly as it was, and no copy is written.

    Args:
        path: the transcript file, or an object's URL (never rewritten in place:
            give ``output``).
        options: how to fix it; with ``options.mode`` :attr:`Mode.DIFF` nothing
            is written and the outcome holds the unified diff (check mode fixes,
            as fix mode does).
        backup: a suffix such as ``.orig``: keep the original beside the new file.
        diff_to: in diff mode, write the diff to this stream as it is made (so a
            large diff is never held in memory) and leave :attr:`FixOutcome.diff`
            empty; on an error, part of the diff may already be in the stream.
        output: write the fixed copy to this file (its folders are made) or
            object URL instead, whole and only once the rewrite is validated;
            the original is only read. A gzip input gets a gzip copy.

    Returns:
        The file's report, its diff (diff mode) and whether it was written.

    Raises:
        InputError: the file cannot be read or holds no MCP traffic.
        UnsafeRewriteError: a rewrite would not be valid MCP (nothing written).
        UsageError: a URL to fix in place (without ``output``).
        WriteError: the file is read-only, changed meanwhile, or the disk is full.
    """
    opts = _fixing(options)
    report = FileReport(str(path))
    if opts.mode is Mode.DIFF:
        if diff_to is not None:
            _diff(path, opts, report, diff_to)
            return FixOutcome(report)
        whole = io.StringIO()
        _diff(path, opts, report, whole)
        return FixOutcome(report, whole.getvalue())
    if output is None and is_url(path):
        raise UsageError(IN_PLACE_OBJECT, path=str(path))
    real, snapshot = resolve_target(path) if output is None else (None, None)
    stream = _open(path, opts.storage_options)  # named as given, as check names it
    try:
        chunks = _in_blocks(process(_read_lines(stream, path), str(path), opts, report))
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
        if output is not None:
            content = _then_close(stream, first, chunks)
            _write_copy(str(output), gzipped(content) if is_compressed(stream) else content, opts)
            return FixOutcome(report, written=True)
        if is_compressed(stream):
            raise InputError(
                "fix does not write compressed files: decompress it first (`--diff` shows the "
                "changes, `--output-dir` writes compressed fixed copies)",
                path=str(path),
            )
        assert real is not None and snapshot is not None
        replace_file(real, snapshot, _then_close(stream, first, chunks), backup)
    finally:
        stream.close()
    return FixOutcome(report, written=True)


_WRITE_BLOCK = 1 << 16  # characters of output encoded and written at a time


def _in_blocks(pieces: Iterable[str]) -> Iterator[bytes]:
    """The output pieces (a line each, for line formats) encoded a block at a time.

    Writing a line at a time cost a write call per line; the bytes are the same.
    """
    block: list[str] = []
    held = 0
    for piece in pieces:
        block.append(piece)
        held += len(piece)
        if held >= _WRITE_BLOCK:
            yield encode("".join(block))
            block, held = [], 0
    if block:
        yield encode("".join(block))


IN_PLACE_OBJECT = (
    "fix does not rewrite objects in place: give --output-dir DIR or URL for the fixed "
    "copies (or --diff to see the changes)"
)
"""Why ``fix`` of a URL without somewhere else to write is refused."""


def _write_copy(output: str, content: Iterable[bytes], options: Options) -> None:
    """The fixed copy, written whole: a local file through the atomic writer, or one object."""
    if is_url(output):
        write_object(output, content, options.storage_options)
        return
    target = Path(output)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(
            f"cannot make the folder for the fixed copy: {exc.strerror or exc}", path=output
        ) from exc
    write_file(target, content)


def copy_target(path: str | Path, given: str | Path, output_dir: str) -> str:
    """Where ``fix --output-dir`` writes the fixed copy of ``path``, found under ``given``.

    A file (or object) named as it is goes straight into ``output_dir``; one found
    in a folder (or under a prefix) keeps its place below that folder.
    """
    name = str(path)
    if is_url(name):
        root = str(given).rstrip("/") + "/"
        relative = name[len(root) :] if name.startswith(root) else name.rsplit("/", 1)[-1]
    elif Path(given).is_dir():
        relative = Path(name).relative_to(Path(given)).as_posix()
    else:
        relative = Path(name).name
    if is_url(output_dir):
        return output_dir.rstrip("/") + "/" + relative
    return str(Path(output_dir, *relative.split("/")))


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
    if is_url(target) and opts.mode is not Mode.DIFF:  # an object is never rewritten in place
        raise UsageError(IN_PLACE_OBJECT, path=target)
    replaced = None if is_url(target) else resolve_target(target)
    report, s2c, outputs = _run_pair(str(c2s_path), target, opts)
    after = "".join(s2c.rewritten(outputs))
    if opts.mode is Mode.DIFF:
        return FixOutcome(report, unified_diff(s2c.text, after, target))
    if not report.fixes or after == s2c.text:
        return FixOutcome(report)
    assert replaced is not None  # a URL was refused above
    real, snapshot = replaced
    replace_file(real, snapshot, [encode(after)], backup)
    return FixOutcome(report, written=True)


def _run_pair(
    c2s_path: str, s2c_path: str, options: Options
) -> tuple[FileReport, Side, dict[int, str]]:
    """The rules over a merged pair: the report, the server's side, and each unit's output by ``id``."""
    c2s = read_side(c2s_path, C2S, options.input_format, options.storage_options)
    s2c = read_side(s2c_path, S2C, options.input_format, options.storage_options)
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


def _diff(target: str | Path, options: Options, report: FileReport, out: TextIO) -> None:
    """Write the diff ``fix`` would apply: streamed for line formats, whole for documents."""
    name = str(target)
    streaming = StreamingDiff(name)
    after: list[str] = []
    with _open(target, options.storage_options) as stream:
        for old, new in process_units(_read_lines(stream, name), name, options, report):
            if report.line_for_line and old is not None:
                if piece := streaming.feed(old, new):
                    out.write(piece)
            else:  # a document: its output may come whole, at the end, and in its own order
                after.append(new)
    if report.line_for_line:
        out.write(streaming.finish())
        return
    with _open(target, options.storage_options) as stream:
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


def _open(path: str | Path, storage_options: StorageOptions = ()) -> BinaryIO:
    if is_configuration(path):
        raise NotATranscriptError(
            "a configuration file, not a transcript: it is never read as input",
            path=str(path),
        )
    if is_url(path):
        from migrator.readers.storage import open_object

        return _decompressing(open_object(str(path), storage_options), str(path))
    try:
        raw = Path(path).open("rb")  # noqa: SIM115 - handed to the caller, who closes it
    except IsADirectoryError as exc:
        raise InputError("is a folder, not a transcript file", path=str(path)) from exc
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from exc
    return _decompressing(raw, str(path))


def _decompressing(raw: BinaryIO, path: str) -> BinaryIO:
    """``raw``, through gzip when it starts with the magic bytes; closed if even that read fails."""
    try:
        return open_maybe_compressed(raw, path)  # the caller closes it
    except BaseException as exc:
        raw.close()  # the first read (the gzip magic) failed: nothing is handed on
        if isinstance(exc, OSError):
            raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from exc
        raise
