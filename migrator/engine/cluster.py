"""Files and objects on a dask.distributed cluster (``--dask-scheduler ADDRESS``).

The run is the local run with its per-file work done elsewhere:
:func:`migrator.engine.runner.run` walks the paths, narrows the options per path
and gathers the results; this module hands each file to the cluster as one task
(:func:`perform_remotely`, around the runner's own per-file work) and yields the
outcomes in the order of the paths, so that findings, diffs and exit codes are
those of a run in one process. The workers read each file or object themselves
(by its URL, or a path on a file system they share); only the outcome travels
back. A prefix is listed by a worker too (:func:`walk_remotely`), by the walk of
a local run: the machine that starts the run needs neither the store's client
library nor its credentials.

A file or object larger than :data:`SPLIT_MIN_BYTES` (checked, not fixed) is cut
at its session starts as ``-j N`` cuts one large file
(:mod:`migrator.engine.stretches`): a task on a worker finds the cuts, a task per
stretch checks it, and the stretches' reports are merged in order.

Nothing is dropped. A file's own error (unreadable, not a transcript) is its
outcome, as in a local run. A task that fails otherwise (a store that does not
answer, a worker that dies mid-task) is tried again, ``retries`` times on top of
the first (the scheduler moves the tasks of a lost worker to the others), then
becomes an :class:`~migrator.errors.InputError` naming the file and why: the run
lists it and exits 2.

``distributed`` (the ``dask`` extra) is imported only here, and only when a run
asks for a cluster.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from migrator.engine import files
from migrator.engine.options import Mode, Options
from migrator.engine.results import FileReport
from migrator.errors import InputError, MigratorError, UsageError
from migrator.readers.storage import StorageOptions, is_url, object_size, remember_size

if TYPE_CHECKING:
    from migrator.engine.stretches import Stretch


class Task(Protocol):
    """One file's task (:class:`migrator.engine.runner.FileTask`): what this module reads of it."""

    @property
    def options(self) -> Options: ...


Perform = Callable[[Any, str], tuple[FileReport, Any]]
"""The runner's per-file work (:func:`migrator.engine.runner.perform`), handed in."""

__all__ = [
    "DASK_EXTRA",
    "RETRIES",
    "SPLIT_MIN_BYTES",
    "connect",
    "outcomes",
    "perform_remotely",
    "walk_remotely",
]

DASK_EXTRA = "pip install 'mcp-transcripts[dask]'"
"""How to get ``distributed``, as error messages say it."""

RETRIES = 2
"""How many times a failed task is tried again before its file is reported as failed."""

SPLIT_MIN_BYTES = 64 * 1024 * 1024
"""A file or object at least this large is cut into stretches of about this size."""

Outcome = tuple[FileReport | MigratorError, str, float]


@contextlib.contextmanager
def connect(address: str) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler at ``address``, closed afterwards.

    Raises:
        UsageError: the ``dask`` extra is missing, or the scheduler cannot be reached.
    """
    try:
        import distributed
    except ImportError as exc:
        raise UsageError(f"--dask-scheduler needs the dask extra: {DASK_EXTRA}") from exc
    make_client: Any = distributed.Client
    try:
        client: Any = make_client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the dask scheduler at {address}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()


def walk_remotely(
    client: Any,
    url: str,
    include: Callable[[Path | str], bool] | None,
    exclude: Callable[[Path | str], bool] | None,
    storage_options: StorageOptions,
) -> list[str]:
    """The objects under ``url`` (or the one it names), listed on a worker.

    The workers read the store anyway; listing there too means the machine that
    runs the command needs neither the store's client library nor its credentials,
    and the tasks start without waiting for them to load here. The sizes the
    listing gave come back with the names, to plan the work without a request.

    Raises:
        InputError: no such object or prefix, or the listing failed on every try.
        UsageError: the workers lack the cloud extra.
    """
    future = client.submit(
        _walk_on_worker, url, include, exclude, storage_options, pure=False, retries=RETRIES
    )
    try:
        found: list[tuple[str, int | None]] = future.result()
    except MigratorError:
        raise
    except Exception as exc:  # the worker died, or the store kept failing
        raise InputError(_failure(exc, RETRIES), path=url) from None
    for name, size in found:
        if size is not None:
            remember_size(name, size)
    return [name for name, _ in found]


def _walk_on_worker(
    url: str,
    include: Callable[[Path | str], bool] | None,
    exclude: Callable[[Path | str], bool] | None,
    storage_options: StorageOptions,
) -> list[tuple[str, int | None]]:
    names = [
        str(name)
        for name in files.iter_transcripts(
            [url], include=include, exclude=exclude, storage_options=storage_options
        )
    ]
    return [(name, object_size(name, storage_options)) for name in names]


def workers_of(client: Any) -> int:
    """How many worker threads the cluster has just now (at least 1)."""
    threads: dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))


def perform_remotely(perform: Perform, task: Task, path: str) -> Outcome:
    """Run one file's task on a worker: its report or its own error, its diff, its time.

    Raises:
        OSError: reading failed in a way that may pass (a store that did not
            answer): raised so that the scheduler tries the task again.
    """
    began = time.perf_counter()
    try:
        if task.options.mode is Mode.DIFF:  # the diff travels back as text: no spool to share
            outcome = files.fix_file(path, task.options)
            report, output = outcome.report, outcome.diff
        else:  # check and fix give no output of their own
            report, output = perform(task, path)[0], ""
    except MigratorError as exc:
        error = exc
    else:
        return report, output, time.perf_counter() - began
    if (transient := _transient(error)) is not None:
        # Raised outside the handler, with nothing chained: the store client's own
        # exceptions (aiohttp's, botocore's) do not always pickle for the scheduler.
        raise OSError(transient)
    return error, "", time.perf_counter() - began


def _transient(error: MigratorError) -> str | None:
    """What went wrong, when ``error`` is a read that may pass if tried again; else ``None``."""
    cause = error.__cause__
    lasting = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)
    if isinstance(cause, OSError) and not isinstance(cause, lasting):
        return error.message
    return None


def plan_split(path: str, options: Options, parts: int) -> tuple[FileReport, list[Stretch]] | None:
    """On a worker: where to cut ``path`` for ``parts`` tasks, and the report to merge into.

    ``None`` when it is not to be cut (not a wire transcript, compressed, no
    session start to cut at): it runs as one task.
    """
    from migrator.engine.stretches import head_report, splittable, stretches

    try:
        if not splittable(path, options):
            return None
        pieces = stretches(path, parts, options.storage_options)
    except (OSError, MigratorError):
        return None  # the task of the whole file says what is wrong with it
    if len(pieces) < 2:
        return None
    return head_report(path, options), pieces


def check_stretch_remotely(path: str, stretch: Stretch, options: Options) -> FileReport:
    """On a worker: check one stretch (errors are raised: the whole file is the error)."""
    from migrator.engine.stretches import check_stretch

    return check_stretch(path, stretch, options)


def _size(path: str, options: Options) -> int:
    if is_url(path):
        return object_size(path, options.storage_options) or 0
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def outcomes(
    client: Any,
    paths: Sequence[Path | str],
    tasks: Sequence[Task],
    perform: Perform,
    *,
    retries: int = RETRIES,
    split_min_bytes: int | None = None,
) -> Iterator[Outcome]:
    """Each file's outcome, in the order of ``paths``, as the cluster finishes them.

    Every task is submitted at once (the scheduler balances them over the
    workers); outcomes are yielded in order as they arrive, so the first
    findings show while the rest still run. ``split_min_bytes`` (default
    :data:`SPLIT_MIN_BYTES`) is the size from which a file is cut into stretches.
    """
    names = [str(path) for path in paths]
    split_min_bytes = split_min_bytes or SPLIT_MIN_BYTES
    big = {
        index: max(2, math.ceil(size / split_min_bytes))
        for index, (name, task) in enumerate(zip(names, tasks, strict=True))
        if task.options.mode is Mode.CHECK
        and (size := _size(name, task.options)) >= split_min_bytes
    }
    # Plans first (a higher priority): the stretches they give can start early.
    plans = {
        index: client.submit(
            plan_split, names[index], tasks[index].options, parts, pure=False, priority=10
        )
        for index, parts in big.items()
    }
    singles = {
        index: client.submit(perform_remotely, perform, task, name, retries=retries, pure=False)
        for index, (name, task) in enumerate(zip(names, tasks, strict=True))
        if index not in big
    }
    pieces: dict[int, tuple[float, FileReport, list[Any]]] = {}
    for index, plan in plans.items():
        name, task = names[index], tasks[index]
        began = time.perf_counter()
        planned = _result(plan, name, retries)
        if isinstance(planned, tuple):
            head, stretches = planned
            futures = [
                client.submit(
                    check_stretch_remotely,
                    name,
                    stretch,
                    task.options,
                    retries=retries,
                    pure=False,
                    priority=5,
                )
                for stretch in stretches
            ]
            pieces[index] = (began, head, futures)
        else:  # not to be cut (or its plan failed): the whole file in one task
            singles[index] = client.submit(
                perform_remotely, perform, task, name, retries=retries, pure=False
            )
    for index, name in enumerate(names):
        if index in pieces:
            yield _merged(pieces.pop(index), name, retries)
            continue
        done = _result(singles.pop(index), name, retries)
        yield done if isinstance(done, tuple) else (done, "", 0.0)


def _merged(piece: tuple[float, FileReport, list[Any]], name: str, retries: int) -> Outcome:
    from migrator.engine.stretches import merge_stretches

    began, head, futures = piece
    reports: list[FileReport] = []
    for future in futures:
        report = _result(future, name, retries)
        if isinstance(report, MigratorError):
            for other in futures:
                other.cancel()
            return report, "", time.perf_counter() - began
        reports.append(report)
    return merge_stretches(head, reports), "", time.perf_counter() - began


def _result(future: Any, name: str, retries: int) -> Any:
    """What the task returned; a task that failed for good is an error naming the file."""
    try:
        return future.result()
    except MigratorError as exc:  # a stretch's own error: the file's, as one pass raises it
        if exc.path is None:
            exc.path = name
        return exc
    except Exception as exc:
        return InputError(_failure(exc, retries), path=name)


def _failure(error: BaseException, retries: int) -> str:
    """Why a task failed for good, in the words a user can act on."""
    kind = type(error).__name__
    tries = f"{retries + 1} tries"
    if kind == "KilledWorker":  # the scheduler gave up: the workers running it kept dying
        return f"failed on the cluster: every worker that ran it died ({error})"
    if kind in ("CancelledError", "FutureCancelledError"):
        return "failed on the cluster: its task was cancelled (the scheduler went away?)"
    if isinstance(error, OSError):  # a read that failed each time: its own words say why
        return f"failed on the cluster after {tries}: {error}"
    return f"failed on the cluster after {tries}: {kind}: {error}"
