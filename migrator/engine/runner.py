"""Running many files: the walk, the worker pool, output in order, errors as values.

:func:`run` is the one way to run ``check`` or ``fix`` over paths: folders are
walked with the configuration's ``include`` and ``exclude``, each file gets the
options :meth:`~migrator.engine.config.Config.narrow` gives its path, files run in
worker processes when there is a lot to read, and diffs come out in the order
of the paths. It never prints: an ``on_file`` callback hears of each file as it
is done (the CLI draws its progress bar and verbose lines from it), and what
the run found comes back as a :class:`~migrator.engine.results.RunResult`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from migrator.engine import files
from migrator.engine.options import Mode, Options
from migrator.engine.results import FileReport, RunResult
from migrator.errors import MigratorError, NotATranscriptError, UsageError
from migrator.readers.storage import StorageOptions, is_url

if TYPE_CHECKING:
    from migrator.engine.config import Config

__all__ = [
    "PARALLEL_MIN_BYTES",
    "SPLIT_MIN_BYTES",
    "FileDone",
    "FileTask",
    "SpooledDiff",
    "jobs_for",
    "perform",
    "perform_pair",
    "run",
]

PARALLEL_MIN_BYTES = 16 * 1024 * 1024
"""Below this much input, starting worker processes costs more than it saves."""

SPLIT_MIN_BYTES = 64 * 1024 * 1024
"""With ``jobs=None`` (``-j auto``), one file this large is cut into a stretch per core.

Below it, the parent's pass over the file (finding the cuts, counting the lines
before each) and starting the workers take a large share of what a second core
saves; ``-j N`` cuts smaller files too (from 8 MB)."""


@dataclass(frozen=True)
class FileTask:
    """What to do with one file: picklable, so worker processes can run it."""

    options: Options  # its mode says check, fix or diff
    backup: str | None = None
    output: str | None = None  # fix: write the fixed copy here (a file or an object URL)


@dataclass(frozen=True)
class FileDone:
    """One file is done: what the ``on_file`` callback of :func:`run` is given."""

    path: str
    outcome: FileReport | MigratorError
    seconds: float
    skipped: bool = False  # found in a folder but holds no MCP traffic: passed over


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
            with Path(self.path).open(
                encoding="utf-8", errors="surrogateescape", newline=""
            ) as spool:
                shutil.copyfileobj(spool, out, 1 << 16)
        finally:
            self.discard()

    def discard(self) -> None:
        """Delete the file."""
        with contextlib.suppress(OSError):
            Path(self.path).unlink()


def perform(
    task: FileTask, path: str, on_found: Callable[[FileReport], None] | None = None
) -> tuple[FileReport, str | SpooledDiff]:
    """Run a task on one file; returns its report and its output (the diff, in diff mode).

    ``on_found`` hears of a checked file's findings as they come (see
    :func:`~migrator.engine.files.check_file`).
    """
    mode = task.options.mode
    if mode is Mode.CHECK:
        return files.check_file(path, task.options, on_found=on_found), ""
    if mode is Mode.DIFF:
        handle, name = tempfile.mkstemp(prefix="mcp-transcripts-", suffix=".diff")
        try:
            with os.fdopen(
                handle, "w", encoding="utf-8", errors="surrogateescape", newline=""
            ) as spool:
                outcome = files.fix_file(path, task.options, diff_to=spool)
        except BaseException:
            SpooledDiff(name).discard()
            raise
        return outcome.report, SpooledDiff(name)
    outcome = files.fix_file(path, task.options, backup=task.backup, output=task.output)
    return outcome.report, ""


def perform_pair(task: FileTask, c2s: str, s2c: str) -> tuple[FileReport, str]:
    """Run a task on a two-file capture (only the server's file is ever rewritten)."""
    if task.options.mode is Mode.CHECK:
        return files.check_pair(c2s, s2c, task.options), ""
    outcome = files.fix_pair(c2s, s2c, task.options, backup=task.backup)
    return outcome.report, outcome.diff


def _perform_caught(
    task: FileTask, path: str, on_found: Callable[[FileReport], None] | None = None
) -> tuple[FileReport | MigratorError, str | SpooledDiff, float]:
    # Runs in worker processes too: errors come back as values, in order.
    began = time.perf_counter()
    try:
        report, output = perform(task, path, on_found)
    except MigratorError as exc:
        return exc, "", time.perf_counter() - began
    return report, output, time.perf_counter() - began


def jobs_for(requested: int | None, paths: Sequence[Path | str]) -> int:
    """How many worker processes to use: ``requested``, else the cores when there is a lot to read.

    Objects at URLs are not sized (one request each): reading them waits on the
    network as much as on a core, so several of them always get the cores.
    """
    if requested is not None:
        return max(1, min(requested, len(paths)))
    if len(paths) < 2:
        return 1
    if any(is_url(path) for path in paths):
        return min(os.cpu_count() or 1, len(paths))
    total = 0
    for path in paths:
        with contextlib.suppress(OSError):
            total += Path(path).stat().st_size
    return min(os.cpu_count() or 1, len(paths)) if total >= PARALLEL_MIN_BYTES else 1


def run(
    paths: Sequence[str],
    options: Options,
    *,
    config: Config | None = None,
    pairs: Sequence[tuple[str, str]] = (),
    jobs: int | None = None,
    backup: str | None = None,
    stdin: TextIO | None = None,
    stdin_name: str | None = None,
    out: TextIO | None = None,
    output_dir: str | None = None,
    cluster: str | Any = None,
    on_start: Callable[[int, int], None] | None = None,
    on_file: Callable[[FileDone], None] | None = None,
    on_paths: Callable[[list[str]], None] | None = None,
    on_found: Callable[[FileReport], None] | None = None,
) -> RunResult:
    """Check or fix (``options.mode``) every transcript under ``paths``, or two-file captures.

    An error in one file is collected in the result and the others go on; a
    file found in a folder that holds no MCP traffic (not one JSON-RPC message:
    a ``package.json``, an application log, an empty file) is passed over, and
    the configuration file is never read as input. A run that finds no MCP
    traffic at all raises instead of reporting 0 findings. ``-``
    alone in ``paths`` reads ``stdin`` whole and raises its error instead.

    Args:
        paths: files and folders, or ``["-"]`` for stdin.
        options: the options of the run; ``config`` narrows them per path.
        config: the configuration: its ``include``, ``exclude`` and
            ``per-file-ignores`` apply (default: none).
        pairs: two-file captures ``(client->server, server->client)``, instead of ``paths``.
        jobs: worker processes (default: ``jobs_for`` decides: the cores, when there is much to
            read; one file of :data:`SPLIT_MIN_BYTES` or more is cut into a stretch per core).
        backup: in fix mode, keep each original as its path plus this suffix.
        stdin: the stream ``-`` reads (default: ``sys.stdin``).
        stdin_name: the path to report for ``-``.
        out: where diffs (diff mode) and the fixed text of stdin (fix mode) go, in
            the order of the paths; ``None`` drops them.
        output_dir: in fix mode, write the fixed copies into this folder (or under
            this URL prefix), each at its place below the folder or prefix it was
            found in, and leave the originals as they are. Objects at URLs are
            fixed only this way.
        cluster: run the files on a dask.distributed cluster: the scheduler's
            address, or a ``distributed.Client`` (see :mod:`migrator.engine.cluster`);
            ``jobs`` is then the cluster's.
        on_start: called with the number of files and of worker processes
            before the first file runs.
        on_file: called as each file is done, in the order of the paths.
        on_paths: called with the path of every file to run (as ``on_file`` will name
            them), in that order, before the first runs; not for stdin or ``pairs``, whose
            report comes whole.
        on_found: in check mode, called with a file's report while a wire transcript is
            read in this process, and as each stretch of one cut into stretches comes back
            in file order, its findings so far final (see
            :func:`~migrator.engine.files.check_file`); not for files run in worker
            processes (``-j N`` over several files), whose reports come whole.

    Returns:
        The reports and errors of every file, and how long the run took.

    Raises:
        UsageError: '-' or pairs combined with other paths, nothing to run, or
            objects at URLs to fix without ``output_dir``.
        InputError: a path does not exist.
        NotATranscriptError: no file under ``paths`` (or stdin) holds MCP traffic.
        MigratorError: stdin cannot be read or fixed.
    """
    if pairs and paths:
        raise UsageError("--pair cannot be combined with PATH arguments")
    if cluster is not None and (pairs or list(paths) == ["-"]):
        raise UsageError("--dask-scheduler runs files and objects, not --pair or stdin")
    if not pairs and not paths:
        raise UsageError("give at least one PATH (or '-' for stdin), or --pair C2S_FILE S2C_FILE")
    if "-" in paths and len(paths) > 1:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    _check_where_fixes_go(paths, pairs, options, output_dir, backup)
    narrow = config.narrow if config is not None else _unchanged
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        sink = out if out is not None else stack.enter_context(_discarding())
        if list(paths) == ["-"]:
            result = RunResult()
            name = stdin_name or "-"
            text = _read_stdin(stdin if stdin is not None else sys.stdin)
            result.texts[name] = text
            report = _run_text(text, name, narrow(options, name), sink)
            if not report.holds_traffic:
                raise files.no_traffic(report)
            result.files.append(report)
        elif pairs:
            result = _run_pairs(pairs, FileTask(options, backup), narrow, sink, on_file)
        else:
            include, exclude = config.walk_filters() if config is not None else (None, None)
            exclude = _and_not_the_configuration(exclude, config)
            named = {
                p if is_url(p) else Path(p) for p in paths if is_url(p) or not Path(p).is_dir()
            }
            with contextlib.ExitStack() as connection:
                client = _client(cluster, connection)
                found: list[Path | str] = []
                tasks: list[FileTask] = []
                for given in paths:
                    for path in _walk(given, include, exclude, options.storage_options, client):
                        copy = files.copy_target(path, given, output_dir) if output_dir else None
                        found.append(path)
                        tasks.append(FileTask(narrow(options, str(path)), backup, copy))
                if on_paths is not None:
                    on_paths([str(path) for path in found])
                result = _run_paths(
                    found,
                    named,
                    tasks,
                    jobs_for(jobs, found),
                    jobs,
                    sink,
                    on_start,
                    on_file,
                    client,
                    on_found,
                )
            if not result.files and not result.errors:
                raise NotATranscriptError(_nothing_read(paths, len(found)))
    result.seconds = time.perf_counter() - started
    return result


def _walk(
    given: str,
    include: Callable[[Path | str], bool] | None,
    exclude: Callable[[Path | str], bool] | None,
    storage_options: StorageOptions,
    client: Any,
) -> Iterable[Path | str]:
    """The files under one given path; a URL on a cluster is listed by a worker, where it is read."""
    if client is not None and is_url(given):
        from migrator.engine.cluster import walk_remotely

        return walk_remotely(client, given, include, exclude, storage_options)
    return files.iter_transcripts(
        [given], include=include, exclude=exclude, storage_options=storage_options
    )


def _client(cluster: str | Any, stack: contextlib.ExitStack) -> Any:
    """The ``distributed.Client`` of ``cluster`` (connected here when it is an address), or ``None``."""
    if cluster is None or not isinstance(cluster, str):
        return cluster
    from migrator.engine.cluster import connect

    return stack.enter_context(connect(cluster))


def _unchanged(options: Options, path: str | Path) -> Options:
    return options


def _check_where_fixes_go(
    paths: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    options: Options,
    output_dir: str | None,
    backup: str | None,
) -> None:
    """Refuse, before anything is read, a fix that would write where it must not."""
    if output_dir is None:
        given = [*paths, *(side for pair in pairs for side in pair[1:])]  # a pair's server file
        if options.mode is Mode.FIX and (url := next((p for p in given if is_url(p)), None)):
            raise UsageError(files.IN_PLACE_OBJECT, path=url)
        return
    if options.mode is not Mode.FIX:
        raise UsageError("--output-dir is for fix (without --diff): check and --diff write nothing")
    if backup is not None:
        raise UsageError(
            "--backup and --output-dir exclude each other: the originals stay as they are"
        )
    if pairs or list(paths) == ["-"]:
        raise UsageError("--output-dir writes copies of files and objects, not of --pair or stdin")


def _and_not_the_configuration(
    exclude: Callable[[Path | str], bool] | None, config: Config | None
) -> Callable[[Path | str], bool] | None:
    """``exclude``, and also the configuration file in use (``--config`` may give it any name)."""
    if config is None or config.path is None:
        return exclude
    own = config.path.resolve()

    def excluded(path: Path | str) -> bool:
        own_file = not is_url(path) and Path(path).resolve() == own
        return own_file or (exclude is not None and exclude(path))

    return excluded


def _nothing_read(paths: Sequence[str], looked_at: int) -> str:
    """What to say when a run found no MCP traffic at all (it must not pass as "0 findings")."""
    where = ", ".join(paths)
    if not looked_at:
        return (
            f"no MCP traffic found in {where}: no transcript files there "
            "(folders are walked for *.jsonl, *.ndjson, *.jsonlines, *.json, *.har, *.yaml, "
            "*.yml, *.txtar and mcp*.log)"
        )
    files_word = "file" if looked_at == 1 else "files"
    return (
        f"no MCP traffic found in {where}: {looked_at} {files_word} looked at, none holds a "
        "JSON-RPC message (--verbose says why each was passed over)"
    )


def _discarding() -> TextIO:
    # Output nobody asked for (a diff without ``out``) still has to be drained.
    return Path(os.devnull).open("w", encoding="utf-8", errors="surrogateescape")


def _read_stdin(stdin: TextIO) -> str:
    # Bytes, decoded the lossless way files are: invalid UTF-8 and CR LF
    # survive whatever the locale makes of sys.stdin.
    from migrator.model.source import decode

    buffer = getattr(stdin, "buffer", None)
    return decode(buffer.read()) if buffer is not None else stdin.read()


def _run_text(text: str, name: str, options: Options, out: TextIO) -> FileReport:
    if options.mode is Mode.CHECK:
        return files.check_text(text, name, options)
    from migrator.fix.diff import unified_diff

    after, report = files.fix_text(text, name, options)
    out.write(unified_diff(text, after, name) if options.mode is Mode.DIFF else after)
    return report


def _run_pairs(
    pairs: Sequence[tuple[str, str]],
    task: FileTask,
    narrow: Callable[[Options, str | Path], Options],
    out: TextIO,
    on_file: Callable[[FileDone], None] | None,
) -> RunResult:
    result = RunResult()
    for c2s, s2c in pairs:
        began = time.perf_counter()
        outcome: FileReport | MigratorError
        try:
            outcome, output = perform_pair(
                replace(task, options=narrow(task.options, s2c)), c2s, s2c
            )
        except MigratorError as exc:
            outcome = exc
            result.errors.append(exc)
        else:
            out.write(output)
            result.files.append(outcome)
        if on_file is not None:
            on_file(FileDone(s2c, outcome, time.perf_counter() - began))
    return result


def _split(
    task: FileTask,
    path: Path,
    jobs: int | None,
    on_found: Callable[[FileReport], None] | None = None,
) -> tuple[FileReport | MigratorError, str, float] | None:
    """One large wire file cut at its session starts, on ``jobs`` processes (or ``None``).

    With ``jobs`` ``None`` (``-j auto``) only a file of :data:`SPLIT_MIN_BYTES` or
    more is cut, into a stretch per core; a small file is decided here, before
    the machinery of worker processes is imported.
    """
    parts = jobs if jobs is not None else _cores_for_one(path)
    if parts < 2 or task.options.mode is Mode.DIFF:
        return None
    from migrator.engine.stretches import split_run

    return split_run(str(path), task.options, parts, task.backup, on_found)


def _cores_for_one(path: Path) -> int:
    cores = os.cpu_count() or 1
    if cores < 2:
        return 1
    try:
        size = path.stat().st_size
    except OSError:
        return 1  # unreadable: the usual path words the error
    return cores if size >= SPLIT_MIN_BYTES else 1


def _run_paths(
    paths: list[Path | str],
    named: set[Path | str],
    tasks: list[FileTask],
    jobs: int,
    requested_jobs: int | None,
    out: TextIO,
    on_start: Callable[[int, int], None] | None,
    on_file: Callable[[FileDone], None] | None,
    client: Any = None,
    on_found: Callable[[FileReport], None] | None = None,
) -> RunResult:
    result = RunResult()
    with contextlib.ExitStack() as stack:
        if client is not None:
            from migrator.engine import cluster

            jobs = cluster.workers_of(client)
            outcomes: Iterator[tuple[FileReport | MigratorError, str | SpooledDiff, float]] = (
                cluster.outcomes(client, paths, tasks, perform)
            )
        elif jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            outcomes = pool.map(_perform_caught, tasks, map(str, paths), chunksize=1)
        elif (
            len(paths) == 1
            and not is_url(paths[0])
            and (split := _split(tasks[0], Path(paths[0]), requested_jobs, on_found)) is not None
        ):
            outcomes = iter([split])  # one large file on several processes
        else:  # in this process: a file's findings can be heard of as they come
            outcomes = (
                _perform_caught(task, str(path), on_found)
                for task, path in zip(tasks, paths, strict=True)
            )
        if on_start is not None:
            on_start(len(paths), jobs)
        for path, task, (outcome, output, seconds) in zip(paths, tasks, outcomes, strict=True):
            if isinstance(outcome, FileReport) and not outcome.holds_traffic:
                # not "0 findings", nor MCP201 on every line
                outcome = files.no_traffic(outcome, task.options.storage_options)
            # Named on the command line, a file that is not a transcript is an error.
            skipped = isinstance(outcome, NotATranscriptError) and path not in named
            if isinstance(outcome, MigratorError):
                if isinstance(output, SpooledDiff):
                    output.discard()  # a file passed over leaves no diff behind
                if not skipped:
                    result.errors.append(outcome)
            else:
                if isinstance(output, SpooledDiff):
                    output.copy_to(out)
                elif output:  # check has no output: nothing to write
                    out.write(output)
                result.files.append(outcome)
            if on_file is not None:
                on_file(FileDone(str(path), outcome, seconds, skipped))
    return result
