"""``--output-format json``: one document, described by ``schemas/findings.schema.json``.

The document is written finding by finding rather than built in memory
first: a large transcript can have a hundred thousand findings, and the
output should not cost more memory than the findings themselves.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from migrator import __version__
from migrator.reporters import ReportOptions, RunResult

DOCUMENT_VERSION = 1


def summary(result: RunResult) -> dict[str, Any]:
    """The document's summary object."""
    findings = result.findings
    return {
        "files": len(result.files),
        "messages": result.messages,
        "findings": len(findings),
        "fixable": sum(1 for f in findings if f.fixable is not None),
        "by_code": dict(sorted(Counter(f.code for f in findings).items())),
        "by_severity": dict(sorted(result.by_severity().items())),
    }


def document(result: RunResult) -> dict[str, object]:
    """The findings document as one object (for the Python API; the reporter streams it)."""
    return {
        "version": DOCUMENT_VERSION,
        "tool": {"name": "mcp-migrate", "version": __version__},
        "findings": [f.as_dict() for f in result.findings],
        "summary": summary(result),
    }


def _nested(value: Any, depth: int) -> str:
    """``value`` as ``json.dump(..., indent=2)`` writes it ``depth`` levels down."""
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """Write the document, indented as ``json.dump(indent=2)`` would, with a final newline."""
    out.write("{\n")
    out.write(f'  "version": {DOCUMENT_VERSION},\n')
    out.write(f'  "tool": {_nested({"name": "mcp-migrate", "version": __version__}, 1)},\n')
    findings = result.findings
    if not findings:
        out.write('  "findings": [],\n')
    else:
        out.write('  "findings": [\n')
        last = len(findings) - 1
        for index, finding in enumerate(findings):
            out.write("    " + _nested(finding.as_dict(), 2) + (",\n" if index < last else "\n"))
        out.write("  ],\n")
    out.write(f'  "summary": {_nested(summary(result), 1)}\n')
    out.write("}\n")
