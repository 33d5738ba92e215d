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

One export request, as the Collector's `file` exporter writes it: the server span of a call whose arguments failed validation records a `-32602` JSON-RPC error.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}},{"key":"mcp.protocol.version","value":{"stringValue":"2025-11-25"}},{"key":"error.type","value":{"stringValue":"-32602"}},{"key":"rpc.response.status_code","value":{"stringValue":"-32602"}}],"status":{"code":"STATUS_CODE_ERROR","message":"MCP error -32602: Invalid arguments for tool add: a: expected number, received string"}}]}]}]}
```

## After

The span as a migrated server records the call: a tool result with `isError: true`, `error.type` set to `tool_error`, no JSON-RPC error code.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}},{"key":"mcp.protocol.version","value":{"stringValue":"2025-11-25"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"Invalid arguments for tool add: a: expected number, received string\\"}],\\"isError\\":true}"}},{"key":"error.type","value":{"stringValue":"tool_error"}}],"status":{"code":"STATUS_CODE_ERROR"}}]}]}]}
```

## Why

Clients do not show protocol errors to the model, which then retries blind.
A trace makes the problem visible in production traffic; checking traces in
CI keeps an old server from shipping unnoticed.
"""

from __future__ import annotations

from migrator.judge.classify import ArgumentChecker, Outcome, classify
from migrator.judge.wording import MessageKind, WordingReader
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.spans import VENDOR_TOOL_CALLS, Operation, as_exchange
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

SEP_1303_VERSION = "2025-11-25"

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""追踪中的 `tools/call` 输入验证失败，span 记录的是 JSON-RPC 错误。

这是从 OpenTelemetry span 而不是线路记录中读出的 SEP-1303 发现（见 MCP101）。自协议版本 2025-11-25 起，工具的输入验证失败是工具执行错误：一个带有 `isError: true` 的 `CallToolResult`，客户端会把它展示给模型。仍以 `-32602 Invalid params` 作答的服务器，留下的是一个模型从未看到的红色协议错误 span。

证据来自 span：JSON-RPC 错误码（`error.type`，或 `rpc.response.status_code`，或状态描述中的 `MCP error <code>:` 前缀）、状态描述以及 `exception` 事件的消息，由与记录相同的分类器和措辞读取器解读。插桩记录了 `gen_ai.tool.call.arguments` 时，还会检查参数。未知工具、格式错误的请求和服务器错误都不是验证失败，本规则不报告它们。

当 span 所在会话为 2025-11-25 或更新版本时（span 上的 `mcp.protocol.version`，或会话的 `initialize` span 上的），严重级别为 `error`；在此之前或没有记录版本时为 `warning`。同一次调用的客户端 span 和服务器 span 都在追踪中时，这次调用只报告一次。

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/gen-ai/mcp.md`，状态为 Development）。

## Before

一个导出请求，与 Collector 的 `file` 导出器写出的一样：一次参数未通过验证的调用，其服务器 span 记录了 `-32602` JSON-RPC 错误。

```json
```

## After

迁移后的服务器为这次调用记录的 span：一个带有 `isError: true` 的工具结果，`error.type` 设为 `tool_error`，没有 JSON-RPC 错误码。

```json
```
"""


INFO = RuleInfo(
    code="MCP401",
    slug="trace-validation-error-as-protocol-error",
    summary="a traced tools/call failed input validation and was answered with a JSON-RPC error",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="追踪中的 tools/call 输入验证失败，却以 JSON-RPC 错误作答",
    why_zh=(
        "客户端不会把协议错误交给模型，模型只能盲目重试。追踪让生产流量中的这个问题显现出来；在 CI 中检查追踪，可以防止旧服务器在无人察觉的情况下发布。"
    ),
    found_in="trace",
)


@span_rule(INFO)
class TraceValidationErrorAsProtocolError(SpanRule):
    """MCP401."""

    per_call = True
    outcomes = frozenset({"jsonrpc_error", "error"})  # a JSON-RPC error, or a gateway's failure
    checker = ArgumentChecker()
    reader = WordingReader()

    def check(self, op: Operation, path: str) -> list[Finding]:
        exchange = as_exchange(op)
        if exchange is None:
            return self._undecided_failure(op, path)
        verdict = classify(exchange, self.checker, self.reader)
        if verdict is not None and verdict.outcome is Outcome.AMBIGUOUS and op.error_code == -32602:
            message = (
                f"tools/call {op.tool or '(no name)'} (span {op.span.span_id}): JSON-RPC error -32602 "
                "with wording the classifier does not know; could not decide whether it is an input "
                "validation failure (which must be a tool result with isError: true)"
            )
            evidence = (*verdict.evidence, f"error text: {op.error_text or '(none)'}")
            return [self.finding(op, path, message, severity=Severity.INFO, evidence=evidence)]
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

    def _undecided_failure(self, op: Operation, path: str) -> list[Finding]:
        """A gateway's failed tool-call span without a JSON-RPC code: say what is missing."""
        if (
            op.method != "tools/call"
            or op.outcome != "error"
            or op.span.name not in VENDOR_TOOL_CALLS
        ):
            return []
        gateway, _, missing = VENDOR_TOOL_CALLS[op.span.name]
        message = (
            f"tools/call {op.tool or '(no name)'} (span {op.span.span_id}) failed, but {missing}; "
            "could not decide whether it was an input validation failure answered with -32602"
        )
        evidence = (
            f"status: {op.span.status_code} {op.error_text or '(no description)'}",
            f"{gateway}: trace the server itself (an SDK instrumentation records "
            "rpc.response.status_code and error.type), or check its recorded transcripts",
        )
        return [self.finding(op, path, message, severity=Severity.INFO, evidence=evidence)]
