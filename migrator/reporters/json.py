"""``--output-format json``: one document, described by ``schemas/findings.schema.json``.

The document is written finding by finding rather than built in memory
first: a large transcript can have a hundred thousand findings, and the
output should not cost more memory than the findings themselves.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from migrator import __version__
from migrator.reporters import ReportOptions
from migrator.results import RunResult

DOCUMENT_VERSION = 1


def summary(result: RunResult) -> dict[str, Any]:
    """The document's summary object."""
    tally = result.tally()
    return {
        "files": len(result.files),
        "messages": result.messages,
        "findings": tally.findings,
        "fixable": tally.safe_fixes + tally.unsafe_fixes,
        "by_code": dict(sorted(tally.by_code.items())),
        "by_severity": dict(sorted(tally.by_severity.items())),
    }


def document(result: RunResult) -> dict[str, object]:
    """The findings document as one object (for the Python API; the reporter streams it)."""
    return {
        "version": DOCUMENT_VERSION,
        "tool": {"name": "mcp-transcripts", "version": __version__},
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
    out.write(f'  "tool": {_nested({"name": "mcp-transcripts", "version": __version__}, 1)},\n')
    findings = result.iter_findings()
    first = next(findings, None)
    if first is None:
        out.write('  "findings": [],\n')
    else:
        out.write('  "findings": [\n')
        out.write("    " + _nested(first.as_dict(), 2))
        for finding in findings:
            out.write(",\n    " + _nested(finding.as_dict(), 2))
        out.write("\n  ],\n")
    out.write(f'  "summary": {_nested(summary(result), 1)}\n')
    out.write("}\n")
