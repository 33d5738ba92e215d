"""A `tools/call` whose arguments break the tool's own `inputSchema` was answered with a success result.

The server ran the tool on arguments its schema rejects: it does not validate
its input at all, or validates less than it advertises. Nothing tells the model
that its call was wrong, and the handler ran on data it was never meant to see.

`mcp-transcripts probe` sends such calls on purpose and marks each in the
request's `params._meta["io.github.mcp-transcripts/probe-case"]` (what the case
breaks). The rule judges marked calls only, so `check` on a probe's recording
reports what the probe reported, and everyday traffic (where a lenient server
may coerce a value on purpose) is left to MCP203.

Severity is `error`, and `warning` when the only violation is a property that
`additionalProperties: false` forbids (zod, for one, drops unknown keys
silently instead of refusing them: the handler never sees them).

## Before

The probe's recording: the catalog, then one of its cases.

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"two3"}]}}
```

## After

The server refuses the arguments with a tool result that names the problem.

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Invalid arguments for tool add:\\n- Expected number, received string at arguments.a"}],"isError":true}}
```

## Why

SEP-1303 asks servers to answer invalid arguments with an `isError` result
that names the problem, so the model can correct its call. A server that
accepts them gives the model a wrong answer instead of a way to recover.
"""

from __future__ import annotations

from dataclasses import replace

from migrator.judge.classify import call_shape_problem
from migrator.judge.validation import ToolSchemas
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.provenance import probe_case
from migrator.model.session import Exchange
from migrator.model.tool_results import plain_tool_result
from migrator.model.units import SourceMessage
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""参数违反工具自身 `inputSchema` 的 `tools/call`，得到的是成功结果。

服务器在其 schema 拒绝的参数上运行了工具：它根本不验证输入，或者验证得比它声明的少。没有任何东西告诉模型它的调用错了，而处理程序运行在它本不该看到的数据上。

`mcp-transcripts probe` 故意发出这样的调用，并在请求的 `params._meta["io.github.mcp-transcripts/probe-case"]` 中标记每一个（该用例违反了什么）。本规则只评判有标记的调用，所以对探测录制运行 `check` 报告的正是探测报告的内容，而日常流量（宽松的服务器可能有意转换某个值）交给 MCP203。

严重级别为 `error`；如果唯一的违规是 `additionalProperties: false` 所禁止的属性，则为 `warning` （例如 zod 会悄悄丢弃未知的键，而不是拒绝它们：处理程序根本看不到它们）。

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
    code="MCP501",
    slug="invalid-arguments-accepted",
    summary="a tools/call whose arguments violate the tool's inputSchema was run and answered with a success result",
    default_severity=Severity.ERROR,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="参数违反工具 inputSchema 的 tools/call 被执行，并以成功结果作答",
    why_zh=(
        "SEP-1303 要求服务器以指明问题的 isError 结果回应无效参数，让模型能更正调用。接受无效参数的服务器给了模型一个错误的答案，而不是恢复的途径。"
    ),
)


def _success(response: SourceMessage) -> bool:
    """Whether the response is a result without ``isError: true`` (read typed when it can be)."""
    plain = plain_tool_result(response)
    if plain is not None:
        return not plain.is_error
    result = response.payload.get("result")
    return isinstance(result, dict) and result.get("isError") is not True


@register(INFO)
class InvalidArgumentsAccepted(ValidationRule):
    """MCP501."""

    exchange_methods = frozenset({"tools/call"})
    exchange_quiet_given = frozenset({Fact.NOT_PROBED})
    results_only = True

    def check_exchange(self, exchange: Exchange, ctx: RuleContext) -> list[Finding]:
        request = exchange.request
        if request is None or not _success(exchange.response):
            return []
        payload = request.payload
        if call_shape_problem(payload) or probe_case(payload) is None:
            return []
        name = payload["params"]["name"]
        tool = exchange.session.catalog.tools.get(name)
        if tool is None:
            return []
        checker = (ctx.tool_schemas or ToolSchemas()).get(tool.get("inputSchema"), exchange.version)
        if checker is None:
            return []
        arguments = payload["params"].get("arguments", {})
        problem = checker.problem(arguments)
        if problem is None:
            return []
        dropped_extra = all(
            e.validator == "additionalProperties" for e in checker.errors(arguments)
        )
        more = f" (and {problem.count - 1} more)" if problem.count > 1 else ""
        finding = self.at(
            exchange.response, ctx,
            f"tools/call {display(name)} ran on arguments its inputSchema rejects ({problem.message}{more}) "
            "and answered with a success result; invalid arguments need an isError result",
            pointer="/params/arguments" + problem.pointer, keyword=problem.keyword, tool=name,
            evidence=(f"request at line {request.line}", exchange.session.catalog.describe()),
        )  # fmt: skip
        if dropped_extra:
            # Only a forbidden extra property: most likely dropped unseen before the handler ran.
            finding = replace(finding, severity=Severity.WARNING)
        return [finding]
