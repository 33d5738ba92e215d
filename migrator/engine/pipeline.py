"""The pipeline for one file: readers -> session model -> rules -> edits.

:func:`process` is a generator of output text: it reads lazily and yields each
unit of the input as it should be written, so a large file streams through in
bounded memory. Findings are collected in the :class:`FileReport` passed in.
:class:`Pipeline` is the same work pushed one unit at a time, for live traffic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice

from migrator.engine import onepass
from migrator.engine.fleet import ServerSightings
from migrator.engine.options import Mode, Options
from migrator.engine.results import FileReport
from migrator.engine.traces import check_trace
from migrator.errors import MigratorError, UnsafeRewriteError
from migrator.fix.rewrite import check_rewrite
from migrator.judge.classify import ArgumentChecker, classify
from migrator.judge.official import OfficialSchemas
from migrator.judge.wording import WordingReader
from migrator.model.findings import Finding
from migrator.model.session import Exchange, SessionTracker
from migrator.model.source import refuse_non_text
from migrator.model.units import (
    Direction,
    Edit,
    Kind,
    Problem,
    SourceMessage,
    Unit,
    apply_edits,
    detect_only,
)
from migrator.readers import SAMPLE_LINES, Reader, detect
from migrator.readers.wire import WireReader, looks_like_message, wire_unit
from migrator.rules.base import RuleContext
from migrator.rules.registry import get_rule, rule_set

__all__ = ["FileReport", "Mode", "Options", "Pipeline", "check_lines", "process", "process_units"]


class Pipeline:
    """The session model and the rules, fed one unit at a time.

    :func:`process` drives it over a file; the wire proxy drives it line by
    line as traffic passes, so both share one implementation.
    """

    def __init__(self, path: str, options: Options, report: FileReport) -> None:
        self.path = path
        self.options = options
        self.report = report
        self.tracker = SessionTracker(options.assume_version)
        self.checker = ArgumentChecker()
        self.reader = WordingReader(options.unknown_tool_patterns, options.validation_patterns)
        self.official = OfficialSchemas(options.mcp_schemas) if options.mcp_schemas else None
        self.rule_set = rule_set(options.selected, self.official is not None)
        self.rules = self.rule_set.tool_call
        self.problem_codes = self.rule_set.codes
        self.context = RuleContext(
            path, "", options.provenance, self.official, self.tracker, self.checker.schemas
        )
        self.servers: ServerSightings | None = None
        if options.servers:  # `report`: per-server evidence, kept in the report
            self.servers = report.servers = report.servers or ServerSightings(path)
        self._one_pass: onepass.OnePass | None = None

    @property
    def one_pass(self) -> onepass.OnePass:
        """The selected rules compiled into one pass over wire lines, sharing this pipeline's state."""
        if self._one_pass is None:
            self._one_pass = onepass.OnePass(
                self.rule_set, self.tracker, self.report, self.checker.schemas, self.handle_line,
                self.context, self.judge,
                enabled=self.servers is None and onepass.in_use(),  # `report` reads every verdict
            )  # fmt: skip
        return self._one_pass

    def handle_line(self, text: str, line_no: int, direction: Direction | None = None) -> str:
        """:meth:`handle` of one wire line's unit (the full way :attr:`one_pass` falls back to)."""
        return self.handle(wire_unit(text, line_no, direction))

    def handle(self, unit: Unit) -> str:
        """Judge every message of a unit; return the unit's text as it should be written.

        Raises:
            UnsafeRewriteError: a rewrite failed validation.
        """
        report = self.report
        if unit.problem is not None:
            report.unreadable += 1
            if unit.problem.code in self.problem_codes:
                report.findings.append(_problem_finding(self.path, unit.problem))
            return unit.text
        edits: list[Edit] = []
        ctx = self.context
        ctx.unit_text = unit.text
        findings = report.findings
        message_hooks, exchange_hooks = self.rule_set.message_hooks, self.rule_set.exchange_hooks
        for message in unit.messages:
            report.messages += 1
            if message.kind is Kind.INVALID and not looks_like_message(message.payload):
                report.not_jsonrpc += 1  # a file of nothing else is not MCP traffic
            session = self.tracker.session
            for check_message in message_hooks(message.kind, message.method):
                if found := check_message(message, session, ctx):  # mostly nothing: skip the call
                    findings += found
            exchange = self.tracker.observe(message)
            if exchange is None:
                continue
            for check_exchange in exchange_hooks(exchange.method):
                if found := check_exchange(exchange, ctx):
                    findings += found
            self.judge(unit, message, exchange, edits)
        return apply_edits(unit.text, edits) if edits else unit.text

    def judge(
        self, unit: Unit, message: SourceMessage, exchange: Exchange, edits: list[Edit]
    ) -> None:
        """Classify a completed exchange and run the tools/call rule its outcome names.

        A fix the rule makes is checked and added to ``edits`` (with ``fix``).

        Raises:
            UnsafeRewriteError: a rewrite failed validation.
        """
        report, options, ctx = self.report, self.options, self.context
        servers = self.servers
        if not self.rules and servers is None:  # nothing reads a verdict
            return
        verdict = classify(exchange, self.checker, self.reader)
        if servers is not None:
            servers.exchange(exchange, verdict, unit.text)
        if verdict is None:
            return
        for rule in self.rule_set.by_outcome[verdict.outcome]:
            hit = rule.check(exchange, verdict, ctx)
            if hit is None:
                continue
            report.findings.append(hit.finding)
            if options.apply_fixes and hit.make_rewrite and (why := detect_only(message)):
                raise UnsafeRewriteError(
                    f"fix cannot rewrite this answer: {why}; nothing written", line=message.line
                )
            if (
                options.apply_fixes
                and hit.make_rewrite
                and options.fix_allowed(hit.finding.fixable)
            ):
                rewrite = hit.make_rewrite()
                check_rewrite(unit, message, rewrite, hit.finding.line, self.path)
                edits.append(rewrite.edit)
                report.fixes += 1
            break  # outcomes are exclusive: one rule per exchange


def process(lines: Iterable[str], path: str, options: Options, report: FileReport) -> Iterator[str]:
    """Check (and with ``options.apply_fixes``, fix) one file, yielding its output text.

    Raises:
        UnsafeRewriteError: a rewrite failed validation; the caller must not
            write any of the output.
    """
    for _, output in process_units(lines, path, options, report):
        yield output


FOUND_EVERY = 1024
"""Lines of a wire transcript between two calls of :func:`check_lines`'s ``on_found``."""


def check_lines(
    lines: Iterable[str],
    path: str,
    options: Options,
    report: FileReport,
    *,
    on_found: Callable[[FileReport], None] | None = None,
) -> None:
    """:func:`process` for a caller that wants the report only (``check``): no output is made.

    A wire transcript's lines then go through the one pass in a plain loop, with
    no generator between them and the reader.

    ``on_found`` is called with the report every :data:`FOUND_EVERY` lines of a wire
    transcript (read by the one pass) once the file has shown it holds traffic, so a
    caller can write findings while the file is still being read. Every finding in the
    report then is final, and no finding added later sorts before it: each finding on
    a wire line is made while that line is handled, at that line.

    Raises:
        MigratorError: as :func:`process` raises it.
    """
    for _ in process_units(lines, path, options, report, report_only=True, on_found=on_found):
        pass


def process_units(
    lines: Iterable[str],
    path: str,
    options: Options,
    report: FileReport,
    *,
    report_only: bool = False,
    on_found: Callable[[FileReport], None] | None = None,
) -> Iterator[tuple[str | None, str]]:
    """Like :func:`process`, pairing each unit's input text with its output.

    Yields ``(input, output)`` per unit and ``(None, output)`` for what the
    reader writes at the end. With a reader that streams lines
    (``report.line_for_line``) every output is the one line that replaces its
    input, which lets a diff be made as the file streams by. With
    ``report_only`` (:func:`check_lines`), a wire transcript yields nothing (and
    ``on_found`` hears of its findings as they come).
    """
    try:
        source = iter(lines)
        head = list(islice(source, SAMPLE_LINES))
        refuse_non_text(head)
        detection = detect(head, options.input_format, path)
        report.format = detection.reader.name
        report.detection = detection.reason
        reader = detection.reader
        report.line_for_line = reader.streams_lines
        if reader.carries == "spans":  # the span pass (MCP4xx rules)
            for text in check_trace(reader, chain(head, source), path, options, report):
                yield text, text
            return
        pipeline = Pipeline(path, options, report)
        handle = pipeline.handle
        if type(reader) is WireReader and pipeline.one_pass.enabled:  # one message per line
            feed = pipeline.one_pass.feed
            if report_only and on_found is not None:
                for line_no, text in enumerate(chain(head, source), start=1):
                    feed(text, line_no)
                    if not line_no % FOUND_EVERY and report.holds_traffic:
                        on_found(report)  # a file of no traffic is passed over: nothing to write
            elif report_only:
                for line_no, text in enumerate(chain(head, source), start=1):
                    feed(text, line_no)
            else:
                for line_no, text in enumerate(chain(head, source), start=1):
                    yield text, feed(text, line_no)
        elif (
            type(reader).emit is Reader.emit
        ):  # output is the handled text itself: no generator per unit
            for unit in reader.units(chain(head, source)):
                yield unit.text, handle(unit)
        else:
            for unit in reader.units(chain(head, source)):
                yield unit.text, "".join(reader.emit(unit, handle(unit)))
        closing = "".join(reader.close())
        if passed_over := reader.summary():  # lines a log reader passed over, for --verbose
            report.detection += f"; {passed_over}"
        if closing:
            yield None, closing
    except MigratorError as exc:
        if exc.path is None:  # readers know lines, not file names
            exc.path = path
        raise


def _problem_finding(path: str, problem: Problem) -> Finding:
    info = get_rule(problem.code)
    return Finding(
        path, problem.line, problem.column, info.code, info.slug, info.default_severity,
        problem.message,
    )  # fmt: skip
