"""A line of the transcript is not valid JSON.

The rest of the file is still read and checked. `fix` copies the line through
byte for byte: a migrator must never drop evidence it cannot read.

## Before

```text
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{}}}
{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","te
```

## After

`fix` leaves the line exactly as it was.

## Why

Truncated last lines (a recorder killed mid-write), log noise and merge
conflicts all end up in transcripts; they should be seen, not silently lost.

## Limits

Format detection reads the first 64 lines; a NUL byte later in the file makes its
line MCP301 rather than the file an input error.
"""

from __future__ import annotations

from migrator.model.findings import FixSafety, Severity
from migrator.rules.info import RuleInfo, register_info

INFO = register_info(
    RuleInfo(
        code="MCP301",
        slug="unparseable-line",
        summary="a line that is not valid JSON (reported, passed through unchanged)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        summary_zh="不是有效 JSON 的行（报告，原样保留）",
        why_zh=(
            "被截断的最后一行（录制器写到一半被终止）、日志噪声和合并冲突都会进入记录；它们应当被看到，而不是悄悄丢失。"
        ),
    )
)
