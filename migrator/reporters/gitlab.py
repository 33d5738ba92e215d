"""``--output-format gitlab``: a GitLab Code Quality report (a JSON array of issues).

Each issue has ``description``, ``check_name`` (the rule code), a stable
``fingerprint``, ``severity`` and ``location.path`` / ``location.lines.begin``,
plus the Code Climate fields ``type`` and ``categories``. Severities map as
ESLint's Code Climate formatter does: error -> major, warning -> minor,
info -> info. Save it as the ``codequality`` report artifact of a job.
"""

from __future__ import annotations

from typing import Any, TextIO

from migrator.engine.results import RunResult
from migrator.model.findings import Finding, Severity
from migrator.reporters import ReportOptions
from migrator.reporters.json import indented
from migrator.reporters.support import display_path, fingerprinted

SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def issue(finding: Finding, fingerprint: str) -> dict[str, Any]:
    """One finding as a Code Quality issue."""
    return {
        "type": "issue",
        "check_name": finding.code,
        "description": f"{finding.code} {finding.slug}: {finding.message}",
        "categories": ["Compatibility"],
        "fingerprint": fingerprint,
        "severity": SEVERITY[finding.severity],
        "location": {"path": display_path(finding.path), "lines": {"begin": finding.line}},
    }


def issues(result: RunResult) -> list[dict[str, Any]]:
    """The Code Quality issues, one per finding, sorted (for the Python API; the reporter streams them)."""
    return [issue(finding, fingerprint) for finding, fingerprint in fingerprinted(result)]


def report(result: RunResult, out: TextIO, options: ReportOptions) -> None:
    """Write the issues as an indented JSON array, as ``json.dump(indent=2)`` would, issue by issue."""
    separator = "[\n  "
    for finding, fingerprint in fingerprinted(result):
        out.write(separator + indented(issue(finding, fingerprint), 1))
        separator = ",\n  "
    out.write("[]\n" if separator.startswith("[") else "\n]\n")
