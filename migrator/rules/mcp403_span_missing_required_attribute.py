"""An MCP span lacks an attribute the conventions require.

Required on every MCP client and server span: `mcp.method.name`.
Conditionally required, checked when the condition can be seen on the span:

* `gen_ai.tool.name` on `tools/call` spans (the operation is about a tool);
* `gen_ai.prompt.name` on `prompts/get` spans;
* `mcp.resource.uri` on `resources/read`, `resources/subscribe` and
  `resources/unsubscribe` spans;
* `jsonrpc.request.id` on request spans (every method but `notifications/*`);
* `error.type` when the span's status is `ERROR` (the operation failed);
* `rpc.response.status_code` when the span records a JSON-RPC error code.

Each deviation is reported once per instrumentation scope and service (at
the first span that shows it): it is the instrumentation's, not the call's.
A span counts as an MCP span when it has `mcp.method.name`, any other
`mcp.*` attribute, or a name that starts with an MCP method (`tools/call ...`).

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/gen-ai/mcp.md`, status Development).

## Before

A `tools/call` span without `mcp.method.name` (found by its name) and without `jsonrpc.request.id`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"gen_ai.tool.name","value":{"stringValue":"add"}}],"status":{}}]}]}]}
```

## After

The span with every attribute the conventions require of a `tools/call` request.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## Why

Queries, dashboards and the other MCP4xx rules find MCP calls by these
attributes. A span without them is invisible to all of them: a tool call
that failed validation cannot be told from a ping.
"""

from __future__ import annotations

from collections.abc import Hashable

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.spans import (
    ERROR_TYPE,
    METHOD,
    NOTIFICATION_PREFIX,
    PROMPT_NAME,
    REQUEST_ID,
    RESOURCE_URI,
    STATUS_CODE,
    TOOL_NAME,
    Operation,
)
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""MCP span 缺少约定要求的属性。

每个 MCP 客户端和服务器 span 都必需：`mcp.method.name`。有条件必需的属性，在 span 上能看出条件时检查：

* `tools/call` span 上的 `gen_ai.tool.name`（操作涉及一个工具）；
* `prompts/get` span 上的 `gen_ai.prompt.name`；
* `resources/read`、`resources/subscribe` 和 `resources/unsubscribe` span 上的 `mcp.resource.uri`；
* 请求 span 上的 `jsonrpc.request.id`（除 `notifications/*` 以外的每个方法）；
* span 状态为 `ERROR`（操作失败）时的 `error.type`；
* span 记录了 JSON-RPC 错误码时的 `rpc.response.status_code`。

每种偏差在每个插桩作用域和服务中只报告一次（位于第一个出现它的 span）：它属于插桩，而不属于某次调用。带有 `mcp.method.name`、任何其他 `mcp.*` 属性，或名称以 MCP 方法开头（`tools/call ...`）的 span，都算作 MCP span。

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/gen-ai/mcp.md`，状态为 Development）。

## Before

一个没有 `mcp.method.name`（凭名称认出）也没有 `jsonrpc.request.id` 的 `tools/call` span。

```json
```

## After

带有约定对 `tools/call` 请求所要求的全部属性的 span。

```json
```
"""


INFO = RuleInfo(
    code="MCP403",
    slug="span-missing-required-attribute",
    summary="an MCP span lacks a required or conditionally required attribute",
    default_severity=Severity.INFO,  # judges the instrumentation: reported, not failing CI by default
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="MCP span 缺少必需或有条件必需的属性",
    why_zh=(
        "查询、仪表盘以及其他 MCP4xx 规则都靠这些属性找到 MCP 调用。缺少它们的 span 对这一切都不可见：一次验证失败的工具调用与一次 ping 无从区分。"
    ),
    found_in="trace",
)

RESOURCE_METHODS = frozenset({"resources/read", "resources/subscribe", "resources/unsubscribe"})


def missing_attributes(op: Operation) -> list[str]:
    """The required attributes the span lacks, each with the condition that requires it."""
    attrs = op.span.attributes
    method = op.method or ""
    wanted: list[tuple[str, str]] = [(METHOD, "required")]
    if method == "tools/call":
        wanted.append((TOOL_NAME, "a tools/call span"))
    if method == "prompts/get":
        wanted.append((PROMPT_NAME, "a prompts/get span"))
    if method in RESOURCE_METHODS:
        wanted.append((RESOURCE_URI, f"a {method} span"))
    if method and not method.startswith(NOTIFICATION_PREFIX):
        wanted.append((REQUEST_ID, "a request span"))
    if op.span.status_code == "error":
        wanted.append((ERROR_TYPE, "the span status is ERROR"))
    if op.error_code is not None and op.outcome == "jsonrpc_error":
        wanted.append((STATUS_CODE, f"the response has JSON-RPC error code {op.error_code}"))
    return [f"{key} ({why})" for key, why in wanted if key not in attrs]


@span_rule(INFO)
class SpanMissingRequiredAttribute(SpanRule):
    """MCP403."""

    judges_instrumentation = True

    def group(self, op: Operation) -> Hashable:
        return (op.method, tuple(missing_attributes(op)))

    def check(self, op: Operation, path: str) -> list[Finding]:
        missing = missing_attributes(op)
        if not missing:
            return []
        message = f"MCP span {display(op.span.name)} ({op.span.span_id}) lacks " + ", ".join(
            missing
        )
        return [self.finding(op, path, message)]
