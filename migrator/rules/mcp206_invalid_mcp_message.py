"""A message that breaks the official MCP schema of its protocol version (opt-in).

Enabled by `--mcp-schema PATH` (an official `schema.json` you have; its
version is read from its folder name, as in `.../2025-11-25/schema.json`) or
`--mcp-schema cached` (every version fetched with
`mcp-transcripts schema fetch VERSION`). Every request and notification is
validated against the definition of its method, every result against the
result definition of its request's method, every error response against the
version's error response. The tools surface is left to MCP202; methods the
version does not define are not reported.

## Before

In a 2025-06-18 session, an `initialize` result without `serverInfo` (checked with
`--mcp-schema`):

```json
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}
```

## After

`fix` leaves it; the server should send the member the schema requires:

```json
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"notes","version":"1.0.0"}}}
```

## Why

The project's schemas cover what the migration touches; teams that validate
whole traces in CI want every message held to the specification.

## Limits

Opt-in, with a schema file you provide. Methods the version does not define are not
reported, and the tools surface is left to MCP202.
"""

from __future__ import annotations

from typing import Any

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.session import Exchange, Session, request_meta_version
from migrator.model.units import Kind, SourceMessage
from migrator.rules.base import RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""违反其协议版本官方 MCP schema 的消息（需选择启用）。

用 `--mcp-schema PATH`（你手头的官方 `schema.json`；版本从其所在文件夹的名称读取，如 `.../2025-11-25/schema.json`）或 `--mcp-schema cached`（用 `mcp-transcripts schema fetch VERSION` 获取的每个版本）启用。每个请求和通知按其方法的定义验证，每个结果按其请求方法的结果定义验证，每个错误响应按该版本的错误响应验证。工具相关部分交给 MCP202；版本未定义的方法不报告。

## Before

在 2025-06-18 的会话中，一个没有 `serverInfo` 的 `initialize` 结果（用 `--mcp-schema` 检查）：

```json
```

## After

`fix` 不改动它；服务器应当发送 schema 要求的成员：

```json
```

## Limits

需选择启用，并由你提供 schema 文件。版本未定义的方法不报告，工具相关部分交给 MCP202。
"""


INFO = RuleInfo(
    code="MCP206",
    slug="invalid-mcp-message",
    summary="a message that violates the official MCP schema of its version (with --mcp-schema)",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="违反其版本官方 MCP schema 的消息（需 --mcp-schema）",
    why_zh=(
        "项目自带的 schema 只覆盖迁移涉及的部分；在 CI 中验证完整记录的团队希望每条消息都符合规范。"
    ),
)

LEFT_TO_MCP202 = frozenset({"tools/list", "tools/call"})


@register(INFO)
class InvalidMcpMessage(ValidationRule):
    """MCP206."""

    needs_official_schemas = True

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        kind = message.kind
        if ctx.official is None or kind not in (Kind.REQUEST, Kind.NOTIFICATION):
            return []
        payload = message.payload
        method = payload["method"]
        if method in LEFT_TO_MCP202:
            return []
        version = request_meta_version(payload) or session.version
        schema = ctx.official.for_version(version)
        if schema is None:
            return []
        table = schema.requests if kind is Kind.REQUEST else schema.notifications
        definition = table.get(method)
        if definition is None:
            return []
        return self._report(
            message, ctx, schema.problem(definition, payload), definition, "", version
        )

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        if ctx.official is None or exchange.method is None or exchange.method in LEFT_TO_MCP202:
            return []
        schema = ctx.official.for_version(exchange.version)
        if schema is None:
            return []
        payload = exchange.response.payload
        if "result" in payload:
            definition = schema.result_definition(exchange.method)
            if definition is None:
                return []
            problem = schema.problem(definition, payload["result"])
            return self._report(
                exchange.response, ctx, problem, definition, "/result", exchange.version
            )
        for definition in ("JSONRPCErrorResponse", "JSONRPCError"):
            if definition in schema.definitions:
                problem = schema.problem(definition, payload)
                return self._report(
                    exchange.response, ctx, problem, definition, "", exchange.version
                )
        return []

    def _report(
        self, message: SourceMessage, ctx: RuleContext, problem: Any, definition: str, prefix: str,
        version: str | None,
    ) -> list[Finding]:  # fmt: skip
        if problem is None:
            return []
        label = version or "any version"
        return [
            self.at(
                message, ctx, f"not a valid {definition} of the official {label} schema: {problem.message}",
                pointer=prefix + problem.pointer, keyword=problem.keyword,
            )
        ]  # fmt: skip
