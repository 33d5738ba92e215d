"""A line of an OTLP JSON trace file is JSON but not an OTLP export request.

The Collector's `file` exporter writes one `ExportTraceServiceRequest` per
line (`{"resourceSpans": [...]}`). A line that is not one (a log line from
another exporter, metrics or logs in the same file, a truncated object that
happens to parse) is reported and skipped; the rest of the file is read.
Lines that are not JSON at all are MCP301.

## Before

```text
{"resourceMetrics": [...]}
```

## After

Traces and metrics written to separate files (one `file` exporter per
pipeline), or the line removed.

## Why

Skipping a line quietly would let a CI check pass on a trace it never read.
"""

from __future__ import annotations

from migrator.findings import FixSafety, Severity
from migrator.rules import RuleInfo, register_info

INFO = register_info(
    RuleInfo(
        code="MCP407",
        slug="not-an-export-request",
        summary="a JSON line of a trace file that is not an OTLP export request (skipped)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
    )
)
