"""A line of an OTLP JSON trace file is JSON but not an OTLP export request.

The Collector's `file` exporter writes one `ExportTraceServiceRequest` per
line (`{"resourceSpans": [...]}`). A line that is not one (a log line from
another exporter, metrics or logs in the same file, a truncated object that
happens to parse) is reported and skipped; the rest of the file is read.
Lines that are not JSON at all are MCP301.

## Before

A trace file whose second line is a metrics export request (`resourceMetrics`): the Collector's `file` exporter was shared by the traces and the metrics pipelines.

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
{"resourceMetrics":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeMetrics":[{"scope":{"name":"mcp-python-sdk"},"metrics":[{"name":"mcp.server.operation.duration","unit":"s","histogram":{"dataPoints":[{"startTimeUnixNano":"1796325217400000000","timeUnixNano":"1796325217412000000","count":"1","sum":0.012,"attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}}]}],"aggregationTemporality":2}}]}]}]}
```

## After

The trace file holds traces only (one `file` exporter per pipeline, or the line removed).

```json
{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"calculator"}}]},"scopeSpans":[{"scope":{"name":"mcp-python-sdk"},"spans":[{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"tools/call add","kind":"SPAN_KIND_SERVER","startTimeUnixNano":"1796325217400000000","endTimeUnixNano":"1796325217412000000","attributes":[{"key":"mcp.method.name","value":{"stringValue":"tools/call"}},{"key":"gen_ai.tool.name","value":{"stringValue":"add"}},{"key":"jsonrpc.request.id","value":{"stringValue":"4"}}],"status":{}}]}]}]}
```

## Why

Skipping a line quietly would let a CI check pass on a trace it never read.
"""

from __future__ import annotations

from migrator.model.findings import FixSafety, Severity
from migrator.rules.info import RuleInfo, register_info

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""OTLP JSON 追踪文件中的一行是 JSON，却不是 OTLP 导出请求。

Collector 的 `file` 导出器每行写一个 `ExportTraceServiceRequest`（`{"resourceSpans": [...]}`）。不是导出请求的行（另一个导出器的日志行、混在同一文件中的指标或日志、碰巧能解析的截断对象）会被报告并跳过；文件的其余部分照常读取。根本不是 JSON 的行属于 MCP301。

## Before

一个追踪文件，第二行是指标导出请求（`resourceMetrics`）：追踪和指标两条管道共用了 Collector 的 `file` 导出器。

```json
```

## After

追踪文件只包含追踪（每条管道一个 `file` 导出器，或删去那一行）。

```json
```
"""


INFO = register_info(
    RuleInfo(
        code="MCP407",
        slug="not-an-export-request",
        summary="a JSON line of a trace file that is not an OTLP export request (skipped)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        doc_zh=DOC_ZH,
        summary_zh="追踪文件中是 JSON、却不是 OTLP 导出请求的行（已跳过）",
        why_zh=("悄悄跳过一行，会让 CI 检查在从未读过的追踪上通过。"),
        found_in="trace",
    )
)
