"""``--output-format json``: one document, described by ``schemas/findings.schema.json``.

The document is written finding by finding rather than built in memory
first: a large transcript can have a hundred thousand findings, and the
output should not cost more memory than the findings themselves.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

import orjson

from migrator import __version__
from migrator.engine.results import RunResult
from migrator.reporters import ReportOptions

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


_PLAIN = frozenset({str, int, bool, type(None)})


def _orjson_writes_as_json(value: Any) -> bool:
    """Whether orjson's indented text of ``value`` is ``json.dumps``'s, byte for byte.

    It is for strings, integers, booleans and null. Floats are where the two
    differ (NaN, infinities), so a value holding one goes the standard way; a
    finding is a flat object with at most a list of strings in it, so looking
    one level down is enough to route it.
    """
    if type(value) is not dict:
        return False
    for member in value.values():
        kind = type(member)
        if kind is list:
            if not all(type(item) in _PLAIN for item in member):
                return False
        elif kind not in _PLAIN:
            return False
    return True


def _nested(value: Any, depth: int) -> str:
    """``value`` as ``json.dump(..., indent=2)`` writes it ``depth`` levels down."""
    text = None
    if _orjson_writes_as_json(value):  # every finding: most of a large report
        try:
            text = orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard way words it
            text = None
    if text is None:
        text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * depth)


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
