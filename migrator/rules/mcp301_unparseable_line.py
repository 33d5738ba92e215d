"""A line of the transcript is not valid JSON.

The rest of the file is still read and checked. `fix` copies the line through
byte for byte: a migrator must never drop evidence it cannot read.

## Before

```text
{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","te
```

## After

The line is left exactly as it was.

## Why

Truncated last lines (a recorder killed mid-write), log noise and merge
conflicts all end up in transcripts; they should be seen, not silently lost.
"""

from __future__ import annotations

from migrator.findings import FixSafety, Severity
from migrator.rules import RuleInfo, register_info

INFO = register_info(
    RuleInfo(
        code="MCP301",
        slug="unparseable-line",
        summary="a line that is not valid JSON (reported, passed through unchanged)",
        default_severity=Severity.ERROR,
        fix=FixSafety.NONE,
        doc=__doc__ or "",
    )
)
