"""The pipeline for a trace file: OTLP JSON -> spans -> MCP operations -> MCP4xx rules.

Traces go their own way from transcripts: they hold spans, not messages, and
nothing in them is rewritten. :func:`check_trace` reads the export requests
one at a time (memory stays flat in the file size), turns each MCP span into
an :class:`~migrator.model.spans.Operation`, joins client and server spans of the
same call, and runs the span rules. ``fix`` does not apply to traces: it
raises :class:`TraceNotFixableError` before anything is read or written.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from operator import itemgetter
from typing import TYPE_CHECKING

from migrator.engine.fleet import ServerSightings
from migrator.errors import UsageError
from migrator.model.findings import Finding
from migrator.model.spans import (
    MAX_REMEMBERED,
    OUTCOMES,
    Operation,
    OperationTracker,
    looks_like_mcp,
    may_be_mcp,
    may_be_mcp_text,
    name_pattern,
    operation,
)
from migrator.model.units import Problem
from migrator.readers.base import Reader
from migrator.rules.registry import get_rule, span_rules

if TYPE_CHECKING:
    from migrator.engine.options import Options
    from migrator.engine.results import FileReport


class TraceNotFixableError(UsageError):
    """``fix`` was asked to rewrite a trace."""


NOT_FIXABLE = (
    "fix does not apply to traces: an OpenTelemetry trace records what happened, it is not the "
    "traffic, and rewriting a span would not change what the server answered. Fix the server (or "
    "its recorded transcripts), then record a new trace; `mcp-transcripts check` reports the spans"
)


def check_trace(
    reader: Reader, lines: Iterable[str], path: str, options: Options, report: FileReport
) -> Iterator[str]:
    """Check one trace file, yielding its lines unchanged (the engine's output contract).

    Raises:
        TraceNotFixableError: when ``options.apply_fixes`` is set.
    """
    if options.apply_fixes:
        raise TraceNotFixableError(NOT_FIXABLE, path=path)
    rules = [rule for rule in span_rules() if options.enabled(rule.info.code)]
    call_rules = [rule for rule in rules if not rule.judges_instrumentation]
    # The call rules compiled once per run by the outcome they read: a span that succeeded
    # (most spans) meets an empty list.
    rules_by_outcome = {
        outcome: [rule for rule in call_rules if rule.outcomes is None or outcome in rule.outcomes]
        for outcome in OUTCOMES
    }
    instrumentation_rules = [rule for rule in rules if rule.judges_instrumentation]
    tracker = OperationTracker(options.assume_version)
    reported_calls: OrderedDict[tuple[str, str, str], None] = OrderedDict()
    reported_groups: set[tuple[object, ...]] = set()  # few: one per deviation and instrumentation
    judged_shapes: set[tuple[object, ...]] = (
        set()
    )  # spans the instrumentation rules have seen the like of
    findings = report.findings
    servers = report.servers = ServerSightings(path) if options.servers else None
    kept: list[str] = []

    def passing(source: Iterable[str]) -> Iterator[str]:
        for text in source:
            kept.append(text)
            yield text

    # Other spans are not built; most are left out before their attributes are decoded.
    for item in reader.batches(passing(lines), keep=may_be_mcp, keep_text=may_be_mcp_text):
        yield from kept
        kept.clear()
        if isinstance(item, Problem):
            report.unreadable += 1
            if options.enabled(item.code):
                findings.append(_problem_finding(path, item))
            continue
        # The spans of one export request share its line: their findings are sorted before they
        # are kept, so the report streams them in order instead of sorting every finding at the end.
        batch: list[Finding] = []
        for span in item.spans:
            if not looks_like_mcp(span):
                continue
            op = operation(span)
            report.messages += 1
            tracker.observe(op)
            if servers is not None:
                servers.span(op)
            for rule in rules_by_outcome[op.outcome]:
                peer = op.peer
                if (
                    rule.per_call
                    and peer is not None
                    and (rule.info.code, peer.span.trace_id, peer.span.span_id) in reported_calls
                ):
                    continue  # the other side of this call was reported
                if found := rule.check(op, path):
                    batch += found
                    if rule.per_call:
                        _remember(reported_calls, (rule.info.code, span.trace_id, span.span_id))
            # What the instrumentation rules judge depends only on the span's shape:
            # a span shaped like one seen before cannot add a finding.
            shape = span_shape(op)
            if shape not in judged_shapes:
                if len(judged_shapes) < MAX_REMEMBERED:
                    judged_shapes.add(shape)
                for rule in instrumentation_rules:
                    seen = (rule.info.code, span.scope, op.server, rule.group(op))
                    if seen not in reported_groups and (found := rule.check(op, path)):
                        reported_groups.add(seen)
                        batch += found
            op.release()
            peer = op.peer
            if peer is not None:  # both sides are judged: nothing reads the join again, so the
                op.peer = peer.peer = None  # pair is freed now, not left to the cycle collector
        if batch:
            findings += sorted(batch)
    yield from kept


_TYPE = itemgetter(1)  # an Attribute's type


def span_shape(op: Operation) -> tuple[object, ...]:
    """Everything the instrumentation rules (MCP403-MCP406) look at, without the call's values."""
    span = op.span
    attributes = span.attributes
    return (
        span.scope,
        op.server,
        op.method,
        tuple(zip(attributes, map(_TYPE, attributes.values()), strict=True)),  # (key, type) pairs
        tuple(span.defects),
        span.status_code,
        op.outcome,
        op.error_code is not None,
        name_pattern(op),
    )


def _remember(store: OrderedDict[tuple[str, str, str], None], key: tuple[str, str, str]) -> None:
    store[key] = None
    if len(store) > MAX_REMEMBERED:
        store.popitem(last=False)


def _problem_finding(path: str, problem: Problem) -> Finding:
    info = get_rule(problem.code)
    return Finding(
        path,
        problem.line,
        problem.column,
        info.code,
        info.slug,
        info.default_severity,
        problem.message,
    )
