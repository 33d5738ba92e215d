"""A response whose request is not in the transcript before it.

Common at the start of a capture that began mid-session, and harmless
there. Elsewhere it means the transcript lost lines or was reordered (a
response written before its request). The migrator cannot tell what such a
response answers, so no rule judges it and `fix` leaves it alone.

## Before

```json
{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{}}}
```

## After

`fix` leaves it. Record the traffic in order (see `mcp-transcripts record`); the
pair is then judged like any other:

```json
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{}}}
{"jsonrpc":"2.0","id":9,"error":{"code":-32602,"message":"Invalid params"}}
```

## Why

A response without its request is evidence the migrator cannot use; saying
so is better than silently skipping it.

## Limits

Each file keeps at most 100,000 requests waiting for an answer. Beyond that the
oldest is forgotten, and its response is then reported as MCP303.
"""

from __future__ import annotations

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.session import Exchange
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""在记录中，其请求没有出现在它之前的响应。

在会话中途开始的录制里，这在开头很常见，也无害。出现在其他位置则说明记录丢了行或顺序被打乱（响应写在了请求之前）。迁移工具无法知道这样的响应答复的是什么，所以没有规则评判它，`fix` 也不改动它。

## Before

```json
```

## After

`fix` 不改动它。请按顺序录制流量（见 `mcp-transcripts record`）；这样这对消息就会像其他消息一样被评判：

```json
```

## Limits

每个文件最多保留 100,000 个等待答复的请求。超出时最早的请求被遗忘，它的响应随后报告为 MCP303。
"""


INFO = RuleInfo(
    code="MCP303",
    slug="response-without-request",
    summary="a response whose request does not come before it (a capture started mid-session, or reordered lines)",
    default_severity=Severity.INFO,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="请求没有出现在其之前的响应（记录从会话中途开始，或行顺序被打乱）",
    why_zh=("没有请求的响应是迁移工具无法使用的证据；说明这一点，胜过悄悄跳过。"),
)


@register(INFO)
class ResponseWithoutRequest(ValidationRule):
    """MCP303."""

    exchange_methods = frozenset({None})
    exchange_quiet_given = frozenset({Fact.ANSWERED})

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        if exchange.request is not None:
            return []
        request_id = exchange.response.payload.get("id")
        return [
            self.at(
                exchange.response,
                ctx,
                f"response to id {display(request_id)}, but no request with that id came before it",
            )
        ]
