"""A traced `tools/call` returned an `isError` result, but its span lacks `error.type = tool_error`.

The MCP semantic conventions say: when a `CallToolResult` is returned with
`isError` set to `true`, `error.type` SHOULD be set to `tool_error` (and the
span status to `ERROR`). Without it, dashboards and alerts that count failed
tool calls by `error.type` miss every tool error, including the input
validation failures that SEP-1303 turned into tool results.

The rule fires when the span records the result (`gen_ai.tool.call.result`
with `isError: true`) and `error.type` is missing or another value.

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/gen-ai/mcp.md`, status Development).

## Before

The span records an `isError` result, but neither `error.type` nor an `ERROR` status.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call divide","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"divide"}},{"key":"jsonrpc.request.id","value":{"stringValue":"7"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"cannot divide by zero\\"}],\\"isError\\":true}"}}],"status":{}}]}]}]}
```

## After

The same span with `error.type` set to `tool_error` and the status `ERROR`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call divide","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"divide"}},{"key":"jsonrpc.request.id","value":{"stringValue":"7"}},{"key":"gen_ai.tool.call.result","value":{"stringValue":"{\\"content\\":[{\\"type\\":\\"text\\",\\"text\\":\\"cannot divide by zero\\"}],\\"isError\\":true}"}},{"key":"error.type","value":{"stringValue":"tool_error"}}],"status":{"code":"STATUS_CODE_ERROR"}}]}]}]}
```

## Why

Tool errors are the errors the model sees and acts on; after SEP-1303 they
include every bad argument. A trace that records them as successes hides a
whole class of failures.
"""

from __future__ import annotations

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.spans import ERROR_TYPE, TOOL_ERROR, Operation
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""追踪中的 `tools/call` 返回了 `isError` 结果，但其 span 缺少 `error.type = tool_error`。

MCP 语义约定规定：当返回的 `CallToolResult` 中 `isError` 为 `true` 时，应当（SHOULD）把 `error.type` 设为 `tool_error`（并把 span 状态设为 `ERROR`）。缺少它，按 `error.type` 统计失败工具调用的仪表盘和告警就会漏掉每一个工具错误，包括被 SEP-1303 变为工具结果的输入验证失败。

当 span 记录了结果（带有 `isError: true` 的 `gen_ai.tool.call.result`），而 `error.type` 缺失或为其他值时，本规则触发。

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/gen-ai/mcp.md`，状态为 Development）。

## Before

span 记录了 `isError` 结果，却既没有 `error.type`，也没有 `ERROR` 状态。

```json
```

## After

同一个 span，`error.type` 设为 `tool_error`，状态为 `ERROR`。

```json
```
"""


INFO = RuleInfo(
    code="MCP402",
    slug="trace-tool-error-without-error-type",
    summary="an isError tool result whose span lacks error.type = tool_error",
    default_severity=Severity.WARNING,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="返回 isError 工具结果的 span 缺少 error.type = tool_error",
    why_zh=(
        "工具错误是模型能看到并据此行动的错误；SEP-1303 之后，每个错误参数也都属于工具错误。把它们记录为成功的追踪，会藏起一整类失败。"
    ),
    found_in="trace",
)


@span_rule(INFO)
class TraceToolErrorWithoutErrorType(SpanRule):
    """MCP402."""

    per_call = False
    outcomes = frozenset({"tool_error"})

    def check(self, op: Operation, path: str) -> list[Finding]:
        if op.method != "tools/call" or op.outcome != "tool_error" or op.error_type == TOOL_ERROR:
            return []
        found = "is missing" if op.error_type is None else f"is {display(op.error_type)}"
        message = (
            f"tools/call {op.tool or '(no name)'} (span {op.span.span_id}) returned an isError result, "
            f"but {ERROR_TYPE} {found}; the conventions set it to {display(TOOL_ERROR)}"
        )
        return [
            self.finding(op, path, message, evidence=("gen_ai.tool.call.result has isError: true",))
        ]
