"""A request reuses the id of a request from the same side that is still unanswered.

JSON-RPC ids pair responses with requests; an id in flight twice makes the
pairing ambiguous for the peer and for the migrator, which pairs the next
response with the newer request. Client and server number their requests
independently, so the same id in flight both ways is fine and not reported.

## Before

```json
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":{}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"b","arguments":{}}}
```

## After

`fix` leaves it; the client should number its requests apart:

```json
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":{}}}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"b","arguments":{}}}
```

## Why

The specification requires that a sender not reuse an id within a session;
a peer that does can receive the answer to one call as the answer to another.

## Limits

Only ids still in flight count: reusing the id of a request that was answered is not
reported.
"""

from __future__ import annotations

from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.session import Session
from migrator.model.units import Kind, SourceMessage
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""请求重用了同一方一个尚未得到答复的请求的 id。

JSON-RPC 的 id 把响应与请求配对；同一个 id 同时在途两次，会让对端和迁移工具的配对产生歧义，迁移工具会把下一个响应配给较新的请求。客户端和服务器各自为自己的请求编号，所以同一个 id 在两个方向上同时在途是正常的，不会报告。

## Before

```json
```

## After

`fix` 不改动它；客户端应当为请求分别编号：

```json
```

## Limits

只计算仍在途的 id：重用已经得到答复的请求的 id 不会报告。
"""


INFO = RuleInfo(
    code="MCP304",
    slug="request-id-reused",
    summary="a request reuses the id of an unanswered request from the same side",
    default_severity=Severity.WARNING,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="请求重用了同一方尚未得到答复的请求 id",
    why_zh=(
        "规范要求发送方在一个会话中不得重用 id；这样做的一方，可能把对一个调用的答复当作对另一个调用的答复接收。"
    ),
)


@register(INFO)
class RequestIdReused(ValidationRule):
    """MCP304."""

    kinds = frozenset({Kind.REQUEST})
    message_quiet_given = frozenset({Fact.FRESH_ID})

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        if ctx.tracker is None:
            return []
        earlier = ctx.tracker.in_flight(message)
        if earlier is None:
            return []
        request_id = message.payload["id"]
        return [
            self.at(
                message, ctx,
                f"request id {display(request_id)} is still in flight from line {earlier.message.line} "
                f"({earlier.method}); responses will pair with this newer request",
            )
        ]  # fmt: skip
