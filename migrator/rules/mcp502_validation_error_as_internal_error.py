"""Arguments that break the tool's `inputSchema` were answered with a JSON-RPC error other than `-32602`.

Typically `-32603 Internal error`: the server's validation failure escaped as
an exception, so it reads as a crash of the server rather than a mistake in
the call. Neither the client nor the model learns that the arguments were
wrong. MCP101 says the answer should be a tool result; this rule adds that
the error code hides what happened even by the old rules, where `-32602`
was the code for invalid arguments.

Like MCP501 it judges the calls `mcp-transcripts probe` marked as its cases
(`params._meta["io.github.mcp-transcripts/probe-case"]`): there the arguments
are known to be invalid and nothing else can have caused the error.

## Before

The probe's recording: the catalog, then one of its cases.

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Internal error"}}
```

## After

The server refuses the arguments with a tool result that names the problem.

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"Invalid arguments for tool add:\\n- Expected number, received string at arguments.a"}],"isError":true}}
```

## Why

An internal error tells a client to give up or retry the same call; an
`isError` result that names the argument tells the model what to change.
"""

from __future__ import annotations

from migrator.judge.classify import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    call_shape_problem,
)
from migrator.judge.validation import ToolSchemas
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.provenance import probe_case
from migrator.model.session import Exchange
from migrator.model.units import Kind
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""违反工具 `inputSchema` 的参数，得到的是 `-32602` 以外的 JSON-RPC 错误。

通常是 `-32603 Internal error`：服务器的验证失败以异常的形式漏了出来，于是读起来像服务器崩溃，而不是调用中的错误。客户端和模型都无从得知参数有误。MCP101 说回答应当是工具结果；本规则补充一点：即使按旧规则（当时 `-32602` 才是表示参数无效的错误码），这个错误码也掩盖了实际发生的事。

与 MCP501 一样，它评判 `mcp-transcripts probe` 标记为其用例的调用（`params._meta["io.github.mcp-transcripts/probe-case"]`）：这些调用的参数已知无效，错误不可能有其他原因。

## Before

探测的录制：先是目录，然后是其中一个用例。

```json
```

## After

服务器以一个说明问题所在的工具结果拒绝这些参数。

```json
```
"""


INFO = RuleInfo(
    code="MCP502",
    slug="validation-error-as-internal-error",
    summary="arguments that violate the inputSchema answered with a JSON-RPC error other than -32602",
    default_severity=Severity.WARNING,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="违反 inputSchema 的参数以 -32602 以外的 JSON-RPC 错误作答",
    why_zh=(
        "内部错误让客户端放弃，或原样重试同一个调用；指明参数的 isError 结果则告诉模型该改什么。"
    ),
)

_NOT_ABOUT_ARGUMENTS = frozenset({INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND})


@register(INFO)
class ValidationErrorAsInternalError(ValidationRule):
    """MCP502."""

    exchange_methods = frozenset({"tools/call"})
    exchange_quiet_given = frozenset({Fact.NOT_PROBED})

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        if exchange.response.kind is Kind.RESULT:  # no error member: known without decoding it
            return []
        error = exchange.response.payload.get("error")
        request = exchange.request
        if not isinstance(error, dict) or request is None:
            return []
        code = error.get("code")
        if (
            code in _NOT_ABOUT_ARGUMENTS
            or call_shape_problem(request.payload)
            or probe_case(request.payload) is None
        ):
            return []
        name = request.payload["params"]["name"]
        tool = exchange.session.catalog.tools.get(name)
        if tool is None:
            return []
        checker = (ctx.tool_schemas or ToolSchemas()).get(tool.get("inputSchema"), exchange.version)
        problem = (
            checker.problem(request.payload["params"].get("arguments", {})) if checker else None
        )
        if problem is None:
            return []
        return [
            self.at(
                exchange.response, ctx,
                f"tools/call {display(name)}: arguments that violate its inputSchema ({problem.message}) were "
                f"answered with JSON-RPC error {code}, which hides the validation failure",
                pointer="/params/arguments" + problem.pointer, keyword=problem.keyword, tool=name,
                evidence=(f"request at line {request.line}", exchange.session.catalog.describe()),
            )
        ]  # fmt: skip
