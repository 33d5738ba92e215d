"""What a run produced, and what it means: reports, tallies, the summary and the exit code.

A :class:`FileReport` per file, gathered in a :class:`RunResult` by
:func:`migrator.engine.runner.run`; ``fix`` also returns a :class:`FixOutcome` per
file. :meth:`RunResult.exit_code` is the exit-code rule of ``check`` and
``fix``; what each code means is :data:`migrator.engine.exitcodes.EXIT_CODES`, the table the
CLI's ``--help`` and the docs print, so the contract is written once.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from migrator.engine import exitcodes
from migrator.engine.options import Mode
from migrator.errors import MigratorError, UnsafeRewriteError, WriteError
from migrator.model.findings import (
    ROW_KEY,
    Finding,
    FindingList,
    FixSafety,
    Row,
    Severity,
    count_kinds,
    row_of,
)

if TYPE_CHECKING:
    from migrator.engine.fleet import ServerSightings

__all__ = [
    "DEFAULT_FAIL_ON",
    "EXIT_BROKEN_PIPE",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "FAIL_ON_CHOICES",
    "FileReport",
    "FixOutcome",
    "InPathOrder",
    "RunResult",
    "Tally",
]

# The exit codes are defined once, in migrator.engine.exitcodes, with what each means per
# command (the table --help and the docs render); the rule that picks one is here.
EXIT_OK = exitcodes.OK
EXIT_FINDINGS = exitcodes.FINDINGS  # check: findings at or above --fail-on; fix --diff: a change
EXIT_ERROR = exitcodes.ERROR  # a usage error, or a file that cannot be read or rewritten
EXIT_INTERRUPTED = exitcodes.INTERRUPTED
EXIT_BROKEN_PIPE = exitcodes.BROKEN_PIPE

FAIL_ON_CHOICES = ("error", "warning", "info", "never")
"""The values of ``--fail-on`` and of ``fail-on`` in the configuration file."""
DEFAULT_FAIL_ON = "warning"
"""``fail-on`` when neither the command line nor the configuration file sets it."""


@dataclass
class FileReport:
    """What happened to one file."""

    path: str
    format: str = ""
    detection: str = ""
    findings: FindingList = field(default_factory=FindingList)
    messages: int = 0
    fixes: int = 0
    line_for_line: bool = False  # the reader maps each input line to one output line
    servers: ServerSightings | None = None  # with ``Options.servers``: what ``report`` reads
    not_jsonrpc: int = 0  # messages read that have no jsonrpc, method, result or error member
    unreadable: int = 0  # lines or parts that could not be read as JSON (MCP301, MCP302, ...)

    @property
    def holds_traffic(self) -> bool:
        """Whether the file holds MCP traffic: one JSON-RPC message, or a part that failed to read.

        A file of JSON values none of which is JSON-RPC (a ``package.json``, an
        application log in JSON Lines) holds none, nor does an empty file; one
        with unreadable lines might be a damaged transcript, so it counts.
        """
        return self.messages > self.not_jsonrpc or self.unreadable > 0

    @property
    def changed(self) -> bool:
        """True when the output differs from the input."""
        return self.fixes > 0


@dataclass
class FixOutcome:
    """What fixing one file (or one two-file capture) did."""

    report: FileReport
    diff: str = ""  # in diff mode without a stream: the unified diff (empty when nothing changes)
    written: bool = False


@dataclass
class Tally:
    """Finding counts of a run."""

    findings: int = 0
    by_severity: Counter[str] = field(default_factory=Counter)
    by_code: Counter[str] = field(default_factory=Counter)
    safe_fixes: int = 0
    unsafe_fixes: int = 0


@dataclass
class RunResult:
    """Everything one ``check`` or ``fix`` run produced."""

    files: list[FileReport] = field(default_factory=list)
    errors: list[MigratorError] = field(default_factory=list)
    seconds: float = 0.0
    texts: dict[str, str] = field(default_factory=dict)  # inputs not on disk (stdin), by name
    known: int | None = None  # findings a baseline accepted; None when no baseline was used
    stale: list[str] = field(default_factory=list)  # baseline entries that no longer occur

    @classmethod
    def gather(cls, outcomes: Iterable[FileReport | MigratorError]) -> RunResult:
        """One run's result from per-file reports and errors (as values), in their order."""
        result = cls()
        for outcome in outcomes:
            if isinstance(outcome, MigratorError):
                result.errors.append(outcome)
            else:
                result.files.append(outcome)
        return result

    def iter_findings(self) -> Iterator[Finding]:
        """All findings, sorted by path, line, column and code, without holding them all.

        Each file's findings are already in order (or sorted on their own), so
        the files are merged as they stream.
        """
        return heapq.merge(*(_in_order(report.findings) for report in self.files))

    def iter_rows(self) -> Iterator[Row]:
        """The rows of :meth:`iter_findings` (no finding is made): for reporters of many findings."""
        return heapq.merge(*(_rows_in_order(report.findings) for report in self.files), key=ROW_KEY)

    @property
    def findings(self) -> list[Finding]:
        """All findings, sorted by path, line, column and code (as one list)."""
        return list(self.iter_findings())

    @property
    def messages(self) -> int:
        """Messages read across all files."""
        return sum(report.messages for report in self.files)

    def tally(self) -> Tally:
        """Counts over all findings (kept as they were found: nothing is unpacked)."""
        tally = Tally()
        for report in self.files:
            for (code, severity, fixable), count in count_kinds(report.findings).items():
                tally.findings += count
                tally.by_severity[severity.value] += count
                tally.by_code[code] += count
                if fixable is FixSafety.SAFE:
                    tally.safe_fixes += count
                elif fixable is FixSafety.UNSAFE:
                    tally.unsafe_fixes += count
        return tally

    def exit_code(self, fail_on: str = "warning", mode: Mode = Mode.CHECK) -> int:
        """The run's exit code, as :data:`migrator.engine.exitcodes.EXIT_CODES` states it.

        A file that could not be read (or, in fix mode, rewritten) is an input
        error, not a finding: the run exits 2 whatever ``fail_on`` says, even
        ``never``. Findings count only in check mode, from ``fail_on`` up.

        Args:
            fail_on: the lowest severity that fails the run, or ``"never"``.
            mode: what the run did with each file.

        Returns:
            0, 1 or 2.

        Example:
            >>> RunResult().exit_code("never")
            0
        """
        if self.errors:
            return EXIT_ERROR
        if mode is Mode.FIX:
            return EXIT_OK
        if mode is Mode.DIFF:
            return EXIT_FINDINGS if any(report.changed for report in self.files) else EXIT_OK
        if self.stale:
            return EXIT_FINDINGS
        if fail_on == "never":
            return EXIT_OK
        threshold = Severity(fail_on).rank
        counts = self.tally().by_severity
        return (
            EXIT_FINDINGS
            if any(counts[s.value] for s in Severity if s.rank >= threshold)
            else EXIT_OK
        )

    def summary(self, mode: Mode = Mode.CHECK, *, unsafe_fixes: bool = False) -> str:
        """The one-line summary printed on stderr after ``check`` or ``fix``.

        Args:
            mode: check (``Found ...``), fix (``Fixed ...``) or diff (``Would fix ...``).
            unsafe_fixes: whether unsafe fixes were applied (fix and diff: then the
                line does not point at ``--unsafe-fixes``).

        Returns:
            The line, without a newline.
        """
        tally = self.tally()
        line = self._found(tally) if mode is Mode.CHECK else self._fixed(tally, mode, unsafe_fixes)
        refused = self.refused
        if refused:
            line += f"; {refused} file{'s' if refused != 1 else ''} read but not rewritten"
        unread = len(self.errors) - refused
        if unread:
            line += f"; {unread} file error{'s' if unread != 1 else ''}"
        if self.known is not None:
            line += f"; {self.known} accepted by the baseline"
        return line

    @property
    def refused(self) -> int:
        """Files that were read but not rewritten: read-only, changed meanwhile, a refused rewrite."""
        return sum(
            1 for error in self.errors if isinstance(error, (WriteError, UnsafeRewriteError))
        )

    def _found(self, tally: Tally) -> str:
        counts = tally.by_severity
        parts = [f"{counts[s.value]} {s.value}" for s in reversed(Severity) if counts[s.value]]
        files = len(self.files)
        what = f"{tally.findings} finding{'s' if tally.findings != 1 else ''}"
        if parts:
            what += f" ({', '.join(parts)})"
        line = (
            f"Found {what} in {files} file{'s' if files != 1 else ''}, "
            f"{self.messages} message{'s' if self.messages != 1 else ''}, {self.seconds:.2f}s"
        )
        if tally.safe_fixes:
            line += f"; {tally.safe_fixes} fixable with `mcp-transcripts fix`"
        if tally.unsafe_fixes:
            line += f"; {tally.unsafe_fixes} more with `--unsafe-fixes`"
        return line

    def _fixed(self, tally: Tally, mode: Mode, unsafe_fixes: bool) -> str:
        fixes = sum(r.fixes for r in self.files)
        changed = sum(1 for r in self.files if r.changed)
        verb = "Would fix" if mode is Mode.DIFF else "Fixed"
        line = (
            f"{verb} {fixes} of {tally.findings} findings in {changed} file{'' if changed == 1 else 's'} "
            f"({len(self.files) + self.refused} read, {self.messages} messages, {self.seconds:.2f}s)"
        )
        remaining = tally.findings - fixes
        if remaining:
            line += f"; {remaining} left (see `mcp-transcripts check`"
            if tally.unsafe_fixes and not unsafe_fixes:
                line += f"; {tally.unsafe_fixes} fixable with --unsafe-fixes"
            line += ")"
        return line


class InPathOrder:
    """Hands on a run's files as soon as their findings can be written in the report's order.

    A report sorts findings by path first, so the files of one path, once they and every
    file of a path sorting before it are done, can be written: nothing still running can
    sort before them. :meth:`file_done` is told of each file as the runner finishes it (in
    the order of the paths, which need not be sorted: ``check b.jsonl a.jsonl``); the files
    that are not yet due wait here (their findings packed, as the report holds them). Each
    part handed on is a :class:`RunResult` of the reports of one path (a path given twice
    is two reports, merged there as the whole report merges them), so the parts' findings,
    one after the other, are :meth:`RunResult.iter_findings` of the whole run.

    A file still running can be handed on in parts too (:meth:`found`): when it is the
    only file of the first path not yet handed on, what it has found so far is due.
    """

    def __init__(self, paths: Sequence[str], hand_on: Callable[[RunResult], None]) -> None:
        self._hand_on = hand_on
        self._waiting = Counter(paths)  # files not yet done, by path
        self._order = sorted(self._waiting)  # the paths, as the report sorts them
        self._next = 0  # the first path not yet handed on
        self._done: dict[str, list[FileReport]] = {}
        # The file handed on in parts while it ran: its path, how many of its findings were
        # handed on, and the line of the last of them.
        self._running: tuple[str, int, int] | None = None

    def found(self, report: FileReport) -> None:
        """A file still running has findings that are final (``on_found`` of the runner).

        They are handed on if nothing can sort before them: the file's path is the first
        not yet handed on, no other file of that path is done or to come, and (as
        :func:`~migrator.engine.pipeline.check_lines` promises) no finding it adds later
        sorts before these. Otherwise they wait for the end of the file, as usual.

        Raises:
            RuntimeError: a finding sorts before one already handed on (a broken promise:
                the output would be out of order, so the run stops rather than write it).
        """
        path = report.path
        if self._next >= len(self._order) or self._order[self._next] != path:
            return
        if self._waiting[path] != 1 or path in self._done:
            return
        running = self._running
        handed, last_line = (running[1], running[2]) if running and running[0] == path else (0, 0)
        new = report.findings.since(handed)
        if not new:
            return
        first_line = min(finding.line for finding in new)
        if first_line <= last_line:
            raise RuntimeError(
                f"{path}: a finding at line {first_line} came after one at line {last_line} "
                "was written"
            )
        self._running = (path, handed + len(new), max(finding.line for finding in new))
        self._hand_on(RunResult(files=[_with_findings(report, new)]))

    def file_done(self, path: str, outcome: FileReport | MigratorError) -> None:
        """One file is done (its report, or the error it ended with); hand on what is due."""
        if self._waiting[path] <= 0:
            raise ValueError(f"{path} is not a file of this run, or was done already")
        running = self._running
        if running is not None and running[0] == path:
            self._running = None
            if isinstance(outcome, FileReport):  # only what was not handed on yet
                outcome = _with_findings(outcome, outcome.findings.since(running[1]))
        if isinstance(outcome, FileReport):
            self._done.setdefault(path, []).append(outcome)
        self._waiting[path] -= 1
        order = self._order
        while self._next < len(order) and self._waiting[order[self._next]] == 0:
            reports = self._done.pop(order[self._next], [])
            self._next += 1
            if reports:
                self._hand_on(RunResult(files=reports))

    @property
    def finished(self) -> bool:
        """Whether every file is done and handed on."""
        return self._next == len(self._order)


def _with_findings(report: FileReport, findings: list[Finding]) -> FileReport:
    """The report with only ``findings`` (a part of its own), to hand on."""
    return replace(report, findings=FindingList(findings))


def _in_order(findings: Iterable[Finding]) -> Iterator[Finding]:
    if isinstance(findings, FindingList):
        return findings.in_order()
    return iter(sorted(findings))  # a plain list, as a filtered report may hold


def _rows_in_order(findings: Iterable[Finding]) -> Iterator[Row]:
    if isinstance(findings, FindingList):
        return findings.rows_in_order()
    return iter(sorted(map(row_of, findings), key=ROW_KEY))
