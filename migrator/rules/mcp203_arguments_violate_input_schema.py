"""A `tools/call` whose arguments break the tool's `inputSchema`.

The catalog from `tools/list` gives the tool's input schema; the call's
arguments are validated against it (in the schema's own dialect, or the
session version's default: draft-07 before 2025-11-25, 2020-12 from then
on). This finding is information: it explains why the server refused the
call, and it is the evidence MCP101 uses.

## Before

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3}}}
```

## After

Nothing to rewrite: the call is the model's mistake, and after the migration
the model learns of it from the `isError` result. A valid call:

```json
{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}}
{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}
```

## Why

Seeing which calls were invalid, and how, shows what the model needs to be
told, and whether the server's answer said it.

## Limits

Calls that `mcp-transcripts probe` sent with invalid arguments on purpose (marked under
`params._meta`) are not reported here: MCP501-MCP504 judge how the server answered them.
Remote `$ref`s in an `inputSchema` are never fetched. A tool absent from the
transcript's catalog has no schema to check against.
"""

from __future__ import annotations

from migrator.judge.classify import call_shape_problem
from migrator.judge.validation import ToolSchemas
from migrator.model.findings import Finding, FixSafety, Severity
from migrator.model.jsontext import display
from migrator.model.provenance import probe_case
from migrator.model.session import Session, request_meta_version
from migrator.model.units import Kind, SourceMessage
from migrator.rules.base import Fact, RuleContext, ValidationRule
from migrator.rules.info import RuleInfo, register

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""参数违反工具 `inputSchema` 的 `tools/call`。

`tools/list` 的目录给出工具的输入 schema；调用的参数按它验证（使用该 schema 自己的方言，或会话版本的默认方言：2025-11-25 之前为 draft-07，之后为 2020-12）。这条发现是说明性的：它解释服务器为何拒绝这次调用，也是 MCP101 所用的证据。

## Before

```json
```

## After

没有要改写的内容：这次调用是模型的错误，迁移之后模型会从 `isError` 结果得知。一次有效的调用：

```json
```

## Limits

`mcp-transcripts probe` 故意以无效参数发出的调用（在 `params._meta` 下有标记）不在这里报告：由 MCP501-MCP504 判断服务器如何答复它们。`inputSchema` 中的远程 `$ref` 从不获取。不在记录目录中的工具没有可供对照的 schema。
"""


INFO = RuleInfo(
    code="MCP203",
    slug="arguments-violate-input-schema",
    summary="a tools/call whose arguments violate the tool's inputSchema (explains why the server refused)",
    default_severity=Severity.INFO,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
    doc_zh=DOC_ZH,
    summary_zh="参数违反工具 inputSchema 的 tools/call（说明服务器为何拒绝）",
    why_zh=("看清哪些调用无效、错在哪里，就知道需要告诉模型什么，以及服务器的回答是否说清楚了。"),
)


@register(INFO)
class ArgumentsViolateInputSchema(ValidationRule):
    """MCP203."""

    kinds = frozenset({Kind.REQUEST})
    methods = frozenset({"tools/call"})
    message_quiet_given = frozenset({Fact.ARGUMENTS_VALID})

    def check_message(
        self, message: SourceMessage, session: Session, ctx: RuleContext
    ) -> list[Finding]:
        payload = message.payload
        if (
            message.kind is not Kind.REQUEST
            or payload["method"] != "tools/call"
            or call_shape_problem(payload)
        ):
            return []
        if probe_case(payload) is not None:
            return []  # `probe` broke these arguments on purpose: MCP501-504 judge the answer
        name = payload["params"]["name"]
        tool = session.catalog.tools.get(name)
        if tool is None:
            return []
        version = request_meta_version(payload) or session.version
        checker = (ctx.tool_schemas or ToolSchemas()).get(tool.get("inputSchema"), version)
        if checker is None:
            return []
        problem = checker.problem(payload["params"].get("arguments", {}))
        if problem is None:
            return []
        more = f" (and {problem.count - 1} more)" if problem.count > 1 else ""
        return [
            self.at(
                message, ctx,
                f"arguments of tools/call {display(name)} violate its inputSchema: {problem.message}{more}",
                pointer="/params/arguments" + problem.pointer, keyword=problem.keyword, tool=name,
                evidence=(session.catalog.describe(),),
            )
        ]  # fmt: skip
