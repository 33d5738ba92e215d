"""``--output-format json``: one document, described by ``schemas/findings.schema.json``."""

from __future__ import annotations

import json
from collections import Counter
from typing import TextIO

from migrator import __version__
from migrator.reporters import ReportOptions, RunResult

DOCUMENT_VERSION = 1


def document(result: RunResult) -> dict[str, object]:
    """The findings document."""
    findings = result.findings
    return {
        "version": DOCUMENT_VERSION,
        "tool": {"name": "mcp-migrate", "version": __version__},
        "findings": [f.as_dict() for f in findings],
        "summary": {
            "files": len(result.files),
            "messages": result.messages,
            "findings": len(findings),
            "fixable": sum(1 for f in findings if f.fixable is not None),
            "by_code": dict(sorted(Counter(f.code for f in findings).items())),
            "by_severity": dict(sorted(result.by_severity().items())),
        },
    }


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """Write the document, indented, with a final newline."""
    json.dump(document(result), out, indent=2, ensure_ascii=False)
    out.write("\n")
