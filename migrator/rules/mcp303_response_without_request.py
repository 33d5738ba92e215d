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

INFO = RuleInfo(
    code="MCP303",
    slug="response-without-request",
    summary="a response whose request does not come before it (a capture started mid-session, or reordered lines)",
    default_severity=Severity.INFO,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
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
