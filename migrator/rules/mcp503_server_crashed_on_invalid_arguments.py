"""The server exited while answering a `tools/call` with invalid arguments.

Reported by `mcp-transcripts probe`, which sent the call on purpose: the
finding names the case (the argument, the keyword it violates, the value
sent) and sits at the request in the recording. The probe starts the server
again and goes on with the next case.

A transcript cannot show a crash (the answer is simply missing), so `check`
on the recording does not report this rule.

## Before

The case the probe sent:

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
```

(no answer: the server process exited)

## After

The server answers it with a tool result that names the problem:

```json
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":"two","b":3},"_meta":{"io.github.mcp-transcripts/probe-case":{"keyword":"type","pointer":"/a","case":"`a`: `type` violated"}}}}
{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"Invalid arguments for tool add:\\n- Expected number, received string at arguments.a"}],"isError":true}}
```

## Why

One bad call from a model should cost one `isError` result, not the whole
session and every other tool with it.
"""

from __future__ import annotations

from migrator.model.findings import FixSafety, Severity
from migrator.rules.info import RuleInfo, register_info

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""服务器在答复带有无效参数的 `tools/call` 时退出了。

由 `mcp-transcripts probe` 报告，调用是它故意发出的：这条发现指明用例（参数、它违反的关键字、发送的值），位于录制中的请求处。探测会重新启动服务器，继续下一个用例。

记录无法显示崩溃（回答只是缺失了），所以对录制运行 `check` 不会报告本规则。

## Before

探测发送的用例：

```json
```

（没有回答：服务器进程退出了）

## After

服务器以一个说明问题所在的工具结果答复它：

```json
```
"""


INFO = register_info(
    RuleInfo(
        code="MCP503",
        slug="server-crashed-on-invalid-arguments",
        summary="the server exited while answering a tools/call with invalid arguments (probe)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        doc_zh=DOC_ZH,
        summary_zh="服务器在回应带无效参数的 tools/call 时退出（probe）",
        why_zh=(
            "模型的一次错误调用应当只换来一个 isError 结果，而不是赔上整个会话以及其余所有工具。"
        ),
        found_in="probe",
    )
)
