"""A known tool, called with valid arguments, failed, and the server sent a JSON-RPC error.

The arguments satisfy the tool's `inputSchema` and the message reads as a
failure while running the tool (an API that timed out, a refused connection,
a business rule). The specification lists API failures and business logic
errors as *tool execution errors*, reported in the result with `isError: true`
so the model can react (retry later, pick another approach, tell the user).

This is an `info` finding with an unsafe fix: the wording is a heuristic, and
a real internal server error must stay a protocol error.

## Before

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"fetch","inputSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}]}}
{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://10.0.0.7/"}}}
{"jsonrpc":"2.0","id":30,"error":{"code":-32603,"message":"fetch failed: ECONNREFUSED 10.0.0.7:443"}}
```

## After

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"fetch","inputSchema":{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}}]}}
{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://10.0.0.7/"}}}
{"jsonrpc":"2.0","id":30,"result":{"content":[{"type":"text","text":"fetch failed: ECONNREFUSED 10.0.0.7:443"}],"isError":true,"_meta":{"io.github.mcp-transcripts/original-error":{"code":-32603,"message":"fetch failed: ECONNREFUSED 10.0.0.7:443"}}}}
```

## Why

An execution failure the model never sees turns into a silent dead end; as a
tool result it can be explained to the user or worked around.

## Limits

The wording is a heuristic: an internal server error can read like a tool failure,
which is why the finding is `info` and the fix unsafe.
"""

from __future__ import annotations

from migrator.fix.rewrite import rewrite_as_tool_error
from migrator.judge.classify import Outcome, Verdict
from migrator.model.findings import FixSafety, Severity
from migrator.model.session import Exchange
from migrator.rules.base import Hit, RuleContext, ToolCallRule, describe_call
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""已知工具以有效参数被调用后执行失败，服务器发送了 JSON-RPC 错误。

参数满足工具的 `inputSchema`，消息读起来像是运行工具时的失败（API 超时、连接被拒绝、业务规则）。规范把 API 失败和业务逻辑错误列为*工具执行错误*，应当在结果中以 `isError: true` 报告，让模型能够应对（稍后重试、换一种做法、告诉用户）。

这是一条 `info` 级别的发现，修复不安全：措辞判断是启发式的，而真正的服务器内部错误必须仍是协议错误。

## Before

```json
```

## After

```json
```

## Limits

措辞判断是启发式的：服务器内部错误读起来可能像工具失败，所以这条发现是 `info`，修复也是不安全的。
"""


INFO = RuleInfo(
    code="MCP104",
    slug="tool-failure-as-protocol-error",
    summary="a known tool with valid arguments failed and the failure was sent as a JSON-RPC error",
    default_severity=Severity.INFO,
    fix=FixSafety.UNSAFE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="已知工具在参数有效时执行失败，失败却以 JSON-RPC 错误发送",
    why_zh=("模型看不到的执行失败会变成无声的死胡同；作为工具结果，它可以被解释给用户，或被绕开。"),
)


@register(INFO)
class ToolFailureAsProtocolError(ToolCallRule):
    """MCP104."""

    outcomes = frozenset({Outcome.TOOL_FAILURE})

    def check(self, exchange: Exchange, verdict: Verdict, ctx: RuleContext) -> Hit | None:
        if verdict.outcome is not Outcome.TOOL_FAILURE:
            return None
        error = exchange.response.payload["error"]
        code = error.get("code") if isinstance(error, dict) else None
        message = (
            f"{describe_call(exchange, verdict)}: a tool execution failure sent as JSON-RPC "
            f"error {code}; it could be a tool result with isError: true"
        )
        return Hit(
            self.finding(exchange, verdict, ctx, message),
            lambda: rewrite_as_tool_error(exchange, verdict, ctx.unit_text, ctx.provenance),
        )
