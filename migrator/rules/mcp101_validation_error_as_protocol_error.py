r"""A tool's arguments failed validation, and the server answered with a JSON-RPC error.

Since protocol version 2025-11-25 (SEP-1303), input validation failures are
*tool execution errors*: the server returns a normal result with
`isError: true` and a text that says what was wrong, so the client hands it to
the language model and the model can fix its call. A JSON-RPC error
(`-32602 Invalid params`, or a server's `-32603` with a validation dump) stops
at the client, and the model retries blind.

Severity is `error` for sessions at 2025-11-25 or later and `warning` before,
where the old answer was still allowed.

The fix keeps the response's id and every other byte, and writes the server's
message as short `<message> at <path>` lines, one sentence a problem, with values and
types in JSON's words (`null`, `"abc-12"`, `an integer`; a Python SDK's
`'three' is not of type 'integer'` becomes `"three" is not an integer`); a detail the
server already gave is not repeated. The original error is kept under
`result._meta["io.github.mcp-transcripts/original-error"]` (turn off with `--no-provenance`).

## Before

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3}}}
{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":"MCP error -32602: Invalid arguments for tool add: [{\"code\":\"invalid_type\",\"expected\":\"number\",\"received\":\"string\",\"path\":[\"a\"],\"message\":\"Expected number, received string\"}]"}}
```

## After

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3}}}
{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"Invalid arguments for tool add:\n- Expected number, received string at arguments.a"}],"isError":true,"_meta":{"io.github.mcp-transcripts/original-error":{"code":-32602,"message":"MCP error -32602: Invalid arguments for tool add: [{\"code\":\"invalid_type\",\"expected\":\"number\",\"received\":\"string\",\"path\":[\"a\"],\"message\":\"Expected number, received string\"}]"}}}}
```

## Why

Clients do not show protocol errors to the model. A model that never learns
why its call failed repeats the same mistake (the SEP's example: a booking tool
that rejects a date in the past, called again and again with past dates).

## Limits

The verdict rests on evidence: the tool catalog, the tool's `inputSchema`, the
error code, the wording of the message, and what the session already showed of the
tool: earlier calls it answered (and how their arguments differ from this one's), an
`isError` result it sent, an SDK's validation of its arguments, an earlier session's
listing (`--show-evidence` lists it). A tool that answered a call is not unknown. More
evidence never converts a `-32602` that says the tool is unknown or disabled, that the
request itself is malformed, or that is about something other than the arguments (an
output schema, a request state), nor a server failure. It is not promised to be free of
false positives; `tests/test_noop.py` and `tests/test_session_evidence.py` hold protocol
errors that must stay as they are. A server wording the classifier does not know, for a
tool the session shows nothing of, ends up as MCP103 instead: add it to
`validation-patterns`.
"""

from __future__ import annotations

from migrator.fix.rewrite import rewrite_as_tool_error
from migrator.judge.classify import Outcome, Verdict
from migrator.model.findings import FixSafety, Severity
from migrator.model.session import Exchange
from migrator.rules.base import Hit, RuleContext, ToolCallRule, describe_call
from migrator.rules.info import RuleInfo, register

SEP_1303_VERSION = "2025-11-25"

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""工具的参数未通过验证，服务器却以 JSON-RPC 错误作答。

自协议版本 2025-11-25（SEP-1303）起，输入验证失败属于*工具执行错误*：服务器返回一个普通结果，其中带有 `isError: true` 和一段说明错在哪里的文字，客户端把它交给语言模型，模型就能修正自己的调用。 JSON-RPC 错误（`-32602 Invalid params`，或服务器附带验证输出的 `-32603`）止步于客户端，模型只能盲目重试。

对 2025-11-25 及之后的会话，严重级别为 `error`；在此之前旧的回答方式仍被允许，严重级别为 `warning`。

修复保留响应的 id 和其他每一个字节，把服务器的消息写成简短的 `<message> at <path>` 行，每个问题一句话，值和类型用 JSON 的说法（`null`、`"abc-12"`、`an integer`；Python SDK 的 `'three' is not of type 'integer'` 变为 `"three" is not an integer`）；服务器已经给出的细节不再重复。原始错误保存在 `result._meta["io.github.mcp-transcripts/original-error"]` 下（用 `--no-provenance` 关闭）。

## Before

```json
```

## After

```json
```

## Limits

判定依据证据：工具目录、工具的 `inputSchema`、错误码、消息的措辞，以及会话中已经显示的关于该工具的情况：它答复过的先前调用（以及那些调用的参数与本次有何不同）、它发送过的 `isError` 结果、SDK 对其参数的验证、先前会话中的工具列表（`--show-evidence` 会列出这些证据）。答复过调用的工具不是未知工具。更多的证据永远不会转换这样的 `-32602`：它说工具未知或已禁用、请求本身格式错误，或者与参数以外的东西有关（输出 schema、请求状态）；服务器故障也不会被转换。本规则不保证没有误报；`tests/test_noop.py` 和 `tests/test_session_evidence.py` 收录了必须保持原样的协议错误。对于会话中没有任何相关信息的工具，分类器不认识的服务器措辞会成为 MCP103：请把它加入 `validation-patterns`。
"""


INFO = RuleInfo(
    code="MCP101",
    slug="validation-error-as-protocol-error",
    summary="input validation failure of a known tool answered with a JSON-RPC error",
    default_severity=Severity.ERROR,
    fix=FixSafety.SAFE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="已知工具的输入验证失败，却以 JSON-RPC 错误作答",
    why_zh=(
        "客户端不会把协议错误交给模型。模型得不到调用失败的原因，就会重复同样的错误（SEP 中的例子：一个拒绝过去日期的订票工具，被一次又一次地用过去的日期调用）。"
    ),
)


@register(INFO)
class ValidationErrorAsProtocolError(ToolCallRule):
    """MCP101."""

    outcomes = frozenset({Outcome.INPUT_VALIDATION})

    def severity(self, exchange: Exchange) -> Severity:
        version = exchange.version
        if version is not None and (version == "draft" or version >= SEP_1303_VERSION):
            return Severity.ERROR
        return Severity.WARNING

    def check(self, exchange: Exchange, verdict: Verdict, ctx: RuleContext) -> Hit | None:
        if (
            verdict.outcome is not Outcome.INPUT_VALIDATION
            or "error" not in exchange.response.payload
        ):
            return None
        error = exchange.response.payload["error"]
        code = error.get("code") if isinstance(error, dict) else None
        version = exchange.version
        severity = self.severity(exchange)
        when = (
            f"protocol {version} requires a tool result with isError: true"
            if severity is Severity.ERROR
            else "from protocol 2025-11-25 it must be a tool result with isError: true"
        )
        message = (
            f"{describe_call(exchange, verdict)}: input validation failure answered with "
            f"JSON-RPC error {code}; {when}"
        )
        return Hit(
            self.finding(exchange, verdict, ctx, message, severity=severity),
            lambda: rewrite_as_tool_error(exchange, verdict, ctx.unit_text, ctx.provenance),
        )
