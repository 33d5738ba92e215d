"""A call to a tool that does not exist was answered with an `isError` tool result.

The specification keeps *unknown tools* as protocol errors: the client asked
for something the server does not offer, which is not a mistake the model can
fix by changing arguments. TypeScript SDK 1.21 to 1.23 and FastMCP answer it
with an `isError` result instead.

The rule fires when the tool is absent from a complete, current tool catalog
(every `tools/list` page seen, no `list_changed` since), or when the result's
text says the tool does not exist and the catalog does not list it.

The fix is unsafe (applied with `--unsafe-fixes`): it turns the result into
a `-32602` error; the original result is kept in
`error.data["io.github.mcp-transcripts/original-result"]`.

## Before

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}
{"jsonrpc":"2.0","id":21,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool no_such_tool not found"}],"isError":true}}
```

## After

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}
{"jsonrpc":"2.0","id":21,"error":{"code":-32602,"message":"MCP error -32602: Tool no_such_tool not found","data":{"io.github.mcp-transcripts/original-result":{"content":[{"type":"text","text":"MCP error -32602: Tool no_such_tool not found"}],"isError":true}}}}
```

## Why

A protocol error tells the client that its view of the server is wrong (its
tool list is out of date), which it can act on by listing tools again.

## Limits

Without a complete catalog (every `tools/list` page, no `list_changed` since) the
rule relies on the result's text saying that the tool does not exist; a wording it
does not know goes unreported (add it to `unknown-tool-patterns`).
"""

from __future__ import annotations

from migrator.fix.rewrite import Rewrite, replace_member, unknown_tool_error
from migrator.judge.classify import Outcome, Verdict, first_text
from migrator.model.findings import FixSafety, Severity
from migrator.model.session import Exchange
from migrator.rules.base import Hit, RuleContext, ToolCallRule, describe_call
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""对不存在的工具的调用，得到的是 `isError` 工具结果。

规范把*未知工具*保留为协议错误：客户端请求了服务器并不提供的东西，这不是模型改改参数就能纠正的错误。 TypeScript SDK 1.21 至 1.23 以及 FastMCP 却以 `isError` 结果作答。

当工具不在一份完整且最新的工具目录中（看到了 `tools/list` 的每一页，之后没有 `list_changed`），或者结果的文字说工具不存在且目录中也没有它时，本规则触发。

修复是不安全的（用 `--unsafe-fixes` 应用）：它把结果改为 `-32602` 错误；原始结果保存在 `error.data["io.github.mcp-transcripts/original-result"]` 中。

## Before

```json
```

## After

```json
```

## Limits

没有完整目录（`tools/list` 的每一页，之后没有 `list_changed`）时，本规则依靠结果的文字说明工具不存在；它不认识的措辞不会被报告（请加入 `unknown-tool-patterns`）。
"""


INFO = RuleInfo(
    code="MCP102",
    slug="unknown-tool-as-tool-result",
    summary="a call to a tool absent from a complete catalog answered with an isError result",
    default_severity=Severity.WARNING,
    fix=FixSafety.UNSAFE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="调用完整目录中不存在的工具，却以 isError 工具结果作答",
    why_zh=(
        "协议错误告诉客户端它对服务器的认识有误（工具列表已过期），客户端可以据此重新列出工具。"
    ),
)


@register(INFO)
class UnknownToolAsToolResult(ToolCallRule):
    """MCP102."""

    outcomes = frozenset({Outcome.UNKNOWN_TOOL})

    def check(self, exchange: Exchange, verdict: Verdict, ctx: RuleContext) -> Hit | None:
        if verdict.outcome is not Outcome.UNKNOWN_TOOL or "result" not in exchange.response.payload:
            return None
        result = exchange.response.payload["result"]
        message = (
            f"{describe_call(exchange, verdict)}: unknown tool answered with an isError result; "
            "unknown tools stay JSON-RPC protocol errors (-32602)"
        )

        def rewrite() -> Rewrite:
            text = first_text(result) if isinstance(result, dict) else None
            error = unknown_tool_error(verdict.tool or "?", text, result, ctx.provenance)
            edit = replace_member(ctx.unit_text, exchange.response, "result", "error", error)
            return Rewrite(edit, "error", error, exchange.version)

        return Hit(self.finding(exchange, verdict, ctx, message), rewrite)
