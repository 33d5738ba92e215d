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

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""记录中的一行不是有效的 JSON。

文件的其余部分照常读取和检查。`fix` 逐字节原样复制这一行：迁移工具绝不能丢弃它读不懂的证据。

## Before

```text
```

## After

`fix` 让这一行保持原样。

## Limits

格式检测读取前 64 行；文件后面出现的 NUL 字节使所在行成为 MCP301，而不是让整个文件成为输入错误。
"""


INFO = register_info(
    RuleInfo(
        code="MCP301",
        slug="unparseable-line",
        summary="a line that is not valid JSON (reported, passed through unchanged)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        doc_zh=DOC_ZH,
        summary_zh="不是有效 JSON 的行（报告，原样保留）",
        why_zh=(
            "被截断的最后一行（录制器写到一半被终止）、日志噪声和合并冲突都会进入记录；它们应当被看到，而不是悄悄丢失。"
        ),
    )
)
