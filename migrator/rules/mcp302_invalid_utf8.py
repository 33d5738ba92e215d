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

# The docstring in Chinese (RuleInfo.doc_zh): its empty code blocks stand for the examples.
DOC_ZH = r"""记录中的一行不是有效的 UTF-8。

系统之间交换的 JSON 文本必须是 UTF-8。报告这一行时给出第一个错误字节所在的列，`fix` 原样复制它。

## Before

单独一个字节 `0xE9`，即 Latin-1 写出的 "é"（这里显示为 `\xe9`）：

```text
```

## After

`fix` 让这一行保持原样。

## Limits

只对按行的格式（线路格式和信封格式的 JSONL）和 Claude Desktop 日志报告。在 JSON 文档、HAR 和 YAML 中，无效字节会原样通过，不被报告。
"""


INFO = register_info(
    RuleInfo(
        code="MCP302",
        slug="invalid-utf8",
        summary="a line that is not valid UTF-8 (reported, passed through unchanged)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
        doc_zh=DOC_ZH,
        summary_zh="不是有效 UTF-8 的行（报告，原样保留）",
        why_zh=("猜测编码可能改变证据的字节；迁移工具选择报告并保留它们。"),
    )
)
