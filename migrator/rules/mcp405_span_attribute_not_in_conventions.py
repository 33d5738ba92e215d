"""An MCP span carries an `mcp.*` attribute that the conventions do not define.

The `mcp` namespace of the attribute registry holds four attributes:
`mcp.method.name`, `mcp.session.id`, `mcp.resource.uri` and
`mcp.protocol.version`. Instrumentations written before the conventions (or
guessing them) write others; the common ones have a defined replacement:

| written | defined |
| --- | --- |
| `mcp.tool.name` | `gen_ai.tool.name` |
| `mcp.request.id` | `jsonrpc.request.id` |
| `mcp.prompt.name` | `gen_ai.prompt.name` |
| `mcp.transport` | `network.transport` |

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/registry/attributes/mcp.md`, status Development).

## Before

The tool's name recorded as `mcp.tool.name`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"mcp.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## After

The tool's name recorded as `gen_ai.tool.name`.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## Why

Tools that follow the conventions (GenAI dashboards, the MCP4xx rules) look
for `gen_ai.tool.name`; a tool call recorded under another name is counted
nowhere.

Each attribute is reported once per instrumentation scope and service, at the
first span that has it.
"""

from __future__ import annotations

from collections.abc import Hashable

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.spans import MCP_NAMESPACE, REPLACEMENTS, Operation
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""MCP span 带有约定未定义的 `mcp.*` 属性。

属性注册表的 `mcp` 命名空间有四个属性：`mcp.method.name`、`mcp.session.id`、`mcp.resource.uri` 和 `mcp.protocol.version`。在约定之前写成（或凭猜测）的插桩会写出其他属性；常见的几个都有已定义的替代：

| 写成的 | 已定义的 |
| --- | --- |
| `mcp.tool.name` | `gen_ai.tool.name` |
| `mcp.request.id` | `jsonrpc.request.id` |
| `mcp.prompt.name` | `gen_ai.prompt.name` |
| `mcp.transport` | `network.transport` |

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/registry/attributes/mcp.md`，状态为 Development）。

## Before

工具名被记录为 `mcp.tool.name`。

```json
```

## After

工具名被记录为 `gen_ai.tool.name`。

```json
```
"""


INFO = RuleInfo(
    code="MCP405",
    slug="span-attribute-not-in-conventions",
    summary="an mcp.* span attribute the OpenTelemetry conventions do not define",
    default_severity=Severity.INFO,  # judges the instrumentation: reported, not failing CI by default
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="OpenTelemetry 约定未定义的 mcp.* span 属性",
    why_zh=(
        "遵循约定的工具（GenAI 仪表盘、MCP4xx 规则）查找的是 `gen_ai.tool.name`；记录在其他名称下的工具调用不会被任何地方统计。每个属性在每个插桩作用域和服务中只报告一次，位于第一个带有它的 span。"
    ),
    found_in="trace",
)


def undefined_attributes(op: Operation) -> list[str]:
    """The span's ``mcp.*`` attributes that the registry does not define."""
    return [
        key for key in op.span.attributes if key.startswith("mcp.") and key not in MCP_NAMESPACE
    ]


@span_rule(INFO)
class SpanAttributeNotInConventions(SpanRule):
    """MCP405."""

    judges_instrumentation = True

    def group(self, op: Operation) -> Hashable:
        return tuple(undefined_attributes(op))

    def check(self, op: Operation, path: str) -> list[Finding]:
        found = []
        for key in undefined_attributes(op):
            instead = REPLACEMENTS.get(key)
            hint = f"; the conventions name it {instead}" if instead else ""
            message = f"MCP span {display(op.span.name)} ({op.span.span_id}): {key} is not a defined attribute{hint}"
            found.append(self.finding(op, path, message))
        return found
