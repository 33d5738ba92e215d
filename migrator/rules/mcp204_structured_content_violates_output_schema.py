r"""A successful tool result whose `structuredContent` breaks the tool's `outputSchema`.

From 2025-06-18 a tool may declare an `outputSchema`; a server that declares
one must return `structuredContent` that conforms to it in every successful
result. The rule reports results that do not, and successful results that
leave `structuredContent` out. Results with `isError: true` are exempt: an
error has no structured output to conform.

## Before

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}}
{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}
{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"{\"sum\":\"5\"}"}],"structuredContent":{"sum":"5"}}}
```

## After

`fix` leaves it; the server should return what it declared:

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}}
{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}
{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}}}
```

## Why

Clients validate structured results against the declared schema and reject
the ones that fail, so the model never sees them.

## Limits

Only tools whose `outputSchema` is in the transcript's catalog are checked; remote
`$ref`s are never fetched.
"""

from __future__ import annotations

from typing import Any

from migrator.judge.validation import ToolSchemas
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.session import Exchange
from migrator.model.tool_results import plain_tool_result
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""`structuredContent` 违反工具 `outputSchema` 的成功工具结果。

自 2025-06-18 起，工具可以声明 `outputSchema`；声明了它的服务器，在每个成功结果中都必须返回符合它的 `structuredContent`。本规则报告不符合的结果，以及遗漏 `structuredContent` 的成功结果。带有 `isError: true` 的结果不在此列：错误没有需要符合 schema 的结构化输出。

## Before

```json
```

## After

`fix` 不改动它；服务器应当返回它所声明的内容：

```json
```

## Limits

只检查 `outputSchema` 出现在记录目录中的工具；远程 `$ref` 从不获取。
"""


INFO = RuleInfo(
    code="MCP204",
    slug="structured-content-violates-output-schema",
    summary="a successful result whose structuredContent violates the tool's outputSchema",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="structuredContent 违反工具 outputSchema 的成功结果",
    why_zh=("客户端会按声明的 schema 验证结构化结果，并拒绝不符合的结果，模型因此永远看不到它们。"),
)


@register(INFO)
class StructuredContentViolatesOutputSchema(ValidationRule):
    """MCP204."""

    exchange_methods = frozenset({"tools/call"})
    exchange_quiet_given = frozenset({Fact.STRUCTURED_VALID})
    results_only = True

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        if exchange.method != "tools/call" or exchange.request is None:
            return []
        plain = plain_tool_result(exchange.response)
        result: Any = None
        if plain is not None:  # read typed: whole only if structuredContent is to be validated
            if plain.is_error:
                return []
            structured = bool(plain.structured_content)
        else:
            result = exchange.response.payload.get("result")
            if not isinstance(result, dict) or result.get("isError") is True:
                return []
            structured = "structuredContent" in result
        params = exchange.request.payload.get("params")
        if not isinstance(params, dict):
            return []
        name = params.get("name")
        tool = exchange.session.catalog.tools.get(name) if isinstance(name, str) else None
        if tool is None or "outputSchema" not in tool:
            return []
        if not structured:
            return [
                self.at(
                    exchange.response, ctx,
                    f"tools/call {display(name)} declares an outputSchema but its result has no structuredContent",
                    pointer="/result", keyword="required", tool=name,
                )
            ]  # fmt: skip
        checker = (ctx.tool_schemas or ToolSchemas()).get(tool["outputSchema"], exchange.version)
        if checker is None:
            return []
        if result is None:
            result = exchange.response.payload["result"]
        problem = checker.problem(result["structuredContent"])
        if problem is None:
            return []
        return [
            self.at(
                exchange.response, ctx,
                f"structuredContent of tools/call {display(name)} violates its outputSchema: {problem.message}",
                pointer="/result/structuredContent" + problem.pointer, keyword=problem.keyword, tool=name,
            )
        ]  # fmt: skip
