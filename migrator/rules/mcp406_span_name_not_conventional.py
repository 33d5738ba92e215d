"""An MCP span's name is not `{mcp.method.name} {target}`.

The conventions name MCP spans `{mcp.method.name} {target}`, where the
target is `gen_ai.tool.name` or `gen_ai.prompt.name` when the operation has
one (`tools/call add`, `prompts/get review`), and `{mcp.method.name}` alone
otherwise (`tools/list`, `initialize`). The target is taken from the span's
attributes, or from its name when the instrumentation puts it only there.

Each naming pattern (`MCP send {mcp.method.name} {target}`) is reported once
per instrumentation scope and service, at the first span named that way.

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/gen-ai/mcp.md`, status Development).

## Before

The span named after the instrumentation's function, `mcp.call_tool`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"mcp.call_tool","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## After

The span named `tools/call add`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## Why

Span names are what trace views list and group by. Names in one form let a
user find every call of one tool across services and instrumentations.
"""

from __future__ import annotations

from collections.abc import Hashable

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.spans import METHOD, PROMPT_NAME, TOOL_NAME, Operation, name_pattern
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""MCP span 的名称不是 `{mcp.method.name} {target}`。

约定把 MCP span 命名为 `{mcp.method.name} {target}`：操作有目标时，target 为 `gen_ai.tool.name` 或 `gen_ai.prompt.name`（`tools/call add`、`prompts/get review`），否则只用 `{mcp.method.name}` （`tools/list`、`initialize`）。目标取自 span 的属性；插桩只把它放在名称里时，则取自名称。

每种命名模式（`MCP send {mcp.method.name} {target}`）在每个插桩作用域和服务中只报告一次，位于第一个这样命名的 span。

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/gen-ai/mcp.md`，状态为 Development）。

## Before

span 以插桩的函数名 `mcp.call_tool` 命名。

```json
```

## After

span 名为 `tools/call add`。

```json
```
"""


INFO = RuleInfo(
    code="MCP406",
    slug="span-name-not-conventional",
    summary="an MCP span whose name is not {mcp.method.name} {target}",
    default_severity=Severity.INFO,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="名称不是 {mcp.method.name} {target} 形式的 MCP span",
    why_zh=(
        "span 名称是追踪视图列出和分组的依据。名称形式统一，用户才能跨服务、跨插桩找到同一个工具的所有调用。"
    ),
    found_in="trace",
)


def expected_name(op: Operation) -> str | None:
    """The name the conventions give this span, or ``None`` without ``mcp.method.name``."""
    method = op.span.string(METHOD)
    if method is None:
        return None
    target = op.span.string(TOOL_NAME) or op.span.string(PROMPT_NAME) or op.tool
    return f"{method} {target}" if target else method


@span_rule(INFO)
class SpanNameNotConventional(SpanRule):
    """MCP406."""

    judges_instrumentation = True

    def group(self, op: Operation) -> Hashable:
        pattern = name_pattern(op).replace(" {target}", "")
        if op.method:
            pattern = " ".join(
                "{mcp.method.name}" if w == op.method else w for w in pattern.split(" ")
            )
        return pattern

    def check(self, op: Operation, path: str) -> list[Finding]:
        expected = expected_name(op)
        if expected is None or op.span.name == expected:
            return []
        message = f"MCP span {display(op.span.name)} ({op.span.span_id}) should be named {display(expected)}"
        return [self.finding(op, path, message)]
