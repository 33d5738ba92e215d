"""A traced `tools/call` failed input validation and the span records a JSON-RPC error.

This is the SEP-1303 finding (see MCP101) read from OpenTelemetry spans
instead of a wire transcript. Since protocol version 2025-11-25, a tool's
input validation failure is a tool execution error: a `CallToolResult` with
`isError: true`, which the client shows to the model. A server that still
answers `-32602 Invalid params` leaves a red protocol-error span that the model
never saw.

The evidence is the span's: the JSON-RPC code (`error.type`, or
`rpc.response.status_code`, or the `MCP error <code>:` prefix of the status
description), the status description and the `exception` events' messages,
read by the same classifier and wording reader as transcripts. Arguments are
checked when the instrumentation records `gen_ai.tool.call.arguments`.
Unknown tools, malformed requests and server errors are not validation
failures and are not reported by this rule.

Severity is `error` when the span's session is at 2025-11-25 or later
(`mcp.protocol.version` on the span, or on the session's `initialize` span),
and `warning` before or when no version was recorded. When the client and
the server span of one call are both in the trace, the call is reported once.

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/gen-ai/mcp.md`, status Development).

## Before

A client span as the Python SDK 2.x records it, against a TypeScript SDK 1.20.2 server:

```json
{"name": "tools/call add", "kind": 3, "attributes": [
  {"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
  {"key": "gen_ai.tool.name", "value": {"stringValue": "add"}},
  {"key": "jsonrpc.request.id", "value": {"stringValue": "4"}},
  {"key": "error.type", "value": {"stringValue": "-32602"}}],
 "status": {"code": 2, "message": "MCP error -32602: Invalid arguments for tool add: [...]"}}
```

## After

The server answers with a tool result, and the span records it as a tool error:

```json
{"name": "tools/call add", "kind": 3, "attributes": [
  {"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
  {"key": "gen_ai.tool.name", "value": {"stringValue": "add"}},
  {"key": "jsonrpc.request.id", "value": {"stringValue": "4"}},
  {"key": "error.type", "value": {"stringValue": "tool_error"}}],
 "status": {"code": 2}}
```

## Why

Clients do not show protocol errors to the model, which then retries blind.
A trace makes the problem visible in production traffic; checking traces in
CI keeps an old server from shipping unnoticed.
"""

from __future__ import annotations

from migrator.classify import ArgumentChecker, Outcome, classify
from migrator.findings import Finding, FixSafety, Severity
from migrator.messages import MessageKind, MessageReader
from migrator.rules import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule
from migrator.spans import Operation, as_exchange

SEP_1303_VERSION = "2025-11-25"

INFO = RuleInfo(
    code="MCP401",
    slug="trace-validation-error-as-protocol-error",
    summary="a traced tools/call failed input validation and was answered with a JSON-RPC error",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
)


@span_rule(INFO)
class TraceValidationErrorAsProtocolError(SpanRule):
    """MCP401."""

    per_call = True
    checker = ArgumentChecker()
    reader = MessageReader()

    def check(self, op: Operation, path: str) -> list[Finding]:
        exchange = as_exchange(op)
        if exchange is None:
            return []
        verdict = classify(exchange, self.checker, self.reader)
        if verdict is None or verdict.outcome is not Outcome.INPUT_VALIDATION:
            return []
        specific = verdict.reading is not None and verdict.reading.kind is MessageKind.VALIDATION
        confidence = (
            "high: the message names a validation failure"
            if specific
            else ("medium: a generic invalid-params wording")
        )
        version = op.version
        current = version is not None and (version == "draft" or version >= SEP_1303_VERSION)
        when = (
            f"protocol {version} requires a tool result with isError: true"
            if current
            else "from protocol 2025-11-25 it must be a tool result with isError: true"
        )
        server = f" by {op.server}" if op.server else ""
        message = (
            f"tools/call {op.tool or '(no name)'} (span {op.span.span_id}): input validation failure "
            f"answered{server} with JSON-RPC error {op.error_code}; {when}"
        )
        evidence = (
            *verdict.evidence,
            f"confidence {confidence}",
            f"protocol version {version or 'unknown'} ({op.version_source})",
        )
        severity = Severity.ERROR if current else Severity.WARNING
        return [self.finding(op, path, message, severity=severity, evidence=evidence)]
