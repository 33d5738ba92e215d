"""A `tools/call` error that the evidence cannot place.

The server answered with a JSON-RPC error, but nothing settles whether the
arguments were at fault: no complete tool catalog in the transcript and no
earlier call in the session that the tool answered (so the tool may not exist),
and a message in no known wording; or a message that does not say what went
wrong while the arguments break the tool's `inputSchema`.

The finding lists the evidence that was there. Record the `tools/list`
exchange with the traffic (or add the server's message wording to the
configuration) and the rule turns into MCP101 or disappears.

With `--unsafe-fixes`, `fix` treats it as an input validation error and
rewrites it as MCP101 would.

## Before

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"q":"mcp"}}}
{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params"}}
```

## After

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"q":"mcp"}}}
{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Invalid params (tool search): the arguments were rejected"}],"isError":true,"_meta":{"io.github.mcp-transcripts/original-error":{"code":-32602,"message":"Invalid params"}}}}
```

## Why

A guess that rewrites an unknown-tool error into a tool result would break
the rule the other way; the migrator only guesses when asked to.

## Limits

It reports doubt, by design. The unsafe fix assumes an input validation failure,
which is wrong when the tool did not exist: review the diff before applying it.
"""

from __future__ import annotations

from migrator.fix.rewrite import rewrite_as_tool_error
from migrator.judge.classify import Outcome, Verdict
from migrator.model.findings import FixSafety, Severity
from migrator.model.session import Exchange
from migrator.rules.base import Hit, RuleContext, ToolCallRule, describe_call
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""证据无法定性的 `tools/call` 错误。

服务器以 JSON-RPC 错误作答，但没有任何证据能断定是不是参数出了问题：记录中没有完整的工具目录，会话中也没有该工具答复过的先前调用（所以工具可能并不存在），而消息的措辞也不在已知之列；或者消息没有说明出了什么问题，而参数违反了工具的 `inputSchema`。

这条发现列出了现有的证据。把 `tools/list` 交换和流量一起录下来（或把服务器消息的措辞加入配置），本规则就会变成 MCP101，或者消失。

使用 `--unsafe-fixes` 时，`fix` 把它当作输入验证错误，按 MCP101 的方式改写。

## Before

```json
```

## After

```json
```

## Limits

它报告的是疑问，这是有意为之。不安全的修复假定这是输入验证失败，而当工具并不存在时这是错的：应用之前请先查看差异。
"""


INFO = RuleInfo(
    code="MCP103",
    slug="ambiguous-tools-call-error",
    summary="a tools/call error the evidence cannot place (no catalog, unclear message)",
    default_severity=Severity.WARNING,
    fix=FixSafety.UNSAFE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="证据无法判定的 tools/call 错误（没有工具目录，消息含义不明）",
    why_zh=(
        "如果把未知工具错误猜测性地改写成工具结果，就会从另一个方向违反规范；只有在明确要求时，迁移工具才会猜测。"
    ),
)


@register(INFO)
class AmbiguousToolsCallError(ToolCallRule):
    """MCP103."""

    outcomes = frozenset({Outcome.AMBIGUOUS})

    def check(self, exchange: Exchange, verdict: Verdict, ctx: RuleContext) -> Hit | None:
        if verdict.outcome is not Outcome.AMBIGUOUS:
            return None
        error = exchange.response.payload["error"]
        code = error.get("code") if isinstance(error, dict) else None
        message = (
            f"{describe_call(exchange, verdict)}: JSON-RPC error {code} may be an input "
            "validation failure or an unknown tool; the transcript does not say which"
        )
        return Hit(
            self.finding(exchange, verdict, ctx, message),
            lambda: rewrite_as_tool_error(exchange, verdict, ctx.unit_text, ctx.provenance),
        )
