"""An MCP span attribute has a type the conventions do not define, or cannot be read.

The MCP semantic conventions give every attribute a type: `jsonrpc.request.id`
is a **string** (`"10"`, not the integer `10`), `server.port` an int, and so on.
Attributes that are not OTLP `AnyValue`s at all (a bare value, a missing key)
are reported here too; the rest of the span is still checked.

Follows the MCP semantic conventions of OpenTelemetry semantic-conventions
v1.41.0 (`docs/gen-ai/mcp.md`, status Development).

## Before

`jsonrpc.request.id` recorded as an integer (`intValue`).

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"intValue":"10"}}],"status":{}}]}]}]}
```

## After

`jsonrpc.request.id` recorded as a string.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"10"}}],"status":{}}]}]}]}
```

## Why

Backends index attributes by name *and* type: a query for
`jsonrpc.request.id = "10"` does not match an integer, and a column of mixed
types breaks aggregations.

Each deviation is reported once per instrumentation scope and service, at
the first span that shows it.
"""

from __future__ import annotations

from collections.abc import Hashable

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.spans import CONVENTION_TYPES, Operation
from migrator.rules.info import RuleInfo
from migrator.rules.trace_base import SpanRule, span_rule

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""MCP span 属性的类型不是约定所定义的，或者无法读取。

MCP 语义约定为每个属性规定了类型：`jsonrpc.request.id` 是**字符串**（`"10"`，而不是整数 `10`）， `server.port` 是 int，依此类推。根本不是 OTLP `AnyValue` 的属性（裸值、缺少 key）也在这里报告； span 的其余部分照常检查。

遵循 OpenTelemetry semantic-conventions v1.41.0 中的 MCP 语义约定（`docs/gen-ai/mcp.md`，状态为 Development）。

## Before

`jsonrpc.request.id` 被记录为整数（`intValue`）。

```json
```

## After

`jsonrpc.request.id` 被记录为字符串。

```json
```
"""


INFO = RuleInfo(
    code="MCP404",
    slug="span-attribute-wrong-type",
    summary="an MCP span attribute of the wrong type, or one that is not an OTLP AnyValue",
    default_severity=Severity.INFO,  # judges the instrumentation: reported, not failing CI by default
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="MCP span 属性的类型不对，或者不是 OTLP AnyValue",
    why_zh=(
        '后端按名称和类型为属性建立索引：查询 `jsonrpc.request.id = "10"` 匹配不到整数，类型混杂的列会让聚合出错。每种偏差在每个插桩作用域和服务中只报告一次，位于第一个出现它的 span。'
    ),
    found_in="trace",
)


def wrong_types(op: Operation) -> list[tuple[str, str, str]]:
    """``(attribute, type found, type defined)`` for each attribute of the wrong type."""
    out = []
    for key, attribute in op.span.attributes.items():
        expected = CONVENTION_TYPES.get(key)
        if expected is not None and attribute.type != expected:
            out.append((key, attribute.type, expected))
    return out


@span_rule(INFO)
class SpanAttributeWrongType(SpanRule):
    """MCP404."""

    judges_instrumentation = True

    def group(self, op: Operation) -> Hashable:
        return (tuple(op.span.defects), tuple(wrong_types(op)))

    def check(self, op: Operation, path: str) -> list[Finding]:
        problems = list(op.span.defects)
        for key, found, expected in wrong_types(op):
            value = op.span.attributes[key].value
            problems.append(f"{key} is {found} {display(value)}, the conventions say {expected}")
        return [
            self.finding(
                op, path, f"MCP span {display(op.span.name)} ({op.span.span_id}): {problem}"
            )
            for problem in problems
        ]
