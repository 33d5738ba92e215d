"""``--output-format sarif``: SARIF 2.1.0, for GitHub code scanning and other viewers.

One run: ``tool.driver`` describes mcp-transcripts and every rule (code, slug,
summary, its documentation as markdown, default level); each finding is a
result with its rule, level, message, location (a path relative to the current
folder, which is the checkout in CI) and a ``partialFingerprints`` entry that
survives lines moving. Files that could not be read are tool execution
notifications of the run's invocation. A finding on an OpenTelemetry span
also has a logical location naming its trace and span
(``trace/<trace_id>/span/<span_id>``, kind ``span``).

Results carry no ``fixes``: the replacement text of a fix stays inside the
engine, so the report says which findings are fixable (``properties.fixable``)
and ``mcp-transcripts fix`` applies them.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from migrator import __version__
from migrator.engine.results import RunResult
from migrator.errors import MigratorError
from migrator.model.findings import Finding, Severity
from migrator.reporters import ReportOptions
from migrator.reporters.json import indented
from migrator.reporters.support import (
    PROJECT_URL,
    display_path,
    fingerprinted,
    first_paragraph,
    rule_url,
)

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
FINGERPRINT = "mcpMigrate/v1"


def artifact_location(path: str) -> dict[str, str]:
    """A relative ``uri`` against ``%SRCROOT%``, or a ``file:`` URI for a path outside it."""
    return dict(_artifact_location(display_path(path)))


@functools.lru_cache(maxsize=4096)
def _artifact_location(shown: str) -> dict[str, str]:
    """The location of a displayed path, remembered (a file's findings share it; copied out)."""
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    return {"uri": quote(shown), "uriBaseId": "%SRCROOT%"}


def rules() -> list[dict[str, Any]]:
    """The reporting descriptor of every rule, sorted by code."""
    from migrator.rules.registry import all_rules

    return [
        {
            "id": info.code,
            "name": info.slug,
            "shortDescription": {"text": info.summary},
            "fullDescription": {
                "text": first_paragraph(info.doc),
                "markdown": first_paragraph(info.doc),
            },
            "help": {"text": info.doc.strip(), "markdown": info.doc.strip()},
            "helpUri": rule_url(info.code),
            "defaultConfiguration": {"level": LEVEL[info.default_severity]},
            "properties": {"fix": info.fix.value, "tags": ["mcp", "sep-1303"]},
        }
        for info in all_rules()
    ]


def span_location(trace_id: str | None, span_id: str) -> dict[str, str]:
    """A finding on an OpenTelemetry span as a SARIF logical location: ``trace/<trace_id>/span/<span_id>``."""
    return {
        "name": span_id,
        "fullyQualifiedName": f"trace/{trace_id or '?'}/span/{span_id}",
        "kind": "span",
    }


def _notification(error: MigratorError) -> dict[str, Any]:
    notification: dict[str, Any] = {"level": "error", "message": {"text": error.message}}
    if error.path:
        location: dict[str, Any] = {"artifactLocation": artifact_location(error.path)}
        if error.line:
            location["region"] = {"startLine": error.line}
        notification["locations"] = [{"physicalLocation": location}]
    return notification


def sarif_result(finding: Finding, fingerprint: str, rule_index: int) -> dict[str, Any]:
    """One finding as a SARIF result."""
    properties: dict[str, Any] = {"fixable": finding.fixable.value if finding.fixable else None}
    if finding.request_id is not None:
        properties["requestId"] = finding.request_id
    if finding.tool is not None:
        properties["tool"] = finding.tool
    if finding.evidence:
        properties["evidence"] = list(finding.evidence)
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": artifact_location(finding.path),
            "region": {"startLine": finding.line, "startColumn": finding.column},
        }
    }
    if finding.span_id is not None:
        location["logicalLocations"] = [span_location(finding.trace_id, finding.span_id)]
        properties["traceId"], properties["spanId"] = finding.trace_id, finding.span_id
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT: fingerprint},
        "properties": properties,
    }


def _log(
    result: RunResult, descriptors: list[dict[str, Any]], results: list[Any]
) -> dict[str, Any]:
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcp-transcripts",
                        "version": __version__,
                        "informationUri": PROJECT_URL,
                        "rules": descriptors,
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not result.errors,
                        "toolExecutionNotifications": [_notification(e) for e in result.errors],
                    }
                ],
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def document(result: RunResult) -> dict[str, Any]:
    """The SARIF log as one object (for the Python API; the reporter streams it)."""
    descriptors = rules()
    index = {rule["id"]: i for i, rule in enumerate(descriptors)}
    results = [
        sarif_result(finding, fingerprint, index[finding.code])
        for finding, fingerprint in fingerprinted(result)
    ]
    return _log(result, descriptors, results)


# Where the results go in the indented log: everything else in it is small and known
# before the first finding, so the log is written around this placeholder's place.
_PLACEHOLDER = "mcp-transcripts: the results go here"
_RESULT_DEPTH = 4  # log > runs > run > results > result


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """Write the SARIF log as ``json.dump(indent=2)`` would, result by result, with a final newline.

    A large transcript can have a hundred thousand findings: they are written
    as they come instead of being built into one document first.
    """
    descriptors = rules()
    index = {rule["id"]: i for i, rule in enumerate(descriptors)}
    results = fingerprinted(result)
    first = next(results, None)
    if first is None:
        json.dump(_log(result, descriptors, []), out, indent=2, ensure_ascii=False)
        out.write("\n")
        return
    text = json.dumps(_log(result, descriptors, [_PLACEHOLDER]), indent=2, ensure_ascii=False)
    before, after = text.split(json.dumps(_PLACEHOLDER), 1)
    between = ",\n" + "  " * _RESULT_DEPTH
    out.write(before)
    out.write(indented(sarif_result(first[0], first[1], index[first[0].code]), _RESULT_DEPTH))
    for finding, fingerprint in results:
        out.write(between)
        out.write(indented(sarif_result(finding, fingerprint, index[finding.code]), _RESULT_DEPTH))
    out.write(after)
    out.write("\n")
