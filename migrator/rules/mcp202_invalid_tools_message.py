"""A `tools/list` or `tools/call` message that breaks its protocol version's schema.

Requests are validated as the version's `ListToolsRequest` and
`CallToolRequest`. A result is validated on its own, as the result
definition of the method its request named (`ListToolsResult`,
`CallToolResult`): validating the whole response against a union of every
result type would accept almost anything, so the method decides.

The version is the session's (from `initialize`) or the request's own
`_meta` (2026-07-28). Without either, pass `--assume-version`; the rule does
not guess a version.

## Before

In a 2025-11-25 session, a `CallToolResult` whose `content` is not an array:

```json
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","id":"a3","method":"tools/call","params":{"name":"echo","arguments":{"text":"ok"}}}
{"jsonrpc":"2.0","id":"a3","result":{"content":"ok"}}
```

## After

`fix` leaves it; the server should answer in the version's shape:

```json
{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","id":"a3","method":"tools/call","params":{"name":"echo","arguments":{"text":"ok"}}}
{"jsonrpc":"2.0","id":"a3","result":{"content":[{"type":"text","text":"ok"}]}}
```

## Why

Clients check results against the schema of the version they negotiated; a
server that answers in another version's shape breaks them.

## Limits

Without a version (no `initialize` in the transcript, no `_meta` on the request) and
without `--assume-version`, nothing is checked.
"""

from __future__ import annotations

from typing import Any

from migrator.judge import schemas, validation
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.session import Exchange, Session, request_meta_version
from migrator.model.tool_results import SCHEMA_VALID_VERSIONS, plain_tool_result
from migrator.model.units import Kind, SourceMessage
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""违反其协议版本 schema 的 `tools/list` 或 `tools/call` 消息。

请求按该版本的 `ListToolsRequest` 和 `CallToolRequest` 验证。结果单独验证，依据的是其请求所指方法的结果定义（`ListToolsResult`、`CallToolResult`）：如果拿整个响应去对照所有结果类型的联合来验证，几乎什么都能通过，所以由方法来决定。

版本取自会话（来自 `initialize`）或请求自身的 `_meta`（2026-07-28）。两者都没有时，请传入 `--assume-version`；本规则不猜测版本。

## Before

在 2025-11-25 的会话中，一个 `content` 不是数组的 `CallToolResult`：

```json
```

## After

`fix` 不改动它；服务器应当按该版本的结构作答：

```json
```

## Limits

没有版本（记录中没有 `initialize`，请求上没有 `_meta`），又没有 `--assume-version` 时，什么都不检查。
"""


INFO = RuleInfo(
    code="MCP202",
    slug="invalid-tools-message",
    summary="a tools/list or tools/call request or result that violates the session version's schema",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="违反会话版本 schema 的 tools/list 或 tools/call 请求或结果",
    why_zh=("客户端按协商版本的 schema 检查结果；以另一个版本的结构作答的服务器会让客户端出错。"),
)

REQUESTS = {"tools/list": "ListToolsRequest", "tools/call": "CallToolRequest"}
RESULTS = {"tools/list": "ListToolsResult", "tools/call": "CallToolResult"}


@register(INFO)
class InvalidToolsMessage(ValidationRule):
    """MCP202."""

    kinds = frozenset({Kind.REQUEST})
    methods = frozenset(REQUESTS)
    exchange_methods = frozenset(RESULTS)
    message_quiet_given = frozenset({Fact.TOOLS_SHAPE_VALID})
    exchange_quiet_given = frozenset({Fact.TOOLS_SHAPE_VALID})
    results_only = True

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        if message.kind is not Kind.REQUEST:
            return []
        payload = message.payload
        definition = REQUESTS.get(payload["method"])
        version = request_meta_version(payload) or session.version
        if definition is None or version is None:
            return []
        return self._validate(message, ctx, payload, version, definition, "", payload["method"])

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        definition = RESULTS.get(exchange.method or "")
        version = exchange.version
        if definition is None or version is None:
            return []
        if (
            definition == "CallToolResult"
            and schemas.closest_version(version) in SCHEMA_VALID_VERSIONS
            and plain_tool_result(exchange.response) is not None
        ):
            return []  # the plain shape, valid in this version: no need to decode and validate it
        if "result" not in exchange.response.payload:
            return []
        result = exchange.response.payload["result"]
        return self._validate(
            exchange.response,
            ctx,
            result,
            version,
            definition,
            "/result",
            f"{exchange.method} result",
        )

    def _validate(
        self, message: SourceMessage, ctx: RuleContext, instance: Any, version: str,
        definition: str, prefix: str, what: str,
    ) -> list[Finding]:  # fmt: skip
        governing = schemas.closest_version(version)
        problem = validation.mcp(governing, definition).problem(instance)
        if problem is None:
            return []
        tool = None
        params = message.payload.get("params") if isinstance(message.payload, dict) else None
        if isinstance(params, dict) and isinstance(params.get("name"), str):
            tool = params["name"]
        return [
            self.at(
                message, ctx,
                f"{what} is not a valid {governing} {definition}: {problem.message}",
                pointer=prefix + problem.pointer, keyword=problem.keyword, tool=tool,
                evidence=(f"protocol version {version}, validated as {governing}",),
            )
        ]  # fmt: skip
