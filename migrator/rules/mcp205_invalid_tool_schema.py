"""A tool whose `inputSchema` or `outputSchema` is not a valid JSON Schema.

Each tool listed by `tools/list` is checked against the metaschema of its
schema's dialect (its own `$schema`, or the session version's default:
draft-07 before 2025-11-25, 2020-12 from then on), including patterns that
must compile. A tool with a broken schema cannot be validated, so the other
rules lose that evidence for it.

## Before

```json
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"search","inputSchema":{"type":"object","properties":{"limit":{"type":"int"}}}}]}}
```

## After

`fix` leaves it; the server should list a valid schema:

```json
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"search","inputSchema":{"type":"object","properties":{"limit":{"type":"integer"}}}}]}}
```

## Why

Clients hand these schemas to the model and validate calls with them; an
invalid schema breaks both.

## Limits

Only the tools listed in the transcript are checked.
"""

from __future__ import annotations

from migrator.judge import schemas
from migrator.judge.validation import default_dialect, pointer
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.session import Exchange
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""`inputSchema` 或 `outputSchema` 不是有效 JSON Schema 的工具。

`tools/list` 列出的每个工具，都按其 schema 方言的元 schema 检查（方言取自 schema 自己的 `$schema`，或会话版本的默认方言：2025-11-25 之前为 draft-07，之后为 2020-12），包括必须能够编译的正则模式。 schema 损坏的工具无法被验证，其他规则也就失去了关于它的这项证据。

## Before

```json
```

## After

`fix` 不改动它；服务器应当列出有效的 schema：

```json
```

## Limits

只检查记录中列出的工具。
"""


INFO = RuleInfo(
    code="MCP205",
    slug="invalid-tool-schema",
    summary="a tool whose inputSchema or outputSchema is not a valid JSON Schema",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="inputSchema 或 outputSchema 不是有效 JSON Schema 的工具",
    why_zh=("客户端把这些 schema 交给模型，并用它们验证调用；无效的 schema 会让两者都失效。"),
)


@register(INFO)
class InvalidToolSchema(ValidationRule):
    """MCP205."""

    exchange_methods = frozenset({"tools/list"})
    exchange_quiet_given = frozenset({Fact.TOOL_SCHEMAS_VALID})

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        if exchange.method != "tools/list":
            return []
        result = exchange.response.payload.get("result")
        tools = result.get("tools") if isinstance(result, dict) else None
        if not isinstance(tools, list):
            return []
        dialect = default_dialect(exchange.version)
        findings: list[Finding] = []
        for index, tool in enumerate(tools):
            if not isinstance(tool, dict):
                continue
            name = tool.get("name") if isinstance(tool.get("name"), str) else None
            for key in ("inputSchema", "outputSchema"):
                if key not in tool:
                    continue
                for problem in schemas.check_json_schema(tool[key], dialect)[:1]:
                    where, _, text = problem.partition(": ")
                    findings.append(
                        self.at(
                            exchange.response, ctx,
                            f"tool {display(name)} has an invalid {key}: {text}",
                            pointer=pointer(["result", "tools", index, key]) + where,
                            keyword=None, tool=name,
                        )
                    )  # fmt: skip
        return findings
