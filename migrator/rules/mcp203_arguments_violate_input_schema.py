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

INFO = RuleInfo(
    code="MCP203",
    slug="arguments-violate-input-schema",
    summary="a tools/call whose arguments violate the tool's inputSchema (explains why the server refused)",
    default_severity=Severity.INFO,
    fix=FixSafety.NONE,
    doc=__doc__ or "",
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
