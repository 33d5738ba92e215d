"""A message that is not valid JSON-RPC 2.0 as MCP uses it.

Every message must carry `"jsonrpc": "2.0"`; a request has a `method` and an
`id` (a string or an integer: MCP allows neither `null` nor fractions); a
notification has a `method` and no `id`; a response has the `id` of the
request it answers and exactly one of `result` (an object) and `error` (with
an integer `code` and a string `message`); `params`, where present, is an
object.

The finding names the offending value with a JSON pointer and the schema
keyword that failed.

## Before

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{}}}
{"id":7,"result":{"content":[]},"error":{"code":-32603,"message":"boom"}}
```

## After

`fix` does not guess which half was meant; the producer should send one:

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{}}}
{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}
```

## Why

Peers drop or misroute messages that break the envelope; a trace with them
does not show what the other side saw.

## Limits

Only the JSON-RPC envelope is checked; the shape of each method's params and result
is left to MCP202 (tools) and MCP206 (everything, opt-in).
"""

from __future__ import annotations

from typing import Any

from migrator.judge import validation
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsonrpc import UNSET, Envelope, object_starts
from migrator.model.jsontext import a_json_type, json_type
from migrator.model.session import Session
from migrator.model.units import SourceMessage
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""不符合 MCP 所用 JSON-RPC 2.0 的消息。

每条消息都必须带有 `"jsonrpc": "2.0"`；请求有 `method` 和 `id`（字符串或整数：MCP 既不允许 `null` 也不允许小数）；通知有 `method` 而没有 `id`；响应带有它所答复请求的 `id`，并且 `result`（一个对象）和 `error`（带有整数 `code` 和字符串 `message`）两者恰好有其一；`params` 如果出现，必须是对象。

这条发现用 JSON 指针指出出错的值，并给出未通过的 schema 关键字。

## Before

```json
```

## After

`fix` 不去猜测本意是哪一半；生成方应当只发送其中之一：

```json
```

## Limits

只检查 JSON-RPC 信封；各方法的 params 和 result 的结构交给 MCP202（工具）和 MCP206（全部，需选择启用）。
"""


INFO = RuleInfo(
    code="MCP201",
    slug="invalid-jsonrpc-message",
    summary="a message that is not valid JSON-RPC 2.0 (missing jsonrpc, both result and error, bad id)",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="不是有效 JSON-RPC 2.0 的消息（缺少 jsonrpc、同时有 result 和 error、id 无效）",
    why_zh=(
        "对端会丢弃或错误路由破坏信封格式的消息；含有这类消息的记录无法反映另一方实际看到的内容。"
    ),
)


def definition_for(payload: dict[str, Any]) -> str | None:
    """The JSON-RPC definition a message claims to be, or ``None`` if it claims none."""
    if "method" in payload:
        return "JSONRPCRequest" if "id" in payload else "JSONRPCNotification"
    if "result" in payload:
        return "JSONRPCResultResponse"
    if "error" in payload:
        return "JSONRPCErrorResponse"
    return None


def _is_integer(value: Any) -> bool:
    # JSON Schema's "integer" is any number with no fraction part (1.0 too).
    kind = type(value)
    return kind is int or (kind is float and value.is_integer())


def _is_id(value: Any) -> bool:
    return type(value) is str or _is_integer(value)


def well_formed(payload: dict[str, Any]) -> bool:
    """The JSON-RPC schema's verdict for the common shapes, in plain Python.

    Most messages are well formed; this decides them in a few dictionary
    look-ups. ``False`` means "ask the schema", which also words the problem.
    A differential test holds this to the schema's verdicts.
    """
    if payload.get("jsonrpc") != "2.0":
        return False
    if "method" in payload:
        if type(payload["method"]) is not str or (
            "params" in payload and type(payload["params"]) is not dict
        ):
            return False
        return "id" not in payload or _is_id(payload["id"])
    if "result" in payload:
        return (
            "error" not in payload and type(payload["result"]) is dict and _is_id(payload.get("id"))
        )
    error = payload.get("error")
    if type(error) is not dict or ("id" in payload and not _is_id(payload["id"])):
        return False
    return _is_integer(error.get("code")) and type(error.get("message")) is str


def envelope_well_formed(envelope: Envelope) -> bool:
    """:func:`well_formed` from the envelope alone, without decoding the payload.

    ``False`` means "decode and ask :func:`well_formed`": an error response is
    always decided from its payload (its ``code`` and ``message``).
    """
    if envelope.jsonrpc != "2.0":
        return False
    if envelope.method is not UNSET:
        if type(envelope.method) is not str or (
            envelope.params and not object_starts(envelope.params)
        ):
            return False
        return envelope.id is UNSET or _is_id(envelope.id)
    if envelope.result:
        return not envelope.error and object_starts(envelope.result) and _is_id(envelope.id)
    return False


@register(INFO)
class InvalidJsonRpcMessage(ValidationRule):
    """MCP201."""

    message_quiet_given = frozenset({Fact.WELL_FORMED})

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        envelope = message.envelope
        if envelope is not None and envelope_well_formed(envelope):  # most messages: no decode
            return []
        payload = message.payload
        if isinstance(payload, list):
            return [
                self.at(
                    message,
                    ctx,
                    "an empty batch: JSON-RPC requires at least one message",
                    pointer="",
                    keyword="minItems",
                )
            ]
        if not isinstance(payload, dict):
            return [
                self.at(
                    message,
                    ctx,
                    f"not a JSON-RPC message: {a_json_type(json_type(payload))}, not an object",
                    pointer="",
                    keyword="type",
                )
            ]
        if "result" in payload and "error" in payload:
            return [
                self.at(
                    message,
                    ctx,
                    "a response has both result and error",
                    pointer="",
                    keyword="oneOf",
                )
            ]
        if well_formed(payload):
            return []
        definition = definition_for(payload)
        if definition is None:
            return [
                self.at(
                    message,
                    ctx,
                    "neither a request, a notification nor a response: no method, result or error",
                    pointer="",
                    keyword="anyOf",
                )
            ]
        problem = validation.jsonrpc(definition).problem(payload)
        if problem is None:
            return []
        kind = (
            definition.removeprefix("JSONRPC")
            .replace("ResultResponse", "response")
            .replace("ErrorResponse", "error response")
            .lower()
        )
        return [
            self.at(
                message, ctx, f"invalid JSON-RPC {kind}: {problem.message}",
                pointer=problem.pointer, keyword=problem.keyword,
            )
        ]  # fmt: skip
