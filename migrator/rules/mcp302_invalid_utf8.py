r"""A line of the transcript is not valid UTF-8.

JSON text exchanged between systems must be UTF-8. The line is reported with
the column of the first bad byte and `fix` copies it through unchanged.

## Before

The byte `0xE9` alone, as Latin-1 writes "é" (shown here as `\xe9`):

```text
{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"caf\xe9"}}
```

## After

`fix` leaves the line exactly as it was.

## Why

Guessing an encoding could change the bytes of evidence; the migrator reports
and keeps them instead.

## Limits

Reported for line formats (wire and envelope JSONL) and Claude Desktop logs only. In
JSON documents, HAR and YAML, invalid bytes pass through unreported.
"""

from __future__ import annotations

from migrator.model.findings import FixSafety, Severity
from migrator.rules.info import RuleInfo, register_info

INFO = register_info(
    RuleInfo(
        code="MCP302",
        slug="invalid-utf8",
        summary="a line that is not valid UTF-8 (reported, passed through unchanged)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        summary_zh="不是有效 UTF-8 的行（报告，原样保留）",
        why_zh=("猜测编码可能改变证据的字节；迁移工具选择报告并保留它们。"),
    )
)
