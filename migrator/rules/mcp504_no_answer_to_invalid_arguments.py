"""The server did not answer a `tools/call` with invalid arguments within the probe's `--timeout`.

Reported by `mcp-transcripts probe`. A server that validates answers invalid
arguments at once; no answer usually means the handler ran on them and hangs,
or the validation failure was swallowed and the request forgotten.

A transcript cannot show a missing answer as such, so `check` on the
recording does not report this rule.

## Before

The case the probe sent:

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
```

(no answer within the timeout)

## After

The server answers it with a tool result that names the problem:

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Invalid arguments for tool add:\\n- Expected number, received string at arguments.a"}],"isError":true}}
```

## Why

The client waits until its own timeout and the model learns nothing; an
`isError` result tells it what to change.
"""

from __future__ import annotations

from migrator.model.findings import FixSafety, Severity
from migrator.rules.info import RuleInfo, register_info

INFO = register_info(
    RuleInfo(
        code="MCP504",
        slug="no-answer-to-invalid-arguments",
        summary="no answer within --timeout to a tools/call with invalid arguments (probe)",
        default_severity=Severity.WARNING,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        summary_zh="在 --timeout 内没有回应带无效参数的 tools/call（probe）",
        why_zh=("客户端一直等到自己的超时，模型什么也得不到；isError 结果会告诉它该改什么。"),
        found_in="probe",
    )
)
