"""The pipeline for one file: readers -> session model -> rules -> edits.

:func:`process` is a generator of output text: it reads lazily and yields each
unit of the input as it should be written, so a large file streams through in
bounded memory. Findings are collected in the :class:`FileReport` passed in.
:class:`Pipeline` is the same work pushed one unit at a time, for live traffic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from typing import Any

from migrator.classify import ArgumentChecker, classify
from migrator.errors import MigratorError, UnsafeRewriteError
from migrator.findings import Finding
from migrator.jsontext import DECODER
from migrator.model import Edit, Kind, Problem, SourceMessage, Unit, apply_edits
from migrator.official import OfficialSchemas
from migrator.options import Mode, Options
from migrator.readers import SAMPLE_LINES, detect
from migrator.results import FileReport
from migrator.rules import all_rules, get_rule, tool_call_rules, validation_rules
from migrator.rules.base import Rewrite, RuleContext, ValidationRule
from migrator.session import Exchange, Session, SessionTracker
from migrator.source import refuse_non_text
from migrator.wording import WordingReader

UNKNOWN_VERSION_TARGET = "2025-11-25"

__all__ = ["FileReport", "Mode", "Options", "Pipeline", "process", "process_units", "rewrite_problems"]


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
        self.rules = [rule for rule in tool_call_rules() if options.enabled(rule.info.code)]
        self.validators = [rule for rule in validation_rules() if options.enabled(rule.info.code)]
        # The hooks that want each kind of message, worked out once per
        # (kind, method): this runs for every message, and most rules look
        # at few of them.
        self._message_hooks: dict[tuple[Kind, str | None], list[MessageHook]] = {}
        self._exchange_hooks: dict[str | None, list[ExchangeHook]] = {}
        self.problem_codes = {info.code for info in all_rules() if options.enabled(info.code)}

    def handle(self, unit: Unit) -> str:
        """Judge every message of a unit; return the unit's text as it should be written.

        Raises:
            UnsafeRewriteError: a rewrite failed validation.
        """
        report, options = self.report, self.options
        if unit.problem is not None:
            if unit.problem.code in self.problem_codes:
                report.findings.append(_problem_finding(self.path, unit.problem))
            return unit.text
        edits: list[Edit] = []
        ctx = RuleContext(
            self.path, unit.text, options.provenance, self.official, self.tracker, self.checker.schemas
        )
        findings = report.findings
        for message in unit.messages:
            report.messages += 1
            session = self.tracker.session
            payload = message.payload
            method = payload.get("method") if type(payload) is dict else None
            key = (message.kind, method if type(method) is str else None)
            hooks = self._message_hooks.get(key)
            if hooks is None:
                hooks = self._message_hooks[key] = [
                    r.check_message for r in self.validators
                    if _overrides(r, "check_message") and r.wants_message(*key)
                ]  # fmt: skip
            for check_message in hooks:
                if found := check_message(message, session, ctx):  # mostly nothing: skip the call
                    findings += found
            exchange = self.tracker.observe(message)
            if exchange is None:
                continue
            exchange_hooks = self._exchange_hooks.get(exchange.method)
            if exchange_hooks is None:
                exchange_hooks = self._exchange_hooks[exchange.method] = [
                    r.check_exchange for r in self.validators
                    if _overrides(r, "check_exchange") and r.wants_exchange(exchange.method)
                ]  # fmt: skip
            for check_exchange in exchange_hooks:
                if found := check_exchange(exchange, ctx):
                    findings += found
            verdict = classify(exchange, self.checker, self.reader)
            if verdict is None:
                continue
            for rule in self.rules:
                hit = rule.check(exchange, verdict, ctx)
                if hit is None:
                    continue
                report.findings.append(hit.finding)
                if options.apply_fixes and hit.make_rewrite and options.fix_allowed(hit.finding.fixable):
                    rewrite = hit.make_rewrite()
                    _validate_rewrite(unit, message, rewrite, hit.finding.line, self.path)
                    edits.append(rewrite.edit)
                    report.fixes += 1
                break  # outcomes are exclusive: one rule per exchange
        return apply_edits(unit.text, edits) if edits else unit.text


MessageHook = Callable[[SourceMessage, Session, RuleContext], list[Finding]]
ExchangeHook = Callable[[Exchange, RuleContext], list[Finding]]


def _overrides(rule: ValidationRule, hook: str) -> bool:
    return getattr(type(rule), hook) is not getattr(ValidationRule, hook)


def process(lines: Iterable[str], path: str, options: Options, report: FileReport) -> Iterator[str]:
    """Check (and with ``options.apply_fixes``, fix) one file, yielding its output text.

    Raises:
        UnsafeRewriteError: a rewrite failed validation; the caller must not
            write any of the output.
    """
    for _, output in process_units(lines, path, options, report):
        yield output


def process_units(
    lines: Iterable[str], path: str, options: Options, report: FileReport
) -> Iterator[tuple[str | None, str]]:
    """Like :func:`process`, pairing each unit's input text with its output.

    Yields ``(input, output)`` per unit and ``(None, output)`` for what the
    reader writes at the end. With a reader that streams lines
    (``report.line_for_line``) every output is the one line that replaces its
    input, which lets a diff be made as the file streams by.
    """
    try:
        source = iter(lines)
        head = list(islice(source, SAMPLE_LINES))
        refuse_non_text(head)
        detection = detect(head, options.input_format)
        report.format = detection.reader.name
        report.detection = detection.reason
        pipeline = Pipeline(path, options, report)
        reader = detection.reader
        report.line_for_line = reader.streams_lines
        for unit in reader.units(chain(head, source)):
            yield unit.text, "".join(reader.emit(unit, pipeline.handle(unit)))
        closing = "".join(reader.close())
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


def _validate_rewrite(unit: Unit, message: SourceMessage, rewrite: Rewrite, line: int, path: str) -> None:
    """Refuse to write a rewritten message that is not valid for its protocol version.

    The check runs on the text that would be written, parsed back, so it
    covers the serialisation as well as the value.
    """
    edit = rewrite.edit
    new_text = unit.text[message.start : edit.start] + edit.replacement + unit.text[edit.end : message.end]
    try:
        payload = DECODER.decode(new_text)
    except ValueError as exc:
        raise UnsafeRewriteError(f"rewritten message is not valid JSON: {exc}", path=path, line=line) from exc
    problems = rewrite_problems(payload, rewrite.member, rewrite.version)
    if problems:
        raise UnsafeRewriteError(
            "rewritten message fails validation, nothing written: " + "; ".join(problems),
            path=path,
            line=line,
        )


def rewrite_problems(payload: Any, member: str, version: str | None) -> list[str]:
    """Why a rewritten response is invalid (empty when it is valid)."""
    from migrator import schemas, validation

    # Without a known version the rewrite is written as SEP-1303 defines it
    # (2025-11-25, no resultType) and validated as that.
    governing = schemas.closest_version(version or UNKNOWN_VERSION_TARGET)
    problems: list[str] = []
    envelope = "JSONRPCResultResponse" if member == "result" else "JSONRPCErrorResponse"
    rpc = validation.jsonrpc(envelope)
    if not rpc.is_valid(payload):  # the compiled fast path decides; words only on failure
        problems += [f"as a JSON-RPC {member} response: {e.message}" for e in rpc.errors(payload)]
    if member == "result" and isinstance(payload, dict):
        result = validation.mcp(governing, "CallToolResult")
        if not result.is_valid(payload.get("result")):
            for error in result.errors(payload.get("result")):
                where = "/".join(str(p) for p in error.absolute_path)
                problems.append(f"as a {governing} CallToolResult at /{where}: {error.message}")
    return problems
