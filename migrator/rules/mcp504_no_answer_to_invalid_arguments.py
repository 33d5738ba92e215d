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

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""服务器没有在探测的 `--timeout` 之内答复带有无效参数的 `tools/call`。

由 `mcp-transcripts probe` 报告。会做验证的服务器会立即答复无效参数；没有回答通常意味着处理程序在这些参数上运行并卡住了，或者验证失败被吞掉、请求被遗忘了。

记录本身无法显示缺失的回答，所以对录制运行 `check` 不会报告本规则。

## Before

探测发送的用例：

```json
```

（在超时时间内没有回答）

## After

服务器以一个说明问题所在的工具结果答复它：

```json
```
"""


INFO = register_info(
    RuleInfo(
        code="MCP504",
        slug="no-answer-to-invalid-arguments",
        summary="no answer within --timeout to a tools/call with invalid arguments (probe)",
        default_severity=Severity.WARNING,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        doc_zh=DOC_ZH,
        summary_zh="在 --timeout 内没有回应带无效参数的 tools/call（probe）",
        why_zh=("客户端一直等到自己的超时，模型什么也得不到；isError 结果会告诉它该改什么。"),
        found_in="probe",
    )
)
