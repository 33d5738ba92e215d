"""What the trace rules (MCP4xx) share.

A :class:`SpanRule` looks at one MCP operation (a span, see
:mod:`migrator.model.spans`) and returns its findings. Each finding is located at
the line of the file that holds the span and carries the span's ``trace_id``
and ``span_id``, so a user can open the span in their tracing backend.

Rules that judge a *call* (MCP401) set :attr:`SpanRule.per_call`: when the
client and the server span of one call were both traced, the call is
reported once, on the span seen first. Rules that judge the instrumentation
(MCP403 to MCP406) say what they found in :meth:`SpanRule.group`, and each
deviation is reported once per instrumentation scope and service.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import ClassVar

from migrator.model.findings import Finding, Severity
from migrator.model.spans import SEMCONV_RELEASE, Operation
from migrator.rules.base import shared
from migrator.rules.info import RuleInfo, register


class SpanRule:
    """A rule that judges one MCP span."""

    # Reported once per call when the client and server spans of one call are joined.
    per_call: ClassVar[bool] = False
    # Judges the instrumentation, not the call: findings once per deviation (see group).
    judges_instrumentation: ClassVar[bool] = False
    # The outcomes (Operation.outcome) it can report on; None: every one. The trace pass calls a
    # rule only for spans with one of them, so a span that succeeded calls no call rule at all.
    outcomes: ClassVar[frozenset[str] | None] = None

    def __init__(self, info: RuleInfo) -> None:
        self.info = info

    def check(self, op: Operation, path: str) -> list[Finding]:
        """The findings on this span."""
        raise NotImplementedError

    def group(self, op: Operation) -> Hashable:
        """For rules that judge the instrumentation: what makes a finding the same as one reported.

        Convention rules judge the instrumentation, not the call: every span
        it makes deviates the same way. They return the deviation here, and a
        file reports it once per instrumentation scope and service, at the
        first span that shows it. What they look at must be part of
        :func:`migrator.engine.traces.span_shape`.
        """
        return None

    def finding(
        self,
        op: Operation,
        path: str,
        message: str,
        *,
        severity: Severity | None = None,
        evidence: tuple[str, ...] = (),
    ) -> Finding:
        """A finding located at the span."""
        span = op.span
        context = [op.where(), f"trace_id {span.trace_id}"]
        if self.judges_instrumentation:
            context.append(
                f"reported once per instrumentation scope ({span.scope or 'unnamed'}) and service: "
                "later spans with the same deviation are not listed"
            )
        if op.server:
            context.append(f"server {op.server} (resource attributes)")
        context.append(f"conventions: OpenTelemetry semantic-conventions {SEMCONV_RELEASE}")
        return Finding(
            path=path,
            line=span.line,
            column=1,
            code=self.info.code,
            slug=self.info.slug,
            severity=severity or self.info.default_severity,
            message=message,
            request_id=op.request_id,
            tool=op.tool,
            evidence=shared(evidence + tuple(context) + tuple(op.notes)),
            trace_id=span.trace_id or None,
            span_id=span.span_id or None,
        )


def span_rule(info: RuleInfo) -> Callable[[type[SpanRule]], type[SpanRule]]:
    """Class decorator that registers a span rule under its code."""

    return register(info)
