"""One large file on several cores.

``-j N`` spreads files over worker processes; a single large wire transcript
is spread by cutting it into stretches, each checked (or fixed) by a worker.

Where to cut is what keeps the result identical to a run in one process: a
stretch starts at a line that holds an ``initialize`` request. That request
starts a new session, and the session model forgets everything before it
(pending requests, the tool catalog, the protocol version), so nothing
crosses the cut: no request on one side is paired with a response on the
other, and the rules see on each side what a single pass would show them.
The cut points are found by a cheap pass in the parent: near each of N even
byte offsets, the next line that decodes as an ``initialize`` request. The
same pass counts lines, so every worker numbers its lines as the whole file
does and its findings (and the evidence lines that cite other lines) read
the same. A file with no such line past its start runs in one process.

Findings stream back in order and are never gathered whole in a worker: a
worker packs them in blocks as they come (see
:class:`~migrator.model.findings.PackedFindings`) and appends each block to a
spool file of its stretch; the parent takes the stretches in file order and
adds each block, unopened, to the file's report. So the parent does no work
per finding, and memory holds one block per process. ``check`` reads the spool
of the stretch it waits for while the worker still writes it (each block framed
by its length), so the findings of a large file are written as they come.

A fix is written only when every stretch has succeeded: the workers write
their stretch to temporary files beside the target, the parent joins them
into one atomic replacement. A worker that dies (killed, out of memory)
makes the file an error naming it; nothing is written.
"""

from __future__ import annotations

import contextlib
import pickle
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from migrator.engine.pipeline import FileReport, Mode, Options, Pipeline
from migrator.errors import InputError, MigratorError
from migrator.fix.writer import ScratchFile, part_file, replace_file, resolve_target, spool_file
from migrator.model.findings import FindingList, PackedFindings
from migrator.model.jsonrpc import envelope_message
from migrator.model.source import ENCODING, ERRORS, iter_lines, refuse_non_text
from migrator.model.units import Kind
from migrator.readers import SAMPLE_LINES, detect
from migrator.readers.compressed import GZIP_MAGIC
from migrator.readers.storage import StorageOptions, is_url, object_size, open_object
from migrator.readers.wire import WireReader

# Below this size a stretch costs more to hand over than it saves.
MIN_STRETCH_BYTES = 4 * 1024 * 1024
_BLOCK = 1 << 20
_SPILL_EVERY = 4096  # lines between looks at whether a block of findings is full
_LOOK_EVERY = 0.25  # seconds between looks at the spool of the stretch waited for


@dataclass(frozen=True)
class Stretch:
    """Bytes ``[start, end)`` of a file, whose first line is line ``first_line``."""

    start: int
    end: int
    first_line: int


def _is_session_start(raw: bytes) -> bool:
    if b'"initialize"' not in raw:  # nearly every line: decided without decoding
        return False
    message = envelope_message(raw.decode(ENCODING, ERRORS), 1)
    return message is not None and message.kind is Kind.REQUEST and message.method == "initialize"


def _open_raw(path: str, storage_options: StorageOptions) -> BinaryIO:
    """The file's bytes as they are (an object's too, by its URL), seekable."""
    if is_url(path):
        return open_object(path, storage_options)
    return Path(path).open("rb")


def _size(path: str, storage_options: StorageOptions) -> int:
    if is_url(path):
        size = object_size(path, storage_options)
        if size is None:
            raise OSError(f"the store does not say how large {path} is")
        return size
    return Path(path).stat().st_size


def stretches(path: str, parts: int, storage_options: StorageOptions = ()) -> list[Stretch]:
    """Where to cut ``path`` into at most ``parts`` stretches (one when it cannot be cut).

    ``path`` may be an object's URL (``storage_options`` are its store's).
    """
    size = _size(path, storage_options)
    wanted = [size * k // parts for k in range(1, parts)]
    cuts: list[int] = [0]
    with _open_raw(path, storage_options) as stream:
        for offset, limit in zip(wanted, [*wanted[1:], size], strict=True):
            if offset <= cuts[-1] or offset - cuts[-1] < MIN_STRETCH_BYTES:
                continue
            stream.seek(offset - 1)
            position = offset - 1 + len(stream.readline())  # the next whole line
            for line in stream:
                if position >= limit:  # no session starts in this part: the one before grows
                    break
                if _is_session_start(line):
                    cuts.append(position)
                    break
                position += len(line)
        lines = [1]
        stream.seek(0)
        position, count = 0, 0
        for cut in cuts[1:]:
            while position < cut:
                block = stream.read(min(_BLOCK, cut - position))
                count += block.count(b"\n")
                position += len(block)
            lines.append(count + 1)
    ends = [*cuts[1:], size]
    return [Stretch(start, end, first) for start, end, first in zip(cuts, ends, lines, strict=True)]


def splittable(path: str, options: Options) -> bool:
    """Whether ``path`` is a wire transcript that stretches can be cut from without changing a verdict."""
    if options.mcp_schemas:  # MCP206 judges an initialize request by the session before it
        return False
    with _open_raw(path, options.storage_options) as stream:
        if stream.read(len(GZIP_MAGIC)) == GZIP_MAGIC:  # a gzip stream has no byte to cut at
            return False
        stream.seek(0)
        head = list(islice(iter_lines(stream), SAMPLE_LINES))
    refuse_non_text(head)
    return isinstance(detect(head, options.input_format).reader, WireReader)


def _run_stretch(
    path: str, stretch: Stretch, options: Options, output: str | None, spool: str | None = None
) -> FileReport:
    """Check (or fix, writing to ``output``) one stretch; runs in a worker.

    With a ``spool``, its findings go there in packed blocks as they come and
    the report that comes back holds the counts, not the findings (a local
    worker beside its parent). Without one (a task on a cluster), the report
    carries them.
    """
    report = FileReport(path, line_for_line=True)
    findings = report.findings
    pipeline = Pipeline(path, options, report)
    line_no = stretch.first_line
    with _open_raw(path, options.storage_options) as stream, contextlib.ExitStack() as stack:
        out = stack.enter_context(Path(output).open("wb")) if output is not None else None
        spill = stack.enter_context(Path(spool).open("wb")) if spool is not None else None
        stream.seek(stretch.start)
        remaining = stretch.end - stretch.start
        feed: Callable[[str, int], str] = pipeline.handle_line  # the full way, as a whole file
        if pipeline.one_pass.enabled:  # the same one pass as a whole file in one process
            feed = pipeline.one_pass.feed

        for raw in stream:
            remaining -= len(raw)
            text = feed(raw.decode(ENCODING, ERRORS), line_no)
            if out is not None:
                out.write(text.encode(ENCODING, ERRORS))
            line_no += 1
            if remaining <= 0:
                break
            if spill is not None and not line_no % _SPILL_EVERY:
                _spool(findings.take_packed(), spill)
        if spill is not None:
            _spool(findings.take_packed(all_of_it=True), spill)
            report.findings = FindingList()
    return report


_FRAME_HEAD = 8  # bytes of a spooled block's length, before the block


def _spool(blocks: Iterable[PackedFindings], spill: BinaryIO) -> None:
    """Append blocks to a stretch's spool, each framed by its length, for the parent to read.

    Flushed at once: the parent reads the spool of the stretch it is waiting for while
    the worker still writes it (:class:`_SpoolReader`).
    """
    wrote = False
    for block in blocks:
        data = pickle.dumps(block, pickle.HIGHEST_PROTOCOL)
        spill.write(len(data).to_bytes(_FRAME_HEAD, "big") + data)
        wrote = True
    if wrote:
        spill.flush()


class _SpoolReader:
    """Reads the blocks of a stretch's spool as its worker writes them: whole blocks only."""

    def __init__(self, spool: str) -> None:
        self._file = Path(spool).open("rb")  # noqa: SIM115 - closed by close()

    def blocks(self) -> Iterator[PackedFindings]:
        """The blocks written whole since the last call (a block still being written waits)."""
        spill = self._file
        while True:
            at = spill.tell()
            head = spill.read(_FRAME_HEAD)
            size = int.from_bytes(head, "big")
            data = spill.read(size) if len(head) == _FRAME_HEAD else b""
            if len(head) < _FRAME_HEAD or len(data) < size:
                spill.seek(at)  # not all written yet: read it again next time
                return
            yield pickle.loads(data)

    def rest(self) -> Iterator[PackedFindings]:
        """Every block not read yet, once the worker is done: a part left over is an error."""
        yield from self.blocks()
        if self._file.read(1):
            raise InputError("a worker left its findings incomplete; nothing written")

    def close(self) -> None:
        """Close the spool."""
        self._file.close()


def head_report(path: str, options: Options) -> FileReport:
    """The report a split file's stretches are merged into: its format, as its first lines tell."""
    head = FileReport(path)
    with _open_raw(path, options.storage_options) as stream:
        detection = detect(list(islice(iter_lines(stream), SAMPLE_LINES)), options.input_format)
    head.format, head.detection, head.line_for_line = detection.reader.name, detection.reason, True
    return head


def merge_stretches(head: FileReport, reports: list[FileReport]) -> FileReport:
    """Add the stretches' reports, in the file's order, to ``head``: the report of one pass.

    Findings a report carries are added too (a local run has taken them from
    the spools already, so its reports carry none).
    """
    for report in reports:
        head.findings += report.findings
        head.messages += report.messages
        head.not_jsonrpc += report.not_jsonrpc
        head.unreadable += report.unreadable
        head.fixes += report.fixes
        if report.servers is not None:  # `report`: one file's servers, stretch by stretch
            from migrator.engine.fleet import merge_sightings

            head.servers = merge_sightings(head.servers, report.servers)
    return head


def _adopt(
    head: FileReport,
    blocks: Iterable[PackedFindings],
    on_found: Callable[[FileReport], None] | None,
) -> None:
    """Add a stretch's blocks to the file's report; tell ``on_found`` if there were any."""
    adopted = False
    for block in blocks:
        head.findings.adopt(block)
        adopted = True
    if adopted and on_found is not None:
        on_found(head)


def run_split(
    path: str,
    options: Options,
    jobs: int,
    *,
    backup: str | None = None,
    pieces: list[Stretch] | None = None,
    on_found: Callable[[FileReport], None] | None = None,
) -> FileReport:
    """Check (with ``options.apply_fixes``, fix in place) one wire file on ``jobs`` processes.

    Findings, counts and written bytes are those of a run in one process.
    ``pieces`` are the file's :func:`stretches` when the caller has them already
    (finding them reads the file up to the last cut). ``on_found`` (check only) is
    called with the report each time the findings of the next stretch in file order
    are in it: they are final (no later stretch has a finding before them).

    Raises:
        MigratorError: as a run in one process raises it, or when a worker dies.
    """
    if pieces is None:
        pieces = stretches(path, jobs)
    head = head_report(path, options)
    fixing = options.apply_fixes
    tell = None if fixing else on_found  # only check writes findings while the run goes on
    real = snapshot = None
    scratch: list[ScratchFile] = []  # closed whatever happens: none outlives the run
    try:
        outputs: list[str | None] = [None] * len(pieces)
        if fixing:
            real, snapshot = resolve_target(path)
            parts = [part_file(real, index) for index in range(len(pieces))]
            scratch += parts
            outputs = [part.path for part in parts]
        spools = [spool_file(f"findings{index}") for index in range(len(pieces))]
        scratch += spools
        try:
            with ProcessPoolExecutor(max_workers=min(jobs, len(pieces))) as pool:
                try:
                    futures = [
                        pool.submit(_run_stretch, path, piece, options, output, spool.path)
                        for piece, output, spool in zip(pieces, outputs, spools, strict=True)
                    ]
                    reports = []
                    for future, spool in zip(futures, spools, strict=True):  # in file order
                        reader = _SpoolReader(spool.path)
                        try:
                            if tell is not None:
                                # The stretch waited for: its blocks are final as they come.
                                while not wait([future], timeout=_LOOK_EVERY).done:
                                    _adopt(head, reader.blocks(), tell)
                            reports.append(future.result())
                            _adopt(head, reader.rest(), tell)
                        finally:
                            reader.close()
                        spool.close()
                except BaseException:  # Ctrl-C, a failed stretch: the others' work is wasted
                    _stop_workers(pool)
                    raise
        except BrokenProcessPool as exc:
            raise InputError(
                "a worker process died (killed or out of memory); nothing written", path=path
            ) from exc
        except MigratorError as exc:
            if exc.path is None:
                exc.path = path
            raise
        merge_stretches(head, reports)
        if fixing and head.fixes:
            assert real is not None and snapshot is not None
            replace_file(real, snapshot, _read_all(outputs), backup)
    finally:
        for leftover in scratch:
            leftover.close()
    return head


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, rather than wait for stretches nobody will read.

    Leaving the ``with`` block would wait for every running stretch: on a big
    file a Ctrl-C would seem to hang for as long as the run had left.
    """
    # ProcessPoolExecutor.kill_workers() is Python 3.14's; before it, the pool's own table
    # (taken before the shutdown, which empties it; a broken pool has none left).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.kill()


def _read_all(outputs: list[str | None]) -> Iterator[bytes]:
    for output in outputs:
        assert output is not None
        with Path(output).open("rb") as part:
            while block := part.read(_BLOCK):
                yield block


def split_run(
    path: str,
    options: Options,
    jobs: int | None,
    backup: str | None,
    on_found: Callable[[FileReport], None] | None = None,
) -> tuple[FileReport | MigratorError, str, float] | None:
    """``check`` or ``fix`` of one file with ``-j N`` (N > 1), as the command's file loop wants it.

    Returns ``None`` when the file is not for splitting (``fix --diff``, a
    small file, not a wire transcript, no session to cut at): the caller
    runs it in one process as usual.
    """
    if jobs is None or jobs < 2 or options.mode is Mode.DIFF:
        return None
    began = time.perf_counter()
    try:
        if Path(path).stat().st_size < 2 * MIN_STRETCH_BYTES or not splittable(path, options):
            return None
        pieces = stretches(path, jobs)
        if len(pieces) < 2:
            return None
        report = run_split(path, options, jobs, backup=backup, pieces=pieces, on_found=on_found)
    except OSError:
        return None  # unreadable: the usual path words the error
    except MigratorError as exc:
        if exc.path is None:
            exc.path = path
        return exc, "", time.perf_counter() - began
    return report, "", time.perf_counter() - began


def check_stretch(path: str, stretch: Stretch, options: Options) -> FileReport:
    """Check one stretch of ``path`` (a file or an object's URL): a task for another machine."""
    return _run_stretch(path, stretch, options, None)
